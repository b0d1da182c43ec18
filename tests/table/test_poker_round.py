"""A poker hand at the table (controller/runtime/poker.py) and the seats between hands, pure."""

from __future__ import annotations

import pytest

from controller.games.base import EventRefused
from controller.poker.replay import replay_text
from controller.runtime.poker import PokerRound
from controller.runtime.tablestate import TableState
from controller.config import load_profile

HOLDEM = "config/texas-holdem.toml"


def table(*stacks: tuple[int, int]) -> TableState:
    state = TableState(load_profile(HOLDEM))
    for seat, stack in stacks:
        state.table_event({"type": "sit", "seat": seat, "stack": stack}, None)
    return state


def act(r: PokerRound, *actions: str) -> list[dict]:
    effects = []
    for a in actions:
        effects += r.apply({"type": "action", "action": a})
    return effects


def counted(r: PokerRound) -> PokerRound:
    r.apply({"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    return r


def test_a_hand_needs_two_players_and_the_button_moves():
    state = table((3, 20_000))
    assert "two players" in state.can_open()
    state.table_event({"type": "sit", "seat": 7, "stack": 20_000}, None)
    state.table_event({"type": "sit", "seat": 5, "stack": 20_000}, None)
    snap, _ = state.open_round()
    first = snap["opening"]
    assert first["button"] == 3 and first["order"] == [5, 7, 3]      # small blind, big blind, button
    assert first["setup"]["blinds"] == [100, 200, 0]
    r = state.round
    counted(r)
    act(r, "d dh p1 AsKs", "d dh p2 7c2d", "d dh p3 9h9d", "p3 f", "p1 f")
    assert r.closed
    state.after_close()
    assert state.seats == {3: 20_000, 5: 19_900, 7: 20_100}
    second = state.open_round()[0]["opening"]
    assert second["button"] == 5 and second["order"] == [7, 3, 5]


def test_no_card_before_the_deck_counts_52():
    state = table((1, 10_000), (2, 10_000))
    state.open_round()
    r = state.round
    with pytest.raises(EventRefused, match=r"5324\.42\(f\)\(6\)\(iv\)"):
        act(r, "d dh p1 AsKs")
    effects = r.apply({"type": "deck_count", "total": 53, "anomalies": ["extra As"], "truncated": False})
    assert effects[0]["kind"] == "deck_count"
    with pytest.raises(EventRefused):
        act(r, "d dh p1 AsKs")


def test_a_refused_action_changes_nothing_and_the_record_replays():
    state = table((1, 10_000), (2, 10_000), (4, 10_000))
    state.open_round()
    r = counted(state.round)
    act(r, "d dh p1 AsKs", "d dh p2 7c2d", "d dh p3 9h9d")
    before = r.view()
    for bad in ("p1 cc", "p3 cbr 50", "d db AsKdQd", "nonsense", "p9 f"):
        with pytest.raises(EventRefused):
            act(r, bad)
    assert r.view() == before
    effects = act(r, "p3 cbr 1000", "p1 cc", "p2 f", "d db 2c3c4c", "p1 cc", "p3 cc", "d db 8d", "p1 cc", "p3 cc",
                  "d db Jd", "p1 cc", "p3 cc", "p1 sm -", "p3 sm -")
    record = [e for e in effects if e["type"] == "journal"][0]["payload"]
    summary, _ = replay_text(record["phh"])              # what `tablectl poker replay` reads
    assert summary["finishing_stacks"] == record["stacks_after"]
    assert sum(record["stacks_before"]) == sum(record["stacks_after"]) + record["rake"] + record["jackpot_drop"]
    again = PokerRound(state.round.opening)
    for e in r.events:
        again.apply(e)
    assert again.hand.result.finishing_stacks == r.hand.result.finishing_stacks


def test_seats_are_taken_and_left_between_hands():
    state = table((1, 10_000))
    with pytest.raises(EventRefused, match="taken"):
        state.table_event({"type": "sit", "seat": 1, "stack": 500}, None)
    with pytest.raises(EventRefused, match="seat must be"):
        state.table_event({"type": "sit", "seat": 11, "stack": 500}, None)
    state.table_event({"type": "leave", "seat": 1}, None)
    assert state.seats == {}
