"""Events handed to a round the way the table hands them: read into the game's declarations first.

A round takes the boundary's model of an event (controller/boundary.py `Event`), never a bare dict,
so a test that drives a round (or its machine) directly writes the event as a screen or the journal
would and `apply` reads it the way the table does: into the declaration of its type (the round's own
game's first; controller/boundary.py `journaled`, which is what recovery and `rounds show` use). An
event that follows no declaration is refused as the boundary refuses it (EventRefused naming the
field), before the round sees it.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Mapping
from typing import Any

from controller import boundary
from controller.games.base import EventRefused


def game_of(target: object) -> str:
    """The package whose declarations a round or machine reads first (its game's), its events declared."""
    package = type(target).__module__.rpartition(".")[0]
    with contextlib.suppress(ModuleNotFoundError):
        importlib.import_module(f"{package}.events")
    return package


def read(event: Mapping[str, Any] | boundary.Event, near: str = "") -> boundary.Event:
    """The event as the table's boundary reads it; EventRefused (state "boundary") when it reads as none."""
    if isinstance(event, boundary.Event):
        return event
    got = boundary.journaled(dict(event) if isinstance(event, Mapping) else event, None, near=near)
    if isinstance(got, str):
        raise EventRefused(boundary.kind_of(event), "boundary", [], got)
    return got


def apply(target: Any, event: Mapping[str, Any] | boundary.Event) -> list[dict[str, Any]]:
    """`target.apply` (a round at the table, or a round machine) of the event read as the table reads it."""
    effects: list[dict[str, Any]] = target.apply(read(event, game_of(target)))
    return effects


def table_event(state: Any, event: Mapping[str, Any] | boundary.Event, who: str | None = None) -> list[dict[str, Any]]:
    """`state.table_event` (a table's own event, between rounds) of the event read as the table reads it."""
    effects: list[dict[str, Any]] = state.table_event(read(event, game_of(state)), who)
    return effects
