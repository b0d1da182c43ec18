"""The typed join: the boundary's model is what the round receives, live and replayed (issue 27, item 4).

The boundary validates each event into its declaration (controller/games/<game>/events.py) and hands
the round that model; the journal keeps its given fields; recovery reads them back into the same
declaration, so a round rebuilt at start receives what it received live: the same models, cards as
`Card`, a supervisor's decision signed as the table signed it.
"""

from __future__ import annotations

import pytest

from controller import boundary, cards
from controller.games.base import EventRefused
from controller.games.caribbean_stud import events as stud_events
from controller.games.caribbean_stud.at_table import StudRound
from controller.runtime.tablestate import RecoveryError, TableState, round_event
from tests.table.table_helpers import stud_opening, stud_profile


class Entry:
    """A journal entry as replay reads it (seq, kind, round, payload), from the journal's own JSON."""

    def __init__(self, seq: int, round_id: str, event: dict, source: str, who: str | None) -> None:
        self.seq, self.kind, self.round_id = seq, "event", round_id
        self.payload = {"event": event, "source": source, "who": who}


def _submitted(state: TableState, sent: list[tuple[dict, str, str | None]]) -> list[Entry]:
    """Each event through the door as Table._handle does; the journal's entries of what it applied."""
    r = state.round
    assert r is not None
    entries = []
    for seq, (event, source, who) in enumerate(sent, 1):
        read = boundary.admitted(event, source, who, state.events)
        assert isinstance(read, boundary.Event), read
        applied = round_event(read, who)
        r.apply(applied)
        entries.append(Entry(seq, r.round_id, boundary.as_text(applied), source, who))
    return entries


DEALT = [({"type": "ante", "seat": 1, "amount": 1000}, "panel", "dealer"),
         ({"type": "deck_count", "total": 52, "anomalies": [], "truncated": False}, "device", "shuffler"),
         ({"type": "shoe_loaded", "cards": 52}, "device", "shoe"),
         ({"type": "no_more_bets"}, "panel", "dealer"),
         ({"type": "deal"}, "panel", "dealer"),
         *(({"type": "shoe_card", "card": cards.parse_card(c)}, "device", "shoe")
           for c in "As Ks Qs Js Ts 2c 3c 4d 5d 9h".split())]


def test_the_round_receives_the_boundarys_model_and_replay_gives_it_the_same():
    profile = stud_profile()
    live = TableState(profile)
    snapshot, _ = live.open_round()
    entries = _submitted(live, DEALT)
    assert live.round is not None
    received = live.round.events
    assert [type(e) for e in received[:3]] == [stud_events.Ante, stud_events.DeckCount, stud_events.ShoeLoaded]
    assert all(isinstance(e, stud_events.ShoeCard) and type(e.card) is cards.Card for e in received[5:])
    assert entries[5].payload["event"] == {"type": "shoe_card", "card": "As"}   # the journal: text, as before

    again = TableState.from_snapshot(profile, snapshot)
    assert again.replay(entries) == len(entries)
    assert again.round is not None
    assert again.round.events == received                    # the same models, field for field
    assert [type(e) for e in again.round.events] == [type(e) for e in received]
    assert all(type(e.card) is cards.Card for e in again.round.events[5:])
    assert again.round.view() == live.round.view()


def test_a_supervisors_decision_is_received_signed_live_and_replayed():
    asked = boundary.admitted({"type": "validate", "seat": 2}, boundary.SUPERVISOR, "SUP1",
                              lambda s: stud_events.EVENTS.get(s, {}))
    assert isinstance(asked, stud_events.ValidateAsked)
    signed = round_event(asked, "SUP1")
    assert isinstance(signed, stud_events.Validate) and signed.supervisor == "SUP1"
    journal = boundary.as_text(signed)
    assert journal == {"type": "validate", "seat": 2, "supervisor": "SUP1"}   # today's bytes
    read = boundary.journaled(journal, boundary.SUPERVISOR, lambda s: stud_events.EVENTS.get(s, {}))
    assert read == signed and type(read) is stud_events.Validate
    # a refusal without a reason keeps the null it always journaled, and reads back the same
    refuse = round_event(boundary.admitted({"type": "refuse", "seat": 2}, boundary.SUPERVISOR, "SUP1",
                                           lambda s: stud_events.EVENTS.get(s, {})), "SUP1")
    assert boundary.as_text(refuse) == {"type": "refuse", "seat": 2, "supervisor": "SUP1", "reason": None}


def test_a_round_given_a_dict_fails_loudly_and_changes_nothing():
    r = StudRound(stud_opening(dealing="manual"))
    before = r.view()
    with pytest.raises(TypeError, match="boundary"):
        r.apply({"type": "ante", "seat": 1, "amount": 1000})
    assert r.view() == before and r.events == []


def test_a_journaled_event_that_no_longer_reads_is_no_replay():
    profile = stud_profile()
    live = TableState(profile)
    snapshot, _ = live.open_round()
    rid = live.round.round_id if live.round else ""
    again = TableState.from_snapshot(profile, snapshot)
    with pytest.raises(RecoveryError, match="amount"):
        again.replay([Entry(1, rid, {"type": "ante", "seat": 1, "amount": "1000"}, "panel", "dealer")])
    with pytest.raises(EventRefused):   # the round's own refusal of a well-formed event still stands
        assert again.round is not None
        again.round.apply(stud_events.Decision(seat=1, decision="bet"))
