"""Reading the cards: who opens a stud round, what each hand is worth, who takes an odd chip.

The hand values come from controller.hands (one evaluator per kind of hand); this
module only decides which evaluator a game uses and what the regulation does with
the result: the bring-in by the up card (5324.42(h)(4)), the opener of a later stud
street by the hand showing ((h)(6)), eight-or-better qualifying ((h)(10), (j)(7)),
and the odd chip of a split ((h)(9), docs/PHH.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from controller.poker.variants import HandKind, OddChip, Opener

# The evaluators build their tables when imported; a hand that ends without a
# showdown (most do) never needs them, so they are imported at the first showdown
# (after it, the import is a lookup in sys.modules).


def card_key(card: int, opener: Opener) -> tuple[int, int]:
    """A card's standing for the bring-in: rank (ace high, or low) then suit, clubs lowest (h)(4)."""
    rank = card >> 2
    if opener is Opener.HIGH_CARD_ACE_LOW:
        rank = (rank + 1) % 13
    return rank, card & 3


def bring_in_player(up_cards: list[list[int]], live: list[bool], opener: Opener) -> int:
    """The player who must post the bring-in: lowest or highest up card by (h)(4)(i)-(iv)."""
    best: tuple[tuple[int, int], int] | None = None
    for i, cards in enumerate(up_cards):
        if not live[i] or not cards:
            continue
        if opener is Opener.LOW_CARD:
            key = min(card_key(c, opener) for c in cards)
            if best is None or key < best[0]:
                best = (key, i)
        else:
            key = max(card_key(c, opener) for c in cards)
            if best is None or key > best[0]:
                best = (key, i)
    return 0 if best is None else best[1]


def _shown_key(cards: list[int], ace_low: bool) -> tuple[int, tuple[int, ...]]:
    """The standing of up to four cards showing: high card < pair < two pair < trips < quads.

    Straights and flushes cannot show on four cards, so they are not ranked ((h)(6)).
    """
    counts: dict[int, int] = {}
    for c in cards:
        r = c >> 2
        if ace_low:
            r = (r + 1) % 13
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    top = groups[0][1]
    if top >= 4:
        category = 4
    elif top == 3:
        category = 3
    elif top == 2:
        category = 2 if len(groups) > 1 and groups[1][1] == 2 else 1
    else:
        category = 0
    return category, tuple(r for r, _ in groups)


def showing_opener(up_cards: list[list[int]], live: list[bool], low: bool) -> int:
    """The player with the best hand showing, a tie to the first after the dealer (h)(6).

    High games: the highest-ranking hand showing ((h)(6)(i)); stud low: the best low
    showing, ace low, any pair worse than no pair ((h)(6)(ii)).
    """
    best: tuple[tuple[int, tuple[int, ...]], int] | None = None
    for i, cards in enumerate(up_cards):
        if not live[i] or not cards:
            continue
        key = _shown_key(cards, low)
        if best is None or (key < best[0] if low else key > best[0]):
            best = (key, i)
    return 0 if best is None else best[1]


# --- hand values -------------------------------------------------------------------


def hand_value(kind: HandKind, own: list[int], board: list[int]) -> int | None:
    """The value of a player's hand of this kind (higher wins), or None when there is none.

    None: no qualifying eight-or-better low (h)(10), (j)(7).
    """
    from controller.hands import high, low, omaha
    if kind is HandKind.HIGH:
        return high.value(own + board if board else own)
    if kind is HandKind.LOW_A5:
        return low.a5_value(own + board if board else own)
    if kind is HandKind.LOW_8:
        v = low.eight_value(own + board if board else own)
        return None if v < 0 else v
    if kind is HandKind.LOW_27:
        return low.deuce_seven_value(own)
    if kind is HandKind.OMAHA_HIGH:
        return omaha.high_value(own, board)
    v = omaha.low8_value(own, board)
    return None if v < 0 else v


def _five_value(kind: HandKind) -> Callable[[Sequence[int]], int]:
    from controller.hands import high, low
    if kind is HandKind.HIGH:
        return high.value5
    if kind is HandKind.LOW_A5:
        return low.a5_value
    if kind is HandKind.LOW_8:
        return low.eight_value
    if kind is HandKind.LOW_27:
        return low.deuce_seven_value
    if kind is HandKind.OMAHA_HIGH:
        return high.value5
    if kind is HandKind.OMAHA_LOW_8:
        return low.eight_value
    raise ValueError(f"no five-card value for {kind}")


def _fives(kind: HandKind, own: list[int], board: list[int]) -> Iterator[tuple[int, ...]]:
    if kind in (HandKind.OMAHA_HIGH, HandKind.OMAHA_LOW_8):
        for two in combinations(own, 2):
            for three in combinations(board, 3):
                yield two + three
    else:
        yield from combinations(own + board, 5)


def _suit_key(kind: HandKind, five: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Cards of a five in the order the odd-chip rule reads them ((h)(9)(b)-(d)).

    High: highest rank first, ace high, a tie of rank by suit (spades highest), read
    so that a larger tuple holds the higher card. Low: lowest low card first (ace low
    in A-5; a two in 2-7), read so that a larger tuple holds the lower card.
    """
    if kind.low:
        ace_low = kind is not HandKind.LOW_27
        cards = sorted(five, key=lambda c: (((c >> 2) + 1) % 13 if ace_low else c >> 2, c & 3))
        return tuple((-(((c >> 2) + 1) % 13 if ace_low else c >> 2), -(c & 3)) for c in cards)
    cards = sorted(five, key=lambda c: (c >> 2, c & 3), reverse=True)
    return tuple((c >> 2, c & 3) for c in cards)


def odd_chip_player(rule: OddChip, kind: HandKind, tied: list[int], value: int,
                    own: list[list[int]], board: list[int]) -> int:
    """Who among tied players takes the excess a split cannot divide.

    SUIT (seven-card stud, (h)(9)(b)-(d)): for tied high hands the player with the
    highest-ranking card by suit, for tied low hands the one with the lowest-ranking
    low card by suit; each player is read at the best of their fives that make the
    tied value, and when two fives are the same cards (a common card) the next card
    decides. BUTTON (docs/PHH.md for games the regulation leaves open): the first
    tied player clockwise from the button, which is the lowest PHH player number.
    """
    first = min(tied)
    if rule is OddChip.BUTTON:
        return first
    value5 = _five_value(kind)
    best_key = None
    best_player = first
    for p in sorted(tied):
        key = max(
            (_suit_key(kind, five) for five in _fives(kind, own[p], board) if value5(five) == value),
            default=None,
        )
        if key is not None and (best_key is None or key > best_key):
            best_key, best_player = key, p
    return best_player


def odd_chip_order(rule: OddChip, kind: HandKind, tied: list[int], value: int,
                   own: list[list[int]], board: list[int]) -> list[int]:
    """The tied players in the order the odd chips go, one chip each ((h)(9)(b)-(c), (i)(10),
    (j)(6)(ii)(a)): the first is `odd_chip_player`'s, then the next by the same rule among the rest,
    so no player takes a second chip before each has one."""
    rest = sorted(tied)
    order: list[int] = []
    while rest:
        taker = odd_chip_player(rule, kind, rest, value, own, board)
        order.append(taker)
        rest.remove(taker)
    return order


__all__ = ["bring_in_player", "card_key", "hand_value", "odd_chip_order", "odd_chip_player", "showing_opener"]
