"""Casino war's steps on the dealer's console (issue 18), at the table's adapter, pure:
the new dealer's burn card as a control and a step, and the cover card in the next step."""

from __future__ import annotations

from controller.runtime.war import WarRound
from table_helpers import war_opening


def buttons(r: WarRound) -> dict:
    return {b["event"]: b["enabled"] for b in r.view()["round"]["buttons"]}


def test_a_new_dealer_is_a_control_between_rounds_and_the_burn_a_step_5324_22_h_1():
    r = WarRound(war_opening(burn_due=False))
    assert buttons(r)["new_dealer"]
    assert "burn" not in r.view()["round"]["next_step"]
    r.apply({"type": "wager", "seat": 1, "wager": "initial", "stake": 1000})
    r.apply({"type": "new_dealer"})
    assert not buttons(r)["new_dealer"]               # one burn card owed, not two
    assert "burn card" in r.view()["round"]["next_step"] and "5324.22(h)(1)" in r.view()["round"]["next_step"]
    r.apply({"type": "no_more_bets"})
    assert r.view()["round"]["next_step"].startswith("Press Deal: the burn card first")
    r.apply({"type": "deal"})
    for c in ("9s", "Qh", "4d"):                      # the burn, seat 1, the dealer
        r.apply({"type": "shoe_card", "card": c})
    assert [str(c) for c in r.m.burned] == ["9s"] and r.view()["seats"][0]["cards"] == ["Qh"]
    assert not buttons(r)["new_dealer"]               # not in the middle of a round


def test_the_cover_card_is_in_the_next_step_until_the_round_ends_5324_22_h_4():
    r = WarRound(war_opening(burn_due=False))
    r.apply({"type": "wager", "seat": 1, "wager": "initial", "stake": 1000})
    r.apply({"type": "no_more_bets"})
    r.apply({"type": "deal"})
    r.apply({"type": "shoe_card", "card": "Qh"})
    r.apply({"type": "cover_reached"})
    assert "cover card is out" in r.view()["round"]["next_step"]
    assert "5324.22(h)(4)" in r.view()["round"]["next_step"]
