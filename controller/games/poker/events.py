"""What each source may tell a poker table (controller/boundary.py checks it at the door).

The dealer's console's events are the contract it shares with the runtime
(controller/games/poker/contract.py), taken from there; the shuffler counts each
deck (5324.42(f)(6)(iv)); a supervisor confirms a void the dealer called with cards
out, replaces a deck, and verifies a jackpot's qualifying hand and the time
charges collected.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from controller.boundary import (AUTOPLAY, DEVICE, MAX_WHO, PANEL, SUPERVISOR, TABLE, TABLE_OWN, Count, Event, Text,
                                 catalogue_of, event, joined)
from controller.games.poker import contract



class DeckCount(Event):
    """The shuffler's count of a deck (5324.42(f)(6)(iv)), as the hand at the table reads it."""
    type: Literal["deck_count"] = "deck_count"
    total: Count
    anomalies: Annotated[list[Text], Field(max_length=64)]
    truncated: bool


class VerifyTimeCharges(Event):
    """The floorperson verifies the time charges a hand collected."""
    type: Literal["verify_time_charges"] = "verify_time_charges"
    hand: Annotated[str, Field(min_length=1, max_length=MAX_WHO)]


_SHOE_CHECK = event("shoe_check", dispensed=(Count, ...), cover_reached=(bool, False))   # after a restart

DEVICE_EVENTS = catalogue_of(
    DeckCount,
    _SHOE_CHECK,
)

DEALER_EVENTS = catalogue_of(
    contract.Sit, contract.TopUp, contract.SitOut, contract.SitIn, contract.Leave, contract.ButtonCard,
    contract.Straddle, contract.DealHole, contract.DealBoard, contract.Fold, contract.CheckCall, contract.BringIn,
    contract.BetRaise, contract.Draw, contract.Discard, contract.Show, contract.Muck, contract.Expose,
    contract.RakeTaken, contract.Action,
)

SUPERVISOR_EVENTS = catalogue_of(
    event("void_round", reason=(Text, "")),
    contract.VerifyJackpot,
    VerifyTimeCharges,
    event("replace_deck"),
)

EVENTS: dict[str, dict[str, type[BaseModel]]] = joined(TABLE_OWN, {
    DEVICE: DEVICE_EVENTS, TABLE: catalogue_of(_SHOE_CHECK), PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_EVENTS})
