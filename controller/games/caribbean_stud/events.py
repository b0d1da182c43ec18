"""What each source may tell a Caribbean stud table (controller/boundary.py checks it at the door).

The shoe deals the cards, the shuffler counts the deck, the progressive
controller's acceptors feel the progressive wagers and its button locks them out
(5324.37(a)(3)); the dealer takes antes, deals, reveals and settles; a supervisor
validates or refuses a progressive win (5324.37(f)(2)), voids a round or corrects
the meter; a linked table's pool says what it paid (controller/games/caribbean_stud/link.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, create_model

from controller.boundary import (AUTOPLAY, DEVICE, LINK, MAX_SEAT, PANEL, SUPERVISOR, TABLE, TABLE_OWN, Card,
                                 Cents, Count, Count_, Event, Name, Seat, Stake, Text, catalogue_of, event, joined)

_SHOE_CHECK = event("shoe_check", dispensed=(Count, ...), cover_reached=(bool, False))   # the shoe, after a restart
_NO_MORE_BETS = event("no_more_bets")   # the dealer's button, or the lock-out button of the progressive controller

DEVICE_EVENTS = catalogue_of(
    event("shoe_card", card=(Card, ...)),
    event("cover_reached"),                            # the dispensing shoe's: a one-deck round has none to cut
    event("shoe_loaded", cards=(Count, ...)),
    event("deck_count", total=(Count, ...),
          anomalies=(Annotated[list[Text], Field(max_length=64)], ...), truncated=(bool, ...)),
    _SHOE_CHECK,
    event("progressive", seat=(Seat, ...)),            # a chip on an acceptor
    event("remove", seat=(Seat, ...), wager=(Literal["progressive"], ...)),
    event("chip_removed", seat=(Seat, ...)),
    _NO_MORE_BETS,
)

DEALER_EVENTS = catalogue_of(
    _NO_MORE_BETS, *(event(k) for k in ("deal", "reveal", "settle", "reshuffle", "end_deal")),
    event("ante", seat=(Seat, ...), amount=(Stake, ...)),
    event("remove", seat=(Seat, ...), wager=(Literal["ante"], ...)),   # a progressive wager: its acceptor
    event("decision", seat=(Seat, ...), decision=(Literal["bet", "fold"], ...)),
    # a card the box did not record, the dealer's fifth, a manual deal; the round decides whether it
    # takes one now (it never does while its shoe is dealing)
    event("card", card=(Card, ...), to=(Seat | Literal["dealer"], None)),
    event("stack", cards=(Annotated[list[Card], Field(min_length=1, max_length=5)], ...)),
    event("dealer_misdeal", reason=(Text, ...)),
)

SUPERVISOR_EVENTS = catalogue_of(
    event("validate", seat=(Seat, ...), second_signer=(Name, None)),   # second_signer: set by the server only
    event("refuse", seat=(Seat, ...), reason=(Text, ""), second_signer=(Name, None)),   # as validate's
    event("void_round", reason=(Text, "")),
    event("correct_meter", amount=(Cents, ...), reason=(Text, "")),
)

_PoolAward = create_model(
    "pool_award", __base__=Event, seat=(Seat, ...), hand=(Text, ...), amount=(Cents, ...),
    seq=(Count_, None), meter_before=(Cents, None), meter_after=(Cents, None), shared_by=(Count, None),
    from_meter=(bool, None))
LINK_EVENTS = catalogue_of(
    event("pool_awards", claim=(Text, None), awards=(Annotated[list[_PoolAward], Field(max_length=MAX_SEAT)], None),
          refused=(Text, None)),
)

EVENTS: dict[str, dict[str, type[BaseModel]]] = joined(TABLE_OWN, {
    DEVICE: DEVICE_EVENTS, TABLE: catalogue_of(_SHOE_CHECK), PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_EVENTS, LINK: LINK_EVENTS})
