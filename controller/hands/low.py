"""Low poker hands (5324.42(b)(4)-(5)): A-5 low, deuce-to-seven low, and eight or better.

A low hand ranks as the inverse of the high ranking (5324.42(b)(5)), but every value
here is still "higher is better" so that a winner is always the largest value:

- `a5`: the A-5 low of all low poker but triple draw: the ace is the lowest card,
  straights and flushes are ignored, pairs count against. 5-4-3-2-A is the best.
  6,175 classes (every multiset of five ranks).
- `deuce_seven`: triple draw low ball deuce to seven: the ace is always high (the worst
  card), straights and flushes count against and A-2-3-4-5 is no straight (it is ace
  high). 7-5-4-3-2 unsuited is the best. 7,462 classes, exactly five cards.
- `eight_or_better`: the A-5 low that qualifies for the low half of a split pot: five
  unpaired cards of 8 or lower, ace low (5324.42(h)(10), (j)(7)); None if none. Its
  values are A-5 values, so they compare with `a5` too. 56 classes.

A low hand's `name` is its ranks in the order they are compared, worst card first,
joined by "-" ("8-6-4-2-A", "7-5-4-3-2", "T-9-7-4-3"), followed by the category when
it is not a plain unpaired hand: "9-9-K-4-A pair", "8-5-4-3-2 flush", "6-5-4-3-2 straight".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from itertools import combinations

from controller.cards import CARDS, RANKS, Card
from controller.hands import HandError, HandValue, check_cards, fast_path_error
from controller.hands._tables import (
    BASE, KEY_OF_CARD, RANK_KEY_OF_CARD, CATEGORY_NAMES, FLUSH_BITS, HIGH_CARD, RANK_BITS, RANK_UNIT,
    classes, grow,
)

ACE = 12
# A-5 order of ranks, worst first is king; position 0 (best) is the ace (5324.42(b)(4)).
_A5_RANK = (12,) + tuple(range(12))  # position -> rank
_A5_POS = {r: p for p, r in enumerate(_A5_RANK)}  # rank -> position


def _number(entries: Sequence[tuple[int, bool, tuple[int, ...]]], rank_of: Sequence[int]) -> tuple[dict[int, int], list[int], bytearray]:
    """Values for classes listed worst-high first: the best low (lowest high) gets the top value."""
    by_rank: dict[int, int] = {}
    by_mask = [-1] * (1 << 13)
    categories = bytearray(len(entries))
    top = len(entries) - 1
    unit = [RANK_UNIT[r] for r in rank_of]  # by position
    bit = [1 << r for r in rank_of]
    v = top
    for category, is_flush, (a, b, c, d, e) in entries:
        categories[v] = category
        if is_flush:
            by_mask[bit[a] | bit[b] | bit[c] | bit[d] | bit[e]] = v
        else:
            by_rank[unit[a] + unit[b] + unit[c] + unit[d] + unit[e]] = v
        v -= 1
    return by_rank, by_mask, categories


_A5, _, _A5_CATEGORY = _number(list(classes(straights=False, wheel=False, flushes=False)), _A5_RANK)
A5_CLASSES = len(_A5)  # 6175
_a5_grown: dict[int, list[int]] = {5: list(_A5)}

_D7, _D7_FLUSH, _D7_CATEGORY = _number(list(classes(straights=True, wheel=False, flushes=True)), range(13))
DEUCE_SEVEN_CLASSES = len(_D7_CATEGORY)  # 7462


# --- A-5 ---------------------------------------------------------------------------------

def a5_value(cards: Sequence[int]) -> int:
    """The A-5 low value of the best five of 5-7 distinct cards (hot path, unchecked)."""
    k = 0
    try:
        for c in cards:
            k += RANK_KEY_OF_CARD[c]
    except (KeyError, TypeError):
        raise fast_path_error(cards, (5, 6, 7), "A-5 low hand") from None
    try:
        return _A5[k]
    except KeyError:
        return _a5_missing(cards)


def _a5_missing(cards: Sequence[int]) -> int:
    cs = check_cards(cards, (5, 6, 7), "A-5 low hand")
    if len(cs) in _a5_grown:
        raise HandError(f"A-5 low hand: no value for {' '.join(map(str, cs))}")  # cannot happen
    for n in range(6, len(cs) + 1):
        if n not in _a5_grown:
            fresh = grow(_A5, _a5_grown[n - 1])
            _A5.update(fresh)
            _a5_grown[n] = list(fresh)
    return a5_value(cs)


def _best_five(cs: tuple[Card, ...], v: int, value5: Callable[[tuple[Card, ...]], int]) -> tuple[Card, ...]:
    if len(cs) == 5:
        return cs
    for five in combinations(cs, 5):
        if value5(five) == v:
            return five
    raise AssertionError("no five reach the best value")  # pragma: no cover


def _reading(five: tuple[Card, ...], position: Mapping[int, int]) -> tuple[Card, ...]:
    """Worst first: the biggest group, then the worst rank of the game's order."""
    counts: dict[int, int] = {}
    for c in five:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    return tuple(sorted(five, key=lambda c: (counts[c >> 2], position[c >> 2], c & 3), reverse=True))


def _name(five: tuple[Card, ...], category: int) -> str:
    text = "-".join(RANKS[c >> 2] for c in five)
    return text if category == HIGH_CARD else f"{text} {CATEGORY_NAMES[category]}"


def a5(cards: object) -> HandValue:
    """The best A-5 low of 5, 6 or 7 cards (5324.42(b)(4)-(5)): straights and flushes ignored."""
    cs = check_cards(cards, (5, 6, 7), "A-5 low hand")
    v = a5_value(cs)
    five = _reading(_best_five(cs, v, a5_value), _A5_POS)
    return HandValue(v, _name(five, _A5_CATEGORY[v]), five)


def a5_category(v: int) -> str:
    """"high-card" (no pair) .. "four-of-a-kind" for an A-5 value."""
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < A5_CLASSES:
        raise HandError(f"{v!r} is not an A-5 low value (0..{A5_CLASSES - 1})")
    return CATEGORY_NAMES[_A5_CATEGORY[v]]


# --- deuce to seven ----------------------------------------------------------------------

_D7_POS = {r: r for r in range(13)}


def deuce_seven_value(cards: Sequence[int]) -> int:
    """The 2-7 low value of exactly five distinct cards (hot path, unchecked)."""
    k = BASE
    try:
        for c in cards:
            k += KEY_OF_CARD[c]
    except (KeyError, TypeError):
        raise fast_path_error(cards, (5,), "deuce-to-seven hand") from None
    if k & FLUSH_BITS:
        m = 0
        for c in cards:
            m |= 1 << (c >> 2)
        v = _D7_FLUSH[m]
        if v >= 0:
            return v
    else:
        v = _D7.get(k & RANK_BITS, -1)
        if v >= 0:
            return v
    check_cards(cards, (5,), "deuce-to-seven hand")  # the count is wrong: say so
    raise HandError(f"deuce-to-seven hand: no value for {cards!r}")  # cannot happen


def deuce_seven(cards: object) -> HandValue:
    """Triple draw deuce-to-seven low of exactly five cards (5324.42(b)(4)-(5)): ace high, straights and flushes count."""
    cs = check_cards(cards, (5,), "deuce-to-seven hand")
    v = deuce_seven_value(cs)
    five = _reading(cs, _D7_POS)
    return HandValue(v, _name(five, _D7_CATEGORY[v]), five)


def deuce_seven_category(v: int) -> str:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < DEUCE_SEVEN_CLASSES:
        raise HandError(f"{v!r} is not a deuce-to-seven value (0..{DEUCE_SEVEN_CLASSES - 1})")
    return CATEGORY_NAMES[_D7_CATEGORY[v]]


# --- eight or better ---------------------------------------------------------------------

EIGHT = 6  # rank of the 8
# Bit of each card's A-5 position among the eight low ranks A..8; 0 for a 9 or higher.
LOW8_BIT: dict[int, int] = {
    c: (1 << _A5_POS[c >> 2]) if (c >> 2) <= EIGHT or (c >> 2) == ACE else 0 for c in CARDS
}


def _build_low8() -> list[int]:
    """A-5 value of the best qualifying low for every set of distinct low ranks (by position bits)."""
    table = [-1] * 256
    for m in range(256):
        if m.bit_count() >= 5:
            positions = [p for p in range(8) if m >> p & 1][:5]
            table[m] = _A5[sum(RANK_UNIT[_A5_RANK[p]] for p in positions)]
    return table


LOW8 = _build_low8()
EIGHT_OR_BETTER_CLASSES = len({v for v in LOW8 if v >= 0})  # 56


def eight_value(cards: Sequence[int]) -> int:
    """The A-5 value of the best eight-or-better low of 5-7 cards, or -1 when none qualifies."""
    m = 0
    try:
        for c in cards:
            m |= LOW8_BIT[c]
    except (KeyError, TypeError):
        raise fast_path_error(cards, (5, 6, 7), "eight-or-better hand") from None
    return LOW8[m]


def eight_or_better(cards: object) -> HandValue | None:
    """The best low of five unpaired cards 8 or lower, ace low (5324.42(h)(10), (j)(7)), or None."""
    cs = check_cards(cards, (5, 6, 7), "eight-or-better hand")
    v = eight_value(cs)
    if v < 0:
        return None
    chosen: dict[int, Card] = {}
    for c in cs:
        p = _A5_POS[c >> 2]
        if LOW8_BIT[c] and p not in chosen:
            chosen[p] = c
    five = tuple(chosen[p] for p in sorted(chosen)[:5])[::-1]
    return HandValue(v, _name(five, HIGH_CARD), five)


__all__ = [
    "A5_CLASSES", "DEUCE_SEVEN_CLASSES", "EIGHT_OR_BETTER_CLASSES", "LOW8", "LOW8_BIT",
    "a5", "a5_category", "a5_value", "deuce_seven", "deuce_seven_category", "deuce_seven_value",
    "eight_or_better", "eight_value",
]
