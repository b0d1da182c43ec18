"""The Caribbean stud par sheet of one paytable and bet multiple, from the count table.

Pure: a `StudCounts` (stud_counts) and the rules in, exact fractions out. For each
player hand and dealer up card the player either folds and loses his ante
(5324.37(e)(1)) or bets `bet_multiple` antes and then: the dealer does not qualify,
the ante wins 1:1 and the bet is void (e)(5); the dealer qualifies lower, the ante
wins 1:1 and the bet at the paytable's odds for the player's hand (g)(1)-(2); a tie
pushes both; a higher dealer takes both (e)(4). Every figure is counted over all
player hands x up cards x hole-card sets (19,933,230,517,200 on 52 cards) and kept
as a `Fraction`; sums go through Python ints, so no float and no overflow.

The payout limit of (g)(3) is reported separately (`capped_hands`): it depends on
the size of the ante, while the edge here is per ante, uncapped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from controller.games.caribbean_stud.par.arrays import Bools, Ints, Values
from controller.hands import high
from controller.hands.caribbean import LOWEST_QUALIFYING

if TYPE_CHECKING:   # the count itself needs numba (the lab extra); the sums here do not
    from controller.games.caribbean_stud.par.counts import StudCounts

# The paytable lines of 5324.37(g)(2), worst first; a high card is paid as "pair-or-less".
PAY_LINES = ("pair-or-less", "two-pair", "three-of-a-kind", "straight", "flush", "full-house",
             "four-of-a-kind", "straight-flush", "royal-flush")
STRATEGIES = ("optimal", "simple")


def pay_line(values: Values) -> Ints:
    """The index in PAY_LINES of each player hand value."""
    starts = np.array(high._STARTS[2:], dtype=np.int64)  # two pair .. straight flush
    line = np.searchsorted(starts, values.astype(np.int64), side="right")
    line[values == high.ROYAL_FLUSH] = len(PAY_LINES) - 1
    return line


@dataclass(frozen=True)
class Strategy:
    """Exact outcome counts of one strategy over all deals (each a count of deals)."""

    name: str
    deals: int
    ante_won: int            # net antes the player is ahead (negative: the house's win)
    bets: int                # deals on which the player bets
    folds: int
    not_qualifying: int
    wins_by_line: dict[str, int]   # pay line -> deals won by a hand on that line
    pushes: int
    losses: int
    bet_multiple: int
    squares: int = 0         # the sum over deals of the player's net squared, in antes squared

    @property
    def variance(self) -> Fraction:
        """The variance of one ante's result (ante and any bet together), in antes squared: the
        second moment less the square of the mean, both exact."""
        mean = Fraction(self.ante_won, self.deals)
        return Fraction(self.squares, self.deals) - mean * mean

    @property
    def house_edge(self) -> Fraction:
        """The house's win per ante."""
        return Fraction(-self.ante_won, self.deals)

    @property
    def element_of_risk(self) -> Fraction:
        """The house's win per unit wagered in all (ante plus any bet)."""
        return Fraction(-self.ante_won, self.deals + self.bet_multiple * self.bets)

    @property
    def wins(self) -> int:
        return sum(self.wins_by_line.values())


@dataclass(frozen=True)
class StudTable:
    """The count table reduced to what a paytable needs: distinct (pay line, simple bets,
    not qualifying, lower, tied) rows, each with the number of (player hand, up card) pairs
    that have it. 6.3 million pairs on 52 cards become some 355,000 rows, so every
    paytable's sheet is a few numpy sums over them (and the cache stays small).
    """

    hole_sets: int
    line: Ints                  # [rows], index in PAY_LINES
    simple_bets: Bools          # [rows]: the player holds ace-king or better
    not_qualifying: Ints        # [rows], hole-card sets out of hole_sets
    lower: Ints
    tied: Ints
    weight: Ints                # [rows], (player hand, up card) pairs

    @property
    def deals(self) -> int:
        return int(self.weight.sum(dtype=np.int64)) * self.hole_sets

    @classmethod
    def from_counts(cls, counts: StudCounts, chunk: int = 8192) -> StudTable:
        """Group the (class, up card) pairs by their row, a chunk of classes at a time (bounded memory)."""
        # one int64 key per row: 4 + 1 + 3 x 18 bits (a count is at most C(47, 4) < 2^18)
        if counts.hole_sets >= 1 << 18:
            raise ValueError("hole-card counts too large to pack")
        ups = counts.not_qualifying.shape[1]
        prefix = (pay_line(counts.player) * 2 + (counts.player >= LOWEST_QUALIFYING)).astype(np.int64) << 54
        parts_k: list[Ints] = []
        parts_w: list[Ints] = []
        for start in range(0, len(counts.player), chunk):
            rows = slice(start, start + chunk)
            key = counts.not_qualifying[rows].astype(np.int64)
            key <<= 18
            key |= counts.lower[rows]
            key <<= 18
            key |= counts.tied[rows]
            key |= prefix[rows, None]
            keys, inverse = np.unique(key.ravel(), return_inverse=True)
            weight = np.zeros(len(keys), dtype=np.int64)
            np.add.at(weight, inverse.ravel(), np.repeat(counts.weights[rows], ups))
            parts_k.append(keys)
            parts_w.append(weight)
        keys, inverse = np.unique(np.concatenate(parts_k), return_inverse=True)
        weight = np.zeros(len(keys), dtype=np.int64)
        np.add.at(weight, inverse.ravel(), np.concatenate(parts_w))
        mask = (1 << 18) - 1
        return cls(counts.hole_sets, keys >> 55, ((keys >> 54) & 1).astype(bool),
                   (keys >> 36) & mask, (keys >> 18) & mask, keys & mask, weight)

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """The table as named arrays, as the cache stores them (controller/par/cache.py)."""
        return {"hole_sets": np.array(self.hole_sets), "line": self.line, "simple_bets": self.simple_bets,
                "not_qualifying": self.not_qualifying, "lower": self.lower, "tied": self.tied,
                "weight": self.weight}

    @classmethod
    def from_arrays(cls, a: Mapping[str, npt.NDArray[np.generic]]) -> StudTable:
        """The table the cache stored (`arrays`)."""
        def ints(name: str) -> Ints:
            return np.asarray(a[name], dtype=np.int64)
        return cls(int(a["hole_sets"]), ints("line"), np.asarray(a["simple_bets"], dtype=np.bool_),
                   ints("not_qualifying"), ints("lower"), ints("tied"), ints("weight"))


def _strategy(name: str, table: StudTable, bets_mask: Bools, odds: list[int],
              bet_multiple: int) -> Strategy:
    hole = table.hole_sets
    bet_w = np.where(bets_mask, table.weight, 0)
    higher = hole - table.not_qualifying - table.lower - table.tied

    def total(a: Ints) -> int:
        return int((bet_w * a).sum(dtype=np.int64))

    folds = int(table.weight[~bets_mask].sum(dtype=np.int64)) * hole
    nq = total(table.not_qualifying)
    pushes = total(table.tied)
    losses = total(higher)
    won = nq - folds - losses * (1 + bet_multiple)
    # each deal's net in antes: a fold -1, the dealer not qualifying +1, a push 0, a loss -(1 + bet),
    # a win 1 + bet x odds; squared and counted the same way (Python ints: no overflow)
    squares = folds + nq + losses * (1 + bet_multiple) ** 2
    wins_by_line: dict[str, int] = {}
    for i, line in enumerate(PAY_LINES):
        rows = table.line == i
        n = int((bet_w[rows] * table.lower[rows]).sum(dtype=np.int64))
        wins_by_line[line] = n
        won += n * (1 + bet_multiple * odds[i])
        squares += n * (1 + bet_multiple * odds[i]) ** 2
    bets = int(bet_w.sum(dtype=np.int64)) * hole
    return Strategy(name, table.deals, won, bets, folds, nq, wins_by_line, pushes, losses, bet_multiple, squares)


def strategies(table: StudTable, paytable: Mapping[str, int], bet_multiple: int) -> dict[str, Strategy]:
    """The optimal and the simple strategy's outcomes under this paytable and bet multiple.

    Optimal: bet when betting loses less than the ante a fold gives up, knowing the
    five cards and the up card (on an exact tie, fold: it risks less for the same
    result). Simple: bet with ace-king or better, the dealer's own qualifier.
    """
    odds = [int(paytable[line]) for line in PAY_LINES]
    hole = table.hole_sets
    higher = hole - table.not_qualifying - table.lower - table.tied
    paid = [1 + bet_multiple * o for o in odds]
    if max(paid) * hole >= 1 << 62:
        raise ValueError("odds too large to compare exactly")
    paid_row = np.array(paid, dtype=np.int64)[table.line]
    bet_value = table.not_qualifying + table.lower * paid_row - higher * (1 + bet_multiple)  # antes x hole sets
    optimal = bet_value > -hole
    return {
        "optimal": _strategy("optimal", table, optimal, odds, bet_multiple),
        "simple": _strategy("simple", table, table.simple_bets, odds, bet_multiple),
    }


def capped_hands(paytable: Mapping[str, int], bet_multiple: int, ante: int, limit: int | None) -> list[str]:
    """The pay lines whose bet payout at this ante exceeds the payout limit of (g)(3)."""
    if limit is None:
        return []
    bet = ante * bet_multiple
    return [line for line in PAY_LINES if bet * paytable[line] > limit]
