"""What each source may tell a high card table (controller/boundary.py checks it at the door).

The shuffler counts each round's deck and loads it into the dispensing shoe, the shoe deals the
cards (and after a restart says how many it dealt); the dealer takes the wagers, says no more
bets, deals and settles; a supervisor may void a round. With what every table takes (the
boundary's TABLE_OWN: the next round, a fault's clearing). Declared with the boundary's `event`,
so a card field is noted as declared and a journaled card is read again on a replay.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from controller.boundary import (AUTOPLAY, DEVICE, PANEL, SUPERVISOR, TABLE, TABLE_OWN, Card, Count, Seat, Stake,
                                 Text, catalogue_of, event, joined)

_SHOE_CHECK = event("shoe_check", dispensed=(Count, ...), cover_reached=(bool, False))   # the shoe, after a restart

DEVICE_EVENTS = catalogue_of(
    event("shoe_card", card=(Card, ...)),
    event("shoe_loaded", cards=(Count, ...)),
    event("deck_count", total=(Count, ...),
          anomalies=(Annotated[list[Text], Field(max_length=64)], ...), truncated=(bool, ...)),
    _SHOE_CHECK,
)

DEALER_EVENTS = catalogue_of(
    event("wager", seat=(Seat, ...), stake=(Stake, ...)),
    *(event(k) for k in ("no_more_bets", "deal", "settle")),
)

SUPERVISOR_EVENTS = catalogue_of(event("void_round", reason=(Text, "")))

EVENTS: dict[str, dict[str, type[BaseModel]]] = joined(TABLE_OWN, {
    DEVICE: DEVICE_EVENTS, TABLE: catalogue_of(_SHOE_CHECK), PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_EVENTS})


def of(source: str) -> dict[str, type[BaseModel]]:
    """This game's events from `source` (none from the link: no pool)."""
    return EVENTS.get(source, {})
