"""Casino war at the table (controller/games/casino_war/at_table.py) and the table between rounds (tablestate.py), pure."""

from __future__ import annotations

import pytest

from controller.games.base import EventRefused
from controller.runtime.tablestate import RecoveryError, TableState
from controller.games.casino_war.at_table import WarRound
from tests.table.table_helpers import stud_profile, war_opening, war_profile
from tests.rounds import apply, table_event


def wagers(r: WarRound) -> WarRound:
    apply(r, {"type": "wager", "seat": 1, "wager": "initial", "stake": 1000})
    apply(r, {"type": "wager", "seat": 2, "wager": "initial", "stake": 500})
    apply(r, {"type": "wager", "seat": 2, "wager": "tie", "stake": 100})
    return r


def cards(r: WarRound, *tokens: str) -> None:
    for t in tokens:
        apply(r, ({"type": "shoe_card", "card": t}))


def test_a_fresh_shoe_burns_one_card_first():
    """5324.22(h)(1): the first card of a fresh shoe (and a new dealer's) goes to the discard rack."""
    r = wagers(WarRound(war_opening(burn_due=True)))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    cards(r, "9s", "Qh", "4d", "Tc")
    assert [str(c) for c in r.m.burned] == ["9s"]
    assert r.m.state.value == "first_settle"
    assert r.shoe_after() == {"dispensed": 4, "cover_out": False, "burn_due": False}


def test_no_card_before_the_dealer_presses_deal():
    r = wagers(WarRound(war_opening(burn_due=False)))
    apply(r, {"type": "no_more_bets"})
    assert r.cards_wanted() == 0
    with pytest.raises(EventRefused, match="no deal under way"):
        apply(r, ({"type": "shoe_card", "card": "Qh"}))


def test_a_card_dealt_while_the_box_was_down_is_entered_from_the_layout():
    r = wagers(WarRound(war_opening(dispensed=40, burn_due=False)))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    cards(r, "Qh")
    effects = apply(r, {"type": "shoe_check", "dispensed": 42, "cover_reached": False})
    assert effects[-1]["kind"] == "unrecorded_cards"
    assert r.cards_wanted() == 0 and r.unrecorded == 1
    with pytest.raises(EventRefused, match="must be entered first"):
        apply(r, ({"type": "shoe_card", "card": "2c"}))
    apply(r, ({"type": "card", "card": "7s"}))        # seat 2's card, face up on the layout
    assert str(r.m.cards[2]) == "7s" and r.unrecorded == 0 and r.cards_wanted() == 1
    with pytest.raises(EventRefused, match="only when the box missed it"):
        apply(r, ({"type": "card", "card": "8s"}))
    assert r.dispensed == 42


def test_a_shoe_that_agrees_resumes_and_one_that_went_backwards_raises_an_alarm():
    r = wagers(WarRound(war_opening(dispensed=10, burn_due=False)))
    assert apply(r, {"type": "shoe_check", "dispensed": 10, "cover_reached": False})[0]["type"] == "resumed"
    effects = apply(r, {"type": "shoe_check", "dispensed": 3, "cover_reached": False})
    assert effects[-1]["kind"] == "device" and not r.closed


def test_the_cover_card_finishes_the_round_then_the_shoe_must_be_reloaded():
    profile = war_profile()
    state = TableState(profile)
    assert state.can_open()                       # a new table: the shoe is not loaded
    table_event(state, {"type": "shoe_loaded", "cards": 312}, None)
    state.open_round()
    r = state.round
    wagers(r)
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    cards(r, "9s", "Qh")
    apply(r, {"type": "cover_reached"})
    cards(r, "4d", "Tc")
    apply(r, {"type": "settle"})
    assert r.closed
    state.after_close()
    assert "reshuffle" in state.can_open()      # 5324.22(h)(4)
    with pytest.raises(EventRefused):
        state.open_round()
    table_event(state, {"type": "shoe_loaded", "cards": 312}, None)
    snapshot, _ = state.open_round()
    assert snapshot["shoe"] == {"dispensed": 0, "cover_out": False, "burn_due": True, "needs_load": False}


def test_a_void_before_the_first_settlement_returns_every_wager():
    r = wagers(WarRound(war_opening(burn_due=False)))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    cards(r, "Qh")
    effects = apply(r, {"type": "void_round", "reason": "shoe jammed"})
    record = [e for e in effects if e["type"] == "journal"][0]["payload"]
    assert record["void"]["wagers"] == [{"seat": 1, "initial": 1000}, {"seat": 2, "initial": 500, "tie": 100}]
    assert record["void"]["cards"] == ["Qh"]


def test_no_void_once_the_original_deal_is_settled():
    r = wagers(WarRound(war_opening(burn_due=False)))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    cards(r, "Qh", "Qd", "Qs")           # seat 1 ties the dealer
    apply(r, {"type": "settle"})
    with pytest.raises(EventRefused, match="settled"):
        apply(r, {"type": "void_round", "reason": "late"})


def test_a_new_dealer_owes_a_burn_card():
    r = wagers(WarRound(war_opening(burn_due=False)))
    assert r.m.burn == 0
    apply(r, {"type": "new_dealer"})
    assert r.m.burn == 1 and r.m.wagers == {1: {"initial": 1000}, 2: {"initial": 500, "tie": 100}}


def test_the_table_replays_what_it_journaled():
    """Recovery: a fresh state plus the journaled events equals the state that journaled them."""
    class E:
        def __init__(self, seq, kind, round_id, payload):
            self.seq, self.kind, self.round_id, self.payload = seq, kind, round_id, payload
    profile = stud_profile()
    live = TableState(profile)
    snapshot, _ = live.open_round()
    rid = live.round.round_id
    events = [{"type": "ante", "seat": 2, "amount": 700}, {"type": "deck_count", "total": 52, "anomalies": [],
              "truncated": False}, {"type": "shoe_loaded", "cards": 52}, {"type": "no_more_bets"},
              {"type": "deal"}, *({"type": "shoe_card", "card": c} for c in "As Ks Qs Js Ts 2c 3c".split())]
    for e in events:
        apply(live.round, (e))
    again = TableState.from_snapshot(profile, snapshot)
    n = again.replay([E(i, "event", rid, {"event": e}) for i, e in enumerate(events)])
    assert n == len(events) and again.round.view() == live.round.view()
    with pytest.raises(RecoveryError, match="does not replay"):
        TableState.from_snapshot(profile, snapshot).replay([E(1, "event", rid, {"event": {"type": "reveal"}})])
    with pytest.raises(RecoveryError, match="profile"):
        TableState.from_snapshot(war_profile(), snapshot)
