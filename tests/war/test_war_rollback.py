"""A handler that fails after the checks leaves the casino war round as it was, as the stud round does.

Both round machines go through one apply skeleton (controller/games/base.py apply_event); before it,
a war handler that raised halfway left a half-dealt round behind.
"""

from __future__ import annotations

import pytest

from controller.games.base import RoundMachine
from controller.games.casino_war.machine import CasinoWarRound, State
from tests.rounds import apply


def war_round_dealing() -> CasinoWarRound:
    r = CasinoWarRound()
    for e in ({"type": "wager", "seat": 1, "wager": "initial", "stake": 1000},
              {"type": "wager", "seat": 3, "wager": "initial", "stake": 500},
              {"type": "no_more_bets"}, {"type": "card", "card": "9s"}, {"type": "card", "card": "Kd"}):
        apply(r, (e))
    return r


def test_war_rolls_back_a_handler_that_fails_halfway(monkeypatch):
    r = war_round_dealing()
    assert isinstance(r, RoundMachine)   # driven by controller/games/base.py apply_event
    before, state = r.snapshot(), r.state
    done = CasinoWarRound._do_card

    def half_then_fail(self, plan):
        done(self, plan)   # the dealer's card is taken, the first deal settled ...
        raise RuntimeError("a bug after the card was taken")

    monkeypatch.setattr(CasinoWarRound, "_do_card", half_then_fail)
    with pytest.raises(RuntimeError):
        apply(r, ({"type": "card", "card": "9h"}))
    assert r.state is state is State.FIRST_DEAL
    assert r.snapshot() == before          # ... and all of it put back
    monkeypatch.undo()
    apply(r, ({"type": "card", "card": "9h"}))   # the round goes on as if nothing had happened
    assert r.state is State.FIRST_SETTLE
    assert r.dealer_card is not None and len(r.drawn) == 3


def test_war_rolls_back_a_failing_transition(monkeypatch):
    r = war_round_dealing()
    before = r.snapshot()
    monkeypatch.setattr(CasinoWarRound, "_entered", lambda self, s: 1 / 0)   # the state entered fails
    with pytest.raises(ZeroDivisionError):
        apply(r, ({"type": "card", "card": "9h"}))
    assert r.snapshot() == before and r.state is State.FIRST_DEAL

