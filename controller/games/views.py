"""The parts of a round's published view that every game's round writes alike, declared once.

A round at the table (controller/games/<game>/at_table.py) publishes its round's state, its buttons
and its alarms in the view the screens read (docs/RUNTIME-INTERFACE.md); each is written the same way
by every game, so it is typed here once and strict mypy holds each game's round to it, where a
`dict[str, Any]` let a misspelt key through to the screens.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from controller.games.game import Json


class Button(TypedDict):
    """One of the dealer's buttons: the event it sends, its label, and whether the round takes it now."""

    event: str
    label: str
    enabled: bool


class RoundState(TypedDict):
    """The published round's own part (the view's `round`): its id and state, the dealer's one next
    step, the buttons and the events its state takes (docs/RUNTIME-INTERFACE.md); a hand-dealt shoe's
    next card to draw and whether the dealer touches it in."""

    id: str
    state: str
    next_step: str
    buttons: list[Button]
    allowed: list[str]
    draw: NotRequired[dict[str, Json] | None]
    touch_in: NotRequired[bool]


class Alarm(TypedDict):
    """An alarm the round raises for the dealer (and the supervisor): its kind and its words; a seat's
    or a misdeal's reason where it has one."""

    kind: str
    message: str
    seat: NotRequired[int]
    reason: NotRequired[str]

