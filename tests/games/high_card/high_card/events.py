"""The events each source may submit at a high card table (controller/boundary.py checks them)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from controller import boundary

Seat = Annotated[int, Field(ge=1, le=boundary.MAX_SEAT)]
Stake = Annotated[int, Field(gt=0, le=boundary.MAX_CENTS)]
Count = Annotated[int, Field(ge=0, le=boundary.MAX_COUNT)]
Card = boundary.Card   # read once where it enters (a driver's Card as it is), a Card to the machine


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class NextRound(_Event):
    type: Literal["next_round"]


class Wager(_Event):
    type: Literal["wager"]
    seat: Seat
    stake: Stake


class NoMoreBets(_Event):
    type: Literal["no_more_bets"]


class Deal(_Event):
    type: Literal["deal"]


class Settle(_Event):
    type: Literal["settle"]


class ShoeCard(_Event):
    type: Literal["shoe_card"]
    card: Card


class DeckCount(_Event):
    type: Literal["deck_count"]
    total: Count
    anomalies: Annotated[list[Annotated[str, Field(max_length=boundary.MAX_TEXT)]], Field(max_length=64)]
    truncated: bool


class ShoeLoaded(_Event):
    type: Literal["shoe_loaded"]
    cards: Count


class ShoeCheck(_Event):
    type: Literal["shoe_check"]
    dispensed: Count
    cover_reached: bool = False


DEALER: dict[str, type[BaseModel]] = {"next_round": NextRound, "wager": Wager, "no_more_bets": NoMoreBets,
                                      "deal": Deal, "settle": Settle}
DEVICE: dict[str, type[BaseModel]] = {"shoe_card": ShoeCard, "shoe_check": ShoeCheck, "deck_count": DeckCount,
                                      "shoe_loaded": ShoeLoaded}
TABLE: dict[str, type[BaseModel]] = {"next_round": NextRound, "shoe_check": ShoeCheck}
BY_SOURCE = {boundary.PANEL: DEALER, boundary.AUTOPLAY: DEALER, boundary.DEVICE: DEVICE, boundary.TABLE: TABLE}


def of(source: str) -> dict[str, type[BaseModel]]:
    """This game's events from `source`; the supervisor's and the link's are every table's."""
    return BY_SOURCE.get(source) or dict(boundary.CATALOGUE.get(source, {}))
