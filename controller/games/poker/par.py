"""Poker (5324.42) has no house edge: the house takes the rake (o) and the jackpot drop (r)(3).

Pure. The table shows, for pots of a range of sizes, what the profile's rake and
jackpot contribution take, computed by the same `house_take` that settles a hand
(a pot built in one betting round; a percentage rake rounds down each round, so
a pot built over several rounds may be raked a cent or so less). A time charge
takes nothing from a pot (o)(2)(iii); its hourly amount is shown instead.
The jackpot drop assumes the hand has the jackpot's minimum players dealt in ((r)(2)(iv)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from types import SimpleNamespace
from typing import Any

from controller.poker.rake import IncrementalRake, PercentageRake, TimeCharge, house_take

MULTIPLES = (1, 2, 5, 10, 20, 50, 100, 200, 500)


@dataclass
class _Pot:
    floor: int = 0
    ceiling: int = 1 << 62


def rake_rule(rake: Mapping[str, Any]) -> PercentageRake | IncrementalRake | TimeCharge:
    # Any: the sheet's rules are the profile's JSON as sheet.rules_of gives them, read by key
    """The rake rule of a sheet's rules (the profile's `[poker.rake]` as a dict)."""
    if rake["method"] == "percentage":
        return PercentageRake(rake["rate_bp"], rake.get("cap"), rake.get("minimum_pot", 0))
    if rake["method"] == "incremental":
        return IncrementalRake(tuple((level["pot"], level["amount"]) for level in rake["levels"]))
    return TimeCharge(rake["per"], rake["hourly"], rake.get("increment_minutes", 30))


def pot_sizes(rules: Mapping[str, Any]) -> list[int]:
    """Multiples of the least bet, and the pots where the rake's rule changes."""
    sizes = {rules["min_bet"] * m for m in MULTIPLES}
    rake = rules["rake"]
    if rake["method"] == "percentage":
        if rake.get("minimum_pot"):
            sizes.add(rake["minimum_pot"])
        if rake.get("cap") is not None:
            sizes.add(-(-rake["cap"] * 10_000 // rake["rate_bp"]))  # the least pot the cap binds at
    elif rake["method"] == "incremental":
        sizes.update(level["pot"] for level in rake["levels"])
    if rules["jackpot"] is not None and rules["jackpot"].get("minimum_pot"):
        sizes.add(rules["jackpot"]["minimum_pot"])
    return sorted(sizes)


def sheet(rules: Mapping[str, Any]) -> dict[str, Any]:
    """`rules` as sheet.rules_of gives them: min_bet, rake and jackpot (dicts)."""
    rule = rake_rule(rules["rake"])
    jp = rules["jackpot"]  # house_take reads its contribution and minimum pot
    jackpot = None if jp is None else SimpleNamespace(contribution=jp["contribution"],
                                                       minimum_pot=jp.get("minimum_pot", 0))
    rows = []
    for pot in pot_sizes(rules):
        take = house_take(None if isinstance(rule, TimeCharge) else rule, jackpot, [[pot]], 0, [_Pot()])
        rake, drop = sum(take.rake), sum(take.jackpot)
        rows.append({"pot": pot, "rake": rake, "jackpot_drop": drop,
                     "share": Fraction(rake + drop, pot)})
    out: dict[str, Any] = {"house_edge": None, "rake_method": rule.method, "pots": rows}
    if isinstance(rule, TimeCharge):
        out["time_charge"] = {"per": rule.per, "hourly": rule.hourly,
                              "increment_minutes": rule.increment_minutes}
    return out
