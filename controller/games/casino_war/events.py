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

from controller.boundary import (AUTOPLAY, DEVICE, PANEL, SUPERVISOR, TABLE, TABLE_OWN, Card, Count, Seat, Stake,
                                 Text, catalogue_of, event, joined)

_SHOE_CHECK = event("shoe_check", dispensed=(Count, ...), cover_reached=(bool, False))   # the shoe, after a restart

DEVICE_EVENTS = catalogue_of(
    event("shoe_card", card=(Card, ...)),
    event("shoe_unread", drawn=(Count, ...)),
    event("cover_reached"),
    event("shoe_loaded", cards=(Count, ...)),
    _SHOE_CHECK,
)

DEALER_EVENTS = catalogue_of(
    *(event(k) for k in ("no_more_bets", "deal", "settle", "war", "new_dealer")),
    event("decision", seat=(Seat, ...), decision=(Literal["war", "surrender"], ...), war_tie=(Stake, None)),
    event("wager", seat=(Seat, ...), wager=(Literal["initial", "tie", "war", "war_tie"], ...),
          stake=(Stake, ...), verbal=(bool, False)),
    # a card the box did not record (after a restart), one the reader could not read, or each card
    # where the shoe has no reader: the round decides whether it takes one now
    event("card", card=(Card, ...)),
    event("no_card", seat=(Seat, ...)),
)
# The dealer's own word for what a shoe without a reader cannot report.
TOUCH_IN_EVENTS = {**DEALER_EVENTS, **catalogue_of(event("cover_reached"), event("shoe_loaded", cards=(Count, None)))}

SUPERVISOR_EVENTS = catalogue_of(event("void_round", reason=(Text, "")))

EVENTS: dict[str, dict[str, type[BaseModel]]] = joined(TABLE_OWN, {
    DEVICE: DEVICE_EVENTS, TABLE: catalogue_of(_SHOE_CHECK), PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_EVENTS})
TOUCH_IN = joined(EVENTS, {PANEL: TOUCH_IN_EVENTS, AUTOPLAY: TOUCH_IN_EVENTS})
