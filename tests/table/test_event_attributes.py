"""An event is read by its attributes only (issue 27): the boundary's model is no mapping.

The stopgap that answered `e["seat"]`, `e.get(...)` and `"seat" in e` is gone, so no reader can take a
default the sender left out for one it gave; a handler reads the declaration's fields (`e.seat`, typed)
and `as_declared` says loudly when it was handed another declaration than the one it reads.
"""

from __future__ import annotations

import pytest

from controller import boundary
from controller.games.caribbean_stud import events as stud_events
from controller.games.event import as_declared


def _admitted(event: dict, source: str = boundary.PANEL) -> boundary.Event:
    read = boundary.admitted(event, source, "dealer", lambda s: stud_events.EVENTS.get(s, {}))
    assert isinstance(read, boundary.Event), read
    return read


def test_an_event_is_read_by_its_attributes_and_is_no_mapping():
    e = _admitted({"type": "ante", "seat": 3, "amount": 1500})
    assert isinstance(e, stud_events.Ante) and (e.type, e.seat, e.amount) == ("ante", 3, 1500)
    with pytest.raises(TypeError):
        e["seat"]
    with pytest.raises(AttributeError):
        e.get("seat")   # type: ignore[attr-defined]
    assert "seat" not in e   # a model iterates as (name, value) pairs: no field is a key
    assert e.given() == {"type": "ante", "seat": 3, "amount": 1500}   # the fields given, by their names


def test_a_handler_reads_the_declaration_it_names_and_fails_loudly_on_another():
    e = _admitted({"type": "void_round", "reason": "misdeal"}, boundary.SUPERVISOR)
    assert as_declared(e, stud_events.VoidRound).reason == "misdeal"
    with pytest.raises(TypeError, match="read here as"):
        as_declared(e, stud_events.ChipRemoved)


def test_the_table_wide_events_are_declared_classes_read_by_their_fields():
    badge = _admitted({"type": "dealer_on_duty", "badge": "D-104"})
    assert isinstance(badge, boundary.DealerOnDuty) and badge.badge == "D-104"
    meter = _admitted({"type": "correct_meter", "amount": 250_000, "reason": "audit"}, boundary.SUPERVISOR)
    assert isinstance(meter, boundary.CorrectMeter) and (meter.amount, meter.reason) == (250_000, "audit")
    clearing = _admitted({"type": "clear_fault"}, boundary.SUPERVISOR)
    assert isinstance(clearing, boundary.ClearFault) and clearing.reason == ""   # the declared default
