"""The par sheet's cache keys, its atomic files, the background switch and the progressive's algebra."""

from __future__ import annotations

from fractions import Fraction

from controller.config import load_profile
from controller.games.caribbean_stud.par import progressive
from controller.par import background, cache
from controller.par.sheet import rules_of
from tests.par.par_helpers import CONFIG, profile_with

TEXTBOOK = {"royal-flush": 4, "straight-flush": 36, "four-of-a-kind": 624, "full-house": 3744, "flush": 5108,
            "straight": 10200, "three-of-a-kind": 54912, "two-pair": 123552, "pair": 1098240,
            "high-card": 1302540}


def test_the_key_is_the_rules_not_the_table(tmp_path):
    base = rules_of(load_profile(CONFIG / "caribbean-stud.toml"))
    renamed = rules_of(load_profile(profile_with(tmp_path, "a", "caribbean-stud",
                                                 {'id = "CS-01"': 'id = "CS-99"'})))
    richer = rules_of(load_profile(profile_with(tmp_path, "b", "caribbean-stud", {"flush = 5\n": "flush = 6\n"})))
    assert cache.key("sheet", base) == cache.key("sheet", renamed)
    assert cache.key("sheet", base) != cache.key("sheet", richer)


def test_files_are_written_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLECTL_PAR_CACHE", str(tmp_path))
    cache.store_json("x", {"a": 1})
    assert cache.load_json("x") == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]   # no temporary file left behind
    (tmp_path / "y.json").write_text('{"a": ')                    # a torn file reads as absent
    assert cache.load_json("y") is None and cache.load_json("z") is None


def test_the_cache_directory_follows_the_environment(tmp_path):
    assert cache.directory({"TABLECTL_PAR_CACHE": "/x"}).as_posix() == "/x"
    assert cache.directory({"CACHE_DIRECTORY": "/var/cache/tablectl"}).as_posix() == "/var/cache/tablectl/par"
    assert cache.directory({"XDG_CACHE_HOME": "/c", "HOME": "/h"}).as_posix() == "/c/tablectl/par"
    assert cache.directory({"HOME": "/h"}).as_posix() == "/h/.cache/tablectl/par"


def test_the_background_job_can_be_turned_off():
    assert background.enabled({}) and background.enabled({"TABLECTL_PAR_BACKGROUND": "1"})
    assert not background.enabled({"TABLECTL_PAR_BACKGROUND": "0"})
    assert not background.enabled({"TABLECTL_PAR_BACKGROUND": "off"})


def test_every_five_card_category_has_its_textbook_count():
    assert progressive.hand_counts() == TEXTBOOK


def test_a_fixed_straight_flush_award_leaves_only_the_royal_on_the_meter():
    prog = {"wager": 100, "reset": 1_000_000, "contribution_bp": 7500, "flush": 5000, "full-house": 10000,
            "four-of-a-kind": 50000, "straight-flush": {"fixed": 500_000}}
    s = progressive.sheet(prog, TEXTBOOK)
    hands = 2_598_960
    from_house = Fraction(5108 * 5000 + 3744 * 10000 + 624 * 50000 + 36 * 500_000, hands)
    assert s["return_fixed"] == from_house / 100
    assert s["return_per_meter_cent"] == Fraction(4, hands) / 100
    assert s["return_fixed"] + s["return_per_meter_cent"] * s["break_even_meter"] == 1
    assert s["house_share"] == 1 - (from_house + 75 + Fraction(4, hands) * 1_000_000) / 100


def test_poker_incremental_rake_and_time_charge_by_pot():
    from controller.games.poker import par as poker
    from controller.par.sheet import rules_of

    incremental = poker.sheet(rules_of(load_profile(CONFIG / "omaha-hi-lo-8.toml")))
    rake = {row["pot"]: row["rake"] for row in incremental["pots"]}
    # $1 more each time the middle reaches $10, $30 and $50 (config/omaha-hi-lo-8.toml)
    assert (rake[800], rake[1000], rake[2000], rake[3000], rake[5000], rake[200000]) == (0, 100, 100, 200, 300, 300)
    timed = poker.sheet(rules_of(load_profile(CONFIG / "seven-card-stud.toml")))
    assert timed["rake_method"] == "time" and all(row["rake"] == 0 for row in timed["pots"])
    assert timed["time_charge"]["hourly"] > 0
