"""High card's round as a state machine fed with events: pure, all-or-nothing, replayable.

    wagers --no_more_bets--> dealing --card (each seat with a wager, then the dealer)--> settling
    settling --settle--> closed

Each state has a table of the events it takes and the handler of each (HANDLERS), so a reader
follows an event to its code without string dispatch; a handler checks everything before it
changes anything, so a refused event leaves the round as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum

from controller.cards import Card, CardError, expect_card
from controller.games.base import EventRefused
from controller.games.event import Event, as_declared
from controller.games.game import Json

from high_card.events import DealtCard, Wager
from high_card.rules import WAGER, Rules, net, outcome


class State(Enum):
    WAGERS = "wagers"
    DEALING = "dealing"
    SETTLING = "settling"
    CLOSED = "closed"


Effect = dict[str, Json]


class HighCardRound:
    """One round: the wagers by seat, the cards as dealt, the settlement once settled."""

    def __init__(self, rules: Rules, seats: int) -> None:
        self.rules = rules
        self.seats = seats
        self.state = State.WAGERS
        self.wagers: dict[int, int] = {}
        self.cards: dict[int, Card] = {}
        self.dealer: Card | None = None
        self.settlement: dict[str, Json] | None = None
        self.outcomes: dict[int, str] = {}   # seat -> "win", "lose" or "push", once settled
        self.handlers: Mapping[State, Mapping[str, Callable[[Event], list[Effect]]]] = {
            State.WAGERS: {"wager": self._wager, "no_more_bets": self._no_more_bets},
            State.DEALING: {"card": self._card},
            State.SETTLING: {"settle": self._settle},
            State.CLOSED: {},
        }

    def allowed(self) -> list[str]:
        return sorted(self.handlers[self.state])

    def apply(self, event: Event) -> list[Effect]:
        kind = event.type
        handler = self.handlers[self.state].get(kind)
        if handler is None:
            raise EventRefused(str(kind), self.state.value, self.allowed())
        return handler(event)

    def refuse(self, kind: str, why: str) -> EventRefused:
        return EventRefused(kind, self.state.value, self.allowed(), why)

    # -- the next card's place: each seat with a wager in order, then the dealer ---------------

    def next_place(self) -> int | None:
        """The seat the next card goes to; None: the dealer's (or no card is due)."""
        for seat in sorted(self.wagers):
            if seat not in self.cards:
                return seat
        return None

    # -- handlers ------------------------------------------------------------------------------

    def _wager(self, e: Event) -> list[Effect]:
        wager = as_declared(e, Wager)
        seat, stake = wager.seat, wager.stake
        if not 1 <= seat <= self.seats:
            raise self.refuse("wager", f"seat must be 1 to {self.seats}")
        if stake <= 0:
            raise self.refuse("wager", "a wager is whole cents, more than 0")
        self.wagers[seat] = stake
        return [{"type": "wager", "seat": seat, "stake": stake}]

    def _no_more_bets(self, e: Event) -> list[Effect]:
        if not self.wagers:
            raise self.refuse("no_more_bets", "no wager on the layout")
        self.state = State.DEALING
        return []

    def _card(self, e: Event) -> list[Effect]:
        try:
            card = expect_card(as_declared(e, DealtCard).card)   # a Card, read where it entered the table
        except CardError as exc:
            raise self.refuse("card", str(exc)) from None
        seat = self.next_place()
        if seat is not None:
            self.cards[seat] = card
            return [{"type": "card", "seat": seat, "card": str(card)}]
        self.dealer = card
        self.state = State.SETTLING
        return [{"type": "card", "to": "dealer", "card": str(card)}]

    def _settle(self, e: Event) -> list[Effect]:
        assert self.dealer is not None   # SETTLING follows the dealer's card
        self.settlement = settle(self.wagers, self.cards, self.dealer)
        self.outcomes = {s: outcome(card, self.dealer) for s, card in self.cards.items()}
        self.state = State.CLOSED
        return [{"type": "settlement", "settlement": self.settlement}]

    def record(self) -> dict[str, Json]:
        """The round's record (books.py settles it again): the rules, each seat's wager and card, the dealer's."""
        return {"rules": {"decks": self.rules.decks},
                "hands": [{"seat": s, WAGER: self.wagers[s], "card": str(self.cards[s])} for s in sorted(self.wagers)],
                "dealer": str(self.dealer) if self.dealer is not None else None}


def settle(wagers: Mapping[int, int], cards: Mapping[int, Card], dealer: Card) -> dict[str, Json]:
    """Each seat's wager settled against the dealer's card, and the house's net: each wager's stake, net
    and outcome under the wager's name, as every banked game's settlement reads (shared/spec/rounds.md)."""
    seats: list[Json] = []
    house = 0
    for seat in sorted(wagers):
        stake, card = wagers[seat], cards[seat]
        won = net(stake, card, dealer)
        house -= won
        seats.append({"seat": seat, WAGER: {"stake": stake, "net": won, "outcome": outcome(card, dealer)}})
    return {"seats": seats, "house_net": house}
