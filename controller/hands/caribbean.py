"""Caribbean stud hands: five cards ranked as 5324.37(b), and the dealer's qualifier.

The dealer qualifies with "ace, king or better" (5324.37(a)(2)(iii), (e)(4)): any
pair or better, or a high-card hand that holds both an ace and a king. Among high-card
hands, every hand holding an ace and a king ranks at or above A-K-4-3-2 and every
other ranks below it (5324.37(b)(3): the highest card not shared decides), so the
qualifier is one comparison of values.
"""

from __future__ import annotations

from controller.cards import parse_cards
from controller.hands import HandError, HandValue, check_cards, high

CARDS_PER_HAND = 5  # 5324.37(d)(1)(v), (d)(2): five cards to each player and the dealer
LOWEST_QUALIFYING = high.value5(parse_cards(["Ac", "Kd", "4h", "3s", "2c"]))


def evaluate(cards: object) -> HandValue:
    """A Caribbean stud hand: exactly five cards, ranked as 5324.37(b)."""
    return high.evaluate(check_cards(cards, (CARDS_PER_HAND,), "Caribbean stud hand"))


def dealer_qualifies(hand: object) -> bool:
    """True when the dealer's five cards (or their `HandValue`) are ace-king or better (5324.37(e)(4))."""
    if isinstance(hand, HandValue):
        if hand.name not in high.NAMES:
            raise HandError(f"dealer hand: {hand.name!r} is not a high hand of 5324.37(b)")
        v = hand.value
    else:
        v = high.value5(check_cards(hand, (CARDS_PER_HAND,), "dealer hand"))
    return v >= LOWEST_QUALIFYING


__all__ = ["CARDS_PER_HAND", "LOWEST_QUALIFYING", "dealer_qualifies", "evaluate"]
