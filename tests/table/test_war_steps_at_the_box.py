"""Casino war's steps on the dealer's console (issue 18), at the table's adapter, pure:
the new dealer's burn card as a control and a step, and the cover card in the next step."""

from __future__ import annotations

import pytest

from controller.games.base import EventRefused
from controller.games.casino_war.at_table import WarRound
from tests.table.table_helpers import war_opening
from tests.rounds import apply


def buttons(r: WarRound) -> dict:
    return {b["event"]: b["enabled"] for b in r.view()["round"]["buttons"]}


def test_a_new_dealer_is_a_control_between_rounds_and_the_burn_a_step_5324_22_h_1():
    r = WarRound(war_opening(burn_due=False))
    assert buttons(r)["new_dealer"]
    assert "burn" not in r.view()["round"]["next_step"]
    apply(r, {"type": "wager", "seat": 1, "wager": "initial", "stake": 1000})
    apply(r, {"type": "new_dealer"})
    assert not buttons(r)["new_dealer"]               # one burn card owed, not two
    assert "burn card" in r.view()["round"]["next_step"] and "5324.22(h)(1)" in r.view()["round"]["next_step"]
    apply(r, {"type": "no_more_bets"})
    assert r.view()["round"]["next_step"].startswith("Press Deal: the burn card first")
    apply(r, {"type": "deal"})
    for c in ("9s", "Qh", "4d"):                      # the burn, seat 1, the dealer
        apply(r, ({"type": "shoe_card", "card": c}))
    assert [str(c) for c in r.m.burned] == ["9s"] and r.view()["seats"][0]["cards"] == ["Qh"]
    assert not buttons(r)["new_dealer"]               # not in the middle of a round


def test_the_cover_card_is_in_the_next_step_until_the_round_ends_5324_22_h_4():
    r = WarRound(war_opening(burn_due=False))
    apply(r, {"type": "wager", "seat": 1, "wager": "initial", "stake": 1000})
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    apply(r, ({"type": "shoe_card", "card": "Qh"}))
    apply(r, {"type": "cover_reached"})
    assert "cover card is out" in r.view()["round"]["next_step"]
    assert "5324.22(h)(4)" in r.view()["round"]["next_step"]


def test_each_card_drawn_by_hand_is_named_by_the_step_5324_22_h_2_h_3_i_5_i():
    """The dealer draws every card from the manual shoe (5324.22(d), (h)(2)); the step names the next:
    the burn (h)(1), the players from the dealer's left then the dealer (h)(3), and in the war three
    burn cards, then each player at war and the dealer (i)(5)(i)."""
    r = WarRound(war_opening(burn_due=True))
    for seat in (1, 3):
        apply(r, {"type": "wager", "seat": seat, "wager": "initial", "stake": 1000})
    apply(r, {"type": "no_more_bets"})
    assert r.view()["round"]["draw"] is None          # nothing is drawn before the dealer presses Deal
    apply(r, {"type": "deal"})
    named = []
    for c in ("2c", "Qs", "9d", "Qh"):                 # the burn, seat 1 (a tie), seat 3, the dealer
        named.append(r.view()["round"]["next_step"])
        apply(r, ({"type": "shoe_card", "card": c}))
    assert ["the burn card" in named[0], "seat 1's card" in named[1], "seat 3's card" in named[2],
            "the dealer's card" in named[3]] == [True] * 4
    assert "5324.22(h)(1)" in named[0] and "5324.22(h)(3)(ii)" in named[3]
    assert all(s.startswith("Draw the next card from the shoe with the left hand") for s in named)
    apply(r, {"type": "settle"})
    apply(r, {"type": "decision", "seat": 1, "decision": "war"})
    apply(r, {"type": "war"})
    steps, draws = [], []
    for c in ("3c", "4c", "5c", "Kd", "7h"):
        steps.append(r.view()["round"]["next_step"])
        draws.append(r.view()["round"]["draw"])
        apply(r, ({"type": "shoe_card", "card": c}))
    assert [d["to"] for d in draws] == ["burn", "burn", "burn", "seat", "dealer"]
    assert [(d.get("burn"), d.get("burns")) for d in draws[:3]] == [(1, 3), (2, 3), (3, 3)]
    assert "war burn card 2 of 3" in steps[1] and "5324.22(i)(5)(i)" in steps[1]
    assert "seat 1's war card" in steps[3] and "the dealer's war card" in steps[4]
    assert [str(c) for c in r.m.burned] == ["2c", "3c", "4c", "5c"]
    assert r.view()["round"]["draw"] is None and r.state == "war_settle"


def test_without_a_reader_the_dealer_touches_in_each_card_drawn_5324_22_h_2():
    """A manual shoe without a card reader: the console asks for each card as it is drawn, in its place
    (the burn (h)(1), the seats, the dealer (h)(3)), and the dealer says when the cover card is out (h)(4)."""
    opening = war_opening(burn_due=True)
    opening["shoe"]["reader"] = False
    r = WarRound(opening)
    apply(r, {"type": "wager", "seat": 2, "wager": "initial", "stake": 1000})
    assert not r.view()["round"]["touch_in"]
    apply(r, {"type": "no_more_bets"})
    with pytest.raises(EventRefused, match="no card is drawn now"):
        apply(r, ({"type": "card", "card": "Ah"}))
    apply(r, {"type": "deal"})
    assert r.view()["round"]["touch_in"] and "then touch it in: the burn card" in r.view()["round"]["next_step"]
    apply(r, ({"type": "card", "card": "2d"}))
    assert "seat 2's card" in r.view()["round"]["next_step"]
    assert buttons(r)["cover_reached"]
    apply(r, {"type": "cover_reached"})
    assert not buttons(r)["cover_reached"]
    for c in ("Ks", "5c"):
        apply(r, ({"type": "card", "card": c}))
    assert [str(c) for c in r.m.burned] == ["2d"] and r.view()["seats"][1]["cards"] == ["Ks"]
    assert r.state == "first_settle" and not r.view()["round"]["touch_in"]
    assert r.shoe_after() == {"dispensed": 3, "cover_out": True, "burn_due": False}


def test_with_a_reader_a_card_is_not_touched_in():
    r = WarRound(war_opening(burn_due=False))
    apply(r, {"type": "wager", "seat": 1, "wager": "initial", "stake": 1000})
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    assert not r.view()["round"]["touch_in"] and "cover_reached" not in buttons(r)
    with pytest.raises(EventRefused, match="cards come from the shoe"):
        apply(r, ({"type": "card", "card": "Ah"}))
