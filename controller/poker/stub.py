"""Which cards the dealer can still deal, as far as the hand's record shows.

A hand history names the cards dealt but not the burn cards nor the order of the
stub, so the deck is kept as counts and sets: the cards never seen (in the stub or
burned, unknown which), the seen cards reshuffled back into the stub, the number of
cards physically left in the stub, and the discard pile with who threw what. That is
enough to refuse a card dealt twice, a discard dealt again before the deck ran out
((h)(8), (k)(6)(ii), (l)(6)), and a drawing player's own discards after a reshuffle.
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.cards import CARDS

_ALL = frozenset(range(52))
BOARD = -1   # where a card on the board is, in `in_play`
MUCK = -1    # the "owner" of a folded or mucked hand's cards in the discard pile


def card_text(card: int | None) -> str:
    return "??" if card is None else str(CARDS[card])


class Deck:
    """The deck of one hand: 52 cards, one cover card, no jokers (5324.42(a)(5)(i))."""

    __slots__ = ("unseen", "recycled", "stub", "burned", "pile", "in_play")

    def __init__(self) -> None:
        self.unseen: set[int] = set(_ALL)
        self.recycled: set[int] = set()
        self.stub = 52
        self.burned = 0
        # (card or None, player who discarded it or MUCK, street index)
        self.pile: list[tuple[int | None, int, int]] = []
        self.in_play: dict[int, int] = {}   # card -> player index, or BOARD

    # --- checks (no change) ------------------------------------------------------

    def refusal(self, cards: tuple[int | None, ...]) -> str | None:
        """Why these cards cannot come off the stub now, or None."""
        if len(cards) <= self.stub:
            unseen = self.unseen
            for c in cards:
                if c not in unseen:
                    break
            else:
                if len(cards) < 2 or len(set(cards)) == len(cards):
                    return None
        if len(cards) > self.stub:
            left = "no card" if not self.stub else f"only {self.stub} card{'s' if self.stub > 1 else ''}"
            return f"the deck has {left} left to deal"
        seen: set[int] = set()
        for c in cards:
            if c is None:
                continue
            if c in seen:
                return f"{card_text(c)} is dealt twice in one action"
            seen.add(c)
            why = self.unavailable(c)
            if why:
                return why
        return None

    def unavailable(self, c: int) -> str | None:
        """Why card `c` is not in the stub, or None when it may be."""
        if c in self.unseen or c in self.recycled:
            return None
        where = self.in_play.get(c)
        if where is not None:
            holder = "on the board" if where == BOARD else f"in p{where + 1}'s hand"
            return f"{card_text(c)} is already dealt ({holder})"
        return f"{card_text(c)} was already dealt and is in the discards; it is not in the deck"

    # --- changes -----------------------------------------------------------------

    def take(self, cards: tuple[int | None, ...], where: int) -> None:
        """Deal `cards` (checked by `refusal`) to a player or to the board."""
        self.stub -= len(cards)
        for c in cards:
            if c is None:
                continue
            if c in self.unseen:
                self.unseen.discard(c)
            else:
                self.recycled.discard(c)
            self.in_play[c] = where

    def reveal(self, c: int, where: int) -> None:
        """An unknown card in a hand is shown to be `c` (checked by `unavailable`)."""
        if c in self.unseen:
            self.unseen.discard(c)
        else:
            self.recycled.discard(c)
        self.in_play[c] = where

    def burn(self) -> None:
        if self.stub:
            self.stub -= 1
            self.burned += 1

    def keep_as_burn(self, c: int) -> None:
        """(p)(9)(ii): an exposed hole card, out of the hand, is the face-up burn card before the flop."""
        self.in_play.pop(c, None)
        self.burned += 1

    def shuffle_burns(self) -> None:
        """(h)(8): with one card or none left, the burn cards are shuffled into the stub."""
        self.stub += self.burned
        self.burned = 0

    def discard(self, cards: Iterable[int | None], owner: int, street: int) -> None:
        for c in cards:
            if c is not None:
                self.in_play.pop(c, None)
            self.pile.append((c, owner, street))

    def reshuffle(self, street: int, excluded: frozenset[int] | set[int]) -> None:
        """The discard pile (all but the discards of `excluded` players this draw) back into the stub."""
        keep: list[tuple[int | None, int, int]] = []
        for entry in self.pile:
            c, owner, s = entry
            if s == street and owner in excluded:
                keep.append(entry)
                continue
            self.stub += 1
            if c is not None:
                self.recycled.add(c)
        self.pile = keep
