"""A high card round told again by `tablectl rounds show` (controller/runtime/retell.py): the game's words.

The shared retelling replays the round and writes each entry; it asks this game for its rules
line, where the next card out of the shoe goes (each seat with a wager in seat order, then the
dealer), the words of its one event of its own (a seat's wager), and its part of the settlement
(the dealer's card, each seat's card and its wager).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from controller.games.base import RoundAtTable
from controller.games.game import Json, Record
from controller.runtime.retell import money, wager_words

from high_card.at_table import HighCardAtTable


def _round(r: RoundAtTable) -> HighCardAtTable:
    assert isinstance(r, HighCardAtTable)   # the retelling replays this game's rounds only
    return r


class HighCardRetelling:
    def rules(self, opening: Record) -> str:
        """The rules line: the decks and where the shoe stood."""
        rules, shoe = opening["rules"], opening["shoe"]
        assert isinstance(rules, dict) and isinstance(shoe, dict)
        decks = f"{rules['decks']} deck" + ("" if rules["decks"] == 1 else "s")
        return f"rules: high card, {decks}, even money, a tie pushes; shoe at card {shoe['dispensed']}"

    def destination(self, r: RoundAtTable, event: Record) -> str | None:
        hc = _round(r)
        if not hc.cards_wanted():
            return None
        seat = hc.m.next_place()
        return f"seat {seat}" if seat is not None else "dealer"

    def describe(self, r: RoundAtTable, event: Record, where: str | None,
                 effects: Sequence[Record]) -> str | None:
        if event.get("type") == "wager":
            stake = event.get("stake")
            return f"wager seat {event.get('seat')} {money(stake) if isinstance(stake, int) else stake}"
        return None   # the rest are every banked game's words (the deck, the deal, the cards, the settlement)

    def settlement(self, record: Record, settled: Mapping[int, str]) -> list[str]:
        """The dealer's card, then each seat's card and its wager."""
        inner = record.get("record")
        s = record.get("settlement")
        assert isinstance(inner, dict) and isinstance(s, dict)
        hands = inner.get("hands")
        cards: dict[Json, Json] = {h["seat"]: h["card"] for h in hands if isinstance(h, dict)} \
            if isinstance(hands, list) else {}
        lines = [f"dealer: {inner.get('dealer')}"]
        seats = s.get("seats")
        for seat in seats if isinstance(seats, list) else []:
            assert isinstance(seat, dict)
            lines.append(f"  seat {seat['seat']}: {cards.get(seat['seat'], '')}  {wager_words(seat)}")
        return lines


RETELLING = HighCardRetelling()
