"""What each source may tell a high card table (controller/boundary.py checks it at the door).

The shuffler counts each round's deck and loads it into the dispensing shoe, the shoe deals the
cards (and after a restart says how many it dealt); the dealer takes the wagers, says no more
bets, deals and settles; a supervisor may void a round. With what every table takes (the
boundary's TABLE_OWN: the next round, a fault's clearing). Each event a handler reads by its fields
is a class of the boundary's `Event` (`e.card`, typed); a journaled card is read again on a replay.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from controller.boundary import (AUTOPLAY, DEVICE, PANEL, SUPERVISOR, TABLE, TABLE_OWN, Card, Count, Event, Seat,
                                 Stake, Text, catalogue_of, event, joined)


class ShoeCard(Event):
    """A card out of the shoe, as its driver read it."""
    type: Literal["shoe_card"] = "shoe_card"
    card: Card


class DealtCard(Event):
    """The round's own word for a card the shoe dealt, as its machine takes it (no source sends it)."""
    type: Literal["card"] = "card"
    card: Card


class DeckCount(Event):
    """The shuffler's count of the round's deck."""
    type: Literal["deck_count"] = "deck_count"
    total: Count
    anomalies: Annotated[list[Text], Field(max_length=64)]
    truncated: bool


class ShoeCheck(Event):
    """The shoe, after a restart: what it says it dealt."""
    type: Literal["shoe_check"] = "shoe_check"
    dispensed: Count
    cover_reached: bool = False


class Wager(Event):
    type: Literal["wager"] = "wager"
    seat: Seat
    stake: Stake


class VoidRound(Event):
    type: Literal["void_round"] = "void_round"
    reason: Text = ""


DEVICE_EVENTS = catalogue_of(ShoeCard, event("shoe_loaded", cards=(Count, ...)), DeckCount, ShoeCheck)

DEALER_EVENTS = catalogue_of(Wager, *(event(k) for k in ("no_more_bets", "deal", "settle")))

SUPERVISOR_EVENTS = catalogue_of(VoidRound)

EVENTS: dict[str, dict[str, type[BaseModel]]] = joined(TABLE_OWN, {
    DEVICE: DEVICE_EVENTS, TABLE: catalogue_of(ShoeCheck), PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_EVENTS})


def of(source: str) -> dict[str, type[BaseModel]]:
    """This game's events from `source` (none from the link: no pool)."""
    return EVENTS.get(source, {})
