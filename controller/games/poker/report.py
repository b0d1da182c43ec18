"""A poker hand in the report (controller/report): what the house took, and the hands the jackpot qualified.

A poker table risks no house money: its report's figures are the rake (by the
method the hand's PHH names), the time charges, the jackpot drop held for the
players, and how many hands qualified for the jackpot (5324.42(r)(4)), judged by
the hand replayed from its PHH under the rule the table posted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
