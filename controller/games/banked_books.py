"""A banked game's round in the ledger (controller/runtime/ledger.py): void, or settled again and added up.

Caribbean stud and casino war both record a round as its record, the settlement
the table paid and the seats' wagers; each game says how its record is settled
again (`again`) and which wagers a seat's settlement names (its books' `wagers`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from controller.runtime.ledger import Ledger

# a record and the settlement the table paid -> the record settled again, and what to compare it with
SettleAgain = Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Mapping[str, Any], Mapping[str, Any]]]


def banked_round(led: Ledger, seq: int, rid: str, p: Mapping[str, Any], problem: Callable[[str], None],
                 again: SettleAgain, wagers: Sequence[str]) -> None:
    """A banked game's round: void, or settled again from its record to what the table paid."""
    if p.get("void"):
        led.voided += 1
        for w in p["void"]["wagers"]:
            led.returned += sum(v for k, v in w.items() if k in wagers)
        return
    led.settled += 1
    record, settlement = p["record"], p["settlement"]
    try:
        resettled, settlement = again(record, settlement)
    except ValueError as exc:
        problem(f"entry {seq}: round {rid}'s record does not settle: {exc}")
        return
    if resettled != settlement:
        problem(f"entry {seq}: round {rid} re-settled from its record differs from what the table paid")
    for s in p["settlement"]["seats"]:
        for name in wagers:
            w = s.get(name)
            if w is None:
                continue
            if w["outcome"] == "void":
                led.returned += w["stake"]
            led.stakes[name] += w["stake"]
            led.nets[name] += w["net"]
    for v in p.get("void_wagers", []):
        led.returned += sum(w["stake"] for k, w in v.items() if k in wagers)
