"""The contract between the poker runtime and the screens (controller/games/poker/contract.py).

Every poker profile in config/ plays a hand through the console's events alone,
the published view checked against PokerView at every step, and the hand's record
replays to the same stacks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cards import CARDS
from controller.config import load_profile
from controller.games.base import EventRefused
from controller.poker.replay import replay_text
from controller.games.poker.contract import HAND_EVENTS, POKER_VIEW_KEYS, check_view
from controller.runtime.tablestate import TableState
from tests.rounds import apply, table_event

CONFIG = Path(__file__).resolve().parents[2] / "config"
POKER_PROFILES = sorted(p.stem for p in CONFIG.glob("*.toml") if p.stem not in ("caribbean-stud", "casino-war"))
DOCS = Path(__file__).resolve().parents[2] / "docs" / "RUNTIME-INTERFACE.md"


def console_event(view: dict, fresh: list[str]) -> dict:
    """What the dealer's console would send next (the first choice it offers)."""
    p = view["poker"]
    if p["rake_due"]:   # the round's rake into the rake area first (5324.42(o)(2)(i)(b))
        return {"type": "rake_taken"}
    if p["turn"] == "discard":
        return {"type": "discard", "seat": p["to_act"], "count": p["discard"]}
    if p["turn"] == "draw":
        return {"type": "draw", "seat": p["to_act"], "count": 1}
    if p["owed"]["hole"]:
        return {"type": "deal_hole", "up": {seat: [fresh.pop() for up in faces if up]
                                             for seat, faces in p["owed"]["hole"].items() if any(faces)}}
    if p["owed"]["board"]:
        return {"type": "deal_board", "cards": [fresh.pop() for _ in range(p["owed"]["board"])]}
    if p["turn"] == "show":
        me = next(x for x in p["players"] if x["seat"] == p["to_act"])
        return {"type": "show", "seat": me["seat"],
                "cards": [c if c != "??" else fresh.pop() for c in me["cards"]]}
    kinds = [o["action"] for o in p["options"]]
    if "bring_in" in kinds:
        return {"type": "bring_in", "seat": p["to_act"]}
    return {"type": "check_call", "seat": p["to_act"]}


@pytest.mark.parametrize("game", POKER_PROFILES)
def test_every_poker_profile_plays_a_hand_through_the_contract(game):
    state = TableState(load_profile(CONFIG / f"{game}.toml"))
    low = state.buy_in_limits()[0]
    for seat in (2, 4, 6):
        table_event(state, {"type": "sit", "seat": seat, "stack": max(low, 20 * state.minimum_to_play())}, None)
    state.open_round()
    r = state.round
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    fresh = [str(c) for c in CARDS]
    steps = 0
    while not r.closed:
        view = r.view()
        check_view({**view, "seating": state.seating_view()})
        event = console_event(view, fresh)
        assert event["type"] in HAND_EVENTS
        apply(r, event)
        steps += 1
        assert steps < 80, r.hand.actions()
    view = r.view()
    assert check_view(view).showdown is not None
    record = r.record
    summary, _ = replay_text(record["phh"])                 # what `tablectl poker replay` reads
    assert list(summary["finishing_stacks"]) == record["stacks_after"]


def test_an_event_off_the_contract_is_refused_naming_the_field():
    state = TableState(load_profile(CONFIG / "texas-holdem.toml"))
    with pytest.raises(EventRefused, match="stack"):
        table_event(state, {"type": "sit", "seat": 1, "stack": "5000"}, None)
    for seat in (1, 2):
        table_event(state, {"type": "sit", "seat": seat, "stack": 5000}, None)
    state.open_round()
    with pytest.raises(EventRefused, match="amount"):
        apply(state.round, {"type": "bet_raise", "seat": 1})
    with pytest.raises(EventRefused, match="'raise' is no event declared here"):   # the boundary's to refuse
        apply(state.round, {"type": "raise", "seat": 1, "amount": 400})


def test_the_interface_document_names_every_field_and_event_of_the_contract():
    text = DOCS.read_text()
    for name in (*POKER_VIEW_KEYS, *HAND_EVENTS, "sit", "top_up", "sit_out", "sit_in", "leave", "seating"):
        assert f"`{name}`" in text, name
