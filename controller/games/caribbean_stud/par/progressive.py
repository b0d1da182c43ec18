"""The progressive payout wager (5324.37(a)(3), (f), (g)(4)-(6)): hit chances and return.

Pure. The award hands are counted over the C(52, 5) = 2,598,960 five-card hands
with the table's own evaluator (stud_counts.hand_values). Awards are won on the
player's five cards whatever the dealer holds (f)(3); a player with a flush or
better always bets under both strategies of the sheet, so the fold that forfeits
the award (games.caribbean_stud.rules) does not lower these chances.

A wager's return is linear in the meter M (cents, as it stands when the hand is
paid): the fixed awards, plus the straight flush's percent of M when so
designated, plus M for the royal flush. The percent award is rounded down to the
cent when paid; the function leaves that rounding out. In the long run the meter
pays out exactly what flowed in: each wager's contribution at the rate of
progression (g)(5) and the reset seeded after every royal flush, so the house's
share of a wager does not depend on the meter.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypedDict


AWARD_HANDS = ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush")
BP = 10_000

# The progressive of a sheet's rules (caribbean_stud/par/sheet.py `_rules`), in cents and basis points;
# the straight flush's award is {"fixed": cents} or {"percent_of_meter": N}.
ProgressiveRules = TypedDict("ProgressiveRules", {
    "wager": int, "reset": int, "initial": int, "contribution_bp": int, "flush": int, "full-house": int,
    "four-of-a-kind": int, "straight-flush": dict[str, int]})


class ProgressiveSheet(TypedDict):
    """The wager's exact figures, each a Fraction (per unit wagered unless named in cents)."""

    wager: int
    chances: dict[str, Fraction]
    return_fixed: Fraction
    return_per_meter_cent: Fraction
    break_even_meter: Fraction
    rate: Fraction
    house_share: Fraction


def hand_counts() -> dict[str, int]:
    """How many of the 2,598,960 five-card hands fall in each category of 5324.37(b), as the package
    ships them with the count table (shipped.py; counts.py `hand_categories` counts them again)."""
    from controller.games.caribbean_stud.par.shipped import load

    return dict(load()[1])


def sheet(prog: ProgressiveRules, counts: dict[str, int]) -> ProgressiveSheet:
    """Hit chances, the return of one wager as a + b x meter, the break-even meter, the house's share.

    `prog` is the progressive of a sheet's rules (sheet.rules_of): wager, reset,
    contribution_bp and the awards by hand, the straight flush's as {"fixed": cents}
    or {"percent_of_meter": N}.
    """
    hands = sum(counts.values())
    chance = {h: Fraction(counts[h], hands) for h in AWARD_HANDS}
    fixed = {"flush": prog["flush"], "full-house": prog["full-house"], "four-of-a-kind": prog["four-of-a-kind"]}
    per_meter = chance["royal-flush"]
    sf = prog["straight-flush"]
    if "fixed" in sf:
        fixed["straight-flush"] = sf["fixed"]
    else:
        per_meter += chance["straight-flush"] * Fraction(sf["percent_of_meter"], 100)
    from_house = sum((chance[h] * amount for h, amount in fixed.items()), Fraction(0))  # cents per wager
    wager = prog["wager"]
    rate = Fraction(prog["contribution_bp"], BP)
    long_run = from_house + rate * wager + chance["royal-flush"] * prog["reset"]
    return {
        "wager": wager,
        "chances": chance,
        "return_fixed": from_house / wager,        # per unit wagered, at meter 0
        "return_per_meter_cent": per_meter / wager,
        "break_even_meter": (wager - from_house) / per_meter,
        "rate": rate,
        "house_share": 1 - long_run / wager,
    }
