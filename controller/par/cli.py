"""`tablectl par --config PROFILE [--json]`: the par sheet of the profile's game.

The first Caribbean stud sheet on a machine counts every deal (about half a
minute on two cores) and caches the count table; every later sheet, any paytable,
comes from it in well under a second. Run as `python -m controller.par.cli` by the
table's background job (background.py), at the lowest priority.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from controller.par.sheet import fraction

LINE_NAMES = {"pair-or-less": "pair or less", "two-pair": "two pair", "three-of-a-kind": "three of a kind",
              "straight": "straight", "flush": "flush", "full-house": "full house",
              "four-of-a-kind": "four of a kind", "straight-flush": "straight flush",
              "royal-flush": "royal flush"}


def _pct(figure: dict) -> str:
    return f"{figure['percent']:.4f}%"


def _over(figure: dict, deals: int) -> str:
    """The figure as a count over all deals (every stud probability is one)."""
    value = fraction(figure) * deals
    return f"{value.numerator:,} / {deals:,}" if value.denominator == 1 else f"{fraction(figure)}"


def _money(cents: int | None) -> str:
    if cents is None:
        return "none"
    return f"${cents // 100:,}.{cents % 100:02d}"


def render_stud(s: dict) -> list[str]:
    r, deals = s["rules"], s["deals"]
    out = [f"Caribbean stud poker ({s['regulation']}): bet {r['bet_multiple']} x ante; paytable "
           + ", ".join(f"{LINE_NAMES[k]} {r['paytable'][k]}:1" for k in LINE_NAMES),
           f"Exact over all {deals:,} deals (player's five cards x dealer's up card x hole cards).", ""]
    for name, st in s["strategies"].items():
        how = ("optimal: the player sees his five cards and the dealer's up card" if name == "optimal"
               else "simple: bet with a pair or better or ace-king, else fold")
        p = st["probabilities"]
        out += [f"Strategy {how}",
                f"  house edge per ante       {_pct(st['house_edge']):>9}   {_over(st['house_edge'], deals)} antes",
                f"  element of risk           {_pct(st['element_of_risk']):>9}   {fraction(st['element_of_risk'])}",
                f"  fold                      {_pct(p['fold']):>9}   {_over(p['fold'], deals)}",
                f"  dealer does not qualify   {_pct(p['dealer_not_qualifying']):>9}   "
                f"{_over(p['dealer_not_qualifying'], deals)}",
                f"  win by hand               {_pct(p['win']):>9}   {_over(p['win'], deals)}"]
        for line in LINE_NAMES:
            fig = p["win_by_hand"][line]
            out.append(f"    {LINE_NAMES[line]:<23} {_pct(fig):>9}   {_over(fig, deals)}")
        out += [f"  push                      {_pct(p['push']):>9}   {_over(p['push'], deals)}",
                f"  loss                      {_pct(p['loss']):>9}   {_over(p['loss'], deals)}", ""]
    fl = s["floor"]["strategies"]
    out += [f"At the floor paytable of 5324.37(g)(2): house edge {_pct(fl['optimal']['house_edge'])} (optimal), "
            f"{_pct(fl['simple']['house_edge'])} (simple)"]
    pl = s["payout_limit"]
    out.append(f"Payout limit (g)(3): {_money(pl['limit'])}")
    for key, label in (("at_minimum_ante", "minimum"), ("at_maximum_ante", "maximum")):
        a = pl[key]
        capped = ", ".join(LINE_NAMES[c] for c in a["capped"]) or "no hand"
        out.append(f"  at the {label} ante {_money(a['ante'])} (bet {_money(a['bet'])}): caps {capped}")
    pr = s["progressive"]
    out += ["", f"Progressive wager of {_money(pr['wager'])} (5324.37(g)(4)-(6)), of {pr['hands']:,} five-card hands:"]
    for hand in ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush"):
        fig = pr["chances"][hand]
        n = fraction(fig) * pr["hands"]
        out.append(f"  {LINE_NAMES[hand]:<16} {n.numerator:>6,}   {_pct(fig):>9}")
    fixed, per = fraction(pr["return_fixed"]), fraction(pr["return_per_meter_cent"])
    out += [f"  return per unit wagered = {float(fixed):.6f} + {float(per * 100):.6e} x meter in dollars"
            f"  (exactly {fixed} + {per} x meter in cents)",
            f"  at the initial meter {_money(pr['return_at_initial_meter']['meter'])}: "
            f"{_pct(pr['return_at_initial_meter']['return'])} of the wager returned",
            f"  breaks even at a meter of {_money(pr['break_even_meter']['cents'])}",
            f"  rate of progression {_pct(pr['rate'])}; in the long run (the reset seeded after each royal) "
            f"the house keeps {_pct(pr['house_share'])} of each wager"]
    return out


def render_war(s: dict) -> list[str]:
    r = s["rules"]
    out = [f"Casino war ({s['regulation']}): {r['decks']} decks; tie {r['tie_odds']}:1, war {r['war_odds']}:1, "
           f"war tie {r['war_tie_odds']}:1",
           f"  tie hand                        {_pct(s['tie_hand']):>9}   {fraction(s['tie_hand'])}"]
    for key, label in (("always_war", "initial wager, always to war"),
                       ("always_surrender", "initial wager, always surrender"), ("tie", "tie wager")):
        fig = s[key]["house_edge"]
        out.append(f"  {label:<32}{_pct(fig):>9}   {fraction(fig)}")
    f = s["floor"]
    out.append(f"At the floor odds of 5324.22(j): always to war {_pct(f['always_war']['house_edge'])}, "
               f"tie wager {_pct(f['tie']['house_edge'])}")
    return out


def render_poker(s: dict) -> list[str]:
    out = [f"Poker, {s['game']} ({s['regulation']}): no house edge; the house takes the rake "
           f"({s['rake_method']}) and the jackpot drop", "  pot            rake     jackpot drop   share of pot"]
    for row in s["pots"]:
        out.append(f"  {_money(row['pot']):>10} {_money(row['rake']):>10} {_money(row['jackpot_drop']):>12}"
                   f"   {_pct(row['share']):>9}")
    if "time_charge" in s:
        t = s["time_charge"]
        out.append(f"  time charge: {_money(t['hourly'])} an hour per {t['per']}, by {t['increment_minutes']} "
                   "minutes, taken from no pot")
    return out


def render(s: dict) -> str:
    import importlib

    from controller.par.sheet import sheet_of
    module, _, function = sheet_of(s["game"]).render.partition(":")
    lines = getattr(importlib.import_module(module), function)(s)   # the game's own (its books.par)
    return "\n".join(lines)


def main(args) -> int:
    from controller.config import ConfigError, load_profile
    from controller.par.sheet import cached, compute, sheet_of

    from controller.appliance import profile_path

    try:
        profile = load_profile(profile_path(args.config))   # a file, or a packaged profile by name
    except ConfigError as exc:
        for issue in exc.issues:
            print(issue, file=sys.stderr)
        return 2
    counted = sheet_of(profile.game).counted   # a game whose sheet needs a long count once (Caribbean stud)
    if (counted is not None and not getattr(args, "quiet", False)
            and cached(profile) is None and not counted()):
        print("tablectl par: counting every Caribbean stud deal, once for this machine (about a minute); "
              "later sheets come from the cache", file=sys.stderr, flush=True)
    s = compute(profile)
    if getattr(args, "quiet", False):
        return 0
    print(json.dumps(s, indent=2) if args.json else render(s))
    return 0


def _background() -> int:
    """The table's job: fill the cache at the lowest priority, printing nothing."""
    parser = argparse.ArgumentParser(prog="python -m controller.par.cli")
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    try:
        os.nice(19)
    except OSError:
        pass
    args.json, args.quiet = False, True
    return main(args)


if __name__ == "__main__":
    sys.exit(_background())
