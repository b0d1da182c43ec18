"""Issue 18 at the table's Caribbean stud adapter (controller/games/caribbean_stud/at_table.py), pure:
the second signer above the profile's amount, and the dealer's pay list with the awards."""

from __future__ import annotations

import pytest

from controller.config import parse_profile
from controller.games.base import EventRefused
from controller.games.caribbean_stud.paylist import pay_list
from controller.games.caribbean_stud.at_table import StudRound
from controller.games.caribbean_stud.table_state import StudTableState
from tests.table.table_helpers import STUD, deal_stacks, stud_opening
from tests.rounds import apply

ROYAL = "As Ks Qs Js Ts"
FLUSH = "2h 7h 9h Jh 4h"
DEALER_AK = "Ah Kd 8c 5d 3h"


def settled(second_signer_above=None) -> StudRound:
    opening = stud_opening(meter=2_500_000)
    if second_signer_above is not None:
        opening["second_signer_above"] = second_signer_above
        opening["second_signer_refuses"] = True    # as controller/games/caribbean_stud/table_state.py opens a round
    r = StudRound(opening)
    for seat in (1, 2):
        apply(r, {"type": "ante", "seat": seat, "amount": 500})
        apply(r, {"type": "progressive", "seat": seat})
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    apply(r, ({"type": "shoe_loaded", "cards": 52}))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL, FLUSH, DEALER_AK)
    for seat in (1, 2):
        apply(r, {"type": "decision", "seat": seat, "decision": "bet"})
    apply(r, {"type": "reveal"})
    apply(r, {"type": "settle"})
    return r


def test_an_award_above_the_profiles_amount_needs_a_second_supervisor_5324_37_f_2():
    r = settled(second_signer_above=1_000_000)
    wins = {w["seat"]: w for w in r.view()["validations"]}
    assert wins[1]["second_signer"] and not wins[2]["second_signer"]     # the royal, not the $50 flush
    with pytest.raises(EventRefused, match="second supervisor"):
        apply(r, {"type": "validate", "seat": 1, "supervisor": "S1"})
    with pytest.raises(EventRefused, match="another supervisor"):
        apply(r, {"type": "validate", "seat": 1, "supervisor": "S1", "second_signer": "S1"})
    apply(r, {"type": "validate", "seat": 1, "supervisor": "S1", "second_signer": "S2"})
    assert r.events[-1].second_signer == "S2"        # journaled with the event, replayed alike
    assert r.countersigned == {1: "S2"}
    apply(r, {"type": "validate", "seat": 2, "supervisor": "S1"})   # the flush: one signer
    assert r.closed
    replay = StudRound(r.opening)
    for e in r.events:
        apply(replay, (e))
    assert replay.closed and replay.countersigned == {1: "S2"}


def test_refusing_an_award_above_the_profiles_amount_needs_a_second_supervisor_too():
    """Issue 26: one supervisor refused a $22,501.26 royal alone (threshold $10,000) and the amount went
    back to the meter, where validating it asked for a second PIN. A refusal decides the same money."""
    r = settled(second_signer_above=1_000_000)
    meter = r.meter.amount
    with pytest.raises(EventRefused, match="second supervisor signs the refusal"):
        apply(r, {"type": "refuse", "seat": 1, "supervisor": "S1", "reason": "light not lit"})
    with pytest.raises(EventRefused, match="another supervisor"):
        apply(r, {"type": "refuse", "seat": 1, "supervisor": "S1", "reason": "light not lit", "second_signer": "S1"})
    assert r.meter.amount == meter and 1 not in r.m.d.refused          # nothing changed
    effects = apply(r, {"type": "refuse", "seat": 1, "supervisor": "S1", "reason": "light not lit",
                       "second_signer": "S2"})
    returned = next(e for e in effects if e["type"] == "refuse_progressive")["returned"]
    assert returned > 0 and r.meter.amount == meter + returned
    assert r.events[-1].second_signer == "S2" and r.countersigned == {1: "S2"}
    apply(r, {"type": "refuse", "seat": 2, "supervisor": "S1", "reason": "light not lit"})   # the $50 flush: one
    assert r.closed
    replay = StudRound(r.opening)
    for e in r.events:
        apply(replay, (e))
    assert replay.closed and replay.countersigned == {1: "S2"} and replay.meter.amount == r.meter.amount


def test_a_round_opened_before_refusals_took_two_replays_its_one_signer_refusal():
    """A round journaled before issue 26 (its opening without second_signer_refuses) replays as it was
    played, for recovery and `tablectl rounds show`; every round opened now takes the second signer."""
    r = settled(second_signer_above=1_000_000)
    del r.opening["second_signer_refuses"]
    old = StudRound(r.opening)
    for e in r.events:
        apply(old, (e))
    apply(old, {"type": "refuse", "seat": 1, "supervisor": "S1", "reason": "light not lit"})
    assert 1 in old.m.d.refused
    text = STUD.read_text().replace("[caribbean_stud]", "[caribbean_stud]\nsecond_signer_above = 1000000", 1)
    opening = StudTableState(parse_profile(text))._game_opening({"round": "T-1", "number": 1,
                                                                  "game": "caribbean-stud", "seats": 7})
    assert opening["second_signer_refuses"] is True and opening["second_signer_above"] == 1_000_000


def test_refusing_a_linked_tables_award_above_the_amount_needs_a_second_supervisor():
    """The pool's award (a linked table, issue 10) once the pool gave it: its refusal voids the pool's
    award, so above the profile's amount it is signed by two as well."""
    opening = stud_opening(meter=2_500_000)
    opening["link"] = {"pool": "cs-main"}
    opening["second_signer_above"] = 1_000_000
    opening["second_signer_refuses"] = True
    r = StudRound(opening)
    apply(r, {"type": "ante", "seat": 1, "amount": 500})
    apply(r, {"type": "progressive", "seat": 1})
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    apply(r, ({"type": "shoe_loaded", "cards": 52}))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL, DEALER_AK)
    apply(r, {"type": "decision", "seat": 1, "decision": "bet"})
    apply(r, {"type": "reveal"})
    apply(r, {"type": "settle"})
    apply(r, {"type": "pool_awards", "awards": [{"seat": 1, "hand": "royal-flush", "amount": 3_123_456}]})
    assert r.view()["validations"][0]["second_signer"]
    with pytest.raises(EventRefused, match="second supervisor"):
        apply(r, {"type": "refuse", "seat": 1, "supervisor": "S1", "reason": "light not lit"})
    apply(r, {"type": "refuse", "seat": 1, "supervisor": "S1", "reason": "light not lit", "second_signer": "S2"})
    assert r.closed and r.events[-1].second_signer == "S2"


def test_without_the_profiles_amount_one_supervisor_signs():
    r = settled()
    assert not any(w["second_signer"] for w in r.view()["validations"])
    apply(r, {"type": "validate", "seat": 1, "supervisor": "S1"})


def test_a_fixed_award_is_not_shown_as_paid_from_the_meter_5324_37_g_4():
    r = settled()
    wins = {w["seat"]: w for w in r.view()["validations"]}
    assert wins[1]["source"] == "meter" and wins[1]["award"] == wins[1]["meter"] > 2_500_000
    assert wins[2]["source"] == "fixed" and wins[2]["award"] == 5000


def test_the_pay_list_holds_the_progressive_awards_once_validated_5324_37_f_1():
    r = settled()
    before = r.view()["settlement"]
    waiting = [s for s in before if s["wager"] == "progressive" and s["step"] != "collect"]
    assert [(s["step"], s["seat"], s["amount"]) for s in waiting] == [
        ("waiting", 2, 5000), ("waiting", 1, r.view()["validations"][0]["award"])]
    royal = r.view()["validations"][0]["award"]
    apply(r, {"type": "validate", "seat": 1, "supervisor": "S1"})
    apply(r, {"type": "refuse", "seat": 2, "supervisor": "S1", "reason": "light not lit"})
    steps = r.view()["settlement"]
    progressive_pays = [s for s in steps if s["wager"] == "progressive" and s["step"] == "pay"]
    assert progressive_pays == [{"step": "pay", "seat": 1, "wager": "progressive", "amount": royal,
                                 "hand": "royal-flush", "source": "meter", "validated_by": "S1"}]
    assert not [s for s in steps if s["seat"] == 2 and s["wager"] == "progressive" and s["step"] != "collect"]
    # Collections first, then the pays seat 7 to 1 (5324.37(e)(4)-(5)); seat 1's award after its bet.
    kinds = [s["step"] for s in steps]
    assert kinds.index("pay") > max(i for i, k in enumerate(kinds) if k == "collect")
    seat1 = [s["wager"] for s in steps if s["seat"] == 1 and s["step"] == "pay"]
    assert seat1[-1] == "progressive" and "bet" in seat1
    assert r.record["steps"] == r.settlement      # the round record keeps the base game's steps


def test_pay_list_orders_the_award_with_its_seat_in_the_pay_pass():
    steps = [{"step": "collect", "seat": 3, "wager": "ante", "amount": 500},
             {"step": "pay", "seat": 4, "wager": "ante", "amount": 500},
             {"step": "pay", "seat": 2, "wager": "ante", "amount": 500}]
    out = pay_list(steps, {3: {"hand": "flush", "award": 5000}}, {3: "S1"}, {}, {3: "fixed"})
    assert [(s["step"], s["seat"], s["wager"]) for s in out] == [
        ("collect", 3, "ante"), ("pay", 4, "ante"), ("pay", 3, "progressive"), ("pay", 2, "ante")]


# -- 5324.37(e)(5)(i): the facility's option when the dealer does not qualify -------------------

DEALER_NO_HAND = "Qd Jc 8s 5h 3d"     # no pair, no ace-king: does not qualify (5324.37(e)(4))


def no_hand_round(option):
    opening = stud_opening()
    if option is not None:
        opening["no_hand_turn_over"] = option
    r = StudRound(opening)
    for seat in (1, 2, 3):
        apply(r, {"type": "ante", "seat": seat, "amount": 500})
    apply(r, {"type": "progressive", "seat": 2})
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    apply(r, ({"type": "shoe_loaded", "cards": 52}))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, "2c 7d 6s 4s Kc", FLUSH, "As Ad 9c 4d 2s", DEALER_NO_HAND)
    apply(r, {"type": "decision", "seat": 1, "decision": "fold"})
    apply(r, {"type": "decision", "seat": 2, "decision": "bet"})
    apply(r, {"type": "decision", "seat": 3, "decision": "bet"})
    assert r.view()["turn_over"] is None           # nothing turned over before the dealer's reveal
    apply(r, {"type": "reveal"})
    return r


def test_no_hand_turning_over_only_the_progressive_players_cards_5324_37_e_5_i():
    r = no_hand_round("progressive")
    assert r.view()["dealer"]["qualifies"] is False
    assert r.view()["turn_over"] == [2]             # seat 3 bet without a progressive wager: not turned
    step = r.view()["round"]["next_step"]
    assert "seat 2" in step and "5324.37(e)(5)(i)" in step and step.startswith("No hand")
    apply(r, {"type": "settle"})                     # the flush's award is paid whatever the dealer holds (f)(3)
    assert [w["seat"] for w in r.view()["validations"]] == [2]


def test_no_hand_turning_over_all_the_players_cards_by_default_5324_37_e_5_i():
    r = no_hand_round(None)
    assert r.view()["turn_over"] == [3, 2]          # from the dealer's right; seat 1 folded
    assert r.view()["round"]["next_step"].startswith("No hand: turn over the players' cards")


def test_a_qualifying_dealer_turns_over_every_hand_whatever_the_option_5324_37_e_4():
    r = settled()
    assert r.view()["turn_over"] == [2, 1]


def test_the_option_is_the_profiles():
    from pathlib import Path

    from controller.config import parse_profile
    text = (Path(__file__).resolve().parents[2] / "config" / "caribbean-stud.toml").read_text()
    assert parse_profile(text).caribbean_stud.no_hand_turn_over == "all"
    text = text.replace('dealing = "automated"', 'dealing = "automated"\nno_hand_turn_over = "progressive"', 1)
    assert parse_profile(text).caribbean_stud.no_hand_turn_over == "progressive"
    with pytest.raises(ValueError):
        parse_profile(text.replace('no_hand_turn_over = "progressive"', 'no_hand_turn_over = "some"'))
