"""A misdeal redeals the round, and a dead deck is replaced, at the table (issue 31, items 4 and 6):
5324.42(p)(1), (p)(3). Through the table the console drives (TableState, its PokerRound), with its events.
"""

from __future__ import annotations

import pytest

from controller.config import load_profile
from controller.games.base import EventRefused
from controller.runtime.tablestate import TableState
from tests.rounds import apply, table_event

HOLDEM = "config/texas-holdem.toml"
OMAHA8 = "config/omaha-hi-lo-8.toml"


def table(profile: str = HOLDEM, seats=(1, 2, 3, 4)) -> TableState:
    state = TableState(load_profile(profile))
    for seat in seats:
        table_event(state, {"type": "sit", "seat": seat, "stack": 20_000})
    return state


def count(r, total: int = 52) -> None:
    apply(r, {"type": "deck_count", "total": total, "anomalies": [], "truncated": False})


def closed(state: TableState) -> None:
    assert state.round.closed
    state.after_close()


def test_p1_a_misdeal_redeals_the_round_same_button_blinds_straddle_and_deck():
    """5324.42(p)(1): every card back to the dealer for a reshuffle: the round is dealt again with the
    same button, the same blinds, the straddle as it was, and the same deck (not the other one)."""
    state = table()
    first = state.open_round()[0]["opening"]
    r = state.round
    count(r)
    apply(r, {"type": "straddle", "seat": r.straddler()})
    blinds = list(r.setup.blinds)
    apply(r, {"type": "deal_hole", "up": {}})
    effects = apply(r, {"type": "action", "action": "d misdeal shuffle"})
    assert effects[0]["kind"] == "void_pending"           # cards out: a supervisor confirms
    apply(r, {"type": "void_round"})
    assert r.hand.result.void
    closed(state)
    again = state.open_round()[0]["opening"]
    assert again["button"] == first["button"] and again["order"] == first["order"]
    assert again["setup"]["blinds"] == blinds and again["setup"]["blinds"][2] == 400      # the straddle
    assert again["deck"]["id"] == first["deck"]["id"]      # the same deck shuffled back in
    assert again["redeal"] == first["round"]
    r = state.round
    assert r.straddler() is None and r.view()["poker"]["blinds"]["straddle_seat"] == first["order"][2]
    count(r)
    apply(r, {"type": "deal_hole", "up": {}})
    for _ in range(3):
        apply(r, {"type": "fold", "seat": r.view()["poker"]["to_act"]})
    closed(state)
    after = state.open_round()[0]["opening"]   # a hand played: the button and the deck move on
    assert after["button"] != first["button"] and after["deck"]["id"] != first["deck"]["id"]
    assert "redeal" not in after and after["setup"]["blinds"][2] == 0


def test_p1_a_misdeal_before_any_card_redeals_and_the_kill_stays_where_it_was():
    """5324.42(p)(1), (j)(9): the kill lammer stays in front of its player for the redealt round."""
    state = table(OMAHA8, seats=(1, 2, 3))
    state.lammer = 2
    first = state.open_round()[0]["opening"]
    assert first["kill"] == {"seat": 2, "kind": "half-kill"}
    r = state.round
    count(r)
    apply(r, {"type": "action", "action": "d misdeal position"})
    closed(state)
    again = state.open_round()[0]["opening"]
    assert again["kill"] == first["kill"] and again["setup"]["blinds"] == first["setup"]["blinds"]
    assert again["button"] == first["button"] and again["setup"]["small_bet"] == first["setup"]["small_bet"]


def test_p3_a_dead_deck_is_not_dealt_again_until_a_new_deck_is_counted_in():
    """5324.42(p)(3): missing or extra cards: the round dead, every chip back, the deck replaced; the table
    refuses to deal the next hand until a supervisor puts a new deck in play and the shuffler counts it."""
    state = table()
    first = state.open_round()[0]["opening"]
    r = state.round
    count(r)
    apply(r, {"type": "deal_hole", "up": {}})
    apply(r, {"type": "action", "action": "d dead missing"})
    apply(r, {"type": "void_round"})
    assert r.hand.result.replace_deck
    closed(state)
    assert state.seats == {1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000}
    again = state.open_round()[0]["opening"]
    assert again["deck"]["dead"] and again["button"] == first["button"]
    r = state.round
    assert r.deck_wanted() is None                       # the dead deck is not even counted
    assert "5324.42(p)(3)" in r.view()["round"]["next_step"] and r.view()["poker"]["deck"]["dead"]
    with pytest.raises(EventRefused, match=r"5324\.42\(p\)\(3\)"):
        count(r)
    with pytest.raises(EventRefused, match=r"called dead"):
        apply(r, {"type": "deal_hole", "up": {}})
    apply(r, {"type": "replace_deck"})                   # the supervisor's new deck
    assert r.deck_wanted() is not None
    count(r)
    apply(r, {"type": "deal_hole", "up": {}})
    assert r.view()["poker"]["phase"] == "bet"
