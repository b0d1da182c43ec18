"""A table profile's par sheet: the exact figures of its game, as JSON-ready data.

Every exact figure is `{"numerator": N, "denominator": D, "percent": P}` (P rounded
to four places for reading; the fraction is the figure). A sheet is cached under
the rules that determine it (cache.py), so the screens and `config check` can
show it without computing anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from controller.par import cache

from controller.games.caribbean_stud.floors import STUD_PAYTABLE_MINIMUM
from controller.games.casino_war.floors import WAR_MIN_ODDS

FLOOR_PAYTABLE = dict(STUD_PAYTABLE_MINIMUM)  # 5324.37(g)(2)
FLOOR_WAR = dict(WAR_MIN_ODDS)  # 5324.22(j)


def exact(value: Fraction) -> dict:
    value = Fraction(value)
    return {"numerator": value.numerator, "denominator": value.denominator,
            "percent": round(float(value * 100), 4)}


def fraction(figure: dict) -> Fraction:
    return Fraction(figure["numerator"], figure["denominator"])


def rules_of(profile) -> dict:
    """What determines the sheet of this profile (and nothing that names the table)."""
    return {"game": profile.game, **sheet_of(profile.game).rules(profile)}


def _stud_rules(profile) -> dict:
    cs = profile.caribbean_stud
    prog = cs.progressive
    return {"bet_multiple": cs.bet_multiple,
            "paytable": cs.paytable.model_dump(by_alias=True),
            "bet_payout_limit": cs.bet_payout_limit,
            "minimum_ante": profile.table.minimum_wager, "maximum_ante": profile.table.maximum_wager,
            "progressive": {"wager": prog.wager, "reset": prog.reset, "initial": prog.initial_meter,
                            "contribution_bp": prog.contribution_bp, "flush": prog.flush,
                            "full-house": prog.full_house, "four-of-a-kind": prog.four_of_a_kind,
                            "straight-flush": prog.straight_flush.record()}}


def _war_rules(profile) -> dict:
    return profile.casino_war.model_dump()


def _poker_rules(profile) -> dict:
    return {"min_bet": profile.min_bet,
            "rake": profile.poker.rake.model_dump(),
            "jackpot": None if profile.poker.jackpot is None else profile.poker.jackpot.model_dump()}


def cached(profile) -> dict | None:
    """The profile's sheet if it is in the cache; never computes."""
    return cache.load_json(cache.key("sheet", rules_of(profile)))


def compute(profile) -> dict:
    """The profile's sheet, from the cache or computed (and then cached)."""
    return compute_rules(rules_of(profile))


def compute_rules(rules: dict) -> dict:
    """The sheet of these rules (`rules_of`), from the cache or computed (and then cached)."""
    stem = cache.key("sheet", rules)
    found = cache.load_json(stem)
    if found is not None:
        return found
    out = sheet_of(rules["game"]).compute(rules)
    cache.store_json(stem, out)
    return out


# --- Caribbean stud ------------------------------------------------------------------------

def _counts_stem() -> str:
    from controller.hands.caribbean import LOWEST_QUALIFYING

    return cache.key("stud-counts", {"deck": list(range(52)), "qualify": LOWEST_QUALIFYING})


def stud_table_cached() -> bool:
    """Whether the Caribbean stud count table is in the cache (a sheet then takes a second)."""
    return (cache.directory() / f"{_counts_stem()}.npz").exists()


def stud_table():
    """The count table of the 52-card deck and the ace-king qualifier, from the cache or counted."""
    from controller.games.caribbean_stud.par import counts as stud_counts
    from controller.games.caribbean_stud.par import paytable as stud

    stem = _counts_stem()
    arrays = cache.load_arrays(stem)
    if arrays is not None:
        return stud.StudTable.from_arrays(arrays)
    table = stud.StudTable.from_counts(stud_counts.count())
    cache.store_arrays(stem, table.arrays())
    return table


def _strategy_sheet(s) -> dict:
    deals = s.deals
    return {
        "house_edge": exact(s.house_edge),
        "element_of_risk": exact(s.element_of_risk),
        "house_win_antes": -s.ante_won,
        "bet_frequency": exact(Fraction(s.bets, deals)),
        "probabilities": {
            "fold": exact(Fraction(s.folds, deals)),
            "dealer_not_qualifying": exact(Fraction(s.not_qualifying, deals)),
            "win": exact(Fraction(s.wins, deals)),
            "win_by_hand": {line: exact(Fraction(n, deals)) for line, n in s.wins_by_line.items()},
            "push": exact(Fraction(s.pushes, deals)),
            "loss": exact(Fraction(s.losses, deals)),
        },
    }


def _stud(rules: dict) -> dict:
    from controller.games.caribbean_stud.par import paytable as stud
    from controller.games.caribbean_stud.par import progressive

    table = stud_table()
    multiple = rules["bet_multiple"]
    mine = stud.strategies(table, rules["paytable"], multiple)
    floor = stud.strategies(table, FLOOR_PAYTABLE, multiple)
    limit = rules["bet_payout_limit"]
    payout_limit = {"limit": limit}
    for name, ante in (("at_minimum_ante", rules["minimum_ante"]), ("at_maximum_ante", rules["maximum_ante"])):
        payout_limit[name] = {"ante": ante, "bet": ante * multiple,
                              "capped": stud.capped_hands(rules["paytable"], multiple, ante, limit)}
    p = progressive.sheet(rules["progressive"], progressive.hand_counts())
    meter = rules["progressive"]["initial"]
    return {
        "game": "caribbean-stud", "regulation": "9 NYCRR 5324.37", "rules": rules,
        "deals": table.deals,
        "strategies": {name: _strategy_sheet(s) for name, s in mine.items()},
        "floor": {"paytable": FLOOR_PAYTABLE,
                  "strategies": {name: {"house_edge": exact(s.house_edge),
                                        "element_of_risk": exact(s.element_of_risk)}
                                 for name, s in floor.items()}},
        "payout_limit": payout_limit,
        "progressive": {
            "wager": p["wager"],
            "hands": 2598960,
            "chances": {h: exact(c) for h, c in p["chances"].items()},
            "return_fixed": exact(p["return_fixed"]),
            "return_per_meter_cent": exact(p["return_per_meter_cent"]),
            "return_at_initial_meter": {"meter": meter,
                                        "return": exact(p["return_fixed"] + p["return_per_meter_cent"] * meter)},
            "break_even_meter": {"numerator": p["break_even_meter"].numerator,
                                 "denominator": p["break_even_meter"].denominator,
                                 "cents": -(-p["break_even_meter"].numerator // p["break_even_meter"].denominator)},
            "rate": exact(p["rate"]),
            "house_share": exact(p["house_share"]),
        },
    }


# --- casino war and poker ------------------------------------------------------------------

def _war(rules: dict) -> dict:
    from controller.games.casino_war import par as war
    mine = war.sheet(rules["decks"], rules["tie_odds"], rules["war_odds"], rules["war_tie_odds"])
    floor = war.sheet(rules["decks"], **FLOOR_WAR)
    out = {"game": "casino-war", "regulation": "9 NYCRR 5324.22", "rules": rules,
           "tie_hand": exact(mine["tie_hand"])}
    for name in ("always_war", "always_surrender", "tie"):
        out[name] = {"house_edge": exact(mine[name]["house_edge"])}
    out["floor"] = {"odds": FLOOR_WAR,
                    **{name: {"house_edge": exact(floor[name]["house_edge"])}
                       for name in ("always_war", "always_surrender", "tie")}}
    return out


def _poker(rules: dict) -> dict:
    from controller.games.poker import par as poker
    s = poker.sheet(rules)
    out = {"game": rules["game"], "regulation": "9 NYCRR 5324.42", "rules": rules, "house_edge": None,
           "rake_method": s["rake_method"],
           "pots": [{**row, "share": exact(row["share"])} for row in s["pots"]]}
    if "time_charge" in s:
        out["time_charge"] = s["time_charge"]
    return out


def check_line(profile) -> str | None:
    """What `tablectl config check` says of a profile whose sheet is cached: its edge beside the floor's."""
    s = cached(profile)
    if s is None:
        return None
    return sheet_of(s["game"]).check(s)


def _stud_check(s: dict) -> str:
    mine, floor = s["strategies"], s["floor"]["strategies"]
    return (f"par: house edge {mine['optimal']['house_edge']['percent']:.4f}% per ante (optimal), "
            f"{mine['simple']['house_edge']['percent']:.4f}% (simple); at the floor paytable of "
            f"9 NYCRR 5324.37(g)(2) {floor['optimal']['house_edge']['percent']:.4f}% and "
            f"{floor['simple']['house_edge']['percent']:.4f}%; progressive rate "
            f"{s['progressive']['rate']['percent']:.2f}% (floor 70%, (g)(5))")


def _war_check(s: dict) -> str:
    f = s["floor"]
    return (f"par: house edge {s['always_war']['house_edge']['percent']:.4f}% always to war, "
            f"{s['always_surrender']['house_edge']['percent']:.4f}% always surrendering, tie wager "
            f"{s['tie']['house_edge']['percent']:.4f}%; at the floor odds of 9 NYCRR 5324.22(j) "
            f"{f['always_war']['house_edge']['percent']:.4f}% and {f['tie']['house_edge']['percent']:.4f}%")


def _poker_check(s: dict) -> str:
    return "par: no house edge (poker); the rake, at most 10 percent of the sums bet (9 NYCRR 5324.42(o)(2)(i))"


# --- each game's sheet, as its entry in controller/games/registry.py names it (`par`) ---------

@dataclass(frozen=True)
class GameSheet:
    """How a game's par sheet is made: the rules that determine it, the sheet, its line for `config check`,
    how `tablectl par` prints it, and (a long first count) whether that count is cached yet."""

    rules: Callable[[Any], dict]
    compute: Callable[[dict], dict]
    check: Callable[[dict], str]
    render: str                                   # "module:function" (controller/par/cli.py)
    counted: Callable[[], bool] | None = None


STUD_SHEET = GameSheet(_stud_rules, _stud, _stud_check, "controller.par.cli:render_stud", stud_table_cached)
WAR_SHEET = GameSheet(_war_rules, _war, _war_check, "controller.par.cli:render_war")
POKER_SHEET = GameSheet(_poker_rules, _poker, _poker_check, "controller.par.cli:render_poker")


def sheet_of(game: str) -> GameSheet:
    from controller.games import registry
    return registry.game(game).books.par
