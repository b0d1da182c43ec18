"""A period's result held against the exact par: what the table should have won, and by how much chance
lets it differ.

A table losing more than chance allows looks, in its win and hold alone, like one that is merely unlucky;
the pit tells them apart by the theoretical win and its standard deviation. Both come exactly from the
game's par sheet: each wager the sheet prices (a `Unit`) has its house edge and its variance per unit
staked, and a period's rounds give, per unit, the amount staked and the sum of each stake squared (a
seat's result scales with its stake, so its variance with the square). The theoretical win is the sum
of stakes times edges, its variance the sum of squares times variances; the measured win is the house's
win on the wagers each unit prices (a Caribbean stud ante prices the ante and the bet its player adds).

The seats of one round are counted as independent trials. They are not quite: they play against the one
dealer hand, so on a full table the band is somewhat narrower than chance's; a single seat's is exact.
A result beyond three standard deviations is flagged (compared exactly, in integers: no float).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Any

SIGMAS = 3   # the band a result is held in before it is flagged


@dataclass(frozen=True)
class Unit:
    """One wager the par sheet prices, per unit staked, exactly."""

    edge: Fraction                 # the house's expected win
    variance: Fraction             # of the player's result
    covers: tuple[str, ...]        # the wagers whose results it prices, its own first


def figure(value: Fraction) -> dict[str, int]:
    return {"numerator": value.numerator, "denominator": value.denominator}


def read(figure_: Mapping[str, Any]) -> Fraction:
    return Fraction(int(figure_["numerator"]), int(figure_["denominator"]))


def rounded(value: Fraction) -> int:
    """To the nearest cent, a half away from zero."""
    whole = (abs(value.numerator) * 2 + value.denominator) // (2 * value.denominator)
    return whole if value >= 0 else -whole


class HoldTally:
    """A period's rounds added up against the par of `units` (the game's sheet's `units`)."""

    def __init__(self, units: Mapping[str, Unit]) -> None:
        self.units = dict(units)
        self.staked = {name: 0 for name in units}
        self.squares = {name: 0 for name in units}
        self.measured = 0

    def take(self, fact: Mapping[str, Any]) -> None:
        """A closed round's fact (controller/report/facts.py): its `risked` stakes and its wagers' wins."""
        risked = fact.get("risked") or {}
        wagers = fact.get("wagers") or {}
        for name, unit in self.units.items():
            staked = risked.get(name)
            if staked:
                self.staked[name] += int(staked[0])
                self.squares[name] += int(staked[1])
            for covered in unit.covers:
                money = wagers.get(covered)
                if money:
                    self.measured += int(money["house_win"])

    def block(self) -> dict[str, Any]:
        """The report's `par` block: cents, the standard deviation rounded down, the difference in
        hundredths of a standard deviation, and the flag."""
        theoretical = sum((self.staked[n] * u.edge for n, u in self.units.items()), Fraction(0))
        variance = sum((self.squares[n] * u.variance for n, u in self.units.items()), Fraction(0))
        difference = self.measured - theoretical
        beyond = difference * difference > SIGMAS * SIGMAS * variance
        sigma = isqrt(variance.numerator // variance.denominator)
        # hundredths of a standard deviation: 100 x difference / sqrt(variance), in integers
        scaled = difference * difference * 10_000 / variance if variance else None
        hundredths = None if scaled is None else isqrt(scaled.numerator // scaled.denominator)
        if hundredths is not None and difference < 0:
            hundredths = -hundredths
        return {"theoretical_win": rounded(theoretical), "sigma": sigma, "measured_win": self.measured,
                "difference": rounded(difference), "sigmas_hundredths": hundredths,
                "band_sigmas": SIGMAS, "beyond_band": bool(variance) and beyond,
                "staked": dict(self.staked)}


def units_json(units: Mapping[str, Unit]) -> dict[str, Any]:
    """The units as a table sends them to the floor (controller/floor/status.py), exactly."""
    return {name: {"edge": figure(u.edge), "variance": figure(u.variance), "covers": list(u.covers)}
            for name, u in units.items()}


def units_read(sent: Mapping[str, Any]) -> dict[str, Unit]:
    """`units_json` read back; a malformed entry raises (KeyError, TypeError, ValueError, ZeroDivisionError)."""
    return {str(name): Unit(read(u["edge"]), read(u["variance"]), tuple(str(c) for c in u["covers"]))
            for name, u in sent.items()}
