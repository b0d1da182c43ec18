"""What each source may tell a casino war table (controller/boundary.py checks it at the door).

The manual dealing shoe's reader reports each card drawn, a card it could not
read, the cover card and a fresh shoe (5324.22(d), (h)(4)); the dealer takes the
wagers, deals, takes the tie hands' decisions (5324.22(i)(3)) and settles; a
supervisor voids a round. A shoe without a reader ([manual_shoe] reader = false)
cannot say what it did: there the dealer says the cover card is out and the shoe
is loaded (controller/games/casino_war/at_table.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from controller.boundary import (AUTOPLAY, DEVICE, PANEL, SUPERVISOR, TABLE, TABLE_OWN, Card, Count, Event, Seat,
                                 Stake, Text, catalogue_of, event, joined)
from controller.boundary import HandPay as HandPay   # issue 29: the hand-pay's form, as every banked game declares it
from controller.boundary import HandPayAsked

# -- the events the round machine reads by their fields (controller/games/casino_war/machine.py) -----------


class Wager(Event):
    type: Literal["wager"] = "wager"
    seat: Seat
    wager: Literal["initial", "tie", "war", "war_tie"]
    stake: Stake
    verbal: bool = False


class Decision(Event):
    """A tie hand's decision (5324.22(i)(3)); `war_tie`: the tie wager on the war, if any."""
    type: Literal["decision"] = "decision"
    seat: Seat
    decision: Literal["war", "surrender"]
    war_tie: Stake | None = None


class DealtCard(Event):
    """A card the box did not record (after a restart), one the reader could not read, or each card
    where the shoe has no reader: the round decides whether it takes one now."""
    type: Literal["card"] = "card"
    card: Card


class NoCard(Event):
    """The dealer passes a seat (5324.22(h)(3)(iii))."""
    type: Literal["no_card"] = "no_card"
    seat: Seat


class CoverCard(Event):
    """The cover card came out during a deal (5324.22(h)(4)): the round's own word for the shoe's
    "cover_reached", never submitted."""
    type: Literal["cover_card"] = "cover_card"


# -- the round's own events (controller/games/casino_war/at_table.py) ---------------------------------------

class ShoeCard(Event):
    type: Literal["shoe_card"] = "shoe_card"
    card: Card


class ShoeUnread(Event):
    type: Literal["shoe_unread"] = "shoe_unread"
    drawn: Count


class ShoeCheck(Event):
    """The shoe, after a restart: what it says it dealt since it was loaded, and its cover card."""
    type: Literal["shoe_check"] = "shoe_check"
    dispensed: Count
    cover_reached: bool = False


class VoidRound(Event):
    type: Literal["void_round"] = "void_round"
    reason: Text = ""


DEVICE_EVENTS = catalogue_of(
    ShoeCard,
    ShoeUnread,
    event("cover_reached"),
    event("shoe_loaded", cards=(Count, ...)),
    ShoeCheck,
)

DEALER_EVENTS = catalogue_of(
    *(event(k) for k in ("no_more_bets", "deal", "settle", "war", "new_dealer")),
    Decision,
    Wager,
    # a card the box did not record (after a restart), one the reader could not read, or each card
    # where the shoe has no reader: the round decides whether it takes one now
    DealtCard,
    NoCard,
)
# The dealer's own word for what a shoe without a reader cannot report.
TOUCH_IN_EVENTS = {**DEALER_EVENTS, **catalogue_of(event("cover_reached"), event("shoe_loaded", cards=(Count, None)))}

SUPERVISOR_EVENTS = catalogue_of(VoidRound, HandPayAsked)   # a W-2G's form before the hand-pay (issue 29)

EVENTS: dict[str, dict[str, type[BaseModel]]] = joined(TABLE_OWN, {
    DEVICE: DEVICE_EVENTS, TABLE: catalogue_of(ShoeCheck), PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_EVENTS})
TOUCH_IN = joined(EVENTS, {PANEL: TOUCH_IN_EVENTS, AUTOPLAY: TOUCH_IN_EVENTS})
