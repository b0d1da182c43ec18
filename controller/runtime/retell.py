"""`tablectl rounds show` for a round the live table played: the round told again, event by event.

The round is replayed from its journaled events into a fresh round (the same code
that played it, its game's round at the table), so each card can be said
where it went: the seat or the dealer and the place in the stack, or the burn
(5324.22(i)(4), 5324.37(e)(6): a hand can be laid out again in a dispute). Each
line says who did it (the device, the dealer's panel, a player, the supervisor),
each meter movement says the meter before and after, and the round ends with its
settlement and the record `tablectl settle` re-settles. What only a game knows (its
rules line, where its next card goes, the words of its own events, its part of the
settlement) the game's retelling says (controller/games/game.py `Retelling`).

A round on a linked progressive (issue 16) is told with its pool: the meter is
the pool's, not the table's, so the round says what it asked of the pool (the
contribution at the lock-out, the claim of its hits, each settlement with the
journal entry of the supervisor's validation) and what the pool answered (its
sequence number, the meter it paid each award from), and the settlement names
each award's validation or refusal and what the pool made of it.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from controller import boundary
from controller.games import registry
from controller.games.base import EventRefused
from controller.games.game import Game, Retelling
from controller.games.handpay import masked, redacted


def _retold(name: object) -> Game | None:
    """The game of a round retold here: one with a `books.retell` (controller/games/game.py)."""
    g = registry.find(name)
    return g if g is not None and g.books.retell is not None else None


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def is_table_round(entries: list[Any]) -> bool:
    if not entries or entries[0].kind != "round-opened" or not isinstance(entries[0].payload, dict):
        return False
    p = entries[0].payload
    return _retold(p.get("game")) is not None and "rules" in p and "round" in p


def render(entries: list[Any], out: TextIO) -> list[str]:
    """Write the round; returns the problems met replaying it (none for a sound journal)."""
    opening = entries[0].payload
    g = _retold(opening["game"])
    assert g is not None and g.books.retell is not None   # is_table_round said so
    tell = g.books.retell
    r = g.table.round({k: v for k, v in opening.items() if k != "by"})
    by = opening.get("by") or {}
    out.write(f"round {opening['round']}: {opening['game']}, opened {entries[0].at} by "
              f"{_who(by.get('source'), by.get('who'))}\n")
    out.write(tell.rules(opening) + "\n")
    pool = (opening.get("link") or {}).get("pool")
    if pool:
        out.write(f"linked progressive: pool {pool} (table {(opening.get('link') or {}).get('table')}); the "
                  "meter is the pool's, the table's own meter does not move\n")
    out.write("\n")
    problems: list[str] = []
    record = None
    settled: dict[int, str] = {}   # seat -> what the pool made of its settlement
    for e in entries[1:]:
        p = e.payload if isinstance(e.payload, dict) else {}
        who = ""
        if e.kind == "event":
            ev = p.get("event", {})
            who = _who(p.get("source"), p.get("who"))
            where = _destination(tell, r, ev)
            read = boundary.journaled(ev, p.get("source"), near=type(r).__module__.rpartition(".")[0])
            try:
                if isinstance(read, str):   # the journal's event no longer reads as declared
                    raise EventRefused(boundary.kind_of(ev), r.state, r.allowed(), read)
                effects = r.apply(read)   # read again into the model it was admitted as
            except EventRefused as exc:
                problems.append(f"entry {e.seq} does not replay: {exc}")
                effects = []
            text = _describe(tell, r, ev, where, effects)
        elif e.kind == "refused":
            who = _who(p.get("source"), p.get("who"))
            text = f"REFUSED {json.dumps(redacted(p.get('event')), sort_keys=True)}: {p.get('error')}"
        elif e.kind == "meter":
            text = _meter_line(p)
        elif e.kind == "round-record":
            record = e
            text = "round recorded" + (" (void)" if "void" in p else "")
        elif e.kind in ("link-op", "link-confirm"):
            who = "link"
            text = _link_line(e.kind, p, settled)
        else:
            text = f"{e.kind} {json.dumps(redacted(p), sort_keys=True)}"   # a hand-pay's player id masked
        out.write(f"{e.seq:>9}  {e.at[11:23]}  {who:<30} {text}\n")
    if record is not None:
        out.write("\n" + _settlement(tell, record.payload, settled) + "\n")
        out.write(f"\nround record (entry {record.seq}, {record.at}):\n")
        out.write(json.dumps(record.payload, indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(f"\nthe round is in progress ({r.state})\n")
    return problems


def _who(source: Any, who: Any) -> str:
    if source is None:
        return "?"
    return f"{source}/{who}" if who else str(source)


def _destination(tell: Retelling, r: Any, ev: dict[str, Any]) -> str | None:
    """Where the next card out of the shoe goes, asked of the game before the round takes the card."""
    if ev.get("type") not in ("shoe_card", "card"):
        return None
    return tell.destination(r, ev)


def _describe(tell: Retelling, r: Any, ev: dict[str, Any], where: str | None, effects: list[dict[str, Any]]) -> str:
    """An event in words: the game's own (its retelling), else the words every game's events share."""
    told = tell.describe(r, ev, where, effects)
    if told is not None:
        return told
    t = ev.get("type")
    seat = ev.get("seat")
    kinds = {e["type"]: e for e in effects}
    if t == "remove":
        return f"{ev.get('wager')} wager of seat {seat} taken back"
    if t == "no_more_bets":
        return "no more bets: lock-out"
    if t == "deck_count":
        bad = "" if ev.get("total") == 52 and not ev.get("anomalies") else " - ALARM: not a full deck"
        extra = f" ({', '.join(ev['anomalies'])})" if ev.get("anomalies") else ""
        return f"the shuffler counted {ev.get('total')} cards{extra}{bad}"
    if t == "shoe_loaded":
        return f"{ev.get('cards')} cards loaded into the shoe"
    if t == "deal":
        return "deal"
    if t in ("shoe_card", "card"):
        how = "out of the shoe" if t == "shoe_card" else "touched in by the dealer (not read by the shoe)"
        face = ""
        dealt = kinds.get("dealt")
        if dealt is not None and dealt.get("face") == "up":
            face = ", face up"
        return f"card {ev['card']} {how} -> {where or '?'}{face}"
    if t == "shoe_unread":
        return f"card {ev.get('drawn')} out of the shoe, its face not read: the dealer touches it in"
    if t == "settle":
        return "settle"
    if t == "void_round":
        return f"round voided: {ev.get('reason')}"
    if t == "hand_pay":   # issue 29 (a banked game's): the player's identification masked (games/handpay.py)
        paid = kinds.get("hand_paid")
        amount = f" {money(paid['amount'])}" if paid else ""
        return (f"hand-pay of seat {seat}{amount}: tax form {ev.get('form')}, player id "
                f"{masked(ev.get('player_id'))}, paid by {ev.get('supervisor')}")
    return json.dumps(redacted(ev), sort_keys=True)


def _meter_line(p: dict[str, Any]) -> str:
    before, after = p.get("before"), p.get("after")
    head = f"meter {money(before)} -> {money(after)}" if type(before) is int and type(after) is int else "meter"
    reason = p.get("reason")
    if reason == "contribution":
        return (f"{head}: contribution {money(p['amount'])} from {p.get('wagers')} progressive wager(s) of "
                f"{money(p.get('wagered', 0))} at {p.get('rate_bp', 0) / 100:.2f}% (carry "
                f"{p.get('carry_before', 0) / 10_000:.4f} -> {p.get('carry_after', 0) / 10_000:.4f} cent)")
    if reason == "award":
        payer = "from the meter" if p.get("from_meter") else "by the house"
        seeded = f"; the meter restarts at {money(p['seeded'])}" if p.get("seeded") else ""
        return f"{head}: award seat {p.get('seat')} {p.get('hand')} {money(p['amount'])} paid {payer}{seeded}"
    if reason == "correction":
        return f"{head}: corrected by {p.get('by')}: {p.get('note')}"
    return f"{head}: {reason}"


def _link_line(kind: str, p: dict[str, Any], settled: dict[int, str]) -> str:
    """A linked round's operation on its pool, or the pool's answer (controller/runtime/linked.py)."""
    op, pool = p.get("op"), p.get("pool")
    if kind == "link-op":
        if op == "contribution":
            return f"contribution to the pool {pool}: seat(s) {p.get('seats')} (their progressive wagers)"
        if op == "claim":
            return f"claim to the pool {pool}: " + ", ".join(f"seat {s} {h} {c}" for s, h, c in p.get("hits") or [])
        if op == "settle":
            v = p.get("validation") or {}
            how = "paid" if p.get("status") == "paid" else f"voided ({p.get('reason')})"
            return (f"settlement to the pool {pool}: seat {p.get('seat')} {how} on {p.get('supervisor')}'s "
                    f"validation (journal entry {v.get('entry', '?')}, {v.get('source', '?')}/{v.get('who', '?')})")
        if op == "close":   # issue 26: no claim for the round from now on
            return f"the round closed with the pool {pool}"
        return f"{op} to the pool {pool}: {json.dumps(p, sort_keys=True)}"
    if not p.get("confirmed"):
        return f"the pool has not confirmed the {op} yet: {p.get('queued') or p.get('error')}"
    r = p.get("result") or {}
    if op == "contribution":
        units = r.get("meter_units_after")
        after = f", the pool's meter after it {money(units // 10_000)}" if isinstance(units, int) else ""
        return f"the pool confirmed the contribution: {r.get('units')} units of 1/10000 cent (pool seq {r.get('seq')}){after}"
    if op == "claim":
        lines = [f"pool award seat {a['seat']} {a['hand']} {money(a['amount_cents'])} "
                 f"({'from the meter' if a['from_meter'] else 'by the house'}, meter "
                 f"{money(a['meter_before_cents'])} -> {money(a['meter_after_cents'])}"
                 + (f", shared by {a['shared_by']}" if a.get("shared_by", 1) > 1 else "") + f"; pool seq {a['seq']})"
                 for a in r.get("awards") or []]
        return "the pool answered the claim: " + ("; ".join(lines) or "no award")
    if op == "settle":
        if "seat" in r:
            settled[int(r["seat"])] = r.get("status", "?")
        return f"the pool settled seat {r.get('seat')}: {r.get('status')}"
    return f"the pool confirmed {op}"


def wager_words(seat: dict[str, Any]) -> str:
    """A seat's settled wagers in words, each its stake, outcome and net (for a game's settlement lines)."""
    return "; ".join(f"{name} {money(w['stake'])} {w['outcome']} {money(w['net'])}"
                     for name, w in seat.items() if isinstance(w, dict) and "outcome" in w)


def _settlement(tell: Retelling, payload: dict[str, Any], settled: dict[int, str]) -> str:
    """A voided round's returned wagers; else the game's lines of the settlement, and the players' net."""
    if "void" in payload:
        v = payload["void"]
        lines = [f"VOID: {v['reason']}"]
        for w in v["wagers"]:
            stakes = ", ".join(f"{k} {money(a)}" for k, a in w.items() if k != "seat")
            lines.append(f"  seat {w['seat']}: returned {stakes}")
        return "\n".join(lines)
    s = payload.get("settlement") or {}
    lines = tell.settlement(payload, settled)
    net = sum(w["net"] for seat in s.get("seats", []) for w in seat.values() if isinstance(w, dict) and "net" in w)
    lines.append(f"players' net {money(net)}")
    return "\n".join(lines)
