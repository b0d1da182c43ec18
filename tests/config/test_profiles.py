"""The profiles in config/ and what a profile becomes: record rules, seats, paths."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from controller.config import ConfigError, load_profile, parse_profile
from controller.games.caribbean_stud.profile import CaribbeanStudProfile
from controller.games.casino_war.profile import CasinoWarProfile
from controller.games.poker.profile import BlindPokerProfile, StudPokerProfile

from tests.config.config_helpers import CONFIG

PROFILES = sorted(CONFIG.glob("*.toml"))

# 5324.42(g): every type of poker a facility may offer, each its own profile.
POKER_GAMES_OF_5324_42_G = {
    "seven-card-stud", "seven-card-stud-low", "seven-card-stud-hi-lo", "seven-card-stud-hi-lo-8",
    "texas-holdem", "omaha", "omaha-hi-lo-8", "five-card-draw", "five-card-draw-low",
    "triple-draw-2-7", "five-card-stud", "pineapple", "crazy-pineapple",
}


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_profile_in_config_is_accepted(path: Path) -> None:
    profile = load_profile(path)
    # one file per game, named after it
    assert profile.game == path.stem


def test_there_is_a_profile_for_every_game_offered() -> None:
    games = {load_profile(p).game for p in PROFILES}
    assert games == {"caribbean-stud", "casino-war"} | POKER_GAMES_OF_5324_42_G


def test_config_check_accepts_every_profile_from_the_command_line() -> None:
    run = subprocess.run([sys.executable, "-m", "controller.cli", "config", "check", *map(str, PROFILES)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"{p}: ok" for p in PROFILES]
    assert run.stderr == ""


def test_config_check_of_one_good_file_prints_ok() -> None:
    run = subprocess.run([sys.executable, "-m", "controller.cli", "config", "check",
                          str(CONFIG / "casino-war.toml")], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout, run.stderr) == (0, "ok\n", "")


def test_profiles_are_discriminated_by_game() -> None:
    assert isinstance(load_profile(CONFIG / "caribbean-stud.toml"), CaribbeanStudProfile)
    assert isinstance(load_profile(CONFIG / "casino-war.toml"), CasinoWarProfile)
    assert isinstance(load_profile(CONFIG / "texas-holdem.toml"), BlindPokerProfile)
    assert isinstance(load_profile(CONFIG / "seven-card-stud-low.toml"), StudPokerProfile)


def test_a_profile_is_frozen() -> None:
    profile = load_profile(CONFIG / "casino-war.toml")
    with pytest.raises(ValidationError):
        profile.casino_war.decks = 8  # type: ignore[misc]
    with pytest.raises(ValidationError):
        profile.table.seats = 3  # type: ignore[misc]


# The rules object of the example record in shared/spec/rounds.md: a profile's
# defaults are the record's defaults, so a default profile gives exactly this.
SPEC_STUD_RULES = {
    "bet_multiple": 2,
    "bet_payout_limit": None,
    "paytable": {"pair-or-less": 1, "two-pair": 2, "three-of-a-kind": 3,
                 "straight": 4, "flush": 5, "full-house": 7,
                 "four-of-a-kind": 20, "straight-flush": 50, "royal-flush": 100},
    "progressive": {
        "wager": 100,
        "meter": 2500000,
        "reset": 1000000,
        "contribution_bp": 7000,
        "flush": 5000, "full-house": 10000, "four-of-a-kind": 50000,
        "straight-flush": {"percent_of_meter": 10},
    },
}
SPEC_WAR_RULES = {"decks": 6, "tie_odds": 10, "war_odds": 2, "war_tie_odds": 3}

MINIMAL_TABLE = '[table]\nid = "T1"\nname = "t"\nminimum_wager = 500\nmaximum_wager = 50000\n'


def test_default_caribbean_stud_rules_are_the_records_defaults() -> None:
    profile = parse_profile('game = "caribbean-stud"\n' + MINIMAL_TABLE)
    assert profile.record_rules(meter=2500000) == SPEC_STUD_RULES
    # without a meter, a record starts from the table's initial meter, which defaults to reset
    assert profile.record_rules()["progressive"]["meter"] == 1000000


def test_default_casino_war_rules_are_the_records_defaults() -> None:
    profile = parse_profile('game = "casino-war"\n' + MINIMAL_TABLE)
    assert profile.record_rules() == SPEC_WAR_RULES


def test_caribbean_stud_profile_rules_follow_the_file(profiles) -> None:
    profile = profiles.load("caribbean-stud",
                            ("straight-flush = { percent_of_meter = 10 }", "straight-flush = { fixed = 750000 }"),
                            ("flush = 5\n", "flush = 6\n"),
                            ("initial = 2500000", "initial = 3000000"))
    rules = profile.record_rules()
    assert rules["progressive"]["straight-flush"] == {"fixed": 750000}
    assert rules["paytable"]["flush"] == 6
    assert rules["progressive"]["meter"] == 3000000
    assert rules["bet_payout_limit"] == 100500
    assert profile.record_rules(meter=1234567)["progressive"]["meter"] == 1234567


def test_profile_rules_settle_a_record() -> None:
    """The rules a profile gives are accepted by `tablectl settle`'s reader as they are."""
    from controller.settle import settle

    stud = load_profile(CONFIG / "caribbean-stud.toml")
    record = {
        "game": "caribbean-stud",
        "rules": stud.record_rules(meter=2000000),
        "dealer": ["As", "Kd", "7h", "4c", "2s"],
        "seats": [{"seat": 2, "ante": 500, "progressive": True, "decision": "bet",
                   "cards": ["Ah", "Kh", "Qh", "Jh", "Th"]}],
    }
    out = settle(record)
    # the profile's payout limit caps the bet: 100:1 on 1000 is 100000, under the limit 100500
    assert out["seats"][0]["bet"]["net"] == 100000
    # the meter before the round plus 70 of the 100-cent wager, all to the royal flush
    assert out["progressive"]["awards"] == [{"seat": 2, "hand": "royal-flush", "amount": 2000070}]

    war = load_profile(CONFIG / "casino-war.toml")
    out = settle({"game": "casino-war", "rules": war.record_rules(),
                  "dealer": {"card": "9h"},
                  "seats": [{"seat": 1, "initial": 500, "tie": 100, "card": "9s", "decision": "surrender"}]})
    assert out["seats"][0]["tie"] == {"stake": 100, "outcome": "win", "net": 1000}


def test_seats_default_to_the_games_limit() -> None:
    profile = parse_profile('game = "omaha"\n' + MINIMAL_TABLE +
                            '[poker]\nstructure = "pot-limit"\nbig_blind = 200\n'
                            '[poker.rake]\nmethod = "percentage"\nrate_bp = 500\n')
    assert profile.table.seats is None
    assert profile.seats == 10  # 5324.42(j)(2)


def test_relative_paths_are_relative_to_the_profile(profiles, tmp_path: Path) -> None:
    profile = profiles.load("caribbean-stud",
                            ('# data_dir = "/var/lib/tablectl"', 'data_dir = "journal"'),
                            ('# secrets = "/etc/tablectl/supervisors.toml"', 'secrets = "/etc/tablectl/pins.toml"'))
    assert profile.table.data_dir == tmp_path / "journal"
    assert profile.screen.secrets == Path("/etc/tablectl/pins.toml")


def test_devices_by_path_url_and_usb_ids(profiles) -> None:
    profile = profiles.load("caribbean-stud", (
        "[devices]\n",
        '[devices]\nshoe = "/dev/serial/by-id/usb-FTDI-if00"\nshuffler = "rfc2217://10.0.0.20:7000"\n'
        'progressive = { vendor = 0x04d8, product = 0xf00d, serial = "PC-1" }\n'))
    assert profile.devices.shoe == "/dev/serial/by-id/usb-FTDI-if00"
    assert profile.devices.shuffler == "rfc2217://10.0.0.20:7000"
    assert (profile.devices.progressive.vendor, profile.devices.progressive.product) == (0x04D8, 0xF00D)
    # absent devices mean emulators
    assert load_profile(CONFIG / "casino-war.toml").devices.shoe is None


def test_poker_profiles_know_their_phh_variant() -> None:
    assert load_profile(CONFIG / "texas-holdem.toml").phh_variant() == "NT"
    assert load_profile(CONFIG / "omaha-hi-lo-8.toml").phh_variant() == "FO/8"
    assert load_profile(CONFIG / "seven-card-stud-low.toml").phh_variant() == "FR"
    assert load_profile(CONFIG / "pineapple.toml").phh_variant() is None


def test_an_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_profile(tmp_path / "missing.toml")


def test_a_time_zone_the_box_does_not_know_is_refused_on_its_line(tmp_path: Path) -> None:
    """`timezone = "Mars/Base"` was accepted, and `tablectl report` failed on it afterwards."""
    text = (CONFIG / "caribbean-stud.toml").read_text()
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines, 1) if t.startswith("timezone = "))
    bad = tmp_path / "mars.toml"
    bad.write_text(text.replace('timezone = "America/New_York"', 'timezone = "Mars/Base"', 1))
    tablectl = Path(sys.executable).with_name("tablectl")
    run = subprocess.run([str(tablectl), "config", "check", str(bad)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"{bad}:{line}" in run.stderr and "table.timezone" in run.stderr and "Mars/Base" in run.stderr


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_the_packaged_profiles_keep_a_new_york_casinos_clock(path: Path) -> None:
    assert load_profile(path).table.timezone == "America/New_York"
