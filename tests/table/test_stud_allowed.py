"""Caribbean stud publishes the events its state allows (view()["round"]["allowed"]), and they are what it takes.

Breaks this guards: the dealer's console kept its own copy of the banked machines'
state table because the stud round never said what its state allows; a copy drifts.
Here the round is walked at random through its states, automated and manual
dealing, with and without a royal flush to validate: in every state each allowed
event type is taken by the state (an event of it is refused only for what it
carries; one that carries nothing but its type is taken), every type allowed is
taken somewhere on the walk, and every other type of the game's catalogue (and a
few of other games) is refused whatever it carries (tests/table/allowed_walk.py).
"""

from __future__ import annotations

import random

import pytest

from controller.boundary import SOURCES
from controller.cards import CARDS
from controller.games import registry
from controller.games.caribbean_stud.at_table import StudRound
from controller.games.caribbean_stud.machine import State
from controller.runtime.tablestate import TableState
from tests.table.allowed_walk import check_between_rounds, walk
from tests.table.table_helpers import stud_opening, stud_profile
from tests.rounds import apply

ROYAL = ["As", "Ks", "Qs", "Js", "Ts"]   # seat 1's first stack: a progressive win waits for a supervisor


def kinds() -> set[str]:
    profile = stud_profile()
    table = registry.game(profile.game).table
    own = {k for s in SOURCES for k in table.events(s, profile)}
    return own - {"next_round", "clear_fault", "accept_software", "correct_meter"} | {"wager", "war", "sit"}


def deck(rng: random.Random, royal: bool, dealing: str) -> list[str]:
    """A shuffled deck; with `royal`, seat 1's five cards a royal flush (a stack, or every fourth card
    of a manual deal around three players and the dealer)."""
    rest = [str(c) for c in CARDS if not royal or str(c) not in ROYAL]
    rng.shuffle(rest)
    if not royal:
        return rest
    if dealing == "automated":
        return ROYAL + rest
    for i, c in enumerate(ROYAL):
        rest.insert(4 * i, c)
    return rest


def candidates_for(order: list[str]):
    def candidates(r: StudRound, kind: str):
        d = r.m.d
        out = {str(c) for c in d.dealt} | {str(c) for c in r.buffer}
        undealt = [c for c in order if c not in out]
        seats = range(1, 4)   # three players: the deal is short enough to walk
        if kind == "ante":
            return [{"type": kind, "seat": s, "amount": 1000} for s in seats if s not in d.antes][:2]
        if kind == "progressive":
            return [{"type": kind, "seat": s} for s in sorted(d.antes) if s not in d.progressive][:2] \
                + [{"type": kind, "seat": s} for s in seats if s not in d.antes][:1]
        if kind == "remove":
            return [{"type": kind, "seat": s, "wager": "ante"} for s in sorted(d.antes)][:1] \
                + [{"type": kind, "seat": s, "wager": "progressive"} for s in sorted(d.progressive)][:1]
        if kind in ("card", "shoe_card"):
            to = [{}] if kind == "shoe_card" else [{}, {"to": "dealer"}, *({"to": s} for s in sorted(d.antes)[:1])]
            return [{"type": kind, "card": c, **t} for c in undealt[:1] for t in to]
        if kind == "stack":
            return [{"type": kind, "cards": undealt[:5]}]
        if kind == "decision":
            return [{"type": kind, "seat": s, "decision": x} for s in sorted(d.antes) if s not in d.decisions
                    for x in ("bet", "fold")][:2]
        if kind in ("validate", "refuse"):
            reason = {"reason": "checked"} if kind == "refuse" else {}
            return [{"type": kind, "seat": s, "supervisor": "S-1", **reason} for s in sorted(d.pending)] \
                or [{"type": kind, "seat": 1, "supervisor": "S-1", **reason}]
        if kind == "chip_removed":
            return [{"type": kind, "seat": s} for s in sorted(d.progressive)][:1] or [{"type": kind, "seat": 1}]
        if kind in ("dealer_misdeal", "void_round"):
            return [{"type": kind, "reason": "a card flashed"}]
        if kind == "deck_count":
            return [{"type": kind, "total": 52, "anomalies": [], "truncated": False}]
        if kind == "shoe_loaded":
            return [{"type": kind, "cards": 52}]
        if kind == "shoe_check":
            return [{"type": kind, "dispensed": r.dispensed}]
        if kind == "pool_awards":
            return [{"type": kind, "refused": "no pool"}]
        if kind == "wager":
            return [{"type": kind, "seat": 1, "wager": "initial", "stake": 1000}]
        if kind == "sit":
            return [{"type": kind, "seat": 1, "stack": 10_000}]
        return [{"type": kind}]
    return candidates


def forward(r: StudRound, taken: dict[str, dict]) -> dict | None:
    """The dealer's next step, among the events taken now: three antes, their progressive wagers, the deck
    counted and loaded, the lock-out, the deal card by card, each hand bets, reveal, settle, validate."""
    d = r.m.d
    if "ante" in taken and len(d.antes) < 3:
        return taken["ante"]
    if "progressive" in taken and len(d.progressive) < len(d.antes):
        return taken["progressive"]
    if r.count is None and "deck_count" in taken:
        return taken["deck_count"]
    if not r.loaded and "shoe_loaded" in taken:
        return taken["shoe_loaded"]
    for kind in ("no_more_bets", "deal", "shoe_card", "card", "decision", "reveal", "settle", "validate"):
        if kind in taken:
            return taken[kind]
    return None


@pytest.mark.parametrize("dealing", ["automated", "manual"])
@pytest.mark.parametrize("royal", [True, False], ids=["royal", "any"])
def test_every_allowed_event_is_taken_and_no_other(dealing, royal):
    states: set[str] = set()
    taken: set[str] = set()
    allowed: set[str] = set()
    for seed in range(3):
        rng = random.Random(f"{dealing}-{royal}-{seed}")
        r = StudRound(stud_opening(dealing=dealing))
        states |= walk(r, candidates_for(deck(rng, royal, dealing)), kinds(), rng, forward, taken_kinds=taken,
                       allowed_kinds=allowed)
    assert allowed <= taken, f"allowed but never taken: {sorted(allowed - taken)}"
    wanted = {State.OPEN, State.NO_MORE_BETS, State.DEALING, State.DECISIONS, State.REVEALED}
    assert {s.value for s in wanted} <= states, states
    if royal:
        assert State.VALIDATION.value in states


def test_the_published_view_and_a_closed_round_allow_nothing_more():
    r = StudRound(stud_opening())
    assert r.view()["round"]["allowed"] == r.allowed()
    assert "deal" not in r.allowed() and "ante" in r.allowed()   # the deck is neither counted nor loaded
    apply(r, {"type": "void_round", "reason": "test"})
    assert r.closed and r.allowed() == [] and r.view()["round"]["allowed"] == []


def test_between_rounds_the_table_allows_what_it_takes():
    """Between rounds a stud table opens the next round and a supervisor may correct its meter."""
    allowed = check_between_rounds(lambda: TableState(stud_profile()), kinds() | {"correct_meter", "new_dealer"})
    assert {"next_round", "correct_meter"} <= set(allowed) and "new_dealer" not in allowed
