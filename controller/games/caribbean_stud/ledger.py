"""A Caribbean stud round checked again by the ledger (controller/runtime/ledger.py): the game's own check.

The round is settled again from its record (with the meter's carried fraction of a
cent), its progressive either the table's meter (each movement journaled, a refused
win's award returned to it, 5324.37(f)(2)) or a linked pool's (issue 10: the table's
meter does not move; each hit paid what the pool awarded, a refused one not at all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controller.games.banked_books import banked_round
from controller.games.caribbean_stud.record import read_rules, refusals, settle
from controller.games.caribbean_stud.rules import with_refusals
from controller.games.caribbean_stud.rules import base_game

if TYPE_CHECKING:
    from controller.runtime.ledger import Ledger

# the wagers a seat's settlement names, in the dealer's order: the game's one list (its books' `wagers`)
WAGERS: tuple[str, ...] = ("ante", "bet", "progressive")

Problem = Callable[[str], None]
Movements = Sequence[Mapping[str, Any]]


def check_stud_round(led: Ledger, seq: int, rid: str, p: Mapping[str, Any], movements: Movements,
                     problem: Problem) -> None:
    """A Caribbean stud round settled again from its record, its progressive the meter's or the pool's."""

    def again(record: Mapping[str, Any], settlement: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        if p.get("pool"):
            out = settle(record, 0, misdeal=bool(p.get("misdeal"))).output
            if p.get("misdeal"):
                led.misdeals += 1
            _check_linked(led, seq, rid, p, movements, problem)
            return out, base_game(settlement)   # the progressive was the pool's, checked above
        contribution = next((m for m in movements if m["reason"] == "contribution"), None)
        carry = contribution["carry_before"] if contribution else 0
        out = settle(record, carry, misdeal=bool(p.get("misdeal"))).output
        refused = refusals(record)
        if refused:   # a record since issue 29 says what was paid: the refused wins not
            out = with_refusals(out, refused, read_rules(record["rules"])[0])
        if p.get("misdeal"):
            led.misdeals += 1
        _check_progressive(seq, settlement, movements, problem)
        _refused(led, seq, rid, p, movements, problem)
        return out, settlement

    banked_round(led, seq, rid, p, problem, again, WAGERS)


def _check_progressive(seq: int, settlement: Mapping[str, Any], movements: Movements, problem: Problem) -> None:
    prog = settlement.get("progressive")
    if prog is None:
        if movements:
            problem(f"entry {seq}: meter entries for a round without progressive wagers")
        return
    contribution = [m for m in movements if m["reason"] == "contribution"]
    awards = [m for m in movements if m["reason"] == "award"]
    settled = [m for m in movements if m["reason"] != "correction"]  # a refusal's correction comes after
    if len(contribution) != 1 or contribution[0]["before"] != prog["meter_before"] \
            or contribution[0]["amount"] != prog["contributions"]:
        problem(f"entry {seq}: the meter entries do not show the round's contributions")
    paid = [{"seat": a["seat"], "hand": a["hand"], "amount": a["amount"]} for a in awards]
    if paid != prog["awards"] or (settled and settled[-1]["after"] != prog["meter_after"]):
        problem(f"entry {seq}: the meter entries do not show the round's awards")


def _check_linked(led: Ledger, seq: int, rid: str, p: Mapping[str, Any], movements: Movements, problem: Problem) -> None:
    """A round on a linked progressive (issue 10): the table's meter did not move; each hit was
    paid what the pool's award says, a refused one not at all. `tablectl link check` holds the
    pool's side: the awards against the pool's meter, the contributions against the wagers."""
    settlement = p["settlement"]
    prog = settlement.get("progressive") or {}
    if movements:
        problem(f"entry {seq}: round {rid} is on the pool {p['pool']}, but moved the table's own meter")
    awards = {a["seat"]: a for a in prog.get("awards", [])}
    claimed = [c["seat"] for c in prog.get("claimed", [])]
    refused = {int(k): v for k, v in (p.get("refused") or {}).items()}
    for s in settlement["seats"]:
        w = s.get("progressive")
        if w is None:
            continue
        seat = s["seat"]
        if seat in claimed and seat in awards:
            a = awards[seat]
            if (w["outcome"], w.get("award"), w["net"]) != ("win", a["amount"], a["amount"] - w["stake"]) \
                    or a["hand"] != s.get("hand"):
                problem(f"entry {seq}: round {rid} seat {seat} is paid {w.get('award')}, the pool awarded "
                        f"{a['amount']} for a {a['hand']}")
        elif seat in claimed and not (seat in refused and w["outcome"] == "claimed"):
            problem(f"entry {seq}: round {rid} seat {seat}'s claim has no award from the pool")
        elif seat not in claimed and w["outcome"] not in ("lose", "void"):
            problem(f"entry {seq}: round {rid} seat {seat}'s progressive {w['outcome']} without a claim")
    for seat, r in sorted(refused.items()):
        if not r.get("supervisor") or not r.get("reason"):
            problem(f"entry {seq}: round {rid}: seat {seat}'s refusal names no supervisor or no reason")
        if seat in awards:
            led.nets["progressive"] -= awards[seat]["amount"]   # the award was never paid
        led.refused.append({"round": rid, "seat": seat, "hand": r.get("hand"), "award": r.get("award"),
                            "returned": 0, "supervisor": r.get("supervisor"), "reason": r.get("reason"),
                            "pool": p["pool"]})


def _refused(led: Ledger, seq: int, rid: str, p: Mapping[str, Any], movements: Movements, problem: Problem) -> None:
    """Refused progressive wins: not paid, and what the meter paid for them back in it (5324.37(f)(2))."""
    refused = p.get("refused") or {}
    awards = {a["seat"]: a for a in (p["settlement"].get("progressive") or {}).get("awards", [])}
    returns = [m for m in movements if m["reason"] == "correction"]
    for key, r in sorted(refused.items(), key=lambda kv: int(kv[0])):
        seat = int(key)
        award = awards.get(seat)
        if award is None or award["amount"] != r.get("award"):
            problem(f"entry {seq}: round {rid} refuses seat {seat}'s progressive win, which it did not award")
            continue
        if not r.get("supervisor") or not r.get("reason"):
            problem(f"entry {seq}: round {rid}: seat {seat}'s refusal names no supervisor or no reason")
        back = [m for m in returns if (m.get("refused") or {}).get("seat") == seat]
        if r.get("returned", 0) != sum(m["amount"] for m in back) or len(back) > 1:
            problem(f"entry {seq}: round {rid}: seat {seat}'s refused award returned {r.get('returned')} to the "
                    f"meter, the journal's corrections {sum(m['amount'] for m in back)}")
        paid_as = next((s.get("progressive") or {} for s in p["settlement"]["seats"] if s["seat"] == seat), {})
        if paid_as.get("outcome") != "refused":   # a record before issue 29 shows it won: take it out here
            led.nets["progressive"] -= award["amount"]   # the award was never paid
        led.refused.append({"round": rid, "seat": seat, "hand": award["hand"], "award": award["amount"],
                            "returned": r.get("returned", 0), "supervisor": r.get("supervisor"),
                            "reason": r.get("reason")})
    for m in returns:
        corrected = (m.get("refused") or {}).get("seat")
        if str(corrected) not in refused:
            problem(f"entry {seq}: round {rid}: a meter correction in the round that no refusal accounts for")
