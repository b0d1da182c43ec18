"""The casino war shoe: 6-8 decks, the cut, the cover card, burn cards and the discard rack.

The round machine never draws a card itself (a round must replay from its
journaled events), so this module is the other side of it: what the manual
dealing shoe of 5324.22(d) and the dealer do. It holds the cards (a
controller.cards.Shoe, by composition), says when the cover card comes out,
remembers that a fresh shoe or a new dealer owes a burn card (5324.22(h)(1)),
and keeps the discard rack in order so every hand can be reconstructed
(5324.22(i)(4), (i)(5)(iii)). `play_cards` feeds a round from it, as the shoe
driver and the dealer's hands do at a real table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from controller.cards import CARDS, Card, Shoe, parse_card
from controller.games.base import Event
from controller.games.casino_war.events import CoverCard, DealtCard
from controller.games.casino_war.floors import WAR_DECKS as DECKS   # 5324.22(c)
from controller.games.game import Json

if TYPE_CHECKING:
    from controller.games.casino_war.machine import CasinoWarRound


class Hand(TypedDict):
    """One hand of a deal as the rack keeps it (the round's "discard" effect)."""

    hand: Json         # the hand's key: a seat, "dealer", or a war hand's
    cards: list[str]


class RackEntry(TypedDict, total=False):
    burn: str           # a burn card, face down
    hands: list[Hand]   # a deal's cards, each hand apart


class DiscardRack:
    """The discard rack, in the order cards went into it.

    Burn cards go in one by one, face down, as they are burned; the cards of a
    deal go in as one group that keeps each hand apart, so a disputed hand can
    be laid out again (5324.22(i)(4), (i)(5)(iii)).
    """

    def __init__(self) -> None:
        self.entries: list[RackEntry] = []

    def burn(self, card: str) -> None:
        self.entries.append({"burn": card})

    def collect(self, hands: list[Hand]) -> None:
        self.entries.append({"hands": [{**h, "cards": list(h["cards"])} for h in hands]})

    def cards(self) -> list[Card]:
        """Every card in the rack, in the order it went in."""
        out: list[Card] = []
        for entry in self.entries:
            if "burn" in entry:
                out.append(parse_card(entry["burn"]))
            else:
                out.extend(parse_card(c) for h in entry["hands"] for c in h["cards"])
        return out

    def carry_out(self, effects: Iterable[dict[str, Any]]) -> None:
        """Put into the rack what a round's effects send there."""
        for effect in effects:
            if effect["type"] == "card" and effect["to"] == "burn":
                self.burn(effect["card"])
            elif effect["type"] == "discard":
                self.collect(effect["hands"])


class WarShoe:
    """A shuffled, cut casino war shoe with its cover card (5324.22(c), (h)(4)).

    `cover_at` is how many cards lie in front of the cover card. When the dealer
    reaches it, it comes out before the next card; the round in progress is
    completed and the cards are reshuffled before the next round.
    """

    def __init__(self, cards: Sequence[Card], cover_at: int, decks: int) -> None:
        if decks not in DECKS:
            raise ValueError(f"{decks} decks; casino war is played with 6, 7 or 8 (5324.22(c))")
        if Counter(cards) != Counter({c: decks for c in CARDS}):
            raise ValueError(f"a shoe of {decks} decks holds each of the 52 cards {decks} times")
        if not 0 < cover_at < len(cards):
            raise ValueError(f"the cover card goes inside the stack (1..{len(cards) - 1} cards "
                             f"in front of it), not at {cover_at}")
        self.decks = decks
        self.cover_at = cover_at
        self._shoe = Shoe(cards, cover_at=cover_at)
        self.cover_out = False
        self.burn_due = True          # a fresh shoe is opened with a burn card (5324.22(h)(1))
        self.rack = DiscardRack()
        self.cards = tuple(cards)     # the stack as shuffled and cut, for reconstruction

    @classmethod
    def shuffled(cls, decks: int, rng: random.Random, *, cut: int | None = None,
                 cover_at: int | None = None) -> "WarShoe":
        """Shuffle `decks` decks with an injected random source, cut, and place the cover card.

        The cut (cards moved from the front to the back) and the cover card's
        place are drawn from `rng` when not given: the cut anywhere, the cover
        card with between a quarter and a third of the stack behind it.
        """
        if decks not in DECKS:
            raise ValueError(f"{decks} decks; casino war is played with 6, 7 or 8 (5324.22(c))")
        cards = [c for _ in range(decks) for c in CARDS]
        rng.shuffle(cards)
        n = len(cards)
        if cut is None:
            cut = rng.randrange(1, n)
        if not 0 < cut < n:
            raise ValueError(f"a cut moves 1..{n - 1} cards, not {cut}")
        cards = cards[cut:] + cards[:cut]
        if cover_at is None:
            cover_at = rng.randint(n * 2 // 3, n * 3 // 4)
        return cls(cards, cover_at, decks)

    @property
    def remaining(self) -> int:
        return self._shoe.remaining

    @property
    def needs_reshuffle(self) -> bool:
        """The cover card has come out: no new round before a reshuffle (5324.22(h)(4))."""
        return self.cover_out

    def new_dealer(self) -> None:
        """A dealer who comes to the table burns one card before dealing (5324.22(h)(1))."""
        self.burn_due = True

    def open_round(self) -> int:
        """The burn cards the next round starts with (0 or 1); refused once the cover card is out."""
        if self.cover_out:
            raise RuntimeError("the cover card has come out: reshuffle before the next round "
                               "(5324.22(h)(4))")
        burn, self.burn_due = int(self.burn_due), False
        return burn

    def draw(self, burn: bool) -> list[Event]:
        """The shoe events of taking the next card: the cover card first if it is next."""
        events: list[Event] = []
        if not self.cover_out and self.remaining + self.cover_at == len(self.cards):
            self.cover_out = True
            events.append(CoverCard())
        card = self._shoe.burn()[0] if burn else self._shoe.deal()
        events.append(DealtCard(card=card))   # as the dealer's hand holds it: a Card to the round
        return events

    def left(self) -> list[Card]:
        return self._shoe.peek_remaining()

    @property
    def burned(self) -> list[Card]:
        return list(self._shoe.burned)

    @property
    def dealt(self) -> list[Card]:
        return list(self._shoe.dealt)

    def reshuffled(self, rng: random.Random, *, cut: int | None = None, cover_at: int | None = None) -> WarShoe:
        """All the cards back together and shuffled again: a fresh shoe (owing its burn card)."""
        return WarShoe.shuffled(self.decks, rng, cut=cut, cover_at=cover_at)


def play_cards(shoe: WarShoe, round_: CasinoWarRound) -> list[dict[str, Any]]:
    """Deal from `shoe` every card the round wants now, as the dealer would.

    Asks the round what the next card is for (a burn card or a hand), draws
    it, and hands the shoe's events to the round; burn cards and collected
    hands go to the shoe's discard rack. Returns the round's effects.
    """
    effects: list[dict[str, Any]] = []
    while round_.wants_card():
        for event in shoe.draw(burn=round_.next_slot()[0] == "burn"):
            out = round_.apply(event)
            shoe.rack.carry_out(out)
            effects.extend(out)
    return effects
