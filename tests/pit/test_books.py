"""Issue 34, item 1: the table's books checked as every internal control asks (controller/pit/books.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.pit.books import BooksRefused, act, chips_of, tally, value


def test_chips_are_counted_by_denomination():
    chips = chips_of({"10000": 10, "2500": 40, "500": 0})
    assert chips == {"2500": 40, "10000": 10}            # in order of value, an empty count left out
    assert value(chips) == 40 * 2500 + 10 * 10000


@pytest.mark.parametrize("chips, why", [
    ({}, "a count by denomination"), ({"700": 3}, "no chip this tray holds"), ({"x": 1}, "not a denomination"),
    ({"2500": -1}, "a count of 0 to"), ({"2500": 1.5}, "a count of 0 to"), ({"2500": True}, "a count of 0 to"),
    ({"2500": 0}, "at least one chip"), ("2500", "a count by denomination"),
])
def test_a_count_no_tray_holds_is_refused(chips, why):
    with pytest.raises(BooksRefused, match=why):
        chips_of(chips)


def test_a_fill_and_a_credit_take_two_people_and_a_slip():
    fill = act("fill", {"chips": {"2500": 20}, "carrier": "R-17", "slip": "F-0042"}, "S-1", source="cli")
    assert fill == {"act": "fill", "by": "S-1", "source": "cli", "chips": {"2500": 20}, "amount": 50_000,
                    "carrier": "R-17", "slip": "F-0042"}
    with pytest.raises(BooksRefused, match="signed by two people"):
        act("credit", {"chips": {"2500": 20}, "carrier": "S-1", "slip": "C-1"}, "S-1", source="cli")
    with pytest.raises(BooksRefused, match="slip"):
        act("fill", {"chips": {"2500": 20}, "carrier": "R-17"}, "S-1", source="cli")


def test_the_drop_takes_two_supervisors_and_a_buy_in_a_seat():
    assert act("drop", {"amount": 123_400, "second": "S-2"}, "S-1", source="cli")["second"] == "S-2"
    with pytest.raises(BooksRefused, match="two supervisors"):
        act("drop", {"amount": 123_400, "second": "S-1"}, "S-1", source="cli")
    with pytest.raises(BooksRefused, match="whole cents"):
        act("drop", {"amount": 12.5, "second": "S-2"}, "S-1", source="cli")
    assert act("buy-in", {"seat": 3, "amount": 10_000}, "D-4", source="panel")["seat"] == 3
    with pytest.raises(BooksRefused, match="seat"):
        act("buy-in", {"seat": 0, "amount": 10_000}, "D-4", source="panel")


def test_win_and_hold_as_the_count_room_computes_them():
    acts = [{"act": "opener", "amount": 1_000_000}, {"act": "buy-in", "amount": 20_000},
            {"act": "fill", "amount": 50_000}, {"act": "opener", "amount": 999}, {"act": "credit", "amount": 30_000},
            {"act": "closer", "amount": 5}, {"act": "closer", "amount": 900_000}, {"act": "drop", "amount": 250_000}]
    books = tally(acts)
    # by hand: closer - opener + credits - fills + drop (the first opener, the last closer)
    win = 900_000 - 1_000_000 + 30_000 - 50_000 + 250_000
    assert books == {"opener": 1_000_000, "closer": 900_000, "fills": 50_000, "credits": 30_000, "drop": 250_000,
                     "estimated_drop": 20_000, "win": win, "hold_bp": win * 10_000 // 250_000}
    assert tally(acts[:-1])["win"] is None and tally(acts[:-1])["drop"] is None   # not counted yet


def test_the_carriers_roster_is_a_profile_path_and_nothing_else_goes_in_pit(tmp_path):
    """`[pit] carriers` is read beside the profile, like every path there; an unknown key is refused on its line."""
    from controller.config import load_profile
    from controller.config.toml_lines import ConfigError
    base = (Path(__file__).resolve().parents[2] / "config" / "casino-war.toml").read_text()
    good = tmp_path / "war.toml"
    good.write_text(base + '\n[pit]\ncarriers = "carriers.toml"\n')
    assert load_profile(good).pit.carriers == tmp_path / "carriers.toml"
    bad = tmp_path / "bad.toml"
    bad.write_text(base + '\n[pit]\nrunners = "r.toml"\n')
    with pytest.raises(ConfigError, match=r"pit\.runners: unknown key"):
        load_profile(bad)
