"""`tablectl par` and `tablectl config check`, the installed commands, on the standard rules and others."""

from __future__ import annotations

import json
import os
import subprocess
from fractions import Fraction

from tests.par.par_helpers import CONFIG, TABLECTL, par, par_json, profile_with

DEALS = 19_933_230_517_200  # C(52,5) x 47 x C(46,4)


def fr(figure: dict) -> Fraction:
    assert set(figure) == {"numerator", "denominator", "percent"}
    assert isinstance(figure["numerator"], int) and isinstance(figure["denominator"], int)
    value = Fraction(figure["numerator"], figure["denominator"])
    assert round(float(value * 100), 4) == figure["percent"]
    return value


def test_standard_rules_give_the_published_figures(stud_cache):
    _, s = stud_cache
    assert s["deals"] == DEALS
    optimal, simple = s["strategies"]["optimal"], s["strategies"]["simple"]
    assert fr(optimal["house_edge"]) == Fraction(1_041_372_912_372, DEALS)
    assert optimal["house_edge"]["percent"] == 5.2243
    assert optimal["element_of_risk"]["percent"] == 2.5553
    assert fr(simple["house_edge"]) == Fraction(1_132_600_203_540, DEALS)
    assert simple["house_edge"]["percent"] == 5.6820
    assert optimal["house_win_antes"] == 1_041_372_912_372
    # element of risk: the same loss over every unit wagered, ante plus two antes on each bet
    bets = fr(optimal["bet_frequency"])
    assert fr(optimal["element_of_risk"]) == fr(optimal["house_edge"]) / (1 + 2 * bets)
    for st in (optimal, simple):
        p = st["probabilities"]
        assert sum(fr(p[k]) for k in ("fold", "dealer_not_qualifying", "win", "push", "loss")) == 1
        assert sum(fr(f) for f in p["win_by_hand"].values()) == fr(p["win"])
        assert fr(p["fold"]) == 1 - fr(st["bet_frequency"])
    assert fr(simple["probabilities"]["win"]) == fr(simple["probabilities"]["loss"])  # same qualifier: symmetric
    # the standard paytable is the floor of (g)(2)
    assert s["floor"]["strategies"]["optimal"]["house_edge"] == optimal["house_edge"]


def test_payout_limit_caps_at_the_maximum_ante_only(stud_cache):
    pl = stud_cache[1]["payout_limit"]
    assert pl["limit"] == 100_500
    assert pl["at_minimum_ante"] == {"ante": 500, "bet": 1000, "capped": []}
    assert pl["at_maximum_ante"]["bet"] == 100_000
    assert pl["at_maximum_ante"]["capped"] == ["two-pair", "three-of-a-kind", "straight", "flush", "full-house",
                                               "four-of-a-kind", "straight-flush", "royal-flush"]


def test_progressive_hits_are_the_textbook_counts(stud_cache):
    p = stud_cache[1]["progressive"]
    counts = {h: fr(f) * 2_598_960 for h, f in p["chances"].items()}
    assert counts == {"royal-flush": 4, "straight-flush": 36, "four-of-a-kind": 624, "full-house": 3744,
                      "flush": 5108}
    fixed, per_cent = fr(p["return_fixed"]), fr(p["return_per_meter_cent"])
    # $50, $100, $500 fixed; 10% of the meter on a straight flush; the meter on a royal; a $1 wager
    assert fixed == Fraction(5108 * 5000 + 3744 * 10000 + 624 * 50000, 2_598_960 * 100)
    assert per_cent == Fraction(4 + 36 * Fraction(10, 100), 2_598_960 * 100)
    even = Fraction(p["break_even_meter"]["numerator"], p["break_even_meter"]["denominator"])
    assert fixed + per_cent * even == 1
    assert p["break_even_meter"]["cents"] == 21_804_737
    assert fr(p["house_share"]) == 1 - fixed - Fraction(7, 10) - Fraction(4, 2_598_960) * 1_000_000 / 100


def test_text_sheet_shows_the_counts_over_every_deal(stud_cache):
    done = par(stud_cache[0], CONFIG / "caribbean-stud.toml")
    assert done.returncode == 0, done.stderr
    assert "1,041,372,912,372 / 19,933,230,517,200" in done.stdout
    assert "5.2243%" in done.stdout and "2.5553%" in done.stdout and "5.6820%" in done.stdout


def test_another_paytable_comes_from_the_shipped_count_table(stud_cache, tmp_path):
    cache, standard = stud_cache
    assert not list(cache.glob("*.npz"))   # nothing counted on this machine: the package's table
    richer = profile_with(tmp_path, "rich", "caribbean-stud", {"flush = 5\n": "flush = 8\n",
                                                               "full-house = 7\n": "full-house = 10\n"})
    s = par_json(cache, richer)
    assert s["rules"]["paytable"]["flush"] == 8
    assert fr(s["strategies"]["optimal"]["house_edge"]) < fr(standard["strategies"]["optimal"]["house_edge"])
    assert s["floor"] == standard["floor"]
    assert par_json(cache, richer) == s  # the sheet itself is cached too


def test_a_profile_that_does_not_load_is_refused(tmp_path):
    bad = profile_with(tmp_path, "bad", "caribbean-stud", {"flush = 5\n": "flush = 4\n"})
    done = par(tmp_path, bad)
    assert done.returncode == 2 and "5324.37(g)(2)" in done.stderr and done.stdout == ""


def war_edges(decks: int, tie_odds: int = 10, war_odds: int = 2, war_tie_odds: int = 3) -> dict:
    """Casino war dealt out card by card from the shoe, burn cards included, in integers.

    Sequences of ranks: player, dealer, then on a tie three burns, player's and dealer's war cards.
    """
    counts = [4 * decks] * 13
    n = 52 * decks
    war = surrender = tie = 0
    firsts = n * (n - 1)
    rest = (n - 2) * (n - 3) * (n - 4) * (n - 5) * (n - 6)  # the five cards after a tie
    for a in range(13):
        for b in range(13):
            w = counts[a] * (counts[b] - (a == b))
            if a != b:
                sign = 1 if a > b else -1
                war += sign * w * rest
                surrender += sign * w
                tie -= w
                continue
            tie += w * tie_odds
            surrender -= Fraction(w, 2)
            left = counts.copy()
            left[a] -= 2
            for burns in ((x, y, z) for x in range(13) for y in range(13) for z in range(13)):
                wb = w
                for r in burns:
                    wb *= left[r]
                    left[r] -= 1
                for p in range(13):
                    wp = wb * left[p]
                    left[p] -= 1        # the dealer's war card, of a lower, higher or the same rank
                    war += wp * (sum(left[:p]) * (war_odds - 1) - sum(left[p + 1:]) * 2 + left[p] * war_tie_odds)
                    left[p] += 1
                for r in burns:
                    left[r] += 1
    return {"always_war": -Fraction(war, firsts * rest), "always_surrender": -Fraction(surrender, firsts),
            "tie": -Fraction(tie, firsts)}


def test_casino_war_at_six_seven_and_eight_decks(tmp_path):
    for decks in (6, 7, 8):
        profile = profile_with(tmp_path, f"war{decks}", "casino-war", {"decks = 6 ": f"decks = {decks} "})
        s = par_json(tmp_path / "cache", profile)
        expected = war_edges(decks)
        for name in ("always_war", "always_surrender", "tie"):
            assert fr(s[name]["house_edge"]) == expected[name], (decks, name)
        if decks == 6:
            assert s["always_war"]["house_edge"]["percent"] == 1.7830
            assert s["tie"]["house_edge"]["percent"] == 18.6495
    edges = [war_edges(d)["always_war"] for d in (6, 7, 8)]
    assert edges[0] > edges[1] > edges[2]


def test_a_packaged_profile_is_found_by_name(tmp_path):
    """As `tablectl run --config casino-war` does: the same sheet as from the file."""
    by_name = par(tmp_path / "cache", "casino-war", "--json")
    assert by_name.returncode == 0, by_name.stderr
    assert json.loads(by_name.stdout) == par_json(tmp_path / "cache", CONFIG / "casino-war.toml")


def test_poker_sheet_is_the_rake_by_pot(tmp_path):
    s = par_json(tmp_path, CONFIG / "texas-holdem.toml")
    assert s["house_edge"] is None and s["rake_method"] == "percentage"
    pots = {row["pot"]: row for row in s["pots"]}
    # 10 percent from a pot of $10 (the minimum pot), capped at $5; $1 to the jackpot from a $20 pot
    assert (pots[400]["rake"], pots[1000]["rake"], pots[5000]["rake"], pots[100000]["rake"]) == (0, 100, 500, 500)
    assert (pots[1000]["jackpot_drop"], pots[2000]["jackpot_drop"]) == (0, 100)
    assert fr(pots[2000]["share"]) == Fraction(300, 2000)


def test_config_check_shows_the_cached_edge_beside_the_floors(stud_cache, tmp_path):
    env = {**os.environ, "TABLECTL_PAR_CACHE": str(stud_cache[0])}
    run = subprocess.run([str(TABLECTL), "config", "check", str(CONFIG / "caribbean-stud.toml")],
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    ok, line = run.stdout.splitlines()
    assert ok == "ok"
    assert "house edge 5.2243% per ante (optimal), 5.6820% (simple)" in line and "5324.37(g)(2)" in line
    par_json(stud_cache[0], CONFIG / "casino-war.toml")
    run = subprocess.run([str(TABLECTL), "config", "check", str(CONFIG / "casino-war.toml"),
                          str(CONFIG / "texas-holdem.toml")], env=env, capture_output=True, text=True, timeout=60)
    lines = run.stdout.splitlines()
    assert lines[0].endswith("casino-war.toml: ok")
    assert "1.7830% always to war" in lines[1] and "18.6495%" in lines[1] and "5324.22(j)" in lines[1]
    assert lines[2].endswith("texas-holdem.toml: ok") and len(lines) == 3  # no poker sheet cached
    empty = {**os.environ, "TABLECTL_PAR_CACHE": str(tmp_path)}
    run = subprocess.run([str(TABLECTL), "config", "check", str(CONFIG / "caribbean-stud.toml")],
                         env=empty, capture_output=True, text=True, timeout=60)
    assert run.stdout == "ok\n"


def test_json_fields_named_in_the_readme(stud_cache, tmp_path):
    s = stud_cache[1]
    for path in ("strategies.optimal.house_edge", "strategies.optimal.element_of_risk",
                 "strategies.simple.house_edge"):
        node = s
        for part in path.split("."):
            node = node[part]
        fr(node)
    war = par_json(tmp_path, CONFIG / "casino-war.toml")
    for name in ("always_war", "always_surrender", "tie"):
        fr(war[name]["house_edge"])
    json.dumps(war)


def test_the_readme_shows_the_standard_sheet_as_the_command_prints_it(stud_cache):
    readme = (CONFIG.parent / "README.md").read_text()
    start = readme.index("`config/caribbean-stud.toml` (the standard paytable")
    block = readme[readme.index("```\n", start) + 4:]
    block = block[:block.index("```\n")]
    done = par(stud_cache[0], CONFIG / "caribbean-stud.toml")
    assert block == done.stdout
