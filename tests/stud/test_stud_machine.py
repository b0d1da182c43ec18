"""The Caribbean stud round machine: every phase, every allowed and refused event.

The walk is table-driven: for each phase, the events it allows are written down
here (the procedure of 5324.37), every event type is tried in every phase, and a
refused one must name the phase and the allowed events and change nothing, the
meter included.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import CARDS
from controller.games.base import EventRefused
from controller.games.caribbean_stud.machine import EVENTS, CaribbeanStudRound, State, new_meter
from controller.games.caribbean_stud.record import settle_record
from controller.games.caribbean_stud.rules import ProgressiveRules, StudRules
from controller.progressive import Fixed
from tests.rounds import apply, read

RULES = StudRules()

# Seat 1 (ante 1000, progressive) gets a royal flush; seat 4 (ante 500) a pair of jacks;
# the dealer A-K-7-4-2, the least hand that qualifies. Manual order: 1, 4, dealer x5.
SEAT1 = ["Ah", "Kh", "Qh", "Jh", "Th"]
SEAT4 = ["2d", "7s", "9c", "Jd", "Js"]
DEALER = ["As", "Kd", "7h", "4c", "2s"]
MANUAL_DEAL = [c for trio in zip(SEAT1, SEAT4, DEALER, strict=True) for c in trio]
WAGERS = [{"type": "ante", "seat": 1, "amount": 1000}, {"type": "progressive", "seat": 1},
          {"type": "ante", "seat": 4, "amount": 500}]
LOCK = WAGERS + [{"type": "no_more_bets"}]
DEALT = LOCK + [{"type": "card", "card": c} for c in MANUAL_DEAL]
DECIDED = DEALT + [{"type": "decision", "seat": 4, "decision": "bet"},
                   {"type": "decision", "seat": 1, "decision": "bet"}]
REVEALED = DECIDED + [{"type": "reveal"}]
SETTLED = REVEALED + [{"type": "settle"}]
STACKS = LOCK + [{"type": "stack", "cards": SEAT1}, {"type": "stack", "cards": SEAT4}]

PHASES = {  # name -> (dealing mode, events that reach it, the state, the events it allows)
    "open": ("manual", WAGERS, State.OPEN, {"ante", "progressive", "remove", "no_more_bets"}),
    "no more bets, manual": ("manual", LOCK, State.NO_MORE_BETS, {"card", "dealer_misdeal", "progressive"}),
    "no more bets, automated": ("automated", LOCK, State.NO_MORE_BETS, {"stack", "dealer_misdeal", "progressive"}),
    "dealing, manual": ("manual", LOCK + DEALT[len(LOCK):len(LOCK) + 1], State.DEALING,
                        {"card", "end_deal", "dealer_misdeal", "progressive"}),
    "dealing, automated": ("automated", STACKS[:-1], State.DEALING,
                           {"stack", "end_deal", "dealer_misdeal", "progressive"}),
    "dealer's fifth": ("automated", STACKS + [{"type": "stack", "cards": DEALER[:4]}], State.DEALER_FIFTH,
                       {"card", "dealer_misdeal", "progressive"}),
    "decisions": ("manual", DEALT, State.DECISIONS, {"decision", "reveal", "dealer_misdeal", "progressive"}),
    "all decided": ("manual", DECIDED, State.DECISIONS, {"decision", "reveal", "dealer_misdeal", "progressive"}),
    "revealed": ("manual", REVEALED, State.REVEALED, {"settle", "progressive"}),
    "validation": ("manual", SETTLED, State.VALIDATION, {"validate", "refuse", "progressive"}),
    "closed": ("manual", SETTLED + [{"type": "validate", "seat": 1, "supervisor": "pat"}], State.CLOSED, set()),
    "void": ("manual", DEALT + [{"type": "dealer_misdeal", "reason": "hole card flashed"}], State.VOID, set()),
}
# One well-formed event of each type: lawful wherever its type is allowed in PHASES.
SAMPLES = {
    "ante": {"type": "ante", "seat": 2, "amount": 300},
    "progressive": {"type": "progressive", "seat": 4},
    "remove": {"type": "remove", "seat": 1, "wager": "progressive"},
    "no_more_bets": {"type": "no_more_bets"},
    "card": {"type": "card", "card": "5c"},
    "stack": {"type": "stack", "cards": ["3c", "5c", "6c", "8d", "9h"]},
    "end_deal": {"type": "end_deal"},
    "dealer_misdeal": {"type": "dealer_misdeal", "reason": "two hole cards exposed"},
    "decision": {"type": "decision", "seat": 4, "decision": "fold"},
    "reveal": {"type": "reveal"},
    "settle": {"type": "settle"},
    "validate": {"type": "validate", "seat": 1, "supervisor": "pat"},
    "refuse": {"type": "refuse", "seat": 1, "supervisor": "pat", "reason": "the acceptor light was not lit"},
    "pool_awards": {"type": "pool_awards", "awards": [{"seat": 1, "hand": "royal-flush", "amount": 2_500_070}]},
    "hand_pay": {"type": "hand_pay", "seat": 1, "player_id": "D1234567", "form": "W2G-1", "supervisor": "pat"},
}


def new_round(mode: str = "manual", meter: int = 2_500_000, rules: StudRules = RULES, **options) -> CaribbeanStudRound:
    return CaribbeanStudRound(rules, new_meter(rules, meter), dealing_mode=mode, **options)


def play(events, mode="manual", **kw) -> tuple[CaribbeanStudRound, list[dict]]:
    r = new_round(mode, **kw)
    effects: list[dict] = []
    for e in events:
        effects.extend(apply(r, (copy.deepcopy(e))))
    return r, effects


def of_type(effects, kind):
    return [e for e in effects if e["type"] == kind]


def test_every_event_type_has_a_sample():
    assert set(SAMPLES) == set(EVENTS)


@pytest.mark.parametrize("phase", PHASES)
def test_phase_allows_exactly_its_events(phase):
    mode, events, state, allowed = PHASES[phase]
    r, _ = play(events, mode)
    assert r.state is state
    assert set(r.allowed()) == allowed
    assert r.snapshot()["state"] == state.value


# Allowed types whose sample is unlawful in that phase: refused for a reason, not for the state.
NOT_YET = {("decisions", "reveal"): "waiting for a decision", ("all decided", "decision"): "already decided"}


@pytest.mark.parametrize("phase,kind", [(p, k) for p in PHASES for k in EVENTS])
def test_every_event_in_every_phase(phase, kind):
    mode, events, state, allowed = PHASES[phase]
    r, _ = play(events, mode)
    before = r.snapshot()
    event = SAMPLES[kind]
    if (phase, kind) in NOT_YET:
        with pytest.raises(EventRefused) as err:
            apply(r, (copy.deepcopy(event)))
        assert NOT_YET[phase, kind] in err.value.reason and kind in err.value.allowed
        assert r.snapshot() == before
    elif kind in allowed:
        effects = apply(r, (copy.deepcopy(event)))
        json.dumps(effects)  # effects go to the journal and the screens as JSON
        assert r.events[-1] == read(event)   # the event as the round was handed it: the boundary's model
    else:
        with pytest.raises(EventRefused) as err:
            apply(r, (copy.deepcopy(event)))
        assert err.value.state == state.value and err.value.event == kind
        assert err.value.allowed == sorted(allowed)
        assert state.value in str(err.value)
        assert r.snapshot() == before and len(r.events) == len(events)


REFUSED = [  # (phase, event, words the reason must hold): lawful type, unlawful content
    ("open", {"type": "ante", "seat": 8, "amount": 100}, "1..7"),
    ("open", {"type": "progressive", "seat": 2}, "no ante"),
    ("open", {"type": "progressive", "seat": 1}, "already recognized"),
    ("open", {"type": "remove", "seat": 4, "wager": "progressive"}, "no progressive"),
    ("open", {"type": "remove", "seat": 2, "wager": "ante"}, "no ante"),
    ("no more bets, manual", {"type": "card", "card": "Ah", "to": 3}, "seat with an ante"),
    ("dealing, manual", {"type": "card", "card": "Ah"}, "already been dealt"),
    ("dealing, automated", {"type": "stack", "cards": ["Ah", "2c", "3c", "4d", "5d"]}, "already been dealt"),
    ("dealing, automated", {"type": "stack", "cards": ["2c", "2c", "3c", "4d", "5d"]}, "twice in the stack"),
    ("dealer's fifth", {"type": "card", "card": "2s", "to": 1}, "fifth card"),
    ("dealing, manual", {"type": "dealer_misdeal", "reason": "  "}, "needs a reason"),
    ("decisions", {"type": "decision", "seat": 2, "decision": "bet"}, "no hand"),
    ("decisions", {"type": "reveal"}, "seat(s) 1, 4"),
    ("all decided", {"type": "decision", "seat": 1, "decision": "fold"}, "already decided"),
    ("validation", {"type": "validate", "seat": 4, "supervisor": "pat"}, "no progressive win"),
    ("validation", {"type": "validate", "seat": 1, "supervisor": ""}, "supervisor"),
    ("validation", {"type": "refuse", "seat": 4, "supervisor": "pat", "reason": "no light"}, "no progressive win"),
    ("validation", {"type": "refuse", "seat": 1, "supervisor": " ", "reason": "no light"}, "supervisor"),
    ("validation", {"type": "refuse", "seat": 1, "supervisor": "pat", "reason": " "}, "needs a reason"),
    ("validation", {"type": "refuse", "seat": 1, "supervisor": "pat"}, "needs a reason"),
]


@pytest.mark.parametrize("phase,event,words", REFUSED, ids=[f"{p}: {e}" for p, e, _ in REFUSED])
def test_unlawful_events_are_refused_with_a_reason_and_change_nothing(phase, event, words):
    mode, events, state, allowed = PHASES[phase]
    r, _ = play(events, mode)
    before = r.snapshot()
    with pytest.raises(EventRefused) as err:
        apply(r, (copy.deepcopy(event)))
    assert words in err.value.reason
    assert err.value.state == state.value
    assert r.snapshot() == before


# Events off their declaration (controller/games/caribbean_stud/events.py): the boundary refuses them,
# naming the field, before the round sees them: (phase, event, the field named).
OFF_DECLARATION = [
    ("open", {"type": "ante", "seat": True, "amount": 100}, "seat"),
    ("open", {"type": "ante", "seat": 2, "amount": 0}, "amount"),
    ("open", {"type": "ante", "seat": 2, "amount": 10.5}, "amount"),
    ("open", {"type": "ante", "seat": 2}, "amount"),
    ("open", {"type": "ante", "seat": 2, "amount": 100, "chips": 3}, "chips"),
    ("open", {"type": "remove", "seat": 1, "wager": "bet"}, "wager"),
    ("no more bets, manual", {"type": "card", "card": "10h"}, "card"),
    ("no more bets, manual", {"type": "card", "card": "Ah", "to": [1]}, "to"),
    ("dealing, automated", {"type": "stack", "cards": "2c 3c"}, "cards"),
    ("decisions", {"type": "decision", "seat": 4, "decision": "raise"}, "decision"),
    ("validation", {"type": "refuse", "seat": 1, "supervisor": "pat", "reason": "x", "paid": 0}, "paid"),
]


@pytest.mark.parametrize("phase,event,field", OFF_DECLARATION, ids=[f"{p}: {e}" for p, e, _ in OFF_DECLARATION])
def test_an_event_off_its_declaration_is_the_boundarys_to_refuse(phase, event, field):
    mode, events, state, allowed = PHASES[phase]
    r, _ = play(events, mode)
    before = r.snapshot()
    with pytest.raises(EventRefused) as err:
        apply(r, (copy.deepcopy(event)))
    assert err.value.state == "boundary" and err.value.reason.startswith(field)
    assert r.snapshot() == before


def test_a_machine_given_a_dict_not_the_boundarys_model_fails_loudly():
    r = new_round()
    with pytest.raises(TypeError, match="boundary"):
        r.apply({"type": "ante", "seat": 1, "amount": 100})
    assert r.snapshot() == new_round().snapshot()


def test_events_that_are_not_objects_with_a_type_are_refused():
    r = new_round()
    for bad in (None, "ante", {"seat": 1}, {"type": 3}, {"type": "fold"}):
        with pytest.raises(EventRefused):
            apply(r, (bad))
    assert r.snapshot() == new_round().snapshot()


def test_a_second_decision_is_refused():  # each seat bets or folds once (5324.37(e)(1)-(2))
    r, _ = play(DEALT + [{"type": "decision", "seat": 4, "decision": "fold"}])
    before = r.snapshot()
    with pytest.raises(EventRefused, match="already decided"):
        apply(r, {"type": "decision", "seat": 4, "decision": "bet"})
    assert r.snapshot() == before


def test_settle_before_reveal_and_decision_before_deal_are_refused():
    r, _ = play(DECIDED)
    with pytest.raises(EventRefused) as err:
        apply(r, {"type": "settle"})
    assert err.value.state == "decisions" and "reveal" in err.value.allowed
    r, _ = play(LOCK)
    with pytest.raises(EventRefused) as err:
        apply(r, {"type": "decision", "seat": 1, "decision": "bet"})
    assert err.value.state == "no_more_bets"


# --- a whole round ----------------------------------------------------------------------

def test_a_whole_manual_round_settles_as_tablectl_settle_does():
    r, effects = play(SETTLED + [{"type": "validate", "seat": 1, "supervisor": "pat"}])
    assert r.state is State.CLOSED
    settlement = of_type(effects, "settlement")[0]
    assert settlement["record"] == {
        "game": "caribbean-stud", "rules": RULES.to_record(2_500_000), "dealer": DEALER,
        "seats": [{"seat": 1, "ante": 1000, "progressive": True, "decision": "bet", "cards": SEAT1},
                  {"seat": 4, "ante": 500, "decision": "bet", "cards": SEAT4}]}
    assert settlement["result"] == settle_record(settlement["record"])
    assert settlement["result"]["progressive"]["awards"] == [{"seat": 1, "hand": "royal-flush", "amount": 2_500_070}]
    # the meter moved as the settlement says: reset after the royal flush
    assert r.meter.amount == 1_000_000 and r.meter.audit()["levels"]["royal-flush"] == {"hits": 1, "paid": 2_500_070}
    assert of_type(effects, "meter") == [{"type": "meter", "amount": 1_000_000}]
    # (f)(2): the award waited for a supervisor, with the hand and the award shown
    assert of_type(effects, "validate_progressive") == [
        {"type": "validate_progressive", "seat": 1, "hand": "royal-flush", "cards": SEAT1, "award": 2_500_070}]
    assert of_type(effects, "pay_progressive") == [
        {"type": "pay_progressive", "seat": 1, "hand": "royal-flush", "amount": 2_500_070, "supervisor": "pat"}]
    # the dealer's up card was dealt face up (5324.37(d)(1)(ii)), every other card face down
    faces = [(e["to"], e["face"]) for e in of_type(effects, "dealt")]
    assert faces.count(("dealer", "up")) == 1 and faces[2] == ("dealer", "up")
    assert effects[-1] == {"type": "closed"}
    assert {"type": "lockout", "on": False} in effects


def test_settlement_steps_collect_push_then_pay_from_seat_7():  # 5324.37(e)(4)
    events = [{"type": "ante", "seat": n, "amount": 100} for n in (2, 5, 6)] + [{"type": "no_more_bets"}]
    hands = {2: "Ac Kh 7d 4h 2c", 5: "Ad Kc 6d 5d 2d", 6: "8c 8d 9h 6h Jd"}
    events += [{"type": "stack", "cards": hands[n].split()} for n in (2, 5, 6)]
    events += [{"type": "stack", "cards": DEALER}]
    events += [{"type": "decision", "seat": n, "decision": "bet"} for n in (6, 2, 5)]
    r, effects = play(events + [{"type": "reveal"}, {"type": "settle"}], "automated")
    steps = of_type(effects, "settlement")[0]["steps"]
    assert [(s["step"], s["seat"], s["wager"]) for s in steps] == [
        ("collect", 5, "ante"), ("collect", 5, "bet"), ("push", 2, "ante"), ("push", 2, "bet"),
        ("pay", 6, "ante"), ("pay", 6, "bet")]
    assert r.state is State.CLOSED  # nothing to validate
    assert of_type(effects, "expose") == [{"type": "expose", "card": "As"}]  # (d)(3): bottom card


# --- wagers and the lock-out (5324.37(a)(3), (c)) -----------------------------------

def test_lockout_makes_a_later_progressive_wager_late_and_unrecognized():
    r, effects = play(LOCK + [{"type": "progressive", "seat": 4}])
    assert effects[-2:] == [{"type": "lockout", "on": True}, {"type": "light", "seat": 4, "light": "late"}]
    r, effects = play(SETTLED[:len(LOCK)] + [{"type": "progressive", "seat": 4}] + SETTLED[len(LOCK):])
    seats = of_type(effects, "settlement")[0]["record"]["seats"]
    assert "progressive" not in seats[1] and seats[0]["progressive"] is True
    assert r.snapshot()["late"] == [4]


def test_removed_progressive_wager_shows_removed_and_is_not_played():
    r, effects = play(WAGERS + [{"type": "remove", "seat": 1, "wager": "progressive"}])
    assert effects[-1] == {"type": "light", "seat": 1, "light": "removed"}
    assert r.snapshot()["progressive"] == []
    # taking back the ante takes the progressive wager with it (5324.37(c)(2))
    r, effects = play(WAGERS + [{"type": "remove", "seat": 1, "wager": "ante"}])
    assert effects[-1] == {"type": "light", "seat": 1, "light": "removed"}
    assert r.snapshot()["antes"] == {"4": 500} and r.snapshot()["progressive"] == []


def test_an_ante_can_be_changed_before_the_lockout_within_the_table_limits():
    r, _ = play([{"type": "ante", "seat": 3, "amount": 500}, {"type": "ante", "seat": 3, "amount": 700}],
                ante_limits=(500, 10_000))
    assert r.snapshot()["antes"] == {"3": 700}
    # Each refusal names the limit it breaks, in dollars (issue 18).
    with pytest.raises(EventRefused, match=r"an ante of \$4\.00 is below the table's minimum of \$5\.00"):
        apply(r, {"type": "ante", "seat": 3, "amount": 400})
    with pytest.raises(EventRefused, match=r"an ante of \$100\.01 is above the table's maximum of \$100\.00"):
        apply(r, {"type": "ante", "seat": 3, "amount": 10_001})
    apply(r, {"type": "ante", "seat": 3, "amount": 1500})     # a $15 ante, not a multiple of any chip
    assert r.snapshot()["antes"] == {"3": 1500}


def test_no_more_bets_needs_an_ante():
    with pytest.raises(EventRefused, match="no ante"):
        apply(new_round(), {"type": "no_more_bets"})


# --- irregularities (5324.37(h)) ----------------------------------------------------

def test_a_seat_dealt_six_cards_is_void_and_does_not_decide():
    # the second card meant for seat 4 went to seat 1 as well
    events = LOCK + [{"type": "card", "card": c} for c in MANUAL_DEAL[:4]]
    events += [{"type": "card", "card": "3c", "to": 1}]
    events += [{"type": "card", "card": c} for c in MANUAL_DEAL[4:]]
    r, effects = play(events)
    assert r.state is State.DECISIONS
    assert of_type(effects, "void_hand") == [{"type": "void_hand", "seat": 1, "count": 6, "ante": 1000}]
    with pytest.raises(EventRefused, match="void"):
        apply(r, {"type": "decision", "seat": 1, "decision": "bet"})
    apply(r, {"type": "decision", "seat": 4, "decision": "bet"})
    apply(r, {"type": "reveal"})
    effects = apply(r, {"type": "settle"})
    result = of_type(effects, "settlement")[0]["result"]
    assert result["seats"][0]["void"] is True and result["seats"][0]["cards"] == [
        "Ah", "Kh", "3c", "Qh", "Jh", "Th"]
    assert result["seats"][0]["progressive"] == {"stake": 100, "outcome": "void", "net": 0}
    assert result["progressive"]["contributions"] == 70  # the voided wager's contribution stays
    assert r.state is State.CLOSED and r.meter.amount == 2_500_070


def test_an_automated_stack_of_four_voids_that_seat():
    events = LOCK + [{"type": "stack", "cards": SEAT1[:4]}, {"type": "stack", "cards": SEAT4},
                     {"type": "stack", "cards": DEALER}]
    r, effects = play(events, "automated")
    assert r.state is State.DECISIONS
    assert of_type(effects, "void_hand")[0]["seat"] == 1
    assert r.allowed() == ["dealer_misdeal", "decision", "progressive", "reveal"]


def test_a_dealer_dealt_four_gets_a_fifth():
    r, effects = play(STACKS + [{"type": "stack", "cards": DEALER[:4]}], "automated")
    assert r.state is State.DEALER_FIFTH and effects[-1] == {"type": "deal_dealer_card"}
    effects = apply(r, ({"type": "card", "card": DEALER[4]}))
    assert r.state is State.DECISIONS
    assert effects[-1] == {"type": "expose", "card": "As"}
    assert r.snapshot()["hands"]["dealer"] == DEALER


def test_any_other_dealer_misdeal_voids_every_hand_and_asks_for_a_reshuffle():
    # the dealer got a sixth card
    events = DEALT[:len(LOCK) + 1] + [{"type": "card", "card": "3c", "to": "dealer"}] + DEALT[len(LOCK) + 1:]
    r, effects = play(events)
    assert r.state is State.VOID
    kinds = [e["type"] for e in effects[-8:]]
    assert "void_round" in kinds and "reshuffle" in kinds and kinds[-1] == "closed"
    result = of_type(effects, "settlement")[0]["result"]
    assert result["dealer"]["void"] is True
    assert all(w["outcome"] == "void" for s in result["seats"] for k, w in s.items()
               if k in ("ante", "bet", "progressive"))
    assert r.meter.amount == 2_500_070  # contributions stay, nothing paid
    # a misdeal declared by the dealer after a fold voids the round too, and returns the ante
    r, effects = play(DEALT + [{"type": "decision", "seat": 4, "decision": "fold"},
                               {"type": "dealer_misdeal", "reason": "hole card exposed"}])
    assert r.state is State.VOID
    assert of_type(effects, "void_round") == [{"type": "void_round", "reason": "hole card exposed"}]
    steps = of_type(effects, "settlement")[0]["steps"]
    assert {"step": "void", "seat": 4, "wager": "ante", "amount": 500} in steps


def test_a_round_locked_out_but_never_dealt_can_be_voided():
    r, effects = play(LOCK + [{"type": "dealer_misdeal", "reason": "shuffler jammed"}])
    assert r.state is State.VOID
    result = of_type(effects, "settlement")[0]["result"]
    assert result["dealer"] == {"cards": [], "void": True}
    assert [s["cards"] for s in result["seats"]] == [[], []]
    assert result["seats"][0]["progressive"] == {"stake": 100, "outcome": "void", "net": 0}
    assert effects[-1] == {"type": "closed"} and {"type": "reshuffle"} in effects


def test_the_dealer_can_end_a_short_deal():
    r, effects = play(LOCK + [{"type": "card", "card": c} for c in MANUAL_DEAL[:12]] + [{"type": "end_deal"}])
    # each seat holds four and the dealer four: both seats void, the dealer gets a fifth
    assert r.state is State.DEALER_FIFTH
    assert [e["seat"] for e in of_type(effects, "void_hand")] == [1, 4]
    apply(r, ({"type": "card", "card": "9s"}))
    assert r.state is State.DECISIONS and r.allowed() == ["dealer_misdeal", "decision", "progressive", "reveal"]
    apply(r, {"type": "reveal"})  # nobody has a hand to decide
    apply(r, {"type": "settle"})
    assert r.state is State.CLOSED


# --- validation (5324.37(f)(2)) ----------------------------------------------------

def test_every_progressive_win_waits_for_its_own_validation():
    rules = StudRules(progressive=ProgressiveRules())
    events = [{"type": "ante", "seat": n, "amount": 100} for n in (2, 6)]
    events += [{"type": "progressive", "seat": n} for n in (2, 6)] + [{"type": "no_more_bets"}]
    events += [{"type": "stack", "cards": "3c 7c 9c Jc Qc".split()}, {"type": "stack", "cards": "5s 6s 7s 8s 9s".split()},
               {"type": "stack", "cards": DEALER}]
    events += [{"type": "decision", "seat": 2, "decision": "fold"}, {"type": "decision", "seat": 6, "decision": "bet"},
               {"type": "reveal"}, {"type": "settle"}]
    r, effects = play(events, "automated", rules=rules)
    # seat 2 folded its flush: only seat 6's straight flush waits
    assert [e["seat"] for e in of_type(effects, "validate_progressive")] == [6]
    assert r.state is State.VALIDATION
    with pytest.raises(EventRefused):
        apply(r, {"type": "validate", "seat": 2, "supervisor": "pat"})
    apply(r, {"type": "validate", "seat": 6, "supervisor": "pat"})
    assert r.state is State.CLOSED


def test_two_wins_close_the_round_only_when_both_are_validated():
    events = [{"type": "ante", "seat": n, "amount": 100} for n in (2, 6)]
    events += [{"type": "progressive", "seat": n} for n in (2, 6)] + [{"type": "no_more_bets"}]
    events += [{"type": "stack", "cards": "3c 7c 9c Jc Qc".split()}, {"type": "stack", "cards": "5s 6s 7s 8s 9s".split()},
               {"type": "stack", "cards": DEALER}]
    events += [{"type": "decision", "seat": n, "decision": "bet"} for n in (2, 6)] + [{"type": "reveal"}, {"type": "settle"}]
    r, effects = play(events, "automated")
    assert [e["seat"] for e in of_type(effects, "validate_progressive")] == [6, 2]  # payment order
    apply(r, {"type": "validate", "seat": 2, "supervisor": "lee"})
    assert r.state is State.VALIDATION
    with pytest.raises(EventRefused, match="already validated"):
        apply(r, {"type": "validate", "seat": 2, "supervisor": "lee"})
    apply(r, {"type": "validate", "seat": 6, "supervisor": "lee"})
    assert r.state is State.CLOSED


# --- replay, carry, configuration ---------------------------------------------------

def test_a_round_is_a_pure_function_of_its_events():
    r, _ = play(SETTLED)
    again = CaribbeanStudRound.replay(RULES, new_meter(RULES, 2_500_000), r.events)
    assert again.snapshot() == r.snapshot()
    # half-way, as after a power cut
    half = CaribbeanStudRound.replay(RULES, new_meter(RULES, 2_500_000), r.events[:12])
    for e in r.events[12:]:
        apply(half, (e))
    assert half.snapshot() == r.snapshot()


def test_the_live_meter_carries_the_fraction_of_a_cent_between_rounds():
    rules = StudRules(progressive=ProgressiveRules(contribution_bp=7333))
    meter = new_meter(rules, 1_000_000)
    added = []
    for _ in range(4):
        r = CaribbeanStudRound(rules, meter, dealing_mode="manual")
        for e in WAGERS[:2] + [{"type": "no_more_bets"}] + [{"type": "card", "card": c}
                                                           for c in MANUAL_DEAL if c not in SEAT4]:
            apply(r, (e))
        assert r.state is State.DECISIONS
        for e in ({"type": "decision", "seat": 1, "decision": "fold"}, {"type": "reveal"}, {"type": "settle"}):
            effects = apply(r, (e))
        added.append(of_type(effects, "settlement")[0]["result"]["progressive"]["contributions"])
    # 73.33 cents a round: 73 three times, then 74 when the carried fractions make a cent
    assert added == [73, 73, 73, 74]
    assert meter.amount == 1_000_293 and meter.carry == 3200  # 4 x 7333 = 29332 ten-thousandths


def test_the_meter_must_match_the_rules():
    with pytest.raises(ValueError):
        CaribbeanStudRound(RULES, new_meter(StudRules(progressive=ProgressiveRules(reset=5)), 0))
    with pytest.raises(ValueError):
        new_round(mode="shuffler")


# --- the machine deals as the spec deals a shoe ------------------------------------

@given(st.permutations(CARDS), st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True),
       st.sampled_from(["manual", "automated"]), st.data())
@settings(max_examples=60, deadline=None)
def test_machine_rounds_settle_as_their_shoe_records(deck, seats, mode, data):
    shoe = [str(c) for c in deck]
    decisions = {n: data.draw(st.sampled_from(["bet", "fold"])) for n in seats}
    progressive = {n for n in seats if data.draw(st.booleans())}
    r = new_round(mode)
    events = [{"type": "ante", "seat": n, "amount": 100 * n} for n in seats]
    events += [{"type": "progressive", "seat": n} for n in sorted(progressive)] + [{"type": "no_more_bets"}]
    need = 5 * (len(seats) + 1)
    if mode == "manual":
        events += [{"type": "card", "card": c} for c in shoe[:need]]
    else:
        events += [{"type": "stack", "cards": shoe[i:i + 5]} for i in range(0, need, 5)]
    events += [{"type": "decision", "seat": n, "decision": decisions[n]} for n in reversed(seats)]
    effects = []
    for e in events + [{"type": "reveal"}, {"type": "settle"}]:
        effects += apply(r, (e))
    result = of_type(effects, "settlement")[0]["result"]
    as_record = {"game": "caribbean-stud", "shoe": shoe, "dealing": mode,
                 "seats": [{"seat": n, "ante": 100 * n, "decision": decisions[n],
                            **({"progressive": True} if n in progressive else {})} for n in seats]}
    assert result == settle_record(as_record)
    assert r.meter.amount == result.get("progressive", {}).get("meter_after", 2_500_000)
    assert r.state in (State.CLOSED, State.VALIDATION)


# --- refusal (5324.37(f)(2)) -------------------------------------------------------

LIGHT_OFF = "the acceptor light was not lit"


def _two_wins(rules=RULES):
    """Seat 6 a straight flush (a percent of the meter), seat 2 a flush (fixed), both bet."""
    events = [{"type": "ante", "seat": n, "amount": 100} for n in (2, 6)]
    events += [{"type": "progressive", "seat": n} for n in (2, 6)] + [{"type": "no_more_bets"}]
    events += [{"type": "stack", "cards": "3c 7c 9c Jc Qc".split()}, {"type": "stack", "cards": "5s 6s 7s 8s 9s".split()},
               {"type": "stack", "cards": DEALER}]
    events += [{"type": "decision", "seat": n, "decision": "bet"} for n in (2, 6)] + [{"type": "reveal"}, {"type": "settle"}]
    return play(events, "automated", rules=rules)


def test_a_refused_royal_flush_goes_back_on_top_of_the_reset_by_a_correction():
    r, _ = play(SETTLED)
    assert r.meter.amount == 1_000_000  # restarted at the reset when the award was taken
    effects = apply(r, {"type": "refuse", "seat": 1, "supervisor": "pat", "reason": LIGHT_OFF})
    assert r.state is State.CLOSED
    assert of_type(effects, "pay_progressive") == []
    assert of_type(effects, "refuse_progressive") == [
        {"type": "refuse_progressive", "seat": 1, "hand": "royal-flush", "amount": 2_500_070, "supervisor": "pat",
         "reason": LIGHT_OFF, "returned": 2_500_070, "meter_before": 1_000_000, "meter_after": 3_500_070}]
    assert r.meter.amount == 3_500_070 and r.meter.balances()
    assert r.meter.corrections == [{"before": 1_000_000, "after": 3_500_070, "supervisor": "pat",
                                    "reason": f"progressive win of seat 1 (royal-flush) refused: {LIGHT_OFF}"}]
    assert r.snapshot()["refused"] == {"1": {"supervisor": "pat", "reason": LIGHT_OFF, "returned": 2_500_070}}


def test_refusing_one_of_two_wins_returns_only_that_award_and_closes_when_both_are_decided():
    r, effects = _two_wins()
    awards = {e["seat"]: e["award"] for e in of_type(effects, "validate_progressive")}
    meter = r.meter.amount
    fixed = isinstance(r.meter.awards["flush"], Fixed)
    apply(r, {"type": "refuse", "seat": 6, "supervisor": "lee", "reason": LIGHT_OFF})
    assert r.state is State.VALIDATION and r.meter.amount == meter + awards[6]
    for again in ({"type": "refuse", "seat": 6, "supervisor": "lee", "reason": "x"},
                  {"type": "validate", "seat": 6, "supervisor": "lee"}):
        with pytest.raises(EventRefused, match="already refused"):
            apply(r, (again))
    apply(r, {"type": "validate", "seat": 2, "supervisor": "lee"})
    assert r.state is State.CLOSED and r.meter.balances()
    assert fixed and r.meter.amount == meter + awards[6]  # the flush was paid by the house (5324.37(g)(4))
    with pytest.raises(EventRefused):
        apply(r, {"type": "refuse", "seat": 2, "supervisor": "lee", "reason": "x"})


def test_a_refused_fixed_award_leaves_the_meter_alone():
    r, _ = _two_wins()
    meter, corrections = r.meter.amount, list(r.meter.corrections)
    effects = apply(r, {"type": "refuse", "seat": 2, "supervisor": "lee", "reason": LIGHT_OFF})
    assert of_type(effects, "refuse_progressive")[0]["returned"] == 0 and of_type(effects, "meter") == []
    assert r.meter.amount == meter and r.meter.corrections == corrections


def test_a_refusal_replays_to_the_same_round():
    r, _ = play(SETTLED + [{"type": "refuse", "seat": 1, "supervisor": "pat", "reason": LIGHT_OFF}])
    again = CaribbeanStudRound.replay(RULES, new_meter(RULES, 2_500_000), r.events)
    assert again.snapshot() == r.snapshot()
