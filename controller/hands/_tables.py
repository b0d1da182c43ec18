"""Shared index arithmetic for the table-driven evaluators.

A hand is reduced to one int by adding a per-card key: three bits per rank count
(bits 0..38, so the multiset of ranks, suits ignored) and four bits per suit count
(bits 40..55, each started at 3 so that bit 3 of a nibble lights exactly when that
suit holds five or more cards). One addition per card and one mask then give both
the rank multiset to look up and whether a flush is possible: no objects, no sorting,
which is what makes the evaluators fast in pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

SUIT_SHIFT = 40
RANK_UNIT: tuple[int, ...] = tuple(1 << (3 * r) for r in range(13))
CARD_KEY: tuple[int, ...] = tuple(
    RANK_UNIT[c >> 2] + (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(52)
)
# The same keyed by card: a dict hit on the `Card` objects themselves is faster than
# indexing a tuple with an int subclass (which CPython does not specialise), and a
# non-card (52, -1, "As") misses instead of wrapping around.
KEY_OF_CARD: dict[int, int] = {}  # filled below, once controller.cards is importable
BASE = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT
RANK_BITS = (1 << 39) - 1
FLUSH_SUIT: dict[int, int] = {8 << (SUIT_SHIFT + 4 * s): s for s in range(4)}


def multisets(size: int, top: int = 12) -> Iterator[tuple[int, ...]]:
    """Every multiset of `size` ranks (each at most four times), ranks in descending order."""
    if size == 0:
        yield ()
        return
    for r in range(top, -1, -1):
        for n in range(min(4, size), 0, -1):
            for rest in multisets(size - n, r - 1):
                yield (r,) * n + rest


def groups(ranks: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counts, ranks) of the groups of equal rank, biggest group first, then higher rank."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return tuple(c for _, c in order), tuple(r for r, _ in order)


def grow(table: dict[int, int], smaller: list[int]) -> dict[int, int]:
    """The best value of every rank multiset one card bigger than those in `smaller`.

    Each smaller multiset is extended by one card of every rank it can still take; a
    new multiset keeps the best of the values it is reached from, which is the best
    over all its one-smaller subsets and so, by induction, over all its 5-subsets.
    """
    units = RANK_UNIT
    fresh: dict[int, int] = {}
    get = fresh.get
    for k in smaller:
        v = table[k]
        for r in range(13):
            if (k >> (3 * r)) & 7 < 4:
                nk = k + units[r]
                if get(nk, -1) < v:
                    fresh[nk] = v
    return fresh


def grow_masks(table: list[int], better: Callable[[int, int], int] = max) -> None:
    """Fill each 13-bit rank mask of 6 or 7 ranks with the best of its 5-rank subsets."""
    for m in range(1 << 13):
        n = m.bit_count()
        if n in (6, 7):
            best = -1
            b = m
            while b:
                low = b & -b
                b ^= low
                best = better(best, table[m ^ low])
            table[m] = best


HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
WHEEL = (12, 3, 2, 1, 0)


def _run(top: int) -> tuple[int, ...]:
    return WHEEL if top == 3 else tuple(range(top, top - 5, -1))


def _descending(n: int, without: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """All n-sets of ranks not in `without`, each written high to low, the lowest set first."""
    pool = [r for r in range(12, -1, -1) if r not in without]
    sets = list(combinations(pool, n))
    sets.reverse()
    return sets


def classes(*, straights: bool, wheel: bool, flushes: bool) -> Iterator[tuple[int, bool, tuple[int, ...]]]:
    """Every five-card class, worst first, as (category, is_flush, ranks in reading order).

    The order is that of 5324.42(b)(2)-(3): category, then the biggest group's rank,
    then the next, down to the last kicker. Ranks are positions 0..12 in the order the
    game ranks them (the caller maps them to cards: the A-5 low puts the ace at 0).
    Generated straight from the combinatorics, without sorting, to keep start-up short.
    """
    tops = ([3] if wheel else []) + list(range(4, 13)) if straights else []
    runs = [_run(t) for t in tops]
    unpaired = _descending(5)
    if runs:
        taken = set(runs)
        unpaired = [d for d in unpaired if d not in taken]
    for d in unpaired:
        yield HIGH_CARD, False, d
    for p in range(13):
        for k in _descending(3, (p,)):
            yield PAIR, False, (p, p) + k
    for hi in range(13):
        for lo in range(hi):
            for kicker in range(13):
                if kicker != hi and kicker != lo:
                    yield TWO_PAIR, False, (hi, hi, lo, lo, kicker)
    for t in range(13):
        for k in _descending(2, (t,)):
            yield TRIPS, False, (t, t, t) + k
    for r in runs:
        yield STRAIGHT, False, r
    if flushes:
        for d in unpaired:
            yield FLUSH, True, d
    for t in range(13):
        for p in range(13):
            if p != t:
                yield FULL_HOUSE, False, (t, t, t, p, p)
    for q in range(13):
        for kicker in range(13):
            if kicker != q:
                yield QUADS, False, (q, q, q, q, kicker)
    if flushes:
        for r in runs:
            yield STRAIGHT_FLUSH, True, r

CARD_RANK_KEY: tuple[int, ...] = tuple(RANK_UNIT[c >> 2] for c in range(52))  # rank part only


def _by_card(keys: tuple[int, ...]) -> dict[int, int]:
    from controller.cards import CARDS

    return {card: keys[card] for card in CARDS}


KEY_OF_CARD.update(_by_card(CARD_KEY))
RANK_KEY_OF_CARD: dict[int, int] = _by_card(CARD_RANK_KEY)
CATEGORY_NAMES = (
    "high-card", "pair", "two-pair", "three-of-a-kind", "straight", "flush",
    "full-house", "four-of-a-kind", "straight-flush",
)
