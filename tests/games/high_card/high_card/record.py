"""High card's round record read strictly and settled: what `tablectl settle` and the ledger run.

    {"game": "high-card-dealer", "round"?: id, "rules": {"decks": n},
     "hands": [{"seat": s, "wager": cents, "card": "Qh"}, ...], "dealer": "7c"}

The live round writes this record (machine.py) and the same function settles it, so a dispute is
re-settled by hand from the journal's record.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.cards import Card, CardError, parse_card
from controller.games.game import Json, Record
from controller.records import RecordError

from high_card.machine import settle
from high_card.rules import NAME, WAGER


def settle_record(record: Record) -> Record:
    """The settlement of a record; RecordError names the field that is wrong."""
    wagers, cards, dealer = read(record)
    return settle(wagers, cards, dealer)


def read(record: Record) -> tuple[dict[int, int], dict[int, Card], Card]:
    if record.get("game") != NAME:
        raise RecordError("game", f"must be {NAME!r}")
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError("hands", "a list of each seat's wager and card, at least one")
    wagers: dict[int, int] = {}
    cards: dict[int, Card] = {}
    for i, hand in enumerate(hands):
        if not isinstance(hand, dict):
            raise RecordError(f"hands[{i}]", "an object")
        seat, stake = hand.get("seat"), hand.get(WAGER)
        if type(seat) is not int or seat < 1 or seat in wagers:
            raise RecordError(f"hands[{i}].seat", "a seat (1 or more), once")
        if type(stake) is not int or stake <= 0:
            raise RecordError(f"hands[{i}].{WAGER}", "whole cents, more than 0")
        wagers[seat], cards[seat] = stake, _card(hand.get("card"), f"hands[{i}].card")
    return wagers, cards, _card(record.get("dealer"), "dealer")


def _card(value: Json, where: str) -> Card:
    try:
        return parse_card(value)
    except CardError as exc:
        raise RecordError(where, str(exc)) from None


def stakes(settlement: Mapping[str, Json]) -> list[tuple[int, int]]:
    """(stake, net) of each seat of a settlement, as the ledger adds them up."""
    out = []
    seats = settlement.get("seats")
    for s in seats if isinstance(seats, list) else []:
        w = s.get(WAGER) if isinstance(s, dict) else None
        stake, net = (w.get("stake"), w.get("net")) if isinstance(w, dict) else (None, None)
        if isinstance(stake, int) and isinstance(net, int):
            out.append((stake, net))
    return out
