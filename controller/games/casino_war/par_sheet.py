"""Casino war's par sheet (9 NYCRR 5324.22): its figures from the profile's rules, and how they read.

The exact mathematics is controller/games/casino_war/par.py; this says which rules
determine the sheet, puts the figures in the sheet's JSON beside the floor odds of
5324.22(j), gives `config check` its line and `tablectl par` its text.
"""

from __future__ import annotations

from typing import Any

from controller.games.casino_war import par as war
from controller.games.casino_war.floors import WAR_MIN_ODDS
from controller.par.hold import Unit
from controller.par.sheet import GameSheet, exact, fraction, pct

FLOOR_WAR = dict(WAR_MIN_ODDS)  # 5324.22(j)


def _rules(profile: Any) -> dict[str, Any]:
    rules: dict[str, Any] = profile.casino_war.model_dump()   # pydantic's dump of CasinoWarRules
    return rules


def _sheet(rules: dict[str, Any]) -> dict[str, Any]:
    mine = war.sheet(rules["decks"], rules["tie_odds"], rules["war_odds"], rules["war_tie_odds"])
    floor = war.sheet(rules["decks"], **FLOOR_WAR)
    out = {"game": "casino-war", "regulation": "9 NYCRR 5324.22", "rules": rules,
           "tie_hand": exact(mine["tie_hand"]), "war_tie_hand": exact(mine["war_tie_hand"])}
    for name in ("always_war", "always_surrender", "tie", "war_tie"):
        out[name] = {"house_edge": exact(mine[name]["house_edge"]), "variance": exact(mine[name]["variance"])}
    out["floor"] = {"odds": FLOOR_WAR,
                    **{name: {"house_edge": exact(floor[name]["house_edge"])}
                       for name in ("always_war", "always_surrender", "tie")}}
    return out


def _check(s: dict[str, Any]) -> str:
    f = s["floor"]
    return (f"par: house edge {s['always_war']['house_edge']['percent']:.4f}% always to war, "
            f"{s['always_surrender']['house_edge']['percent']:.4f}% always surrendering, tie wager "
            f"{s['tie']['house_edge']['percent']:.4f}%; at the floor odds of 9 NYCRR 5324.22(j) "
            f"{f['always_war']['house_edge']['percent']:.4f}% and {f['tie']['house_edge']['percent']:.4f}%")


def _render(s: dict[str, Any]) -> list[str]:
    r = s["rules"]
    out = [f"Casino war ({s['regulation']}): {r['decks']} decks; tie {r['tie_odds']}:1, war {r['war_odds']}:1, "
           f"war tie {r['war_tie_odds']}:1",
           f"  tie hand                        {pct(s['tie_hand']):>9}   {fraction(s['tie_hand'])}"]
    for key, label in (("always_war", "initial wager, always to war"),
                       ("always_surrender", "initial wager, always surrender"), ("tie", "tie wager")):
        fig = s[key]["house_edge"]
        out.append(f"  {label:<32}{pct(fig):>9}   {fraction(fig)}")
    f = s["floor"]
    out.append(f"At the floor odds of 5324.22(j): always to war {pct(f['always_war']['house_edge'])}, "
               f"tie wager {pct(f['tie']['house_edge'])}")
    return out


def _screen(s: dict[str, Any]) -> list[dict[str, Any]]:
    """The supervisor's screen: the initial wager's edge either way of a tie, the tie wager's."""
    return [{"rows": [["Initial wager, always to war", s["always_war"]["house_edge"], "par-war-house-edge"],
                      ["Initial wager, always surrender", s["always_surrender"]["house_edge"],
                       "par-surrender-house-edge"],
                      [f"Tie wager at {s['rules']['tie_odds']}:1", s["tie"]["house_edge"], "par-tie-house-edge"]]},
            {"text": f"{s['rules']['decks']} decks.", "test": None}]


def _units(s: dict[str, Any]) -> dict[str, Unit]:
    """The initial wager priced with what a tie hand adds (the war wager, or the half surrendered) as the
    player's better choice plays it, the least the house can expect; the tie wagers."""
    def unit(name: str, *covers: str) -> Unit:
        return Unit(fraction(s[name]["house_edge"]), fraction(s[name]["variance"]), covers)
    better = min(("always_war", "always_surrender"), key=lambda name: fraction(s[name]["house_edge"]))
    return {"initial": unit(better, "initial", "war"), "tie": unit("tie", "tie"),
            "war_tie": unit("war_tie", "war_tie")}


SHEET = GameSheet(_rules, _sheet, _check, _render, _screen, units=_units)
