"""Jackpot payouts of 5324.42(r): the contribution after the rake, qualifiers, the tracking form, the period."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from controller.cards import parse_cards
from controller.hands import high
from controller.poker.errors import SetupError
from controller.poker.hand import Hand
from controller.poker.jackpot import (Candidate, JackpotError, JackpotPeriod, JackpotRule, candidates, least_value,
                                      rule_from_config)
from controller.poker.phh import hand_to_phh, loads
from controller.poker.rake import PercentageRake
from tests.poker.poker_helpers import act, setup
from tests.poker.test_poker_rake import SHOWDOWN, SIDE_POT_HAND, side_pot_hand

ROOT = Path(__file__).parents[2]
HIGH_HAND = JackpotRule("high-hand", 100, "four-of-a-kind")
BAD_BEAT = JackpotRule("bad-beat", 100, "four-of-a-kind")


def holdem(stacks, *texts, jackpot=None, rake=None) -> Hand:
    s = dataclasses.replace(setup("NT", stacks, blinds=(1, 2)), jackpot=jackpot, rake=rake)
    return act(Hand(s), *texts)


def to_river(p1, p2, p3, board):
    """Three players, p3 folds before the flop, p1 and p2 check it down and show."""
    return (f"d dh p1 {p1}, d dh p2 {p2}, d dh p3 {p3}, p3 f, p1 cc, p2 cc",
            f"d db {board[:6]}, p1 cc, p2 cc, d db {board[6:8]}, p1 cc, p2 cc, d db {board[8:]}, p1 cc, p2 cc",
            f"p1 sm {p1}, p2 sm {p2}")


# --- the contribution (r)(3) -------------------------------------------------------------------

def test_contribution_is_taken_after_the_rake_once_the_pot_reaches_the_minimum():
    """5324.42(r)(2)(iii), (r)(3): 100 from the hand once the middle holds 1,000, after the rake."""
    rule = JackpotRule("high-hand", 100, "four-of-a-kind", minimum_pot=1000)
    h = side_pot_hand(PercentageRake(1000), *SIDE_POT_HAND, SHOWDOWN, jackpot=rule)
    main, side = h.result.pots
    assert (main.amount, main.rake, main.jackpot) == (3000, 300, 100)
    assert (side.amount, side.rake, side.jackpot) == (2000, 200, 0)
    assert h.result.jackpot_drop == 100 and h.result.rake == 500
    assert list(h.result.finishing_stacks) == [2600, 2800, 1000]
    assert sum(h.result.finishing_stacks) + h.result.rake + h.result.jackpot_drop == 7000   # segregated


def test_no_contribution_from_a_pot_below_the_minimum():
    rule = JackpotRule("high-hand", 100, "four-of-a-kind", minimum_pot=1000)
    h = side_pot_hand(None, "d dh p1 AsAd, d dh p2 KsKd, d dh p3 QsQd, p3 cc, p1 cc, p2 cbr 800, p3 f, p1 f",
                      jackpot=rule)
    assert h.result.jackpot_drop == 0


def test_the_rake_comes_first_and_the_contribution_takes_at_most_what_is_left():
    """(r)(3): 'after the dealer has collected the rake'."""
    rule = JackpotRule("high-hand", 1000, "four-of-a-kind")
    h = side_pot_hand(PercentageRake(1000), "d dh p1 AsAd, d dh p2 KsKd, d dh p3 QsQd",
                      "p3 cc, p1 cc, p2 cbr 1000, p3 f, p1 f", jackpot=rule)
    pot = h.result.pots[0]
    assert (pot.amount, pot.rake, pot.jackpot, pot.awards) == (600, 60, 540, {1: 0})


# --- qualifiers ---------------------------------------------------------------------------------

def test_high_hand_qualifies_at_the_least_hand():
    h = holdem([100] * 3, *to_river("2c2d", "AsKs", "7h8h", "2h2s9cTdJh"), jackpot=HIGH_HAND)
    found = candidates(h, HIGH_HAND)
    assert [(c.player, c.hand_name) for c in found] == [(0, "four-of-a-kind")]
    assert high.value(found[0].cards) == found[0].value
    below = JackpotRule("high-hand", 100, "straight-flush")
    assert candidates(h, below) == []


def test_both_hole_cards_must_play_when_the_table_says_so():
    """Four nines on the board with the ace kicker use one hole card only."""
    h = holdem([100] * 3, *to_river("AsKs", "QdJd", "7h8h", "9c9d9h9s2c"))
    assert [c.player for c in candidates(h, HIGH_HAND)] == [0, 1]
    strict = dataclasses.replace(HIGH_HAND, both_hole_cards=True)
    assert candidates(h, strict) == []


def test_minimum_players_dealt_in_and_minimum_pot():
    """5324.42(r)(2)(iii)-(iv)."""
    h = holdem([100] * 3, *to_river("2c2d", "AsKs", "7h8h", "2h2s9cTdJh"))
    assert candidates(h, dataclasses.replace(HIGH_HAND, minimum_players=4)) == []
    assert candidates(h, dataclasses.replace(HIGH_HAND, minimum_players=3)) != []
    assert candidates(h, dataclasses.replace(HIGH_HAND, minimum_pot=5)) == []     # a pot of 4
    assert candidates(h, dataclasses.replace(HIGH_HAND, minimum_pot=4)) != []


def test_bad_beat_is_a_qualifying_hand_beaten_at_the_showdown():
    h = holdem([100] * 3, *to_river("8s8h", "3h4h", "AcAd", "5h6h7h8d8c"))
    found = candidates(h, BAD_BEAT)
    assert [(c.kind, c.player, c.hand_name, c.beaten_by) for c in found] == [("bad-beat", 0, "four-of-a-kind", 1)]
    assert candidates(h, HIGH_HAND)[0].hand_name == "four-of-a-kind"


def test_a_hand_not_held_to_the_end_or_not_known_does_not_qualify():
    """p2's four deuces were folded; p1 won with cards never seen."""
    h = holdem([100] * 3, "d dh p1 ????, d dh p2 2c2d, d dh p3 7h8h, p3 f, p1 cc, p2 cc",
               "d db 2h2s9c, p1 cbr 2, p2 f")
    assert candidates(h, HIGH_HAND) == []
    made_on_the_flop = holdem([100] * 3, "d dh p1 2c2d, d dh p2 AsKs, d dh p3 7h8h, p3 f, p1 cc, p2 cc",
                              "d db 2h2s9c, p1 cbr 2, p2 f")
    assert [c.player for c in candidates(made_on_the_flop, HIGH_HAND)] == [0]   # held to the end


def test_omaha_hand_uses_two_hole_and_three_board_cards():
    s = dataclasses.replace(setup("PO", [100] * 2, blinds=(1, 2)))
    h = act(Hand(s), "d dh p1 2c2dKsKd, d dh p2 AhQhJh3c, p2 cc, p1 cc",
            "d db 2h2s9c, p1 cc, p2 cc, d db Td, p1 cc, p2 cc, d db 4h, p1 cc, p2 cc, p1 sm -, p2 sm -")
    found = candidates(h, HIGH_HAND)
    assert [(c.player, c.hand_name) for c in found] == [(0, "four-of-a-kind")]


# --- the qualifying period (r)(4)-(7) ----------------------------------------------------------------

FORM = dict(table="PK-01", player="A. Player", phone="555-0100", dealer="D. Dealer", dealer_license="G-1",
            floorperson="F. Floor", floor_license="F-9")


def quads(value_name="four-of-a-kind", kind="high-hand", cards="2c2d2h2s9c"):
    cs = parse_cards([cards[i:i + 2] for i in range(0, 10, 2)])
    hv = high.evaluate(cs)
    return Candidate(kind, 0, hv.value, hv.name, tuple(hv.cards))


def test_tracking_form_records_what_the_regulation_lists():
    """5324.42(r)(4)(i)-(v): player, phone, seat, table, the hand's rank, dealer, verifying floorperson."""
    period = JackpotPeriod(HIGH_HAND, 1, opens=0)
    period, record = period.qualify(quads(), hand_id="H-1", seat=4, at=60, **FORM)
    assert (record.player, record.phone, record.seat, record.table) == ("A. Player", "555-0100", 4, "PK-01")
    assert (record.hand_name, record.dealer, record.dealer_license) == ("four-of-a-kind", "D. Dealer", "G-1")
    assert (record.floorperson, record.floor_license, record.announced) == ("F. Floor", "F-9", True)
    assert period.current == (record,)
    # the record is what the room's pool takes (controller/link/jackpot.py qualify)
    args = record.link_args()
    assert set(args) == {"hand", "seat", "value", "hand_name", "cards", "player"}
    assert high.evaluate(parse_cards([args["cards"][i:i + 2] for i in range(0, 10, 2)])).value == args["value"]


@pytest.mark.parametrize("missing", ["floorperson", "floor_license", "dealer", "player", "phone", "table"])
def test_a_form_without_its_fields_is_refused(missing):
    period = JackpotPeriod(HIGH_HAND, 1, opens=0)
    form = dict(FORM, **{missing: " "})
    with pytest.raises(JackpotError, match=rf"needs the {missing.replace('_', ' ')} \(5324.42\(r\)\(4\)\)"):
        period.qualify(quads(), hand_id="H-1", seat=4, at=60, **form)


def test_a_hand_below_the_least_qualifying_hand_or_of_the_other_kind_is_refused():
    period = JackpotPeriod(HIGH_HAND, 1, opens=0)
    with pytest.raises(JackpotError, match="full-house is below the least qualifying hand, four-of-a-kind"):
        period.qualify(quads(cards="2c2d2h3s3c"), hand_id="H-1", seat=1, at=60, **FORM)
    with pytest.raises(JackpotError, match="a bad-beat hand does not qualify for a high-hand jackpot"):
        period.qualify(quads(kind="bad-beat"), hand_id="H-1", seat=1, at=60, **FORM)


def test_a_higher_hand_replaces_the_current_one_and_is_announced():
    """5324.42(r)(4): as the rank of the qualifying hands increases, the newest is announced."""
    period = JackpotPeriod(HIGH_HAND, 1, opens=0)
    period, first = period.qualify(quads(), hand_id="H-1", seat=1, at=60, **FORM)
    period, lower = period.qualify(quads(cards="2c2d2h2s3c"), hand_id="H-2", seat=2, at=70, **FORM)
    assert not lower.announced and period.current == (first,)
    period, higher = period.qualify(quads(cards="AcAdAhAs2c"), hand_id="H-3", seat=3, at=80, **FORM)
    assert higher.announced and period.current == (higher,)
    period, equal = period.qualify(quads(cards="AcAdAhAs2d"), hand_id="H-4", seat=5, at=90, **FORM)
    assert not equal.announced and period.current == (higher, equal)


def test_contributions_are_pooled_and_paid_to_the_best_hand_at_the_end_of_the_period():
    """5324.42(r)(5)-(6): counted and announced, paid to the best hand; equal hands share, odd cents first."""
    period = JackpotPeriod(HIGH_HAND, 1, opens=0, rollover_in=1)
    for i in range(10):
        period = period.contribute(f"H-{i}", "PK-01", 100, at=100 + i)
    assert period.total == 1001
    period, a = period.qualify(quads(cards="AcAdAhAs2c"), hand_id="H-3", seat=3, at=200, **FORM)
    period, b = period.qualify(quads(cards="AcAdAhAs2d"), hand_id="H-7", seat=6, at=300, **FORM)
    with pytest.raises(JackpotError, match=r"it runs until 86400 \(5324.42\(r\)\(2\)\(i\)\)"):
        period.close(86399)
    closing, following = period.close(86400)
    assert closing.total == 1001 and closing.contributions == 1000 and closing.rollover_in == 1
    assert [(w.hand.hand_id, w.amount, w.shared_by) for w in closing.awards] == [("H-3", 501, 2), ("H-7", 500, 2)]
    assert closing.rollover_out == 0 and following.rollover_in == 0 and following.number == 2
    assert following.opens == 86400 and following.closes == 2 * 86400


def test_no_qualifying_hand_rolls_the_contributions_over():
    """5324.42(r)(7)."""
    period = JackpotPeriod(HIGH_HAND, 1, opens=0).contribute("H-1", "PK-01", 100, at=5)
    closing, following = period.close(86400)
    assert closing.awards == () and closing.rollover_out == 100
    assert following.total == 100 and following.number == 2


def test_contributions_are_one_per_hand_within_the_period_and_at_most_the_posted_amount():
    """5324.42(r)(2)(i)-(ii)."""
    period = JackpotPeriod(HIGH_HAND, 1, opens=0).contribute("H-1", "PK-01", 100, at=5)
    assert period.contributions[0].link_args() == {"hand": "H-1", "amount": 100}
    with pytest.raises(JackpotError, match="already contributed"):
        period.contribute("H-1", "PK-01", 100, at=6)
    with pytest.raises(JackpotError, match=r"from 1 to the posted 100 \(5324.42\(r\)\(2\)\(ii\)\)"):
        period.contribute("H-2", "PK-01", 101, at=6)
    with pytest.raises(JackpotError, match="outside qualifying period 1"):
        period.contribute("H-2", "PK-01", 100, at=86400)


def test_a_played_hand_goes_from_candidate_to_the_form():
    h = holdem([100] * 3, *to_river("8s8h", "3h4h", "AcAd", "5h6h7h8d8c"), jackpot=BAD_BEAT)
    (found,) = candidates(h, BAD_BEAT)
    period, record = JackpotPeriod(BAD_BEAT, 1, opens=0).qualify(found, hand_id="H-9", seat=1, at=10, **FORM)
    assert record.cards == "8s8h8d8c7h" and record.kind == "bad-beat"


# --- PHH `_jackpot` and the profiles ------------------------------------------------------------

def test_jackpot_is_written_to_phh_and_read_back():
    rule = JackpotRule("bad-beat", 100, "four-of-a-kind", minimum_pot=5, minimum_players=3, both_hole_cards=True)
    h = holdem([100] * 3, *to_river("8s8h", "3h4h", "AcAd", "5h6h7h8d8c"), jackpot=rule)
    text = hand_to_phh(h)
    assert '_jackpot = {kind = "bad-beat", contribution = 100' in text
    again = loads(text)
    assert again.setup.jackpot == rule


@pytest.mark.parametrize("value, message", [
    ('{kind = "big-win", contribution = 100, qualifying_hand = "flush"}', "_jackpot.kind: must be one of"),
    ('{kind = "high-hand", qualifying_hand = "flush"}', "_jackpot.contribution: is required"),
    ('{kind = "high-hand", contribution = 100, qualifying_hand = "quads"}', "_jackpot.qualifying_hand: must be"),
    ('{kind = "high-hand", contribution = 100, qualifying_hand = "flush", minimum_players = 1}',
     "_jackpot.minimum_players: 1 is below 2"),
    ('{kind = "high-hand", contribution = 100, qualifying_hand = "flush", seat = 1}',
     "_jackpot.seat: is not a setting of the jackpot"),
])
def test_a_bad_jackpot_field_is_refused_by_name(value, message):
    text = hand_to_phh(holdem([100] * 3, "d dh p1 AsAd"))
    with pytest.raises(SetupError) as exc:
        loads(text + f"_jackpot = {value}\n")
    assert str(exc.value).startswith(message), str(exc.value)


def test_the_jackpot_of_a_table_profile():
    from controller.config import load_profile
    loaded = load_profile(ROOT / "config" / "texas-holdem.toml")
    rule = rule_from_config(loaded.poker.jackpot)
    assert rule == JackpotRule("bad-beat", 100, "four-of-a-kind", 2000, 4, False, 24)
    assert least_value("four-of-a-kind") == min(
        high.value(parse_cards(["2c", "2d", "2h", "2s", c])) for c in ("3c", "4c", "Kc"))
