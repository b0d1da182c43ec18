"""High card's settlement: a player's card against the dealer's, by rank, aces high; a tie pushes.

Pure: cards (controller.cards.Card) and cents in, cents out. The rule for a tie is this game's
own choice (no regulation covers it): the wager is returned, so the game gives the house no edge
(par.py), which is what a test game wants: every figure of its books is easy to check by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.cards import Card

NAME = "high-card-dealer"   # the profiles' and the records' `game`
WAGER = "wager"   # the one wager of the game, as the record and the ledger name it


DECK = 52   # one deck a round: shuffled and counted by the shuffler, loaded into the dispensing shoe


@dataclass(frozen=True)
class Rules:
    decks: int = 1          # dealt from each round (the record says it, so a record settles alone)


def outcome(player: Card, dealer: Card) -> str:
    """"win", "lose" or "push", by rank only."""
    if player.rank > dealer.rank:
        return "win"
    if player.rank < dealer.rank:
        return "lose"
    return "push"


def net(stake: int, player: Card, dealer: Card) -> int:
    """What the player nets on `stake` cents: even money won or lost, nothing on a tie."""
    return {"win": stake, "lose": -stake, "push": 0}[outcome(player, dealer)]
