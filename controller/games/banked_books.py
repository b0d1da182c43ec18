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


def owns(names: Sequence[str], record: Mapping[str, Any]) -> bool:
    """Whether a journaled round record is of the game playing `names`: by its `game`, or (as the journal's
    record_round writes it, without one) by its record's."""
    inner = record.get("record")
    return record.get("game") in names or (isinstance(inner, Mapping) and inner.get("game") in names)


def status(record: Mapping[str, Any]) -> str:
    """What `tablectl rounds list` says of a recorded banked round: its record's game, and a misdeal."""
    inner = record.get("record")
    game = inner.get("game") if isinstance(inner, Mapping) else None
    return "recorded" + (f" ({game})" if game else "") + (" misdeal" if record.get("misdeal") else "")


def round_fact(record: Mapping[str, Any]) -> dict[str, Any]:
    """The report's money of a closed banked round (controller/report/facts.py): per wager, from the
    settlement the table journaled and paid, less a progressive award a supervisor refused (5324.37(f)(2))."""
    if record.get("void"):
        return {"wagers": {}, "void": True}
    settlement = record.get("settlement") or {}
    fact: dict[str, Any] = {}
    if not record.get("game") and settlement.get("game"):
        fact["game"] = settlement["game"]
    fact.update(wagers=wager_money(settlement, record.get("refused")), risked=risked(settlement), void=False,
                misdeal=bool(record.get("misdeal")))
    if record.get("pool"):
        fact["pool"] = record["pool"]
        awards = pool_awards(record)
        if awards:
            fact["pool_awards"] = awards
    return fact


def wager_money(settlement: Mapping[str, Any], refused: Mapping[str, Any] | None = None) -> dict[str, dict[str, int]]:
    """Per wager type: handle (stakes in action), paid (winnings paid), house_win (players' net lost).

    A wager returned (void, push) is not in the handle: nothing was risked. A refused progressive
    win is a loss for the player: the award was never paid."""
    out: dict[str, dict[str, int]] = {}
    refused_seats = {int(k) for k in (refused or {})}
    for seat in settlement.get("seats", []):
        for name, w in seat.items():
            if not isinstance(w, dict) or "stake" not in w or "net" not in w:
                continue
            net = w["net"]
            if name == "progressive" and seat.get("seat") in refused_seats and w.get("outcome") == "win":
                net = -w["stake"]
            m = out.setdefault(name, {"handle": 0, "paid": 0, "house_win": 0})
            if w.get("outcome") in ("void", "push") and net == 0:
                continue
            m["handle"] += w["stake"]
            m["paid"] += max(net, 0)
            m["house_win"] -= net
    return out


def risked(settlement: Mapping[str, Any]) -> dict[str, list[int]]:
    """Per wager type: the stakes put at risk and the sum of each stake squared, a push and a fold
    included (unlike the handle: a push was at risk until the cards said otherwise), a wager returned
    unplayed (void) not. What a period is held against par by (controller/par/hold.py)."""
    out: dict[str, list[int]] = {}
    for seat in settlement.get("seats", []):
        for name, w in seat.items():
            if not isinstance(w, dict) or "stake" not in w or w.get("outcome") == "void":
                continue
            stake = int(w["stake"])
            m = out.setdefault(name, [0, 0])
            m[0] += stake
            m[1] += stake * stake
    return out


def pool_awards(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A linked round's awards as the pool computed them and the round paid them: paid when a
    supervisor validated the seat, not paid when one refused it (5324.37(f)(2))."""
    validated = record.get("validated") or {}
    out = []
    for a in ((record.get("settlement") or {}).get("progressive") or {}).get("awards") or []:
        out.append({"seat": a["seat"], "hand": a["hand"], "amount": a["amount"],
                    "from_meter": bool(a.get("from_meter")), "paid": str(a["seat"]) in validated})
    return out


class BankedRecords:
    """What the journal's readers ask of a banked game's round records, the same for each (BooksPart's
    owns, status, record_text, round_fact): a banked game's books subclass it with its names."""

    names: tuple[str, ...] = ()   # the game's profile `game` values, as its records carry them

    def owns(self, record: Mapping[str, Any]) -> bool:
        return owns(self.names, record)

    def status(self, record: Mapping[str, Any]) -> str:
        return status(record)

    def record_text(self, record: Mapping[str, Any]) -> str | None:
        return None

    def round_fact(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return round_fact(record)
