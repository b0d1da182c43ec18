"""Playing cards as the table writes them: two characters, rank then suit ("As", "Td").

A card is a small int (rank * 4 + suit) so that evaluators can index tables with it
directly and sets of cards hash cheaply, but it prints as the casino writes it.
Suits are numbered clubs < diamonds < hearts < spades, the order 5324.42(h)(4)
uses to break ties of rank, so comparing suit numbers is comparing suit rank.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
ACE = 12
KING = 11


class CardError(ValueError):
    """A token that is not a card of the spec's alphabet, or a card where it cannot be."""


class Card(int):
    """One card; an int 0..51 that prints as "As"."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 for a two up to 12 for an ace."""
        return self >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self & 3

    @property
    def rank_char(self) -> str:
        return RANKS[self >> 2]

    @property
    def suit_char(self) -> str:
        return SUITS[self & 3]

    def __str__(self) -> str:
        return RANKS[self >> 2] + SUITS[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_BY_TEXT = {str(c): c for c in CARDS}


def card(rank: int, suit: int) -> Card:
    """The card of a rank (0 = two .. 12 = ace) and suit (0 = clubs .. 3 = spades)."""
    return CARDS[rank * 4 + suit]


def parse_card(token: object) -> Card:
    """Read one card; anything outside the alphabet is refused by name ("10h", "as", "")."""
    if isinstance(token, str):
        found = _BY_TEXT.get(token)
        if found is not None:
            return found
    raise CardError(f"{token!r} is not a card (rank of {RANKS} then suit of {SUITS}, e.g. 'As')")


def expect_card(value: object) -> Card:
    """A card that was read where it entered the table (a driver's frame, the boundary's reading of a
    screen's or the journal's text) and travels as a Card: never parsed again on its way."""
    if isinstance(value, Card):
        return value
    raise CardError(f"{value!r} is not a card (a Card, read where it entered the table)")


def parse_cards(tokens: Iterable[object], *, distinct: bool = True) -> list[Card]:
    """Read a list of cards; with `distinct`, a card given twice is refused by name."""
    cards: list[Card] = []
    seen: set[Card] = set()
    for i, token in enumerate(tokens):
        try:
            c = parse_card(token)
        except CardError as exc:
            raise CardError(f"[{i}]: {exc}") from None
        if distinct and c in seen:
            raise CardError(f"{c} appears twice")
        seen.add(c)
        cards.append(c)
    return cards


def format_cards(cards: Iterable[int]) -> list[str]:
    return [str(CARDS[c]) for c in cards]


class ShoeEmpty(RuntimeError):
    """The dealer asked for a card that the shoe does not have."""


class Shoe:
    """A stack of cards dealt from the top, with the cover card at a position.

    Used for one deck (Caribbean stud, poker) and for the 6-8 deck shoe of casino
    war (5324.22(c)). Every card that leaves the shoe is kept in order, dealt or
    burned, so any round can be reconstructed (5324.22(i)(4)).
    """

    def __init__(self, cards: Sequence[Card], cover_at: int | None = None) -> None:
        self._cards = list(cards)
        self._next = 0
        self.cover_at = cover_at
        self.dealt: list[Card] = []
        self.burned: list[Card] = []

    @classmethod
    def shuffled(cls, decks: int = 1, rng: random.Random | None = None,
                 penetration: float | None = None) -> "Shoe":
        """A freshly shuffled shoe of `decks` decks; the cover card at `penetration` of it."""
        rng = rng or random.SystemRandom()
        cards = [c for _ in range(decks) for c in CARDS]
        rng.shuffle(cards)
        cover_at = None if penetration is None else int(len(cards) * penetration)
        return cls(cards, cover_at)

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._next

    @property
    def cover_reached(self) -> bool:
        """True once a card at or past the cover card has come out (5324.22(h)(4))."""
        return self.cover_at is not None and self._next > self.cover_at

    def peek_remaining(self) -> list[Card]:
        return self._cards[self._next:]

    def _take(self) -> Card:
        if self._next >= len(self._cards):
            raise ShoeEmpty(f"the shoe is empty after {self._next} cards")
        c = self._cards[self._next]
        self._next += 1
        return c

    def deal(self) -> Card:
        c = self._take()
        self.dealt.append(c)
        return c

    def burn(self, count: int = 1) -> list[Card]:
        out = [self._take() for _ in range(count)]
        self.burned.extend(out)
        return out
