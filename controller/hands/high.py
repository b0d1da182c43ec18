"""High poker hands of 5324.42(b)(2) and 5324.37(b)(2), best five of 5, 6 or 7 cards.

A value is the class of the best five cards: 0 (7-5-4-3-2 unsuited, the worst high
hand) to 7461 (a royal flush), one number per class of 5324.42(b)(3): hands of equal
value tie, a higher value wins. Ranks run ace high (5324.42(b)(1)); A-2-3-4-5 is the
lowest straight and no other wrap exists (5324.37(b)(1), 5324.42(b)(2)(vi)).

`value` is the hot path (simulations, showdowns of many seats): it adds one int per
card (see `_tables`), looks the rank multiset up in a dict, and only when five cards
share a suit looks a 13-bit rank mask up instead. With 7 cards, a flush excludes four
of a kind and a full house, so the flush mask alone decides such a hand.
The tables for 6 and 7 cards are built on their first use (~0.1 s), so a process that
only settles five-card hands (Caribbean stud) starts fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bisect import bisect_right
from itertools import combinations

from controller.cards import Card
from controller.hands import HandError, HandValue, check_cards, fast_path_error
from controller.hands._tables import (
    BASE, CATEGORY_NAMES, FLUSH_BITS, FLUSH_SUIT, KEY_OF_CARD, RANK_BITS, RANK_UNIT, WHEEL,
    classes, grow, grow_masks,
)

# Spec names of the categories, worst first (5324.42(b)(2)(i)-(ix), 5324.37(b)(2)).
ROYAL_FLUSH_NAME = "royal-flush"
NAMES = (ROYAL_FLUSH_NAME,) + CATEGORY_NAMES[::-1]  # best first, as the regulation lists them


def straight_top(ranks: tuple[int, ...]) -> int | None:
    """The top rank of a straight of five distinct ranks (descending), 3 for A-2-3-4-5; else None."""
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    if ranks == WHEEL:
        return 3
    return None


def _build_five() -> tuple[dict[int, int], list[int], list[int]]:
    """Number every five-card class in the order of 5324.42(b)(2)-(3), ace high, wheel lowest straight."""
    by_rank: dict[int, int] = {}
    by_mask = [-1] * (1 << 13)
    starts = [-1] * 9
    units = RANK_UNIT
    for value, (category, is_flush, ranks) in enumerate(classes(straights=True, wheel=True, flushes=True)):
        if starts[category] < 0:
            starts[category] = value
        if is_flush:
            by_mask[(1 << ranks[0]) | (1 << ranks[1]) | (1 << ranks[2]) | (1 << ranks[3]) | (1 << ranks[4])] = value
        else:
            by_rank[units[ranks[0]] + units[ranks[1]] + units[ranks[2]] + units[ranks[3]] + units[ranks[4]]] = value
    return by_rank, by_mask, starts


_RANK, _FLUSH_BY_MASK, _STARTS = _build_five()
CLASSES = len(_RANK) + sum(1 for v in _FLUSH_BY_MASK if v >= 0)  # 7462
ROYAL_FLUSH = CLASSES - 1
_FIVE_KEYS = list(_RANK)
_grown: dict[int, list[int]] = {5: _FIVE_KEYS}


def _grow_to(size: int) -> None:
    """Add the 6- (and 7-) card rank multisets to the lookup table, once."""
    if 6 not in _grown:
        grow_masks(_FLUSH_BY_MASK)
    for n in range(6, size + 1):
        if n not in _grown:
            fresh = grow(_RANK, _grown[n - 1])
            _RANK.update(fresh)
            _grown[n] = list(fresh)


def value(cards: Sequence[int]) -> int:
    """The value of the best five of 5-7 distinct cards; higher wins, equal ties.

    The hot path: no `HandValue`, no checks beyond what the lookups need. Cards must
    be distinct (`evaluate` checks that; a card given twice here is not detected).
    """
    k = BASE
    try:
        for c in cards:
            k += KEY_OF_CARD[c]
    except (KeyError, TypeError):
        raise fast_path_error(cards, (5, 6, 7), "high hand") from None
    if k & FLUSH_BITS:
        s = FLUSH_SUIT[k & FLUSH_BITS]
        m = 0
        for c in cards:
            if c & 3 == s:
                m |= 1 << (c >> 2)
        v = _FLUSH_BY_MASK[m]
        if v < 0 or len(cards) > 7:  # 6-7 suited before the tables grew, or not a hand
            return _missing(cards)
        return v
    try:
        return _RANK[k & RANK_BITS]
    except KeyError:
        return _missing(cards)


def values(hands: Iterable[Sequence[int]]) -> list[int]:
    """`value` of many hands in one call (simulations): the per-call cost is paid once.

    Same results as `[value(h) for h in hands]`; the first bad hand raises as `value` would.
    """
    if not isinstance(hands, (list, tuple)):
        hands = list(hands)
    out: list[int] = []
    append = out.append
    key_of, get = KEY_OF_CARD, _RANK.get
    base, flush_bits, rank_bits = BASE, FLUSH_BITS, RANK_BITS
    try:
        for cards in hands:
            k = base
            for c in cards:
                k += key_of[c]
            if k & flush_bits:
                append(value(cards))
            else:
                v = get(k & rank_bits)
                append(value(cards) if v is None else v)
    except (KeyError, TypeError):
        for i, cards in enumerate(hands):
            try:
                value(cards)
            except HandError as exc:
                raise HandError(f"hand [{i}]: {exc}") from None
        raise
    return out


def _missing(cards: Sequence[int]) -> int:
    cs = check_cards(cards, (5, 6, 7), "high hand")
    if len(cs) in _grown:
        raise HandError(f"high hand: no value for {' '.join(map(str, cs))}")  # cannot happen
    _grow_to(len(cs))
    return value(cs)


def value5(cards: Sequence[int]) -> int:
    """The value of exactly five distinct cards (used by Omaha and best-five search)."""
    k = BASE
    for c in cards:
        k += KEY_OF_CARD[c]
    if k & FLUSH_BITS:
        m = 0
        for c in cards:
            m |= 1 << (c >> 2)
        return _FLUSH_BY_MASK[m]
    return _RANK[k & RANK_BITS]


def category_index(v: int) -> int:
    """0 (high card) .. 8 (straight flush) for a value."""
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < CLASSES:
        raise HandError(f"{v!r} is not a high-hand value (0..{CLASSES - 1})")
    return bisect_right(_STARTS, v) - 1


def category(v: int) -> str:
    """The spec's name of the category of a value: "royal-flush" .. "high-card"."""
    if v == ROYAL_FLUSH:
        return ROYAL_FLUSH_NAME
    return CATEGORY_NAMES[category_index(v)]


def arrange(five: tuple[Card, ...]) -> tuple[Card, ...]:
    """The five in reading order: biggest group first, higher rank first; a wheel ends with its ace."""
    counts: dict[int, int] = {}
    for c in five:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    out = sorted(five, key=lambda c: (counts[c >> 2], c >> 2, c & 3), reverse=True)
    if len(counts) == 5 and tuple(c >> 2 for c in out) == WHEEL:
        out = out[1:] + out[:1]
    return tuple(out)


def evaluate(cards: object) -> HandValue:
    """The best five of 5, 6 or 7 distinct cards, with its value and category name.

    When several fives share the best value (e.g. a board that plays), any one is given.
    """
    cs = check_cards(cards, (5, 6, 7), "high hand")
    v = value(cs)
    five = cs
    if len(cs) > 5:
        for five in combinations(cs, 5):
            if value5(five) == v:
                break
    return HandValue(v, category(v), arrange(five))


__all__ = [
    "CATEGORY_NAMES", "CLASSES", "NAMES", "ROYAL_FLUSH", "arrange", "category", "category_index",
    "evaluate", "straight_top", "value", "value5", "values",
]
