"""Omaha hands: exactly two of the four hole cards and three of the community cards (5324.42(j)(6)).

`high` ranks the high hand as 5324.42(b)(2); `low8` the eight-or-better low of the
split game (5324.42(j)(6)(ii), (j)(7)), which may use a different two and three than
the high hand and may use the ace both ways ((j)(8)). The board may hold 3 to 5 cards,
so that a hand can be shown before the river; the showdown uses all five.

Each pair of hole cards and each triple of board cards is reduced to its key sum once;
a five-card hand is then one addition and one lookup (60 of them with a full board).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from itertools import combinations

from controller.cards import Card
from controller.hands import HandError, HandValue, check_cards, fast_path_error, low
from controller.hands import high as _high
from controller.hands._tables import BASE, FLUSH_BITS, KEY_OF_CARD, RANK_BITS, RANK_UNIT

HOLE_CARDS = 4  # 5324.42(j)(4)
BOARD_CARDS = (3, 4, 5)

_RANK5 = _high._RANK  # five-card keys only ever meet five-card entries
_FLUSH5 = {  # rank key of five distinct ranks -> value of those five suited
    sum(RANK_UNIT[r] for r in range(13) if m >> r & 1): v
    for m, v in enumerate(_high._FLUSH_BY_MASK) if v >= 0 and m.bit_count() == 5
}


def _check(hole: object, board: object) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    h = check_cards(hole, (HOLE_CARDS,), "Omaha hole cards")
    b = check_cards(board, BOARD_CARDS, "Omaha board")
    both = set(h) & set(b)
    if both:
        raise HandError(f"Omaha hand: {' '.join(map(str, sorted(both)))} both in the hole and on the board")
    return h, b


def high_value(hole: Sequence[int], board: Sequence[int]) -> int:
    """The value (as `high.value`) of the best high hand of two hole and three board cards; unchecked."""
    keys = KEY_OF_CARD
    try:
        pairs = [BASE + keys[a] + keys[b] for a, b in combinations(hole, 2)]
        triples = [keys[a] + keys[b] + keys[c] for a, b, c in combinations(board, 3)]
    except (KeyError, TypeError):
        _check(hole, board)
        raise fast_path_error(list(hole) + list(board), (len(hole) + len(board),), "Omaha hand") from None
    rank5, flush5 = _RANK5, _FLUSH5
    best = -1
    for p in pairs:
        for t in triples:
            k = p + t
            v = flush5[k & RANK_BITS] if k & FLUSH_BITS else rank5[k & RANK_BITS]
            if v > best:
                best = v
    return best


def high(hole: object, board: object) -> HandValue:
    """The best Omaha high hand (5324.42(j)(6)(i)): exactly two hole cards and three board cards."""
    h, b = _check(hole, board)
    best, five = -1, cast(tuple[Card, ...], ())
    for pair in combinations(h, 2):
        for triple in combinations(b, 3):
            v = _high.value5(pair + triple)
            if v > best:
                best, five = v, pair + triple
    return HandValue(best, _high.category(best), _high.arrange(five))


def low8_value(hole: Sequence[int], board: Sequence[int]) -> int:
    """The A-5 value of the best eight-or-better low of two hole and three board cards, -1 if none."""
    bits = low.LOW8_BIT
    try:
        pairs = {bits[a] | bits[b] for a, b in combinations(hole, 2) if bits[a] and bits[b] and bits[a] != bits[b]}
        triples = {
            bits[a] | bits[b] | bits[c] for a, b, c in combinations(board, 3)
            if bits[a] and bits[b] and bits[c] and (bits[a] | bits[b] | bits[c]).bit_count() == 3
        }
    except (KeyError, TypeError):
        _check(hole, board)
        raise fast_path_error(list(hole) + list(board), (len(hole) + len(board),), "Omaha hand") from None
    table = low.LOW8
    best = -1
    for p in pairs:
        for t in triples:
            if not p & t:
                v = table[p | t]
                if v > best:
                    best = v
    return best


def low8(hole: object, board: object) -> HandValue | None:
    """The best eight-or-better low (5324.42(j)(6)(ii), (j)(7)) of two hole and three board cards, or None."""
    h, b = _check(hole, board)
    best: HandValue | None = None
    for pair in combinations(h, 2):
        for triple in combinations(b, 3):
            found = low.eight_or_better(pair + triple)
            if found is not None and (best is None or found.value > best.value):
                best = found
    return best


__all__ = ["BOARD_CARDS", "HOLE_CARDS", "high", "high_value", "low8", "low8_value"]
