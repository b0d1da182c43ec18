"""A round walked at random through its states, checking at every step what it publishes as allowed.

The dealer's console reads the round's "allowed" (view()["round"]) instead of a copy of
the machine's table, so it must be exactly what the round takes: in every state it
reaches, each allowed event type has a well-formed event the round accepts, and a
type it does not list has none. The events tried are a game's candidates for the
round as it stands (its seats, the cards not yet out); each is tried on a copy of
the round rebuilt from its events, as recovery rebuilds one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from controller.games.base import EventRefused
from tests.rounds import apply, table_event

Candidates = Callable[[Any, str], Iterable[dict]]   # (round, event type) -> events to try
Forward = Callable[[Any, dict[str, dict]], dict | None]   # (round, a taken event by type) -> the dealer's next


def copy_of(r):
    """The round rebuilt from its opening and its events (as recovery does), to try an event on."""
    fresh = type(r)(r.opening)
    for e in r.events:
        apply(fresh, e)
    return fresh


class Trial:
    """Events tried on a copy of a round: a refused event changes nothing (the rounds' all-or-nothing
    apply, tests/security/test_state_machines.py), so the copy serves until one is taken."""

    def __init__(self, r) -> None:
        self.r, self.copy = r, None

    def outcome(self, event: dict) -> str | None:
        """None when the round takes `event`; else why it refuses ("" when its state takes no event of the type)."""
        if self.copy is None:
            self.copy = copy_of(self.r)
        try:
            apply(self.copy, (event))   # a card as the boundary hands it: a Card
        except EventRefused as exc:
            return exc.reason if exc.event in exc.allowed else ""
        self.copy = None
        return None


def walk(r, candidates: Candidates, kinds: Iterable[str], rng: random.Random, forward: Forward, steps: int = 150,
         aside: float = 0.15, sample: int = 4, taken_kinds: set[str] | None = None, allowed_kinds: set[str] | None = None) -> set[str]:
    """Walk `r` until it closes (or `steps` events), checking its allowed() against what it takes at each
    step: a type it allows is taken by its state (an event of it is refused only for what it carries: its
    seat, its card, its amount; one that carries nothing but its type is taken), and a sample of `sample`
    types of `kinds` it does not allow are refused whatever they carry. Each step is the dealer's next (`forward`) or, with
    probability `aside`, any event taken (a void or a misdeal rarely: they end the round). The states seen; the types taken go into `taken_kinds`,
    those allowed into `allowed_kinds`."""
    seen: set[str] = set()
    kinds = sorted(set(kinds))
    for _ in range(steps):
        if r.closed:
            break
        seen.add(r.state)
        allowed = r.allowed()
        assert r.view()["round"]["allowed"] == allowed
        taken: list[dict] = []
        trial = Trial(r)
        others = [k for k in kinds if k not in allowed]
        for kind in [k for k in kinds if k in allowed] + rng.sample(others, min(sample, len(others))):
            tried: list[tuple[dict, str | None]] = []
            for e in candidates(r, kind):   # an allowed type: until one is taken; another: every one
                tried.append((e, trial.outcome(e)))
                if tried[-1][1] is None and kind in allowed:
                    break
            ok = [e for e, why in tried if why is None]
            if kind in allowed:
                assert all(why != "" for _, why in tried), f"{kind} is allowed in state {r.state} but refused"
                assert ok or all(len(e) > 1 for e, _ in tried), \
                    f"{kind} is allowed in state {r.state} but {{'type': {kind!r}}} is refused: {tried[0][1]}"
                taken += ok
            else:
                assert not ok, f"{kind} is not allowed in state {r.state} but {ok[0]} is accepted"
        assert taken, f"nothing is accepted in state {r.state}"
        if taken_kinds is not None:
            taken_kinds |= {e["type"] for e in taken}
        if allowed_kinds is not None:
            allowed_kinds |= set(allowed)
        step = forward(r, {e["type"]: e for e in reversed(taken)})
        if step is None or rng.random() < aside:
            ending = ("void_round", "dealer_misdeal", "end_deal")
            step = rng.choice([e for e in taken if e["type"] not in ending or rng.random() < 0.05] or taken)
        apply(r, (step))
    return seen


BETWEEN = {"shoe_loaded": {"cards": 52}, "deck_count": {"total": 52, "anomalies": [], "truncated": False},
           "correct_meter": {"amount": 2_500_000, "reason": "the meter checked"}}


def check_between_rounds(make: Callable[[], Any], kinds: Iterable[str]) -> list[str]:
    """The table between rounds (`make()`, made afresh for each event tried) takes each event its state
    allows (next_round: a round opens) and refuses the rest of `kinds`. What it allowed."""
    allowed = make().allowed()
    for kind in sorted(set(kinds) | set(allowed)):
        trial = make()
        event = {"type": kind, **BETWEEN.get(kind, {})}
        try:
            if kind == "next_round":
                trial.open_round()
            else:
                table_event(trial, event, "S-1")
        except EventRefused:
            assert kind not in allowed, f"{kind} is allowed between rounds but refused"
            continue
        assert kind in allowed, f"{kind} is not allowed between rounds but taken"
    return allowed
