"""Poker (5324.42) has no house edge: the house takes the rake (o) and the jackpot drop (r)(3).

Pure. The table shows, for pots of a range of sizes, what the profile's rake and
jackpot contribution take, computed by the same `house_take` that settles a hand
(a pot built in one betting round; a percentage rake rounds down each round, so
a pot built over several rounds may be raked a cent or so less). A time charge
takes nothing from a pot (o)(2)(iii); its hourly amount is shown instead.
The jackpot drop assumes the hand has the jackpot's minimum players dealt in ((r)(2)(iv)).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from controller.poker.rake import TimeCharge, house_take, rule_from_config

MULTIPLES = (1, 2, 5, 10, 20, 50, 100, 200, 500)


@dataclass
class _Pot:
    floor: int = 0
    ceiling: int = 1 << 62


def pot_sizes(profile) -> list[int]:
    """Multiples of the least bet, and the pots where the rake's rule changes."""
    unit = profile.min_bet
    sizes = {unit * m for m in MULTIPLES}
    rake = profile.poker.rake
    if rake.method == "percentage":
        if rake.minimum_pot:
            sizes.add(rake.minimum_pot)
        if rake.cap is not None:
            sizes.add(-(-rake.cap * 10_000 // rake.rate_bp))  # the least pot the cap binds at
    elif rake.method == "incremental":
        sizes.update(level.pot for level in rake.levels)
    if profile.poker.jackpot is not None and profile.poker.jackpot.minimum_pot:
        sizes.add(profile.poker.jackpot.minimum_pot)
    return sorted(sizes)


def sheet(profile) -> dict:
    rule = rule_from_config(profile.poker.rake)
    jackpot = profile.poker.jackpot  # house_take reads its contribution and minimum pot
    rows = []
    for pot in pot_sizes(profile):
        take = house_take(None if isinstance(rule, TimeCharge) else rule, jackpot, [[pot]], 0, [_Pot()])
        rake, drop = sum(take.rake), sum(take.jackpot)
        rows.append({"pot": pot, "rake": rake, "jackpot_drop": drop,
                     "share": Fraction(rake + drop, pot)})
    out = {"house_edge": None, "rake_method": rule.method, "pots": rows}
    if isinstance(rule, TimeCharge):
        out["time_charge"] = {"per": rule.per, "hourly": rule.hourly,
                              "increment_minutes": rule.increment_minutes}
    return out
