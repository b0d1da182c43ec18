"""What each source may tell a Caribbean stud table (controller/boundary.py checks it at the door).

The shoe deals the cards, the shuffler counts the deck, the progressive
controller's acceptors feel the progressive wagers and its button locks them out
(5324.37(a)(3)); the dealer takes antes, deals, reveals and settles; a supervisor
validates or refuses a progressive win (5324.37(f)(2)), voids a round or corrects
the meter; a linked table's pool says what it paid (controller/games/caribbean_stud/link.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from controller.boundary import (AUTOPLAY, DEVICE, LINK, MAX_SEAT, MAX_WHO, PANEL, SUPERVISOR, TABLE, TABLE_OWN,
                                 Card, Cents, CorrectMeter, Count, Count_, Declaration, Event, HandPayAsked,
                                 Name, Part, Seat, Stake, Text, catalogue_of, event, joined)
from controller.boundary import HandPay as HandPay   # issue 29: the hand-pay's form, as every banked game declares it

# -- the events the round machine reads by their fields (controller/games/caribbean_stud/machine.py) --------


class Ante(Event):
    """An ante on the layout (sets or changes the seat's)."""
    type: Literal["ante"] = "ante"
    seat: Seat
    amount: Stake


class Progressive(Event):
    """A chip on a seat's acceptor: the progressive wager."""
    type: Literal["progressive"] = "progressive"
    seat: Seat


class Remove(Event):
    """A wager taken back before the lock-out, as the round takes it: each source says its own."""
    type: Literal["remove"] = "remove"
    seat: Seat
    wager: Literal["ante", "progressive"]


class RemoveAnte(Remove):
    """The dealer takes an ante back (a progressive wager goes with it)."""
    wager: Literal["ante"]


class RemoveProgressive(Remove):
    """A progressive wager's chip off its acceptor (the device says so)."""
    wager: Literal["progressive"]


class NoMoreBets(Event):
    """The dealer's button, or the lock-out button of the progressive controller."""
    type: Literal["no_more_bets"] = "no_more_bets"


class DealtCard(Event):
    """A card the box did not record, the dealer's fifth, a manual deal; the round decides whether it
    takes one now (it never does while its shoe is dealing). `to`: where it went, when not where the
    procedure says."""
    type: Literal["card"] = "card"
    card: Card
    to: Seat | Literal["dealer"] | None = None


class Stack(Event):
    """One stack of an automated deal (5324.37(d)(2))."""
    type: Literal["stack"] = "stack"
    cards: Annotated[list[Card], Field(min_length=1, max_length=5)]


class DealerMisdeal(Event):
    type: Literal["dealer_misdeal"] = "dealer_misdeal"
    reason: Text


class Decision(Event):
    type: Literal["decision"] = "decision"
    seat: Seat
    decision: Literal["bet", "fold"]


Signer = Annotated[str, Field(max_length=MAX_WHO)]   # who signed in, as the table names them ("" for none)


class Validate(Event):
    """A supervisor validates a progressive win (5324.37(f)(2)), as the round takes it: the table
    names the signed-in supervisor; `second_signer` is set by the screens' server only."""
    type: Literal["validate"] = "validate"
    seat: Seat
    supervisor: Signer
    second_signer: Name | None = None


class Refuse(Event):
    """A supervisor refuses a progressive win, as the round takes it (as `Validate`'s)."""
    type: Literal["refuse"] = "refuse"
    seat: Seat
    supervisor: Signer
    reason: Text | None = None
    second_signer: Name | None = None


class ValidateAsked(Event):
    """A supervisor's validation as the screen submits it (the table signs it: `Validate`)."""
    type: Literal["validate"] = "validate"
    seat: Seat
    second_signer: Name | None = None   # set by the server only

    @classmethod
    def signed(cls) -> Declaration:
        return Validate


class RefuseAsked(Event):
    """A supervisor's refusal as the screen submits it (the table signs it: `Refuse`)."""
    type: Literal["refuse"] = "refuse"
    seat: Seat
    reason: Text = ""
    second_signer: Name | None = None   # as validate's

    @classmethod
    def signed(cls) -> Declaration:
        return Refuse


class PoolAward(Part):
    """One award of the pool's answer (controller/games/caribbean_stud/link.py)."""
    seat: Seat
    hand: Text
    amount: Cents
    seq: Count_ | None = None
    meter_before: Cents | None = None
    meter_after: Cents | None = None
    shared_by: Count | None = None
    from_meter: bool | None = None


class PoolAwards(Event):
    """A linked progressive: the pool's answer to the round's claim (its awards), or its refusal."""
    type: Literal["pool_awards"] = "pool_awards"
    claim: Text | None = None
    awards: Annotated[list[PoolAward], Field(max_length=MAX_SEAT)] | None = None
    refused: Text | None = None


# -- the round's own events (controller/games/caribbean_stud/at_table.py) -----------------------------------

class DeckCount(Event):
    """The shuffler's count of the round's deck."""
    type: Literal["deck_count"] = "deck_count"
    total: Count
    anomalies: Annotated[list[Text], Field(max_length=64)]
    truncated: bool


class ShoeLoaded(Event):
    type: Literal["shoe_loaded"] = "shoe_loaded"
    cards: Count


class ShoeCard(Event):
    """One card out of the shoe, as its driver read it."""
    type: Literal["shoe_card"] = "shoe_card"
    card: Card


class ShoeCheck(Event):
    """The shoe, after a restart: what it says it dealt since it was loaded."""
    type: Literal["shoe_check"] = "shoe_check"
    dispensed: Count
    cover_reached: bool = False


class VoidRound(Event):
    type: Literal["void_round"] = "void_round"
    reason: Text = ""


class ChipRemoved(Event):
    """A recognized progressive wager's chip left its acceptor after the lock-out."""
    type: Literal["chip_removed"] = "chip_removed"
    seat: Seat


DEVICE_EVENTS = catalogue_of(
    ShoeCard,
    event("cover_reached"),                            # the dispensing shoe's: a one-deck round has none to cut
    ShoeLoaded,
    DeckCount,
    ShoeCheck,
    Progressive,                                       # a chip on an acceptor
    RemoveProgressive,
    ChipRemoved,
    NoMoreBets,
)

DEALER_EVENTS = catalogue_of(
    NoMoreBets, *(event(k) for k in ("deal", "reveal", "settle", "reshuffle", "end_deal")),
    Ante,
    RemoveAnte,   # a progressive wager: its acceptor
    Decision,
    DealtCard,
    Stack,
    DealerMisdeal,
)

SUPERVISOR_EVENTS = catalogue_of(
    ValidateAsked,
    RefuseAsked,
    HandPayAsked,   # issue 29: a W-2G's form before the hand-pay (handpay.py)
    VoidRound,
    CorrectMeter,
    event("apply_pending"),   # a pending change of the meter's parameters, now (changes.py, two supervisors)
)

LINK_EVENTS = catalogue_of(PoolAwards)

EVENTS: dict[str, dict[str, type[BaseModel]]] = joined(TABLE_OWN, {
    DEVICE: DEVICE_EVENTS, TABLE: catalogue_of(ShoeCheck), PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_EVENTS, LINK: LINK_EVENTS})
