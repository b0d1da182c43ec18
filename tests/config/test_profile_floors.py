"""Every regulatory floor refused with the file, the line, the key and the provision."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.config.config_helpers import CONFIG, line_of

from controller.config import ConfigError, load_profile, parse_profile


def only(issues: list):
    assert len(issues) == 1, [str(i) for i in issues]
    return issues[0]


def assert_refused(issue, path, line: int, key: str, *fragments: str) -> None:
    text = str(issue)
    assert text.startswith(f"{path}:{line}: {key} "), text
    for fragment in fragments:
        assert fragment in text, text


# ---------------------------------------------------------------- Caribbean stud

# 5324.37(g)(2): the least odds of each bet wager payout.
PAYTABLE_MINIMUMS = {"pair-or-less": 1, "two-pair": 2, "three-of-a-kind": 3, "straight": 4,
                     "flush": 5, "full-house": 7, "four-of-a-kind": 20, "straight-flush": 50,
                     "royal-flush": 100}


@pytest.mark.parametrize("hand", PAYTABLE_MINIMUMS)
def test_paytable_below_5324_37_g_2_is_refused(profiles, hand: str) -> None:
    least = PAYTABLE_MINIMUMS[hand]
    # royal flush odds also set the payout limit floor; lift the limit out of the way
    issues, text, path = profiles.refused(
        "caribbean-stud", (f"\n{hand} = {least}\n", f"\n{hand} = {least - 1}\n"),
        ("bet_payout_limit = 100500", "bet_payout_limit = 10000000"))
    assert_refused(only(issues), path, line_of(text, f"{hand} = {least - 1}"),
                   f"caribbean_stud.paytable.{hand} = {least - 1}",
                   f"is below the minimum {least}:1 of 9 NYCRR 5324.37(g)(2)")


def test_paytable_at_or_above_the_minimum_is_accepted(profiles) -> None:
    profile = profiles.load("caribbean-stud", ("\nflush = 5\n", "\nflush = 6\n"))
    assert profile.caribbean_stud.paytable.flush == 6


def test_flush_at_4_to_1_is_refused_by_tablectl_config_check(profiles) -> None:
    """The issue's acceptance test: exit 2, the file:line and 5324.37(g)(2) on stderr."""
    path, text = profiles.edited("caribbean-stud", ("\nflush = 5\n", "\nflush = 4\n"))
    run = subprocess.run([sys.executable, "-m", "controller.cli", "config", "check", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        f"tablectl config check: {path}:{line_of(text, 'flush = 4')}: caribbean_stud.paytable.flush = 4 "
        "is below the minimum 5:1 of 9 NYCRR 5324.37(g)(2)"]


def test_tablectl_console_script_exits_2_on_a_refused_profile(profiles) -> None:
    path, _ = profiles.edited("caribbean-stud", ("\nflush = 5\n", "\nflush = 4\n"))
    tablectl = str(CONFIG.parent / ".venv" / "bin" / "tablectl")
    run = subprocess.run([tablectl, "config", "check", str(CONFIG / "casino-war.toml"), str(path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stdout == f"{CONFIG / 'casino-war.toml'}: ok\n"
    assert "5324.37(g)(2)" in run.stderr


@pytest.mark.parametrize(("key", "least"), [("flush", 5000), ("full-house", 10000),
                                            ("four-of-a-kind", 50000)])
def test_progressive_fixed_award_below_5324_37_g_4_is_refused(profiles, key: str, least: int) -> None:
    issues, text, path = profiles.refused("caribbean-stud", (f"{key} = {least}\n", f"{key} = {least - 1}\n"))
    assert_refused(only(issues), path, line_of(text, f"{key} = {least - 1}"),
                   f"caribbean_stud.progressive.{key} = {least - 1}",
                   f"is below the minimum {least}", "9 NYCRR 5324.37(g)(4)")


@pytest.mark.parametrize(("award", "key", "value"), [
    ("{ fixed = 499999 }", "fixed", 499999),
    ("{ percent_of_meter = 9 }", "percent_of_meter", 9),
])
def test_straight_flush_award_below_5324_37_g_4_is_refused(profiles, award: str, key: str, value: int) -> None:
    issues, text, path = profiles.refused(
        "caribbean-stud", ("straight-flush = { percent_of_meter = 10 }", f"straight-flush = {award}"))
    assert_refused(only(issues), path, line_of(text, "straight-flush = {"),
                   f"caribbean_stud.progressive.straight-flush.{key} = {value}", "9 NYCRR 5324.37(g)(4)")


def test_straight_flush_award_of_5000_dollars_is_accepted(profiles) -> None:
    profile = profiles.load("caribbean-stud",
                            ("straight-flush = { percent_of_meter = 10 }", "straight-flush = { fixed = 500000 }"))
    assert profile.caribbean_stud.progressive.straight_flush.fixed == 500000


def test_straight_flush_award_needs_exactly_one_kind(profiles) -> None:
    issues, _, _ = profiles.refused(
        "caribbean-stud", ("straight-flush = { percent_of_meter = 10 }",
                           "straight-flush = { percent_of_meter = 10, fixed = 500000 }"))
    assert "exactly one of percent_of_meter and fixed" in str(only(issues))


def test_contribution_rate_under_70_percent_is_refused(profiles) -> None:
    issues, text, path = profiles.refused("caribbean-stud", ("contribution_bp = 7000", "contribution_bp = 6999"))
    assert_refused(only(issues), path, line_of(text, "contribution_bp = 6999"),
                   "caribbean_stud.progressive.contribution_bp = 6999",
                   "is below the minimum 7000 (70 percent) of 9 NYCRR 5324.37(g)(5)")
    assert profiles.load("caribbean-stud", ("contribution_bp = 7000", "contribution_bp = 7500")) \
        .caribbean_stud.progressive.contribution_bp == 7500


# 5324.37(g)(3) payout limit floor: minimum ante 500, bet 2 x 500 = 1000.
@pytest.mark.parametrize(("edits", "floor"), [
    ((), 500 + 1000 * 100),                                              # royal flush 100:1
    ((("royal-flush = 100", "royal-flush = 250"),), 500 + 1000 * 250),   # the profile's own royal odds
    ((("bet_multiple = 2", "bet_multiple = 3"),), 500 + 1500 * 100),
    ((("minimum_wager = 500", "minimum_wager = 1000"),), 1000 + 2000 * 100),
    ((("bet_multiple = 2", "bet_multiple = 2\npayout_limit_minimum_amount = 250000"),), 250000),
])
def test_payout_limit_floor_of_5324_37_g_3(profiles, edits, floor: int) -> None:
    edits = tuple(edits)
    limit_line = "bet_payout_limit = 100500"
    accepted = profiles.load("caribbean-stud", *edits, (limit_line, f"bet_payout_limit = {floor}"))
    assert accepted.caribbean_stud.bet_payout_limit == floor
    issues, text, path = profiles.refused("caribbean-stud", *edits,
                                          (limit_line, f"bet_payout_limit = {floor - 1}"))
    assert_refused(only(issues), path, line_of(text, f"bet_payout_limit = {floor - 1}"),
                   f"caribbean_stud.bet_payout_limit = {floor - 1}",
                   f"is below the floor {floor} of 9 NYCRR 5324.37(g)(3)")


def test_payout_limit_floor_is_refused_by_tablectl_config_check(profiles) -> None:
    path, _ = profiles.edited("caribbean-stud", ("bet_payout_limit = 100500", "bet_payout_limit = 50000"))
    run = subprocess.run([sys.executable, "-m", "controller.cli", "config", "check", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "caribbean_stud.bet_payout_limit = 50000 is below the floor 100500 of 9 NYCRR 5324.37(g)(3)" \
        in run.stderr
    assert "ante 500 at 1:1 plus bet 1000 at 100:1 on a royal-flush" in run.stderr


def test_no_payout_limit_is_accepted(profiles) -> None:
    profile = profiles.load("caribbean-stud", ("bet_payout_limit = 100500", "# no limit"))
    assert profile.caribbean_stud.bet_payout_limit is None
    assert profile.record_rules()["bet_payout_limit"] is None


# ---------------------------------------------------------------- casino war

@pytest.mark.parametrize("decks", [1, 5, 9])
def test_decks_other_than_six_to_eight_are_refused(profiles, decks: int) -> None:
    issues, text, path = profiles.refused("casino-war", ("decks = 6 ", f"decks = {decks} "))
    assert_refused(only(issues), path, line_of(text, f"decks = {decks} "),
                   f"casino_war.decks = {decks}", "9 NYCRR 5324.22(c)")


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_six_seven_or_eight_decks_are_accepted(profiles, decks: int) -> None:
    assert profiles.load("casino-war", ("decks = 6 ", f"decks = {decks} ")).casino_war.decks == decks


@pytest.mark.parametrize(("key", "least", "provision"), [
    ("tie_odds", 10, "5324.22(j)(2)"), ("war_odds", 2, "5324.22(j)(3)"), ("war_tie_odds", 3, "5324.22(j)(3)")])
def test_war_odds_below_5324_22_j_are_refused(profiles, key: str, least: int, provision: str) -> None:
    issues, text, path = profiles.refused("casino-war", (f"{key} = {least} ", f"{key} = {least - 1} "))
    assert_refused(only(issues), path, line_of(text, f"{key} = {least - 1} "),
                   f"casino_war.{key} = {least - 1}", f"is below the minimum {least}:1 of 9 NYCRR {provision}")
    assert getattr(profiles.load("casino-war", (f"{key} = {least} ", f"{key} = {least + 1} ")).casino_war,
                   key) == least + 1


# ---------------------------------------------------------------- seats

# The most seats of each game, from the regulation (see controller/games/poker/floors.py for the
# games whose subdivision sets none and one deck does).
SEAT_LIMITS = {
    "caribbean-stud": (7, "5324.37(a)(1)"),
    "casino-war": (7, "5324.22(a)"),
    "seven-card-stud": (8, "5324.42(h)(2)"),
    "seven-card-stud-low": (8, "5324.42(h)(2)"),
    "seven-card-stud-hi-lo": (8, "5324.42(h)(2)"),
    "seven-card-stud-hi-lo-8": (8, "5324.42(h)(2)"),
    "texas-holdem": (11, "5324.42(i)(2)"),
    "omaha": (10, "5324.42(j)(2)"),
    "omaha-hi-lo-8": (10, "5324.42(j)(2)"),
    "triple-draw-2-7": (7, "5324.42(l)(2)"),
    "five-card-draw": (10, "5324.42(a)(5)(i) and (k)(4)"),
    "five-card-draw-low": (10, "5324.42(a)(5)(i) and (k)(4)"),
    "five-card-stud": (9, "5324.42(a)(5)(i) and (m)(3)"),
    "pineapple": (11, "5324.42(a)(1), (f)(2)"),
    "crazy-pineapple": (11, "5324.42(a)(1), (f)(2)"),
}


def _seats_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("seats = "))


@pytest.mark.parametrize("game", SEAT_LIMITS)
def test_more_seats_than_the_game_allows_are_refused(profiles, game: str) -> None:
    limit, provision = SEAT_LIMITS[game]
    current = _seats_line(profiles.text(game))
    assert profiles.load(game, (current, f"seats = {limit}")).seats == limit
    issues, text, path = profiles.refused(game, (current, f"seats = {limit + 1}"))
    assert_refused(only(issues), path, line_of(text, f"seats = {limit + 1}"),
                   f"table.seats = {limit + 1}", f"is more than the {limit} ", f"9 NYCRR {provision}")


def test_a_poker_table_needs_two_players(profiles) -> None:
    current = _seats_line(profiles.text("texas-holdem"))
    issues, _, _ = profiles.refused("texas-holdem", (current, "seats = 1"))
    assert "5324.42(f)(2)" in str(only(issues))


# ---------------------------------------------------------------- poker

def test_straddle_other_than_twice_the_big_blind_is_refused(profiles) -> None:
    for straddle in (300, 600):
        issues, text, path = profiles.refused("texas-holdem", ("straddle = 400", f"straddle = {straddle}"))
        assert_refused(only(issues), path, line_of(text, f"straddle = {straddle}"),
                       f"poker.straddle = {straddle}",
                       "is not twice the big blind (400) as 9 NYCRR 5324.42(c)(11) requires")
    assert profiles.load("texas-holdem", ("straddle = 400", "# no straddle")).poker.straddle is None


def test_rake_over_10_percent_is_refused(profiles) -> None:
    issues, text, path = profiles.refused("texas-holdem", ("rate_bp = 1000", "rate_bp = 1001"))
    assert_refused(only(issues), path, line_of(text, "rate_bp = 1001"), "poker.rake.rate_bp = 1001",
                   "is above the maximum 1000 (10 percent) of 9 NYCRR 5324.42(o)(2)(i)")


def test_kill_is_refused_outside_omaha_hi_lo(profiles) -> None:
    issues, text, path = profiles.refused(
        "omaha", ("[poker.rake]", "[poker.kill]\nkind = \"kill\"\npot_threshold = 8000\n\n[poker.rake]"))
    assert_refused(only(issues), path, line_of(text, "[poker.kill]"), "poker.kill", "5324.42(j)(9)")


def test_fixed_limit_needs_its_bets_and_others_refuse_them(profiles) -> None:
    issues, text, path = profiles.refused("omaha-hi-lo-8", ("big_bet = 800", "# big_bet"))
    assert str(only(issues)) == f"{path}:{line_of(text, '[poker]')}: poker.big_bet: is required for a fixed-limit game"
    issues, text, path = profiles.refused("texas-holdem", ("straddle = 400", "straddle = 400\nraise_cap = 3"))
    assert_refused(only(issues), path, line_of(text, "raise_cap = 3"), "poker.raise_cap = 3",
                   "belongs to a fixed-limit game, not no-limit")


def test_bring_in_above_the_first_bet_is_refused(profiles) -> None:
    issues, text, path = profiles.refused("seven-card-stud", ("bring_in = 100", "bring_in = 400"))
    assert_refused(only(issues), path, line_of(text, "bring_in = 400"), "poker.bring_in = 400",
                   "more than the first bet (300)")


def test_a_progressive_controller_belongs_to_caribbean_stud(profiles) -> None:
    issues, _, _ = profiles.refused("casino-war", (
        "[devices]\n", "[devices]\nprogressive = { vendor = 1, product = 2 }\n"))
    assert "5324.37(a)(3)" in str(only(issues))


# ---------------------------------------------------------------- typos, floats, several at once

def test_a_typo_key_is_refused_with_its_line_and_a_suggestion(profiles) -> None:
    issues, text, path = profiles.refused("casino-war", ("war_tie_odds = 3", "war_tie_ods = 3"))
    assert str(only(issues)) == (f"{path}:{line_of(text, 'war_tie_ods')}: casino_war.war_tie_ods: "
                                 "unknown key (did you mean war_tie_odds?)")


def test_a_typo_section_is_refused(profiles) -> None:
    issues, text, path = profiles.refused("casino-war", ("[screen]", "[sreen]"))
    assert str(only(issues)).startswith(f"{path}:{line_of(text, '[sreen]')}: sreen: unknown key")


@pytest.mark.parametrize(("name", "old", "new", "key"), [
    ("casino-war", "minimum_wager = 500", "minimum_wager = 500.0", "table.minimum_wager"),
    ("caribbean-stud", "\nflush = 5\n", "\nflush = 5.5\n", "caribbean_stud.paytable.flush"),
    ("texas-holdem", "rate_bp = 1000", "rate_bp = 9.5", "poker.rake.rate_bp"),
])
def test_a_float_is_refused(profiles, name: str, old: str, new: str, key: str) -> None:
    issues, text, path = profiles.refused(name, (old, new))
    value = new.strip().split(" = ")[1]
    assert_refused(only(issues), path, line_of(text, new.strip()), f"{key} = {value}", "is a float")


def test_a_string_or_bool_for_a_number_is_refused(profiles) -> None:
    issues, _, _ = profiles.refused("casino-war", ("minimum_wager = 500", 'minimum_wager = "500"'))
    assert 'table.minimum_wager = "500": input should be a valid integer' in str(only(issues))
    issues, _, _ = profiles.refused("casino-war", ("tie_odds = 10", "tie_odds = true"))
    assert "casino_war.tie_odds = true" in str(only(issues))


def test_every_error_of_a_file_is_reported(profiles) -> None:
    issues, text, path = profiles.refused(
        "texas-holdem", ("straddle = 400", "straddle = 300"), ("rate_bp = 1000", "rate_bp = 1100"),
        ("seats = 10", "seats = 12"), ("port = 8080", "prot = 8080"),
        ("qualifying_hand = \"four-of-a-kind\"", "qualifying_hand = \"quads\""))
    lines = [str(i) for i in issues]
    assert len(lines) == 5, lines
    for fragment in ("poker.straddle = 300", "5324.42(c)(11)", "poker.rake.rate_bp = 1100", "5324.42(o)(2)(i)",
                     "table.seats = 12", "5324.42(i)(2)", "screen.prot: unknown key (did you mean port?)",
                     'poker.jackpot.qualifying_hand = "quads": input should be'):
        assert any(fragment in line for line in lines), (fragment, lines)
    # sorted by line
    assert [i.line for i in issues] == sorted(i.line for i in issues)


def test_unknown_game_names_the_choices() -> None:
    with pytest.raises(ConfigError) as info:
        parse_profile('game = "blackjack"\n', file="x.toml")
    assert str(info.value).startswith('x.toml:1: game = "blackjack": must be one of caribbean-stud, casino-war, ')
    with pytest.raises(ConfigError, match=r"x\.toml: game: must be one of"):
        parse_profile('[table]\nid = "a"\n', file="x.toml")


def test_toml_syntax_error_names_the_line() -> None:
    with pytest.raises(ConfigError) as info:
        parse_profile('game = "casino-war"\n[table]\nid = \n', file="x.toml")
    assert str(info.value).startswith("x.toml:3: not valid TOML")


def test_a_bad_rake_method_names_the_choices(profiles) -> None:
    issues, text, path = profiles.refused("texas-holdem", ('method = "percentage"', 'method = "flat"'))
    assert str(only(issues)) == (f'{path}:{line_of(text, "method = ")}: poker.rake.method = "flat": '
                                 "must be one of percentage, incremental, time")


def test_load_profile_raises_config_error_not_validation_error(tmp_path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('game = "casino-war"\n[casino_war]\ndecks = 2\n', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    texts = [str(i) for i in info.value.issues]
    assert f"{path}:1: table: is required" in texts[0] or any("table: is required" in t for t in texts)
    assert any(t.startswith(f"{path}:3: casino_war.decks = 2 ") for t in texts)


# ---------------------------------------------------------------- devices a game's table never uses

def test_a_device_the_games_table_never_uses_is_refused_with_the_provision(profiles) -> None:
    devices = ('\n[devices]\nshoe = { port = "/dev/ttyUSB0", driver = "acme-ds9" }\n'
               'progressive = { vendor = 1, product = 2 }\n')
    path, text = profiles.edited("texas-holdem")
    path.write_text(text + devices)
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    lines = len((text + devices).splitlines())
    assert [str(i) for i in info.value.issues] == [
        f"{path}:{lines - 1}: devices.shoe = {{...}} is not used: poker is dealt from the dealer's hand, "
        "9 NYCRR 5324.42(f)(6)(i)",
        f'{path}:{lines - 1}: devices.shoe.driver = "acme-ds9" is not an installed manual shoe driver '
        "(installed: builtin; drivers/registry.py)",
        f"{path}:{lines}: devices.progressive = {{...}} is not used: a progressive controller belongs to "
        "Caribbean stud, 9 NYCRR 5324.37(a)(3)",
    ]
    path, text = profiles.edited("casino-war", ("[devices]\n", "[devices]\nprogressive = { vendor = 1, product = 2 }\n"))
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    assert [str(i) for i in info.value.issues] == [
        f"{path}:{line_of(text, 'progressive = {')}: devices.progressive = {{...}} is not used: a progressive "
        "controller belongs to Caribbean stud, 9 NYCRR 5324.37(a)(3)"]
