"""Caribbean stud's par sheet (9 NYCRR 5324.37): its figures from the profile's rules, and how they read.

The exact mathematics is beside it (counts, paytable, progressive); this says
which rules determine the sheet, puts the figures in the sheet's JSON (each exact
figure a fraction, controller/par/sheet.py `exact`), gives `config check` its line
and `tablectl par` its text. Every deal is counted once, by whoever builds the
release (`tablectl par --recount`): the package ships the count table (shipped.py),
so a sheet on the table takes a second and no compiler.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from controller.games.caribbean_stud.par import paytable as stud
from controller.games.caribbean_stud.par import progressive, shipped
from controller.games.caribbean_stud.floors import STUD_PAYTABLE_MINIMUM
from controller.par.hold import Unit
from controller.par.sheet import GameSheet, dollars, exact, fraction, pct

FLOOR_PAYTABLE = dict(STUD_PAYTABLE_MINIMUM)  # 5324.37(g)(2)

LINE_NAMES = {"pair-or-less": "pair or less", "two-pair": "two pair", "three-of-a-kind": "three of a kind",
              "straight": "straight", "flush": "flush", "full-house": "full house",
              "four-of-a-kind": "four of a kind", "straight-flush": "straight flush",
              "royal-flush": "royal flush"}


def _rules(profile: Any) -> dict[str, Any]:
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


def stud_table() -> stud.StudTable:
    """The count table of the 52-card deck and the ace-king qualifier, as the package ships it."""
    return shipped.load()[0]


def _strategy_sheet(s: stud.Strategy) -> dict[str, Any]:
    deals = s.deals
    return {
        "house_edge": exact(s.house_edge),
        "element_of_risk": exact(s.element_of_risk),
        "variance": exact(s.variance),   # of one ante's result (ante and bet), in antes squared
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


def _sheet(rules: dict[str, Any]) -> dict[str, Any]:
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


def _check(s: dict[str, Any]) -> str:
    mine, floor = s["strategies"], s["floor"]["strategies"]
    return (f"par: house edge {mine['optimal']['house_edge']['percent']:.4f}% per ante (optimal), "
            f"{mine['simple']['house_edge']['percent']:.4f}% (simple); at the floor paytable of "
            f"9 NYCRR 5324.37(g)(2) {floor['optimal']['house_edge']['percent']:.4f}% and "
            f"{floor['simple']['house_edge']['percent']:.4f}%; progressive rate "
            f"{s['progressive']['rate']['percent']:.2f}% (floor 70%, (g)(5))")


def _over(figure: dict[str, Any], deals: int) -> str:
    """The figure as a count over all deals (every stud probability is one)."""
    value = fraction(figure) * deals
    return f"{value.numerator:,} / {deals:,}" if value.denominator == 1 else f"{fraction(figure)}"


def _render(s: dict[str, Any]) -> list[str]:
    r, deals = s["rules"], s["deals"]
    out = [f"Caribbean stud poker ({s['regulation']}): bet {r['bet_multiple']} x ante; paytable "
           + ", ".join(f"{LINE_NAMES[k]} {r['paytable'][k]}:1" for k in LINE_NAMES),
           f"Exact over all {deals:,} deals (player's five cards x dealer's up card x hole cards).", ""]
    for name, st in s["strategies"].items():
        how = ("optimal: the player sees his five cards and the dealer's up card" if name == "optimal"
               else "simple: bet with a pair or better or ace-king, else fold")
        p = st["probabilities"]
        out += [f"Strategy {how}",
                f"  house edge per ante       {pct(st['house_edge']):>9}   {_over(st['house_edge'], deals)} antes",
                f"  element of risk           {pct(st['element_of_risk']):>9}   {fraction(st['element_of_risk'])}",
                f"  fold                      {pct(p['fold']):>9}   {_over(p['fold'], deals)}",
                f"  dealer does not qualify   {pct(p['dealer_not_qualifying']):>9}   "
                f"{_over(p['dealer_not_qualifying'], deals)}",
                f"  win by hand               {pct(p['win']):>9}   {_over(p['win'], deals)}"]
        for line in LINE_NAMES:
            fig = p["win_by_hand"][line]
            out.append(f"    {LINE_NAMES[line]:<23} {pct(fig):>9}   {_over(fig, deals)}")
        out += [f"  push                      {pct(p['push']):>9}   {_over(p['push'], deals)}",
                f"  loss                      {pct(p['loss']):>9}   {_over(p['loss'], deals)}", ""]
    fl = s["floor"]["strategies"]
    out += [f"At the floor paytable of 5324.37(g)(2): house edge {pct(fl['optimal']['house_edge'])} (optimal), "
            f"{pct(fl['simple']['house_edge'])} (simple)"]
    pl = s["payout_limit"]
    out.append(f"Payout limit (g)(3): {dollars(pl['limit'])}")
    for key, label in (("at_minimum_ante", "minimum"), ("at_maximum_ante", "maximum")):
        a = pl[key]
        capped = ", ".join(LINE_NAMES[c] for c in a["capped"]) or "no hand"
        out.append(f"  at the {label} ante {dollars(a['ante'])} (bet {dollars(a['bet'])}): caps {capped}")
    pr = s["progressive"]
    out += ["", f"Progressive wager of {dollars(pr['wager'])} (5324.37(g)(4)-(6)), of {pr['hands']:,} five-card hands:"]
    for hand in ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush"):
        fig = pr["chances"][hand]
        n = fraction(fig) * pr["hands"]
        out.append(f"  {LINE_NAMES[hand]:<16} {n.numerator:>6,}   {pct(fig):>9}")
    fixed, per = fraction(pr["return_fixed"]), fraction(pr["return_per_meter_cent"])
    out += [f"  return per unit wagered = {float(fixed):.6f} + {float(per * 100):.6e} x meter in dollars"
            f"  (exactly {fixed} + {per} x meter in cents)",
            f"  at the initial meter {dollars(pr['return_at_initial_meter']['meter'])}: "
            f"{pct(pr['return_at_initial_meter']['return'])} of the wager returned",
            f"  breaks even at a meter of {dollars(pr['break_even_meter']['cents'])}",
            f"  rate of progression {pct(pr['rate'])}; in the long run (the reset seeded after each royal) "
            f"the house keeps {pct(pr['house_share'])} of each wager"]
    return out


def _screen(s: dict[str, Any]) -> list[dict[str, Any]]:
    """The supervisor's screen: the edges of both strategies, the floor's, the progressive's."""
    o, m, p, pl = s["strategies"]["optimal"], s["strategies"]["simple"], s["progressive"], s["payout_limit"]

    def capped(a: dict[str, Any]) -> str:
        return ", ".join(LINE_NAMES[c].capitalize() for c in a["capped"]) or "no hand"
    return [
        {"rows": [["House edge per ante, optimal strategy", o["house_edge"], "par-optimal-house-edge"],
                  ["Element of risk, optimal strategy", o["element_of_risk"], "par-optimal-element-of-risk"],
                  ["House edge per ante, bet with ace-king or better", m["house_edge"], "par-simple-house-edge"],
                  ["At the floor paytable of 5324.37(g)(2), optimal",
                   s["floor"]["strategies"]["optimal"]["house_edge"], "par-floor-house-edge"],
                  ["Progressive: house's long-run share of a wager", p["house_share"], "par-progressive-share"]]},
        {"text": "Paytable: " + ", ".join(f"{LINE_NAMES[k].capitalize()} {s['rules']['paytable'][k]}:1"
                                          for k in LINE_NAMES) + f"; bet {s['rules']['bet_multiple']} \u00d7 ante.",
         "test": None},
        {"text": f"Progressive breaks even at a meter of {dollars(p['break_even_meter']['cents'])}.",
         "test": "par-break-even"},
        {"text": f"Payout limit {dollars(pl['limit'])}: at the minimum ante caps {capped(pl['at_minimum_ante'])}; "
                 f"at the maximum ante caps {capped(pl['at_maximum_ante'])}.", "test": None},
    ]


def _recount() -> tuple[bytes, bytes]:
    return shipped.recount(), shipped.shipped_bytes()


def _units(s: dict[str, Any]) -> dict[str, Unit]:
    """The ante, priced with the bet its player adds, as the optimal strategy plays it: the least the
    house can expect (a table's players fold and bet as they like; the par a lab quotes is this one).
    The progressive wager is the meter's, held by its own books (5320.8), not here."""
    o = s["strategies"]["optimal"]
    return {"ante": Unit(fraction(o["house_edge"]), fraction(o["variance"]), ("ante", "bet"))}


SHEET = GameSheet(_rules, _sheet, _check, _render, _screen, recount=_recount, units=_units)
