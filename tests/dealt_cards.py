"""Events as the table hands them to a round: each card already a `Card`.

The table reads a card once, where it enters (the driver's frame, or controller/boundary.py for a
screen's and the journal's text), and the round takes it as a Card. A test that drives a round
directly writes its cards as text, as the casino does, and stands where the table would: it
reads them as the boundary does (`cards_read`). A card the boundary would refuse is left as written, so the
round's own refusal of a value that is not a Card is what the test sees.
"""

from __future__ import annotations

from typing import Any

from controller.boundary import read_cards


def cards_read(event: Any) -> Any:
    if not isinstance(event, dict):
        return event
    try:
        return read_cards(event)
    except ValueError:   # CardError, or a value no card could be read from
        return event
