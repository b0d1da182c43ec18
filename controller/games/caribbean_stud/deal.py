"""Who gets the next card: the two dealing procedures of 5324.37(d), pure.

The record reader deals a `shoe` with these, and the round machine follows the
same order card by card (manual) or stack by stack (automated), so a round dealt
at the table and its record dealt by `tablectl settle` get the same hands.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.cards import Card

DEALER = "dealer"
Recipient = int | str   # a seat, or DEALER
CARDS_PER_HAND = 5
MANUAL, AUTOMATED = "manual", "automated"
MODES = (MANUAL, AUTOMATED)


def manual_order(seats: Sequence[int]) -> list[Recipient]:
    """5324.37(d)(1): one card to each seat from seat 1 (the dealer's far left) clockwise,
    then one to the dealer (the first is the up card), five times over."""
    row: list[Recipient] = [*sorted(seats), DEALER]
    return row * CARDS_PER_HAND


def stack_order(seats: Sequence[int]) -> list[Recipient]:
    """5324.37(d)(2): a stack of five to each seat that wagered in seat order, then the dealer."""
    return [*sorted(seats), DEALER]


def cards_needed(seat_count: int) -> int:
    return CARDS_PER_HAND * (seat_count + 1)


def deal(shoe: Sequence[Card], seats: Sequence[int], mode: str) -> tuple[dict[int, list[Card]], list[Card]]:
    """The seats' hands and the dealer's, dealt from the top of `shoe`.

    The dealer's cards come in the order they left the shoe, so the up card is the
    first: the first dealer card in a manual deal, and in an automated one the bottom
    card of the dealer's stack (5324.37(d)(3)), which is the first of it out of the shoe.
    """
    if mode not in MODES:
        raise ValueError(f"dealing must be one of {', '.join(MODES)}, not {mode!r}")
    need = cards_needed(len(seats))
    if len(shoe) < need:
        raise ValueError(f"{len(shoe)} cards is too few: the deal needs {need}")
    recipients: list[Recipient] = [*seats, DEALER]
    hands: dict[int | str, list[Card]] = {r: [] for r in recipients}
    if mode == MANUAL:
        for recipient, c in zip(manual_order(seats), shoe, strict=False):
            hands[recipient].append(c)
    else:
        for i, recipient in enumerate(stack_order(seats)):
            hands[recipient].extend(shoe[i * CARDS_PER_HAND:(i + 1) * CARDS_PER_HAND])
    dealer = hands.pop(DEALER)
    return hands, dealer  # type: ignore[return-value]
