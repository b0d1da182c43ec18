"""The casino war round machine walked through every allowed and refused event."""

from __future__ import annotations

import copy
import random

import pytest

from controller.games.base import EventRefused
from controller.games.casino_war.machine import EVENTS, CasinoWarRound, State
from controller.games.casino_war.rules import Rules
from controller.games.casino_war.shoe import WarShoe, play_cards
from tests.war.war_helpers import stacked_shoe
from tests.rounds import apply


def wager(seat, which, stake, **more):
    return {"type": "wager", "seat": seat, "wager": which, "stake": stake, **more}


def card(c):
    return {"type": "card", "card": c}


NO_MORE_BETS = {"type": "no_more_bets"}
SETTLE = {"type": "settle"}
COVER = {"type": "cover_card"}


def decision(seat, d, **more):
    return {"type": "decision", "seat": seat, "decision": d, **more}


# One round through every state: seat 1 ties the dealer and goes to war, seat 3 wins.
SCRIPT = [
    (wager(1, "initial", 1000), "wagers"),
    (wager(1, "tie", 100), "wagers"),
    (wager(3, "initial", 500), "wagers"),
    (NO_MORE_BETS, "first_deal"),
    (card("9s"), "first_deal"),       # seat 1
    (card("Kd"), "first_deal"),       # seat 3
    (card("9h"), "first_settle"),     # dealer: seat 1 has a tie hand
    (SETTLE, "decisions"),
    (decision(1, "war", war_tie=50), "war_deal"),
    (card("2c"), "war_deal"),         # three burn cards (i)(5)(i)
    (card("3c"), "war_deal"),
    (card("4c"), "war_deal"),
    (card("Qs"), "war_deal"),         # seat 1's war card
    (card("Jh"), "war_settle"),       # dealer's war card
    (SETTLE, "closed"),
]
ALLOWED = {
    "wagers": {"wager", "no_more_bets"},
    "first_deal": {"card", "cover_card", "no_card"},
    "first_settle": {"settle"},
    "decisions": {"decision"},
    "war_deal": {"card", "cover_card"},
    "war_settle": {"settle"},
    "closed": set(),
}
# A well-formed event of each type, to offer every state.
PROBES = {
    "wager": wager(2, "initial", 100),
    "no_more_bets": NO_MORE_BETS,
    "card": card("5d"),
    "cover_card": COVER,
    "no_card": {"type": "no_card", "seat": 3},
    "settle": SETTLE,
    "decision": decision(1, "surrender"),
    "hand_pay": {"type": "hand_pay", "seat": 3, "player_id": "D1234567", "form": "W2G-1", "supervisor": "pat"},
}


def round_at(steps: int, **kwargs) -> CasinoWarRound:
    r = CasinoWarRound(**kwargs)
    for event, _ in SCRIPT[:steps]:
        apply(r, (copy.deepcopy(event)))
    return r


POSITIONS = [0] + [i + 1 for i in range(len(SCRIPT))]


def state_after(steps: int) -> str:
    return "wagers" if steps == 0 else SCRIPT[steps - 1][1]


def test_every_state_is_reached():
    # but a hand-pay's, which a round opened with no threshold never reaches (tests/war/test_war_hand_pay_29.py)
    assert {state_after(n) for n in POSITIONS} == {s.value for s in State} - {"hand_pay"} == set(ALLOWED)
    assert set(PROBES) == set(EVENTS)


@pytest.mark.parametrize("steps", POSITIONS)
def test_script_states_and_allowed_events(steps):
    r = round_at(steps)
    assert r.state.value == state_after(steps)
    assert set(r.allowed()) == ALLOWED[r.state.value]


CROSS = [(steps, kind) for steps in POSITIONS for kind in EVENTS
         if kind not in ALLOWED[state_after(steps)]]


@pytest.mark.parametrize("steps,kind", CROSS)
def test_event_the_state_does_not_allow_is_refused_and_changes_nothing(steps, kind):
    r = round_at(steps)
    before = r.snapshot()
    with pytest.raises(EventRefused) as err:
        apply(r, (copy.deepcopy(PROBES[kind])))
    assert err.value.event == kind
    assert err.value.state == state_after(steps)
    assert set(err.value.allowed) == ALLOWED[state_after(steps)]
    assert state_after(steps) in str(err.value)
    assert r.snapshot() == before
    finish_and_compare(r, steps)


def finish_and_compare(r: CasinoWarRound, steps: int) -> None:
    """Carry the script on after a refusal: the round ends exactly as one never refused."""
    for event, _ in SCRIPT[steps:]:
        apply(r, (copy.deepcopy(event)))
    assert r.snapshot() == round_at(len(SCRIPT)).snapshot()


MALFORMED = [
    ("not an object", ["card", "Qh"]),
    ("no type", {"card": "Qh"}),
    ("type not a string", {"type": 7}),
    ("unknown type", {"type": "shuffle"}),
]


@pytest.mark.parametrize("steps", POSITIONS)
@pytest.mark.parametrize("why,event", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_event_refused_in_every_state(steps, why, event):
    """What follows no declaration is the boundary's to refuse, before the round sees it (tests/rounds.py
    reads each event as the table does); the round is as it was."""
    r = round_at(steps)
    before = r.snapshot()
    with pytest.raises(EventRefused) as err:
        apply(r, (event))
    assert err.value.state == "boundary"
    assert r.snapshot() == before
    assert r.state.value == state_after(steps)


@pytest.mark.parametrize("event", [{"type": "no_more_bets"}, NO_MORE_BETS])
def test_a_round_given_a_dict_not_the_boundarys_model_fails_loudly(event):
    """The machine takes the boundary's model only: a bare dict is a caller's bug, not an event."""
    r = round_at(1)
    before = r.snapshot()
    with pytest.raises(TypeError, match="boundary"):
        r.apply(dict(event))
    assert r.snapshot() == before


# Events of an allowed type that a rule refuses: (steps into SCRIPT, event, words of the reason).
RULE_REFUSALS = [
    (0, wager(8, "initial", 100), "seat must be 1..7"),
    (0, wager(1, "war", 100), "initial or tie"),
    (0, wager(1, "initial", 100, verbal=True), "5324.22(g)(1)"),
    (1, wager(1, "initial", 500), "5324.22(g)(2)"),
    (0, NO_MORE_BETS, "no initial wager"),
    (4, {"type": "no_card", "seat": 2}, "not waiting for a card"),
    (5, {"type": "no_card", "seat": 1}, "not waiting for a card"),
    (8, decision(3, "war"), "not the next tie hand"),
    (8, decision(1, "surrender", war_tie=50), "5324.22(i)(5)"),
]

# Events that do not follow their declaration (controller/games/casino_war/events.py): the boundary
# refuses them, naming the field, and the round never sees them: (steps, event, the field named).
FIELD_REFUSALS = [
    (0, wager(0, "initial", 100), "seat"),
    (0, wager(True, "initial", 100), "seat"),
    (0, wager(1, "initial", 0), "stake"),
    (0, wager(1, "initial", -5), "stake"),
    (0, wager(1, "initial", 10.5), "stake"),
    (0, wager(1, "initial", "100"), "stake"),
    (0, wager(1, "initial", 100, verbal="yes"), "verbal"),
    (0, wager(1, "initial", 100, hand="x"), "hand"),
    (0, {"type": "wager", "seat": 1, "wager": "initial"}, "stake"),
    (2, NO_MORE_BETS | {"now": True}, "now"),
    (4, card("10h"), "card"),
    (4, card("qh"), "card"),
    (4, {"type": "card"}, "card"),
    (4, {"type": "no_card", "seat": "1"}, "seat"),
    (7, SETTLE | {"all": 1}, "all"),
    (8, decision(1, "fold"), "decision"),
    (8, decision(1, "war", war_tie=0), "war_tie"),
    (8, {"type": "decision", "seat": 1}, "decision"),
    (10, card("Qs") | {"face": "up"}, "face"),
]


@pytest.mark.parametrize("steps,event,words", RULE_REFUSALS,
                         ids=[f"{state_after(s)}-{w}" for s, _, w in RULE_REFUSALS])
def test_unlawful_event_refused_with_reason_and_changes_nothing(steps, event, words):
    r = round_at(steps)
    before = r.snapshot()
    with pytest.raises(EventRefused) as err:
        apply(r, (event))
    assert words in str(err.value)
    assert err.value.state == state_after(steps)
    assert r.snapshot() == before
    finish_and_compare(r, steps)


@pytest.mark.parametrize("steps,event,field", FIELD_REFUSALS,
                         ids=[f"{state_after(s)}-{f}-{i}" for i, (s, _, f) in enumerate(FIELD_REFUSALS)])
def test_an_event_off_its_declaration_is_the_boundarys_to_refuse(steps, event, field):
    r = round_at(steps)
    before = r.snapshot()
    with pytest.raises(EventRefused) as err:
        apply(r, (event))
    assert err.value.state == "boundary" and err.value.reason.startswith(field)
    assert r.snapshot() == before
    finish_and_compare(r, steps)


def test_a_card_beyond_what_the_shoe_holds_is_refused():
    r = CasinoWarRound(Rules(decks=6), burn=1)
    for seat in range(1, 8):
        apply(r, (wager(seat, "initial", 100)))
    apply(r, (NO_MORE_BETS))
    for _ in range(6):
        apply(r, (card("As")))
    before = r.snapshot()
    with pytest.raises(EventRefused, match=r"5324\.22\(c\)"):
        apply(r, (card("As")))
    assert r.snapshot() == before


def test_the_script_settles_and_closes_with_the_record():
    r = CasinoWarRound()
    effects = [e for event, _ in SCRIPT for e in apply(r, (copy.deepcopy(event)))]
    types = [e["type"] for e in effects]
    assert types.count("wager") == 3 and "no_more_bets" in types
    dealt = [(e["to"], e.get("seat"), e["card"]) for e in effects if e["type"] == "card"]
    assert dealt == [("seat", 1, "9s"), ("seat", 3, "Kd"), ("dealer", None, "9h"),
                     ("burn", None, "2c"), ("burn", None, "3c"), ("burn", None, "4c"),
                     ("seat", 1, "Qs"), ("dealer", None, "Jh")]
    first, war = [e for e in effects if e["type"] == "settle"]
    assert first["seats"] == [
        {"seat": 1, "tie": {"stake": 100, "outcome": "win", "net": 1000}},
        {"seat": 3, "initial": {"stake": 500, "outcome": "win", "net": 500}}]
    assert war["seats"] == [{"seat": 1,
                             "initial": {"stake": 1000, "outcome": "lose", "net": -1000},
                             "war": {"stake": 1000, "outcome": "win", "net": 2000},
                             "war_tie": {"stake": 50, "outcome": "lose", "net": -50}}]
    # (i)(4): seat 3's card is collected before the war deal; seat 1's and the dealer's stay.
    discards = [e["hands"] for e in effects if e["type"] == "discard"]
    assert discards == [[{"hand": 3, "cards": ["Kd"]}],
                        [{"hand": 1, "cards": ["9s", "Qs"]},
                         {"hand": "dealer", "cards": ["9h", "Jh"]}]]
    closed = effects[-1]
    assert closed["type"] == "round_closed" and "reshuffle" not in types
    assert closed["record"] == {
        "game": "casino-war", "rules": Rules().as_record(),
        "shoe": ["9s", "Kd", "9h", "2c", "3c", "4c", "Qs", "Jh"], "burn": 0,
        "seats": [{"seat": 1, "initial": 1000, "tie": 100, "decision": "war", "war_tie": 50},
                  {"seat": 3, "initial": 500}]}
    assert closed["settlement"]["burned"] == ["2c", "3c", "4c"]
    assert closed["settlement"]["dealer"] == {"card": "9h", "war_card": "Jh"}
    assert closed["void"] == []


def test_offers_follow_seat_order_and_surrenders_close_without_war():
    r = CasinoWarRound(burn=1)
    for seat in (2, 5, 6):
        apply(r, (wager(seat, "initial", 1001)))
    apply(r, (NO_MORE_BETS))
    for c in ("Ac", "Kd", "7c", "7d", "7h"):       # burn, seats 2, 5, 6, dealer
        apply(r, (card(c)))
    effects = apply(r, (SETTLE))
    assert effects[-1] == {"type": "offer", "seat": 5, "options": ["surrender", "war"],
                           "note": effects[-1]["note"]}
    out = apply(r, (decision(5, "surrender")))
    assert out[0] == {"type": "surrender", "seat": 5,
                      "initial": {"stake": 1001, "outcome": "surrender", "net": -501}}
    assert out[1]["type"] == "offer" and out[1]["seat"] == 6
    out = apply(r, (decision(6, "surrender")))
    assert r.state is State.CLOSED
    assert [e["type"] for e in out] == ["surrender", "discard", "round_closed"]
    assert out[-1]["settlement"]["burned"] == ["Ac"]


def test_no_card_voids_the_seat_and_the_deal_skips_it():
    """5324.22(h)(3)(iii): a wager dealt no card is void; the seat plays the next round."""
    r = CasinoWarRound()
    apply(r, (wager(1, "initial", 100)))
    apply(r, (wager(2, "initial", 200)))
    apply(r, (wager(2, "tie", 20)))
    apply(r, (wager(4, "initial", 400)))
    apply(r, (NO_MORE_BETS))
    apply(r, (card("5c")))                                  # seat 1
    out = apply(r, {"type": "no_card", "seat": 2})
    assert out[0]["type"] == "void" and out[0]["seat"] == 2
    assert out[0]["initial"] == {"stake": 200, "outcome": "void", "net": 0}
    assert out[0]["tie"] == {"stake": 20, "outcome": "void", "net": 0}
    assert out[1] == {"type": "next_card", "to": "seat", "seat": 4}
    apply(r, (card("6c")))
    with pytest.raises(EventRefused, match="not waiting"):
        # seat 4 got its card; only the dealer's card is still to come
        apply(r, {"type": "no_card", "seat": 4})
    apply(r, (card("Tc")))
    closed = apply(r, (SETTLE))[-1]
    assert [s["seat"] for s in closed["settlement"]["seats"]] == [1, 4]
    assert closed["void"] == [{"seat": 2, "initial": {"stake": 200, "outcome": "void", "net": 0},
                               "tie": {"stake": 20, "outcome": "void", "net": 0}}]


def test_no_card_refused_for_the_only_seat():
    r = CasinoWarRound()
    apply(r, (wager(3, "initial", 100)))
    apply(r, (NO_MORE_BETS))
    with pytest.raises(EventRefused, match="only seat"):
        apply(r, {"type": "no_card", "seat": 3})


def test_a_tie_wager_without_an_initial_wager_is_dealt_nothing_and_void():
    r = CasinoWarRound()
    apply(r, (wager(2, "tie", 50)))
    apply(r, (wager(4, "initial", 100)))
    out = apply(r, (NO_MORE_BETS))
    assert out[1]["type"] == "void" and out[1]["seat"] == 2
    assert out[1]["tie"] == {"stake": 50, "outcome": "void", "net": 0}
    assert out[-1] == {"type": "next_card", "to": "seat", "seat": 4}


def test_burn_card_first_when_the_round_opens_a_shoe_or_a_new_dealer():
    r = CasinoWarRound(burn=1)
    apply(r, (wager(1, "initial", 100)))
    assert apply(r, (NO_MORE_BETS))[-1] == {"type": "next_card", "to": "burn"}
    assert r.next_slot() == ("burn", None)
    assert apply(r, (card("2c")))[0]["to"] == "burn"
    assert r.next_slot() == ("seat", 1)


def test_burn_must_be_zero_or_one():
    with pytest.raises(ValueError):
        CasinoWarRound(burn=2)


def test_replaying_the_events_rebuilds_the_same_round():
    """The journal replays events after a power cut: the round is a function of them."""
    events = [copy.deepcopy(e) for e, _ in SCRIPT[:10]]
    a, b = CasinoWarRound(), CasinoWarRound()
    out_a = [apply(a, (copy.deepcopy(e))) for e in events]
    out_b = [apply(b, (copy.deepcopy(e))) for e in events]
    assert out_a == out_b and a.snapshot() == b.snapshot()


# -- the cover card (5324.22(h)(4)) --------------------------------------------------

def test_war_after_the_cover_card_completes_then_reshuffle():
    # The cover card sits after the burn card and seat 1's card: it comes out in the
    # first deal; the tie still goes to war, and the round is completed.
    shoe = stacked_shoe(["Ah", "7s", "7d", "2c", "3c", "4c", "Ks", "Qd"], cover_at=2)
    r = CasinoWarRound(Rules(), burn=shoe.open_round())
    apply(r, (wager(1, "initial", 1000)))
    apply(r, (NO_MORE_BETS))
    effects = play_cards(shoe, r)
    assert [e["type"] for e in effects].count("cover_card") == 1
    assert shoe.cover_out and r.cover_out and r.state is State.FIRST_SETTLE
    with pytest.raises(EventRefused, match="state first_settle"):
        apply(r, (COVER))
    apply(r, (SETTLE))
    apply(r, (decision(1, "war")))
    assert r.state is State.WAR_DEAL
    before = r.snapshot()
    with pytest.raises(EventRefused, match="already out"):
        apply(r, (COVER))
    assert r.snapshot() == before
    play_cards(shoe, r)
    out = apply(r, (SETTLE))
    shoe.rack.carry_out(out)
    assert out[-1]["type"] == "reshuffle"
    closed = out[-2]
    assert closed["settlement"]["seats"][0]["war"] == {"stake": 1000, "outcome": "win",
                                                       "net": 2000}
    assert closed["record"]["shoe"] == ["Ah", "7s", "7d", "2c", "3c", "4c", "Ks", "Qd"]
    with pytest.raises(RuntimeError, match="reshuffle"):
        shoe.open_round()
    fresh = shoe.reshuffled(random.Random(1))
    assert fresh.open_round() == 1                 # a fresh shoe opens with a burn card


def test_cover_card_in_the_war_deal():
    r = round_at(9)
    apply(r, (card("2c")))
    out = apply(r, (COVER))
    assert out[0]["type"] == "cover_card"
    for event, _ in SCRIPT[10:]:
        out = apply(r, (copy.deepcopy(event)))
    assert out[-1]["type"] == "reshuffle" and r.state is State.CLOSED


def test_a_full_shoe_of_rounds_until_the_cover_card():
    rng = random.Random(7)
    shoe = WarShoe.shuffled(6, rng)
    rounds = 0
    while not shoe.needs_reshuffle:
        r = CasinoWarRound(Rules(), burn=shoe.open_round())
        for seat in (1, 4, 7):
            shoe.rack.carry_out(apply(r, (wager(seat, "initial", 100))))
        shoe.rack.carry_out(apply(r, (NO_MORE_BETS)))
        while r.state is not State.CLOSED:
            if r.wants_card():
                play_cards(shoe, r)
            elif r.state is State.DECISIONS:
                seat = [s for s in r.tie_hands if s not in r.decisions][0]
                shoe.rack.carry_out(apply(r, (decision(seat, "war"))))
            else:
                shoe.rack.carry_out(apply(r, (SETTLE)))
        rounds += 1
    assert rounds > 40                          # about three quarters of 312 cards, 4+ per round
    assert shoe.remaining >= 312 // 4 - 4 * 3 - 10
    assert sorted(shoe.rack.cards() + shoe.left()) == sorted(shoe.cards)
