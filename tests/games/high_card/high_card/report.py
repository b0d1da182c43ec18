"""High card's section of a table's report (controller/report/figures.py): its ties.

A tie pushes (README.md), so a tied wager is in no handle: the section says how many hands
were dealt, how many tied and what the ties gave back, which is what a lab checks the 1/17
of the par sheet against (high_card/par.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.game import Json, Record
from controller.journal.readback import money


KEYS = ("hands", "ties", "returned")


def counts(record: Record) -> dict[str, int]:
    """A settled round's hands, ties and the stakes its ties gave back (cents)."""
    out = dict.fromkeys(KEYS, 0)
    settlement = record.get("settlement")
    seats = settlement.get("seats") if isinstance(settlement, dict) else None
    for s in seats if isinstance(seats, list) else []:
        w = s.get("wager") if isinstance(s, dict) else None
        stake = w.get("stake") if isinstance(w, dict) else None
        if isinstance(w, dict) and isinstance(stake, int):
            out["hands"] += 1
            if w.get("outcome") == "push":
                out["ties"] += 1
                out["returned"] += stake
    return out


class TiesTally:
    """One table's hands and ties over the period, from its rounds' facts (high_card's books' round_fact)."""

    def __init__(self) -> None:
        self.sums = dict.fromkeys(KEYS, 0)
        self.seen = False

    def take(self, fact: Record, in_period: bool) -> int:
        ties = fact.get("ties")
        if fact.get("fact") == "round" and in_period and isinstance(ties, dict):
            self.seen = True
            for k in KEYS:
                v = ties.get(k)
                self.sums[k] += v if isinstance(v, int) else 0
        return 0   # the house takes nothing beyond the wagers

    def block(self, rounds: int) -> dict[str, Json] | None:
        return dict(self.sums) if self.seen else None


class TiesSection:
    name = "high_card"   # its key in each table's figures: the game's own key

    def tally(self, start: str, series: bool) -> TiesTally:
        return TiesTally()

    def total(self, blocks: Sequence[Record | None]) -> dict[str, Json]:
        out = dict.fromkeys(KEYS, 0)
        for b in blocks:
            for k in KEYS:
                v = (b or {}).get(k)
                out[k] += v if isinstance(v, int) else 0
        return dict(out)

    def text(self, block: Record) -> list[str]:
        returned = block["returned"]
        return [f"  high card: {block['hands']} hands, {block['ties']} tied and pushed "
                f"({money(returned) if isinstance(returned, int) else returned} returned)"]

    def screen(self, block: Record | None) -> dict[str, Json]:
        if not block:
            return {"line": "", "readings": []}
        return {"line": self.text(block)[0].strip().capitalize(), "readings": []}


SECTION = TiesSection()
