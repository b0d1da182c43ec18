"""Whose cards the dealer turns over after the reveal, 9 NYCRR 5324.37(e)(4) and (e)(5)(i).

With a qualifying dealer hand every player's cards are turned over, from the dealer's right
((e)(4)). Without one, it is the gaming facility's option whether the dealer turns over the
players' cards; a facility that does not must still turn over the cards of every player who
made a progressive wager ((e)(5)(i)), since a progressive win is paid whatever the dealer
holds ((f)(3)). The profile names the option: "all" or "progressive".
"""

from __future__ import annotations

from collections.abc import Iterable

ALL, PROGRESSIVE = "all", "progressive"
OPTIONS = (ALL, PROGRESSIVE)


def cards_to_turn_over(option: str, qualifies: bool, hands: Iterable[int], progressive: Iterable[int]) -> list[int]:
    """The seats whose cards the dealer turns over, farthest to the dealer's right (seat 7) first.

    `hands`: the seats with a hand still on the layout (not folded, not void).
    """
    if option not in OPTIONS:
        raise ValueError(f"the option of 5324.37(e)(5)(i) is {ALL!r} or {PROGRESSIVE!r}, not {option!r}")
    seats = set(hands)
    if not qualifies and option == PROGRESSIVE:
        seats &= set(progressive)
    return sorted(seats, reverse=True)
