"""Stateful property tests of the trust boundaries (issue 15): random events of every kind, from
every source, lawful and not, into each round machine and into a live table.

What must hold after every step, whatever was sent:
- a round raises nothing but EventRefused, and a refused event changes nothing;
- every state is one the game declares; no card comes out more often than the shoe holds it;
- a closed round accounts for every cent: the antes or wagers placed are the ones settled or
  returned, paid + kept + returned == wagered, the meter moves by its contributions and awards
  only, a poker hand's stacks before == stacks after + rake + jackpot drop;
- the live table never faults on a refused event and its published view stays well-formed.

Each machine runs a few seconds in the suite; for a long run set STATE_MACHINE_PROFILE=long
(or STATE_MACHINE_EXAMPLES / STATE_MACHINE_STEPS) in the environment.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from controller.games.base import EventRefused
from controller.games.caribbean_stud.at_table import StudRound
from controller.runtime.tablestate import TableState, round_event
from controller import boundary
from controller.games import registry
from tests.security.state_machine_helpers import (CARD_TEXT, STATES, STEPS, LiveTable, check, check_poker_money,
                                   check_round, check_stud_money, check_war_money, deepcopy_event, events,
                                   lawful_submission, plain_state, profile, settle_down)
from tests.rounds import table_event

LONG = os.environ.get("STATE_MACHINE_PROFILE") == "long"


def machine_settings(examples: int, steps: int) -> settings:
    return settings(max_examples=int(os.environ.get("STATE_MACHINE_EXAMPLES", examples * (50 if LONG else 1))),
                    stateful_step_count=int(os.environ.get("STATE_MACHINE_STEPS", steps * (4 if LONG else 1))),
                    deadline=None, suppress_health_check=list(HealthCheck), derandomize=not LONG,
                    # In the suite a failure is reported as found (shrinking a long run of events takes
                    # minutes); a long run shrinks it to the minimal sequence.
                    phases=list(Phase) if LONG else [Phase.explicit, Phase.reuse, Phase.generate])


def state_of(state: TableState) -> dict:
    """Everything the table's state holds (the round in it included), comparable."""
    return {k: plain_state(v) for k, v in vars(state).items() if k != "profile"}



def table_events(profile) -> boundary.Events:
    """The table's catalogue by source, as Table.events gives it: its game's declarations."""
    return lambda source: registry.game(profile.game).table.events(source, profile)


def entitled_source(kind: object, events: boundary.Events) -> str:
    """The source that may send an event of this kind, so that every kind reaches the round.

    Who may send what is the boundary's business (tests/security/test_event_boundary.py
    and the table's state machines below); here each event comes from the source
    entitled to it and what the boundary lets through must never raise in a round."""
    if isinstance(kind, str):
        for source in (boundary.SUPERVISOR, boundary.DEVICE, boundary.LINK):
            if kind in events(source):
                return source
        if kind in events(boundary.TABLE) and kind not in events(boundary.PANEL):
            return boundary.TABLE
    return boundary.PANEL


class RoundMachine(RuleBasedStateMachine):
    """One table's rounds, event by event, as the consumer applies them (controller/table.py `_handle`)."""

    game = ""

    def __init__(self) -> None:
        super().__init__()
        self.state = TableState(profile(self.game))
        self.deck: list[str] = []
        self.decks = self.state.profile.casino_war.decks if self.game == "war" else 1
        self.placed: dict = {}
        self.meter_before = 0
        self.checked: str | None = None
        self.last_meter: int | None = None

    @initialize(deck=st.permutations(CARD_TEXT), mode=st.sampled_from(["automated", "automated", "manual"]))
    def open_table(self, deck, mode) -> None:
        self.deck = list(deck)
        self.mode = mode
        if self.game == "war":
            table_event(self.state, {"type": "shoe_loaded", "cards": 312}, None)
        if self.game == "poker":
            for seat in (2, 5, 8):
                table_event(self.state, {"type": "sit", "seat": seat, "stack": 20_000}, None)
        self._open()

    def _open(self) -> None:
        if self.state.can_open() and self.game == "war":
            table_event(self.state, {"type": "shoe_loaded", "cards": 312}, None)
        if self.state.can_open():
            return
        self.state.open_round()
        r = self.state.round
        if self.game == "stud":
            if self.mode == "manual":
                self.state.round = r = StudRound({**r.opening, "dealing": "manual"})
            self.meter_before = r.meter.amount
            if self.last_meter is not None:
                check(self.meter_before == self.last_meter,
                      f"the round opened at meter {self.meter_before}, the last closed at {self.last_meter}")
        self.placed = {}
        self.checked = None

    @property
    def round(self):
        return self.state.round

    def send(self, event, who: str | None = "SUP1") -> None:
        """Apply one event as the table's consumer would; check a refusal changed nothing."""
        r = self.round
        before = state_of(self.state)
        sent = deepcopy_event(event)
        try:
            kind = sent.get("type") if isinstance(sent, dict) else None
            events = table_events(self.state.profile)
            read = boundary.admitted(sent, entitled_source(kind, events), who, events)   # as Table._handle
            if isinstance(read, str):
                raise EventRefused(str(kind), "boundary", [], read)
            if r is not None and not r.closed:
                effects = r.apply(round_event(read, who))   # the boundary's model, as the table hands it
            else:
                effects = self.state.table_event(read, who)
        except EventRefused:
            after = state_of(self.state)
            assert after == before, f"the refused event {event!r} changed the round"
            return
        assert isinstance(effects, list)
        json.dumps(effects)   # effects are JSON-able (the journal and the screens take them)
        if r is not None and not r.closed:
            self._placed(event)
        elif isinstance(event, dict) and event.get("type") == "correct_meter":
            self.last_meter = None   # a supervisor set the meter between rounds
        if r is not None and r.closed and self.checked != r.round_id:
            self._closed(r)

    def _placed(self, e: dict) -> None:
        kind = e.get("type")
        if self.game == "stud":
            if kind == "ante":
                self.placed[e["seat"]] = e["amount"]
            elif kind == "remove" and e.get("wager") == "ante":
                self.placed.pop(e["seat"], None)
        elif self.game == "war" and kind == "wager":
            self.placed[(e["seat"], e["wager"])] = e["stake"]

    def _closed(self, r) -> None:
        self.checked = r.round_id
        if self.game == "stud":
            check_stud_money(r, self.placed, self.meter_before)
            self.last_meter = r.meter.amount
        elif self.game == "war":
            check_war_money(r, self.placed)
        else:
            check_poker_money(r)
        self.state.after_close()

    @rule(event=events())
    def anything(self, event) -> None:
        self.send(event)

    @rule(event=events(), who=st.sampled_from([None, "", "SUP2", " "]))
    def anything_from_anyone(self, event, who) -> None:
        self.send(event, who)

    @precondition(lambda self: self.round is not None and not self.round.closed)
    @rule(data=st.data())
    def lawful_step(self, data) -> None:
        steps = STEPS[self.game](self.round, self.deck)
        if steps:
            self.send(data.draw(st.sampled_from(steps)))

    @precondition(lambda self: self.round is not None and not self.round.closed)
    @rule(data=st.data())
    def lawful_steps(self, data) -> None:
        for _ in range(data.draw(st.integers(1, 12))):
            steps = STEPS[self.game](self.round, self.deck)
            if not steps or self.round.closed:
                return
            self.send(data.draw(st.sampled_from(steps)))

    @precondition(lambda self: self.round is None or self.round.closed)
    @rule()
    def next_round(self) -> None:
        self._open()

    @invariant()
    def round_holds(self) -> None:
        r = self.round
        if r is not None:
            check_round(self.game, r, self.decks)


class StudMachine(RoundMachine):
    game = "stud"


class WarMachine(RoundMachine):
    game = "war"


class PokerMachine(RoundMachine):
    game = "poker"


TestCaribbeanStudRound = StudMachine.TestCase
TestCaribbeanStudRound.settings = machine_settings(25, 60)
TestCasinoWarRound = WarMachine.TestCase
TestCasinoWarRound.settings = machine_settings(18, 60)
TestPokerHandAtTheTable = PokerMachine.TestCase
TestPokerHandAtTheTable.settings = machine_settings(12, 60)


# -- the live table's boundary ----------------------------------------------------------------------

SOURCES = ["panel", "supervisor", "device", "link", "panel", "supervisor", "device", "link",
           "table", "autoplay", "screen", ""]
WHO = st.sampled_from([None, "dealer", "SUP1", "", "shoe"]) | st.text(max_size=4)
LIVE: dict[str, LiveTable] = {}


def live_table(game: str) -> LiveTable:
    """One live table per game for the module; a faulted one is replaced (the test has failed already)."""
    live = LIVE.get(game)
    if live is not None and live.table.fault:
        live.close()
        live = None
    if live is None:
        live = LIVE[game] = LiveTable(game, Path(tempfile.mkdtemp(prefix=f"boundary-{game}-")))
    return live


@pytest.fixture(scope="module", autouse=True)
def _close_live_tables():
    yield
    for live in LIVE.values():
        live.close()
    LIVE.clear()


def well_formed(view: dict, game: str) -> None:
    json.dumps(view)
    check(isinstance(view.get("table"), dict) and view["table"]["game"] == profile(game).game,
          f"the view's table is {view.get('table')!r}")
    rnd = view.get("round")
    check(isinstance(rnd, dict), f"the view's round is {rnd!r}")
    check(rnd["state"] in STATES[game] | {"none", "fault"}, f"the view's state is {rnd['state']!r}")
    check(isinstance(rnd.get("next_step"), str) and rnd["next_step"], "the view names no next step")
    check(isinstance(view.get("seats"), list) and isinstance(view.get("alarms"), list), "seats and alarms")
    for s in view["seats"]:
        for name, amount in (s.get("wagers") or {}).items():
            check(type(amount) is int and amount >= 0, f"seat {s.get('seat')}'s {name} is {amount!r}")


class TableBoundary(RuleBasedStateMachine):
    """Submissions from any source with any body into a real Table on emulated devices."""

    game = ""

    @initialize(deck=st.permutations(CARD_TEXT))
    def fresh_round(self, deck) -> None:
        self.deck = list(deck)
        self.live = live_table(self.game)
        self.last = None
        t = self.live.table
        assert settle_down(self.live, self.deck), \
            f"the live table did not reach a fresh round: {t.published().get('round')} {t.fault}"

    @rule(event=events(), source=st.sampled_from(SOURCES), who=WHO)
    def submit(self, event, source, who) -> None:
        self.last = (event, source, who)
        result = self.live.submit(deepcopy_event(event), source, who)
        assert isinstance(result, dict) and isinstance(result.get("ok"), bool), result

    @rule(data=st.data())
    def lawful(self, data) -> None:
        t = self.live.table
        steps = self.live.on_loop(lambda: STEPS[self.game](t.state.round, self.deck)
                                  if t.state and t.state.round else [])
        if steps:
            item = lawful_submission(data.draw(st.sampled_from(steps)))
            self.last = item
            self.live.submit(*item)

    @invariant()
    def never_faults_and_shows_a_well_formed_view(self) -> None:
        t = self.live.table
        assert t.fault is None, f"the table faulted after {self.last!r}: {t.fault}"
        well_formed(self.live.on_loop(t.published), self.game)


class StudTableBoundary(TableBoundary):
    game = "stud"


class WarTableBoundary(TableBoundary):
    game = "war"


class PokerTableBoundary(TableBoundary):
    game = "poker"


TestCaribbeanStudTableBoundary = StudTableBoundary.TestCase
TestCaribbeanStudTableBoundary.settings = machine_settings(6, 40)
TestCasinoWarTableBoundary = WarTableBoundary.TestCase
TestCasinoWarTableBoundary.settings = machine_settings(6, 40)
TestPokerTableBoundary = PokerTableBoundary.TestCase
TestPokerTableBoundary.settings = machine_settings(6, 40)
