"""The poker games' par sheet (9 NYCRR 5324.42): no house edge, the rake and the jackpot drop by pot.

The figures are controller/games/poker/par.py's; this says which rules determine
the sheet, puts them in the sheet's JSON, gives `config check` its line and
`tablectl par` its text.
"""

from __future__ import annotations

from typing import Any

from controller.games.poker import par as poker
from controller.par.sheet import GameSheet, dollars, exact, pct


def _rules(profile: Any) -> dict[str, Any]:
    return {"min_bet": profile.min_bet,
            "rake": profile.poker.rake.model_dump(),
            "jackpot": None if profile.poker.jackpot is None else profile.poker.jackpot.model_dump()}


def _sheet(rules: dict[str, Any]) -> dict[str, Any]:
    s = poker.sheet(rules)
    out = {"game": rules["game"], "regulation": "9 NYCRR 5324.42", "rules": rules, "house_edge": None,
           "rake_method": s["rake_method"],
           "pots": [{**row, "share": exact(row["share"])} for row in s["pots"]]}
    if "time_charge" in s:
        out["time_charge"] = s["time_charge"]
    return out


def _check(s: dict[str, Any]) -> str:
    return "par: no house edge (poker); the rake, at most 10 percent of the sums bet (9 NYCRR 5324.42(o)(2)(i))"


def _render(s: dict[str, Any]) -> list[str]:
    out = [f"Poker, {s['game']} ({s['regulation']}): no house edge; the house takes the rake "
           f"({s['rake_method']}) and the jackpot drop", "  pot            rake     jackpot drop   share of pot"]
    for row in s["pots"]:
        out.append(f"  {dollars(row['pot']):>10} {dollars(row['rake']):>10} {dollars(row['jackpot_drop']):>12}"
                   f"   {pct(row['share']):>9}")
    if "time_charge" in s:
        t = s["time_charge"]
        out.append(f"  time charge: {dollars(t['hourly'])} an hour per {t['per']}, by {t['increment_minutes']} "
                   "minutes, taken from no pot")
    return out


def _screen(s: dict[str, Any]) -> list[dict[str, Any]]:
    """The supervisor's screen: no house edge; the rake and the jackpot drop of each pot."""
    return [{"text": f"No house edge: the house takes the rake ({s['rake_method']}) and the jackpot drop.",
             "test": None},
            {"head": ["Pot", "Rake", "Jackpot drop", "Share"],
             "cells": [[dollars(r["pot"]), dollars(r["rake"]), dollars(r["jackpot_drop"]), pct(r["share"])]
                       for r in s["pots"]]}]


SHEET = GameSheet(_rules, _sheet, _check, _render, _screen)
