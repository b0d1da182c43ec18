"""Casino war publishes the events its state allows (view()["round"]["allowed"]), and they are what it takes.

Breaks this guards: the dealer's console kept its own copy of the banked machines'
state table because the war round never said what its state allows; a copy drifts.
Here the round is walked at random through its states, with a card-reading shoe
and one without a reader (the dealer touches each card in), with ties that go to
war and without: in every state each allowed event type is taken by the state (an
event of it is refused only for what it carries; one that carries nothing but its
type is taken), every type allowed is taken somewhere on the walk, and a sample of
the other types of the game's catalogue (and of other games) is refused whatever
it carries (tests/table/allowed_walk.py).
"""

from __future__ import annotations

import random

import pytest

from controller.boundary import SOURCES
from controller.cards import CARDS
from controller.games import registry
from controller.games.casino_war.at_table import WarRound
from controller.games.casino_war.machine import State
from controller.runtime.tablestate import TableState
from tests.table.allowed_walk import check_between_rounds, walk
from tests.table.table_helpers import war_opening, war_profile
from tests.rounds import apply, table_event


def kinds() -> set[str]:
    profile = war_profile()
    table = registry.game(profile.game).table
    own = {k for s in SOURCES for k in table.events(s, profile)}
    return own - {"next_round", "clear_fault", "accept_software"} | {"ante", "sit", "deck_count", "reveal"}


def deck(rng: random.Random, ties: bool) -> list[str]:
    """Cards in the order drawn: with `ties`, the shoe's 24 nines (each hand ties the dealer's: war)."""
    if ties:
        return [c for _ in range(6) for c in ("9s", "9h", "9d", "9c")]
    cards = [str(c) for c in CARDS] * 2
    rng.shuffle(cards)
    return cards


def candidates_for(order: list[str]):
    def candidates(r: WarRound, kind: str):
        m = r.m
        seats = range(1, 4)   # three players
        card = order[r.dispensed % len(order)]
        if kind == "wager":
            return [{"type": kind, "seat": s, "wager": w, "stake": 1000} for s in seats for w in ("initial", "tie")
                    if w not in m.wagers.get(s, {})][:3]
        if kind in ("card", "shoe_card"):
            return [{"type": kind, "card": card}]
        if kind == "no_card":
            return [{"type": kind, "seat": s} for s in seats]
        if kind == "decision":
            waiting = [s for s in m.tie_hands if s not in m.decisions] or [1]
            return [{"type": kind, "seat": waiting[0], "decision": "war"},
                    {"type": kind, "seat": waiting[0], "decision": "surrender"}]
        if kind == "shoe_unread":
            return [{"type": kind, "drawn": r.dispensed + 1}]
        if kind == "void_round":
            return [{"type": kind, "reason": "a card flashed"}]
        if kind == "shoe_check":
            return [{"type": kind, "dispensed": r.dispensed, "cover_reached": False}]
        if kind == "shoe_loaded":
            return [{"type": kind, "cards": 312}]
        if kind == "ante":
            return [{"type": kind, "seat": 1, "amount": 1000}]
        if kind == "sit":
            return [{"type": kind, "seat": 1, "stack": 10_000}]
        if kind == "deck_count":
            return [{"type": kind, "total": 52, "anomalies": [], "truncated": False}]
        return [{"type": kind}]
    return candidates


def forward(r: WarRound, taken: dict[str, dict]) -> dict | None:
    """The dealer's next step: three initial wagers, the lock-out, the deal card by card, settle, each
    tie hand to war, the war deal, settle."""
    if "wager" in taken and sum("initial" in w for w in r.m.wagers.values()) < 3:
        return taken["wager"]
    for kind in ("no_more_bets", "deal", "war", "shoe_card", "card", "settle", "decision"):
        if kind in taken:
            return taken[kind]
    return None


@pytest.mark.parametrize("reader", [True, False], ids=["reader", "touch-in"])
@pytest.mark.parametrize("ties", [True, False], ids=["war", "any"])
def test_every_allowed_event_is_taken_and_no_other(reader, ties):
    states: set[str] = set()
    taken: set[str] = set()
    allowed: set[str] = set()
    for seed in range(3):
        rng = random.Random(f"{reader}-{ties}-{seed}")
        opening = war_opening(burn_due=seed % 2 == 0)
        if not reader:
            opening["shoe"]["reader"] = False
        r = WarRound(opening)
        states |= walk(r, candidates_for(deck(rng, ties)), kinds(), rng, forward, taken_kinds=taken,
                       allowed_kinds=allowed)
    assert allowed <= taken, f"allowed but never taken: {sorted(allowed - taken)}"
    assert {State.WAGERS.value, State.FIRST_DEAL.value, State.FIRST_SETTLE.value} <= states, states
    if ties:
        assert {State.DECISIONS.value, State.WAR_DEAL.value, State.WAR_SETTLE.value} <= states, states


def test_the_published_view_and_a_closed_round_allow_nothing_more():
    r = WarRound(war_opening())
    assert r.view()["round"]["allowed"] == r.allowed()
    assert "deal" not in r.allowed() and "wager" in r.allowed() and "no_more_bets" not in r.allowed()
    apply(r, {"type": "void_round", "reason": "test"})
    assert r.closed and r.allowed() == [] and r.view()["round"]["allowed"] == []


def test_between_rounds_the_table_allows_what_it_takes():
    """A fresh shoe is loaded before the first round; a new dealer may take over; then a round opens."""
    def fresh() -> TableState:
        return TableState(war_profile())

    def loaded() -> TableState:
        state = fresh()
        table_event(state, {"type": "shoe_loaded", "cards": 312}, None)
        return state

    assert "next_round" not in check_between_rounds(fresh, kinds() | {"correct_meter"})
    assert {"next_round", "new_dealer"} <= set(check_between_rounds(loaded, kinds() | {"correct_meter"}))
