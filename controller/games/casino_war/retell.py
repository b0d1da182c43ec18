"""A casino war round told again by `tablectl rounds show` (controller/runtime/retell.py): the game's words.

The shared retelling replays the round and writes each entry; it asks the game
for its rules line and the shoe, where a card out of the shoe goes (the burn, a
seat, the dealer, 5324.22(i)(4)), the words of the game's own events (a wager, the
war deal, the tie's decision, the cover card, a seat dealt no card) and the
game's part of the settlement (the dealer's and the seats' cards, the war's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.runtime.retell import money, wager_words


class WarRetelling:
    def rules(self, o: Mapping[str, Any]) -> str:
        """A casino war round's rules and where the shoe stood, as the opening recorded them."""
        rules, shoe = o["rules"], o["shoe"]
        return (f"rules: {rules['decks']} decks, tie {rules['tie_odds']}:1, war {rules['war_odds']}:1 "
                f"({rules['war_tie_odds']}:1 on a tied war); shoe at card {shoe['dispensed']}, "
                f"burn card due: {'yes' if shoe['burn_due'] else 'no'}")

    def destination(self, r: Any, ev: Mapping[str, Any]) -> str | None:
        if not r.m.wants_card():
            return None
        kind, seat = r.m.next_slot()
        return {"burn": "burn card (to the discard rack)", "seat": f"seat {seat}", "dealer": "dealer"}[kind]

    def describe(self, r: Any, ev: Mapping[str, Any], where: str | None,
                 effects: Sequence[Mapping[str, Any]]) -> str | None:
        t = ev.get("type")
        seat = ev.get("seat")
        if t == "wager":
            return f"{ev['wager']} wager seat {seat} {money(ev['stake'])}"
        if t == "war":
            return "war deal: three burn cards, then one card to each seat at war and the dealer"
        if t == "cover_reached":
            return "cover card out: this round is finished, then the shoe reshuffled (5324.22(h)(4))"
        if t == "decision":
            extra = f", tie wager {money(ev['war_tie'])}" if "war_tie" in ev else ""
            return f"seat {seat} {'goes to war' if ev['decision'] == 'war' else 'surrenders'}{extra}"
        if t == "no_card":
            return f"seat {seat} dealt no card: its wagers void (5324.22(h)(3)(iii))"
        return None

    def settlement(self, payload: Mapping[str, Any], settled: Mapping[int, str]) -> list[str]:
        """The dealer's and the seats' cards (and the war's), each seat's wagers."""
        s = payload.get("settlement") or {}
        lines = []
        dealer = s.get("dealer", {})
        if "card" in dealer:
            lines.append(f"dealer: {dealer['card']}" + (f", war {dealer['war_card']}" if "war_card" in dealer else ""))
        for seat in s.get("seats", []):
            cards = seat.get("card", "")
            if "war_card" in seat:
                cards += f", war {seat['war_card']}"
            lines.append(f"  seat {seat['seat']}: {cards} {seat.get('hand', '')}  {wager_words(seat)}")
        return lines


RETELLING = WarRetelling()
