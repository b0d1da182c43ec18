"""The stack of cards a dealer puts in an emulated shoe, automated or manual.

Both emulated shoes are loaded the same way, so a test stacks either with one
call: a deck given card by card, or a fresh one shuffled from the emulator's
seeded generator, and the cover card's place checked against it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from controller.cards import CARDS, Card


def stack(rng: random.Random, deck: Sequence[int] | None, cover_at: int | None) -> list[Card]:
    """The cards in shoe order; ValueError for a cover card outside the stack."""
    if deck is None:
        cards = list(CARDS)
        random.Random(rng.random()).shuffle(cards)
    else:
        cards = [CARDS[c] for c in deck]
    if cover_at is not None and not 0 <= cover_at <= len(cards):
        raise ValueError(f"cover card at {cover_at} is outside a shoe of {len(cards)} cards")
    return cards
