"""A poker hand in the report (controller/report): what the house took, and the hands the jackpot qualified.

A poker table risks no house money: its report's figures are the rake (by the
method the hand's PHH names), the time charges, the jackpot drop held for the
players, and how many hands qualified for the jackpot (5324.42(r)(4)), judged by
the hand replayed from its PHH under the rule the table posted. Its section of a
table's report (`poker`) adds them up; the house win of its hours and of the table
is what the house took (rake and time charges), the jackpot drop is the players'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.journal.readback import money
from controller.poker.jackpot import candidates
from controller.poker.phh import loads
from controller.poker.replay import replay


def round_fact(record: Mapping[str, Any]) -> dict[str, Any]:
    """The report's figures of a poker hand: no wager of the house's, the house's take under `poker`."""
    phh = record["phh"]
    return {"poker": {"rake": record.get("rake", 0), "rake_method": _rake_method(phh),
                      "time_charges": record.get("time_charges", 0),
                      "jackpot_drop": record.get("jackpot_drop", 0),
                      "qualifying": qualifying_hands(phh)},
            "wagers": {}, "void": bool(record.get("void"))}


def qualifying_hands(phh: str) -> int:
    """How many hands qualified for the jackpot (5324.42(r)(4)): the hand replayed from its PHH and
    judged by the same rule the table posted and the pool is told (controller.poker.jackpot)."""
    if "_jackpot" not in phh:
        return 0
    hand = replay(loads(phh))
    rule = hand.setup.jackpot
    return 0 if rule is None else len(candidates(hand, rule))


def _rake_method(phh: str) -> str | None:
    """The rake's method as the hand's PHH `_rake` field names it (controller/poker/README.md)."""
    for line in phh.splitlines():
        if line.startswith("_rake") and "method" in line:
            return line.split("method", 1)[1].split('"')[1]
    return None


POKER = ("rake", "time_charges", "jackpot_drop")


class PokerTally:
    """One table's poker hands over [start, end): the house's take, by rake method, and the jackpot's."""

    def __init__(self) -> None:
        self.poker: dict[str, Any] = {"hands": 0, **{k: 0 for k in POKER}, "rake_by_method": {},
                                      "qualifying_hands": 0}
        self.seen = False

    def take(self, f: Mapping[str, Any], in_period: bool) -> int:
        """A poker hand's figures added in; what the house took of it (rake and time charges)."""
        if f["fact"] != "round" or "poker" not in f:
            return 0
        self.seen = True
        if not in_period or f.get("void"):
            return 0
        p, poker = f["poker"], self.poker
        for k in POKER:
            poker[k] += p[k]
        method = p.get("rake_method") or "none"
        poker["rake_by_method"][method] = poker["rake_by_method"].get(method, 0) + p["rake"]
        poker["qualifying_hands"] += p.get("qualifying", 0)
        return int(p["rake"] + p["time_charges"])

    def block(self, rounds: int) -> dict[str, Any] | None:
        return {**self.poker, "hands": rounds} if self.seen else None


class PokerSection:
    name = "poker"

    def tally(self, start: str, series: bool) -> PokerTally:
        return PokerTally()

    def total(self, blocks: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
        out = {"hands": 0, **{k: 0 for k in POKER}}
        for b in blocks:
            for k in out:
                out[k] += (b or {}).get(k) or 0
        return out

    def text(self, k: Mapping[str, Any]) -> list[str]:
        methods = ", ".join(f"{m} {money(v)}" for m, v in k["rake_by_method"].items()) or "none"
        return [f"  poker: {k['hands']} hands; rake {money(k['rake'])} ({methods}); time charges "
                f"{money(k['time_charges'])}; jackpot drop {money(k['jackpot_drop'])}; "
                f"qualifying hands {k['qualifying_hands']}"]

    def screen(self, k: Mapping[str, Any] | None) -> dict[str, Any]:
        if not k:
            return {"line": "", "readings": []}
        return {"line": f"Poker: {k['hands']} hands; rake {money(k['rake'])}; time charges "
                        f"{money(k['time_charges'])}; jackpot drop {money(k['jackpot_drop'])}; "
                        f"qualifying hands {k['qualifying_hands']}", "readings": []}


SECTION = PokerSection()
