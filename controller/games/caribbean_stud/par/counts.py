"""How every Caribbean stud deal ends, counted exactly: the count table behind a par sheet.

A player who sees his five cards P and the dealer's up card u decides to bet or
fold; what he may win depends only on how many of the dealer's hole-card sets
leave the dealer not qualifying (5324.37(e)(5)), qualifying below P, tied with P,
or above P (e)(4). Those four counts do not depend on the paytable or the bet
multiple, so they are counted once per deck and qualifying rule and every
paytable's par sheet is a weighted sum over them (`stud`).

Counting 2 x 10^11 dealer hands one by one is too slow, so the hands are counted by
inclusion-exclusion instead: the dealer hands that hold u and none of P's cards and
rank below x are sum over S in P of (-1)^|S| N({u} + S, x), where N(T, x) counts the
five-card hands holding the set T that rank below x. For every set T of one to four
cards the ranks of the hands holding it are stored sorted (`Supersets`), so N is a
binary search; a five-card T is a single hand. Player hands are reduced by suit
symmetry to one hand per class, weighted by the size of the class.

The deck is a parameter (any subset of the 52 cards), so the same code is checked
against a plain enumeration on a reduced deck (tests/par).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path

if not os.access(Path(__file__).parent, os.W_OK):  # an installed, read-only package (the systemd unit)
    from controller.par.cache import directory as _cache_directory
    os.environ.setdefault("NUMBA_CACHE_DIR", str(_cache_directory() / "numba"))

import numpy as np
from numba import njit, prange

from controller.cards import parse_cards
from controller.games.caribbean_stud.par.arrays import Bools, Counts, Ints, Values
from controller.hands import high

Rows = slice | Ints                # the player-hand classes asked for
ALL = slice(None)

HAND = 5
HOLE = HAND - 1  # the dealer's hole cards beside the up card, 5324.37(d)
# The dealer's least qualifying hand, ace-king (5324.37(e)(4)), in the values of controller.hands.high.
ACE_KING = high.value5(parse_cards(["Ac", "Kd", "4h", "3s", "2c"]))


def binomials(n: int) -> Ints:
    """C(i, k) for i <= n, k <= 5: the combinatorial number system indexes card sets by it."""
    table = np.zeros((n + 1, HAND + 1), dtype=np.int64)
    for i in range(n + 1):
        table[i, 0] = 1
        for k in range(1, min(i, HAND) + 1):
            table[i, k] = table[i - 1, k - 1] + (table[i - 1, k] if k <= i - 1 else 0)
    return table


@njit(cache=True)
def _hand_keys(deck: Ints, binom: Ints) -> tuple[Ints, Ints, Bools]:
    """Rank-multiset key, flush flag and rank mask of every five-card hand, in colex order."""
    n = deck.shape[0]
    total = binom[n, 5]
    keys = np.empty(total, dtype=np.int64)
    masks = np.empty(total, dtype=np.int64)
    flush = np.empty(total, dtype=np.bool_)
    units = np.empty(13, dtype=np.int64)
    for r in range(13):
        units[r] = np.int64(1) << (3 * r)
    i = 0
    for e in range(4, n):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        cards = (deck[a], deck[b], deck[c], deck[d], deck[e])
                        k = 0
                        m = 0
                        s = cards[0] & 3
                        same = True
                        for x in cards:
                            k += units[x >> 2]
                            m |= np.int64(1) << (x >> 2)
                            if (x & 3) != s:
                                same = False
                        keys[i] = k
                        masks[i] = m
                        flush[i] = same
                        i += 1
    return keys, masks, flush


def hand_values(deck: Ints, binom: Ints) -> Values:
    """The value (controller.hands.high, 5324.37(b)) of every five-card hand of the deck, colex order.

    Read off the evaluator's own tables, vectorised, so the par sheet ranks hands exactly
    as the table settles them.
    """
    keys, masks, flush = _hand_keys(deck, binom)
    rank_keys = np.array(sorted(high._RANK), dtype=np.int64)
    rank_vals = np.array([high._RANK[k] for k in rank_keys.tolist()], dtype=np.int16)
    by_mask = np.array(high._FLUSH_BY_MASK, dtype=np.int16)
    out = np.empty(len(keys), dtype=np.int16)
    plain = ~flush
    pos = np.searchsorted(rank_keys, keys[plain])
    if not np.array_equal(rank_keys[pos], keys[plain]):  # a multiset the tables do not know
        raise ValueError("a five-card hand without a value")
    out[plain] = rank_vals[pos]
    out[flush] = by_mask[masks[flush]]
    return out


@njit(cache=True)
def _colex(pos: Ints, k: int, binom: Ints) -> int:
    idx = 0
    for i in range(k):
        idx += binom[pos[i], i + 1]
    return idx


@njit(cache=True)
def _unrank(idx: int, k: int, binom: Ints, out: Ints) -> None:
    """The k positions (ascending) of colex index idx."""
    for i in range(k, 0, -1):
        p = i - 1
        while binom[p + 1, i] <= idx:
            p += 1
        out[i - 1] = p
        idx -= binom[p, i]


@njit(cache=True)
def _fill_supersets(order: Ints, binom: Ints, n: int, values: Values, sizes: Ints, bases: Ints) -> Values:
    """For every set of 1..4 positions, the values of the hands holding it, ascending.

    Hands are visited in ascending value, so each set's segment fills already sorted.
    """
    flat = np.empty(bases[5], dtype=np.int16)
    setbase = np.zeros(6, dtype=np.int64)
    for k in range(1, 5):
        setbase[k + 1] = setbase[k] + binom[n, k]
    counts = np.zeros(setbase[5], dtype=np.int64)
    pos = np.empty(5, dtype=np.int64)
    sub = np.empty(5, dtype=np.int64)
    for j in range(order.shape[0]):
        h = order[j]
        _unrank(h, 5, binom, pos)
        v = values[h]
        for mask in range(1, 31):
            k = 0
            for i in range(5):
                if mask & (1 << i):
                    sub[k] = pos[i]
                    k += 1
            if k == 5:
                continue
            s = _colex(sub, k, binom)
            c = counts[setbase[k] + s]
            flat[bases[k] + s * sizes[k] + c] = v
            counts[setbase[k] + s] = c + 1
    return flat


@njit(cache=True)
def _below(flat: Values, start: int, length: int, x: int | np.int64) -> int:
    """How many of flat[start:start+length] (ascending) are below x."""
    lo = 0
    hi = length
    while lo < hi:
        mid = (lo + hi) >> 1
        if flat[start + mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, parallel=True)
def _count_outcomes(reps: Ints, binom: Ints, n: int, values: Values, flat: Values, sizes: Ints, bases: Ints,
                    qualify: int) -> Counts:
    """(not qualifying, qualifying below, tied) dealer hole sets for each class and up card."""
    m = reps.shape[0]
    out = np.zeros((m, n - 5, 3), dtype=np.int32)
    for i in prange(m):
        p = reps[i]
        vp = np.int64(values[_colex(p, 5, binom)])
        t = np.empty(5, dtype=np.int64)
        s = np.empty(4, dtype=np.int64)
        j = 0
        pi = 0
        for u in range(n):
            if pi < 5 and p[pi] == u:
                pi += 1
                continue
            a_q = 0
            a_lo = 0
            a_le = 0
            for mask in range(31):  # every subset S of P but P itself
                ks = 0
                for b in range(5):
                    if mask & (1 << b):
                        s[ks] = p[b]
                        ks += 1
                if ks == 5:
                    continue
                # T = {u} + S, ascending
                k = 0
                placed = False
                for b in range(ks):
                    if not placed and u < s[b]:
                        t[k] = u
                        k += 1
                        placed = True
                    t[k] = s[b]
                    k += 1
                if not placed:
                    t[k] = u
                    k += 1
                idx = _colex(t, k, binom)
                if k == 5:
                    v = np.int64(values[idx])
                    nq = 1 if v < qualify else 0
                    nlo = 1 if v < vp else 0
                    nle = 1 if v < vp + 1 else 0
                else:
                    start = bases[k] + idx * sizes[k]
                    nq = _below(flat, start, sizes[k], qualify)
                    nlo = _below(flat, start, sizes[k], vp)
                    nle = _below(flat, start, sizes[k], vp + 1)
                if ks & 1:
                    a_q -= nq
                    a_lo -= nlo
                    a_le -= nle
                else:
                    a_q += nq
                    a_lo += nlo
                    a_le += nle
            out[i, j, 0] = a_q
            out[i, j, 1] = a_lo - a_q if vp > qualify else 0
            out[i, j, 2] = a_le - a_lo if vp >= qualify else 0
            j += 1
    return out


@njit(cache=True, parallel=True)
def _count_directly(reps: Ints, binom: Ints, n: int, values: Values, qualify: int) -> Counts:
    """The same counts by visiting every dealer hand: the slow second algorithm the tests compare with."""
    m = reps.shape[0]
    out = np.zeros((m, n - 5, 3), dtype=np.int32)
    total = binom[n, 5]
    for i in prange(m):
        p = reps[i]
        vp = np.int64(values[_colex(p, 5, binom)])
        slot = np.full(n, -1, dtype=np.int64)  # deck position -> up-card column
        j = 0
        pi = 0
        for u in range(n):
            if pi < 5 and p[pi] == u:
                pi += 1
                continue
            slot[u] = j
            j += 1
        d = np.empty(5, dtype=np.int64)
        for h in range(total):
            _unrank(h, 5, binom, d)
            clash = False
            for a in range(5):
                if slot[d[a]] < 0:
                    clash = True
            if clash:
                continue
            v = np.int64(values[h])
            if v < qualify:
                col = 0
            elif v < vp:
                col = 1
            elif v == vp:
                col = 2
            else:
                continue
            for a in range(5):
                out[i, slot[d[a]], col] += 1
    return out


@njit(cache=True, parallel=True)
def _canonical(binom: Ints, n: int, perms: Ints) -> Ints:
    """For every hand (colex index), the least index of its images under the suit permutations."""
    total = binom[n, 5]
    out = np.empty(total, dtype=np.int64)
    for h in prange(total):
        pos = np.empty(5, dtype=np.int64)
        img = np.empty(5, dtype=np.int64)
        _unrank(h, 5, binom, pos)
        best = total  # the identity is among the permutations
        for g in range(perms.shape[0]):
            for a in range(5):  # insertion sort of the five images
                x = perms[g, pos[a]]
                b = a
                while b > 0 and img[b - 1] > x:
                    img[b] = img[b - 1]
                    b -= 1
                img[b] = x
            c = _colex(img, 5, binom)
            if c < best:
                best = c
        out[h] = best
    return out


def suit_symmetries(deck: Ints) -> Ints:
    """The suit permutations that map the deck onto itself, as maps of deck positions."""
    where = {int(c): i for i, c in enumerate(deck)}
    maps = []
    for perm in permutations(range(4)):
        image = [(int(c) & ~3) | perm[int(c) & 3] for c in deck]
        if all(c in where for c in image):
            maps.append([where[c] for c in image])
    return np.array(maps, dtype=np.int64)


@dataclass(frozen=True)
class StudCounts:
    """The count table of one deck and qualifying rule.

    Row i is a class of player hands: `weights[i]` hands alike up to suits,
    `player[i]` the value of each; for each up card (the deck's other cards) the
    dealer hole-card sets that leave the dealer `not_qualifying`, qualifying and
    `lower`, or `tied`; the rest (`hole_sets` in all) beat the player.
    """

    deck_size: int
    hole_sets: int
    weights: Ints            # [classes]
    player: Values           # [classes]
    not_qualifying: Counts   # [classes, up cards]
    lower: Counts
    tied: Counts

    @property
    def deals(self) -> int:
        """Player hands x up cards x hole-card sets: the denominator of every figure."""
        return int(self.weights.sum()) * (self.deck_size - HAND) * self.hole_sets


class Prepared:
    """A deck's hand values, its superset table and its player-hand classes."""

    def __init__(self, deck: Iterable[int]) -> None:
        self.deck = np.array(sorted(int(c) for c in deck), dtype=np.int64)
        n = self.n = len(self.deck)
        if n < HAND + HAND + 1 or len(set(self.deck.tolist())) != n:
            raise ValueError("a deck needs at least 11 distinct cards")
        self.binom = binomials(n)
        self.values = hand_values(self.deck, self.binom)
        canon = _canonical(self.binom, n, suit_symmetries(self.deck))
        classes, weights = np.unique(canon, return_counts=True)
        self.weights = weights.astype(np.int64)
        self.reps = np.empty((len(classes), 5), dtype=np.int64)
        pos = np.empty(5, dtype=np.int64)
        for i, c in enumerate(classes.tolist()):
            _unrank(c, 5, self.binom, pos)
            self.reps[i] = pos
        self.player = self.values[classes]

    def supersets(self) -> tuple[Values, Ints, Ints]:
        """The values of the hands holding each set of one to four cards, sorted, and where each set's run starts."""
        n, b = self.n, self.binom
        sizes = np.zeros(6, dtype=np.int64)
        bases = np.zeros(6, dtype=np.int64)
        for k in range(1, 5):
            sizes[k] = b[n - k, 5 - k]
            bases[k + 1] = bases[k] + b[n, k] * sizes[k]
        order = np.argsort(self.values, kind="stable").astype(np.int64)
        return _fill_supersets(order, b, n, self.values, sizes, bases), sizes, bases

    def _result(self, out: Counts, rows: Rows = ALL) -> StudCounts:
        return StudCounts(
            deck_size=self.n, hole_sets=int(self.binom[self.n - 6, 4]),
            weights=self.weights[rows], player=self.player[rows],
            not_qualifying=out[:, :, 0], lower=out[:, :, 1], tied=out[:, :, 2])

    def count(self, qualify: int = ACE_KING, rows: Rows = ALL) -> StudCounts:
        """The count table (of the classes `rows` only, when given) by inclusion-exclusion."""
        flat, sizes, bases = self.supersets()
        out = _count_outcomes(self.reps[rows], self.binom, self.n, self.values, flat, sizes, bases, qualify)
        return self._result(out, rows)

    def count_directly(self, rows: Rows, qualify: int = ACE_KING) -> StudCounts:
        out = _count_directly(self.reps[rows], self.binom, self.n, self.values, qualify)
        return self._result(out, rows)


FULL_DECK = tuple(range(52))


def count(deck: Iterable[int] = FULL_DECK, qualify: int = ACE_KING) -> StudCounts:
    """The count table of a deck (default the full 52 cards) and the dealer's qualifying value."""
    return Prepared(deck).count(qualify)


def hand_categories() -> dict[str, int]:
    """How many of the 2,598,960 five-card hands fall in each category of 5324.37(b), counted over every
    hand by the table's evaluator (the progressive's chances, progressive.py, read them as shipped)."""
    deck = np.array(FULL_DECK, dtype=np.int64)
    values = hand_values(deck, binomials(52)).astype(np.int64)
    starts = np.array(high._STARTS[1:], dtype=np.int64)
    cat = np.searchsorted(starts, values, side="right")
    by_cat = np.bincount(cat, minlength=9)
    out = {name: int(by_cat[i]) for i, name in enumerate(high.CATEGORY_NAMES)}
    royal = int((values == high.ROYAL_FLUSH).sum())
    out["royal-flush"] = royal
    out["straight-flush"] -= royal
    return out
