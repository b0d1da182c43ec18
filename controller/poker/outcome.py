"""Where a hand stands and how it ended: the words the hand and its irregularities share.

Kept apart from hand.py so that irregularities.py, which decides when an irregularity
ends or rewinds a hand, can name them without importing the hand that calls it (no
import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from controller.poker.pots import Pot


class Phase(str, Enum):
    DEAL = "deal"            # the dealer owes cards, or players owe their draws
    BET = "bet"              # a betting round is open
    SHOWDOWN = "showdown"    # the last round is over; hands are shown or mucked
    COMPLETE = "complete"    # the pots are awarded


@dataclass(frozen=True)
class HandResult:
    """How a finished hand ended: the stacks after it and each pot (main first) as awarded."""

    finishing_stacks: tuple[int, ...]
    pots: tuple[Pot, ...]
    rake: int
    jackpot_drop: int
    award_order: tuple[int, ...]   # pot indexes as pushed: side pots before the main (f)(6)(vi)
    void: str | None = None        # why the hand was voided and every chip returned (5324.42(p)(1), (p)(3))
    replace_deck: bool = False     # missing or extra cards were found: the deck is replaced (p)(3)
