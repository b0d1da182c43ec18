"""Where the button goes: placed at the start, then clockwise after each hand (5324.42(i)(3), (n)(3)).

Seats are numbered from 1 clockwise from the dealer's left, so the first player to the
dealer's right holds the highest occupied seat number and "clockwise" is the next
higher seat, wrapping round. A hand's players are numbered as PHH numbers them: from
the first player after the button, the button last (`phh_seats`); a stud game has no
button and deals from the dealer's left (`stud_seats`, (h)(3), (m)(3)).
"""

from __future__ import annotations

from typing import Mapping, Sequence


class ButtonError(ValueError):
    """A seat or a card that cannot place the button; the message says which."""


def _seats(occupied: Sequence[int]) -> list[int]:
    seats = sorted(set(occupied))
    if len(seats) != len(occupied):
        raise ButtonError(f"a seat is given twice in {list(occupied)}")
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            raise ButtonError(f"seat {s!r} is not a seat number (1, 2, ...)")
    if len(seats) < 2:
        raise ButtonError(f"{len(seats)} player(s) seated; poker needs at least 2 (5324.42(f)(2))")
    return seats


def button_right_of_dealer(occupied: Sequence[int]) -> int:
    """(i)(3)(i): the first player to the right of the dealer: the highest occupied seat."""
    return _seats(occupied)[-1]


def button_by_card(dealt: Mapping[int, int]) -> int:
    """(i)(3)(ii): a single card dealt to each player; the highest by rank takes the button.

    A tie of rank is broken by suit, spades > hearts > diamonds > clubs, the order the
    regulation gives for ranking up cards ((h)(4)). `dealt` maps seat -> card (0..51,
    rank*4 + suit, as controller.cards).
    """
    _seats(list(dealt))
    cards = list(dealt.values())
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise ButtonError(f"{c!r} is not a card")
    if len(set(cards)) != len(cards):
        raise ButtonError("a card is dealt twice for the button")
    return max(dealt, key=lambda seat: dealt[seat])   # rank*4 + suit: rank first, then suit


def next_button(button: int, occupied: Sequence[int]) -> int:
    """(i)(3)(iii): after each hand the button moves clockwise to the next occupied seat.

    The seat the button was in may have emptied; the button still moves from it.
    """
    seats = _seats(occupied)
    for s in seats:
        if s > button:
            return s
    return seats[0]


def phh_seats(button: int, in_hand: Sequence[int]) -> list[int]:
    """The seats of a button game's hand in PHH player order: first after the button, the button last."""
    seats = _seats(in_hand)
    if button not in seats:
        raise ButtonError(f"the button's seat {button} has no player in the hand")
    k = seats.index(button)
    return seats[k + 1:] + seats[:k + 1]


def stud_seats(in_hand: Sequence[int]) -> list[int]:
    """A stud hand's seats in PHH order: from the dealer's left, clockwise ((h)(3), (m)(3))."""
    return _seats(in_hand)


__all__ = ["ButtonError", "button_by_card", "button_right_of_dealer", "next_button", "phh_seats", "stud_seats"]
