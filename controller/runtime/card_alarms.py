"""The dealer's alarm for a card report the shoe's driver refused (issue 15).

The driver (drivers/shoe/device.py) checks each card's running count and its
place in its stack and puts a CardOutOfStep on the queue in place of a card
that does not follow the last one. The round never sees it as a card; the
dealer sees this. The words are the same for every refusal of a kind, so a
shoe that floods the line with bad reports raises one alarm, not one per
frame, and journals a few hundred bytes; the details (which card, which count)
are in the driver's `card_refused` log line. A reload of the shoe (the next
deck, counted) clears it.
"""

from __future__ import annotations

from drivers.shoe import protocol as sp

REPLAYED = "card_replayed"   # an old card again: not dealt twice; the deal goes on
MISSED = "cards_missed"      # cards out that the box cannot place: the deal stops, a misdeal
CARD_CONDITIONS = frozenset({REPLAYED, MISSED})


def card_alarm(refused: sp.CardOutOfStep) -> dict[str, str]:
    if not refused.stops_the_deal:
        return {"kind": "device", "device": "shoe", "condition": REPLAYED,
                "message": "The shoe reported a card it had already dealt; it was not dealt again. Deal on, "
                           "and have a technician check the shoe after the round."}
    return {"kind": "device", "device": "shoe", "condition": MISSED,
            "message": "The shoe dealt cards it did not report in order: no more cards are taken from it. "
                       "Call a supervisor to void the round (5324.37(h))."}
