"""Caribbean stud at the table (controller/games/caribbean_stud/at_table.py): the deck, the shoe, restarts, pure."""

from __future__ import annotations

import copy

import pytest

from controller.games.base import EventRefused
from controller.games.caribbean_stud.at_table import StudRound
from tests.table.table_helpers import deal_stacks, stud_opening
from tests.rounds import apply

ROYAL = "As Ks Qs Js Ts"
JUNK = "2c 7d 9h 4s 3c"
DEALER_AK = "Ah Kd 8c 5d 3h"      # ace-king: qualifies (5324.37(e)(4))
OTHER = "2d 4h 6c 8s Tc"


def opened(**kw) -> StudRound:
    r = StudRound(stud_opening(**kw))
    apply(r, {"type": "ante", "seat": 1, "amount": 1000})
    apply(r, {"type": "ante", "seat": 3, "amount": 500})
    apply(r, {"type": "progressive", "seat": 1})
    return r


def counted(r: StudRound, total: int = 52) -> StudRound:
    apply(r, {"type": "deck_count", "total": total, "anomalies": [] if total == 52 else ["missing 7h"],
             "truncated": False})
    apply(r, ({"type": "shoe_loaded", "cards": total}))
    return r


def journal_entries(effects):
    return [e for e in effects if e["type"] == "journal"]


def test_no_deal_before_the_deck_counts_52():
    r = opened()
    apply(r, {"type": "no_more_bets"})
    with pytest.raises(EventRefused, match="not been counted"):
        apply(r, {"type": "deal"})
    effects = apply(r, {"type": "deck_count", "total": 51, "anomalies": ["missing 7h"], "truncated": False})
    assert effects[0]["type"] == "alarm" and "51" in effects[0]["message"]
    assert r.view()["alarms"][0]["kind"] == "deck_count"
    apply(r, ({"type": "shoe_loaded", "cards": 51}))
    with pytest.raises(EventRefused, match=r"counted 51.*5324\.42\(f\)\(6\)\(iv\)"):
        apply(r, {"type": "deal"})
    assert not {b["event"]: b["enabled"] for b in r.view()["round"]["buttons"]}["deal"]
    assert r.cards_wanted() == 0


def test_a_count_of_52_and_a_loaded_shoe_let_the_dealer_deal_stacks():
    r = counted(opened())
    assert r.deck_wanted() is None
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    assert r.cards_wanted() == 5
    deal_stacks(r, "As Ks Qs")
    assert r.cards_wanted() == 2          # the rest of the stack in progress
    assert r.m.state.value == "no_more_bets" and r.buffer
    deal_stacks(r, "Js Ts", JUNK, DEALER_AK)
    assert r.m.state.value == "decisions"
    assert r.view()["dealer"]["up_card"] == "Ah"   # the bottom card of the dealer's stack (5324.37(d)(3))
    assert r.dispensed == 15


def test_settlement_journals_the_meter_then_the_record():
    r = counted(opened(meter=2_500_000, carry=9_000))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL, JUNK, DEALER_AK)
    apply(r, {"type": "decision", "seat": 1, "decision": "bet"})
    apply(r, {"type": "decision", "seat": 3, "decision": "fold"})
    apply(r, {"type": "reveal"})
    effects = apply(r, {"type": "settle"})
    meters = [e["payload"] for e in journal_entries(effects) if e["kind"] == "meter"]
    # 125 cents at 7300 bp = 91.25 cents, plus the 0.9 cent carried: 92 cents, 0.15 carried
    assert meters[0]["reason"] == "contribution"
    assert (meters[0]["amount"], meters[0]["carry_before"], meters[0]["carry_after"]) == (92, 9_000, 1_500)
    royal = meters[1]
    assert (royal["hand"], royal["before"], royal["amount"], royal["after"]) == \
        ("royal-flush", 2_500_092, 2_500_092, 1_000_000)
    assert r.m.state.value == "validation"                     # 5324.37(f)(2): a supervisor validates
    assert not journal_entries(effects)[2:]                    # no record until then
    effects = apply(r, {"type": "validate", "seat": 1, "supervisor": "S-7"})
    record = journal_entries(effects)[0]["payload"]
    assert record["validated"] == {"1": "S-7"}
    assert record["settlement"]["seats"][0]["progressive"]["award"] == 2_500_092
    assert r.closed and r.meter.amount == 1_000_000


def test_a_refused_event_changes_nothing():
    r = counted(opened())
    before = copy.deepcopy(r.view())
    for bad in ({"type": "deal"}, {"type": "shoe_card", "card": "Zz"}, {"type": "ante", "seat": 9, "amount": 500},
                {"type": "decision", "seat": 1, "decision": "bet"}, {"type": "stack", "cards": ["As"]},
                {"type": "nonsense"}):
        with pytest.raises(EventRefused):
            apply(r, (bad))
    assert r.view() == before


def test_replaying_the_events_rebuilds_the_same_round():
    r = counted(opened())
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL, "2c 7d")
    again = StudRound(stud_opening())
    for e in r.events:
        apply(again, (e))
    assert again.view() == r.view() and again.buffer == r.buffer and again.dispensed == r.dispensed


def test_restart_with_nothing_dealt_counts_and_loads_the_deck_again():
    r = counted(opened())
    first = r.deck_wanted()
    assert first is None
    apply(r, {"type": "shoe_check", "dispensed": 0})
    assert r.deck_wanted() == 1 and r.count is None and not r.loaded
    counted(r)
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    assert r.cards_wanted() == 5


def test_restart_where_the_shoe_agrees_resumes():
    r = counted(opened())
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL, "2c 7d")
    effects = apply(r, {"type": "shoe_check", "dispensed": 7})
    assert effects == [{"type": "resumed", "dispensed": 7}]
    assert r.cards_wanted() == 3 and not r.closed


def test_restart_with_unrecorded_cards_after_a_stack_is_a_misdeal_keeping_contributions():
    """5324.37(h): any other misdeal to the dealer voids every hand; the contribution stays (rounds.md)."""
    r = counted(opened(meter=2_500_000))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL, "2c")
    effects = apply(r, {"type": "shoe_check", "dispensed": 8})
    assert r.closed and r.state == "void"
    record = journal_entries(effects)[-1]["payload"]
    assert "5324.37(h)" in record["misdeal"]
    assert all(w["outcome"] == "void" and w["net"] == 0
               for s in record["settlement"]["seats"] for w in s.values() if isinstance(w, dict) and "net" in w)
    meter = [e["payload"] for e in journal_entries(effects) if e["kind"] == "meter"]
    assert meter[0]["amount"] == 91 and r.meter.amount == 2_500_091


def test_restart_with_unrecorded_cards_before_any_stack_voids_with_the_meter_untouched():
    r = counted(opened(meter=2_500_000))
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, "As Ks")
    effects = apply(r, {"type": "shoe_check", "dispensed": 5})
    record = journal_entries(effects)[-1]["payload"]
    assert record["void"]["wagers"] == [{"seat": 1, "ante": 1000, "progressive": 125}, {"seat": 3, "ante": 500}]
    assert not [e for e in journal_entries(effects) if e["kind"] == "meter"]
    assert r.meter.amount == 2_500_000 and r.closed
    with pytest.raises(EventRefused):
        apply(r, ({"type": "shoe_card", "card": "Qs"}))


def test_a_supervisor_cannot_void_after_the_reveal():
    r = counted(opened())
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL, JUNK, DEALER_AK)
    apply(r, {"type": "decision", "seat": 1, "decision": "bet"})
    apply(r, {"type": "decision", "seat": 3, "decision": "bet"})
    apply(r, {"type": "reveal"})
    with pytest.raises(EventRefused, match="settle the round"):
        apply(r, {"type": "void_round", "reason": "dispute"})


def test_a_supervisor_void_during_the_deal_is_a_misdeal():
    r = counted(opened())
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, ROYAL)
    effects = apply(r, {"type": "void_round", "reason": "a card flashed face up"})
    assert r.closed and journal_entries(effects)[-1]["payload"]["misdeal"] == "a card flashed face up"


def test_a_card_twice_from_the_shoe_is_refused_before_it_spoils_a_stack():
    r = counted(opened())
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "deal"})
    deal_stacks(r, "As Ks")
    with pytest.raises(EventRefused, match="once"):
        apply(r, ({"type": "shoe_card", "card": "As"}))
    assert len(r.buffer) == 2


def test_late_and_removed_progressive_wagers_are_flagged():
    r = counted(opened())
    apply(r, {"type": "no_more_bets"})
    apply(r, {"type": "progressive", "seat": 3})            # after the lock-out: not recognized
    apply(r, {"type": "chip_removed", "seat": 1})           # the recognized one taken off
    alarms = {a["kind"]: a for a in r.view()["alarms"]}
    assert alarms["late_wager"]["seat"] == 3 and "5324.37(a)(3)(ii)" in alarms["late_wager"]["message"]
    assert alarms["wager_removed"]["seat"] == 1
    assert r.m.d.progressive == {1}                          # the wager stands: it was placed in time
    with pytest.raises(EventRefused):
        apply(r, {"type": "chip_removed", "seat": 3})
