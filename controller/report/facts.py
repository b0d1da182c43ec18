"""A journal read into facts: one per closed round, per meter movement, per significant event.

Facts are plain JSON (integer cents) so they can be sent as they are to the
floor's database (controller/floor) and added up there by the same code that
adds them up at the table. Each names its journal entry (`seq`), which is what
makes sending it twice harmless.

A round's money is taken from the settlement the table journaled and paid: the
same settlement `tablectl settle` gives for its record (the ledger,
controller/runtime/ledger.py, holds the two equal), less a progressive award a
supervisor refused (5324.37(f)(2)), which was never paid.

A table on a linked progressive (a profile's `[link]`, controller/runtime/linked.py)
keeps no meter of its own: the pool does. What its journal knows of the pool is
read into `link` facts: each contribution the table asked for (`link-op`) and the
pool's confirmation of it (`link-confirm`: its exact units and the meter after),
and the pool's answer to a claim (the meter after its awards). The awards
themselves are the round record's, as the table paid them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from controller.games import registry

# What the report reads of a journal: everything else (cards, wagers, buttons) is in the records.
KINDS = ("round-record", "meter", "refused", "alarm", "device", "fault", "fault-cleared",
         "software-accepted", "link-status", "link-op", "link-confirm", "dealer", "pit", "hand-pay")
# What no round fact reads of a round record, left out by SQLite before Python decodes the payload:
# the cards and the rules of the record it was settled from, most of its bytes (a year's report
# decodes half a million of them, issue 33). A game's books read the round record's own fields and,
# of that inner record, its `game` alone (tests/report/test_unread.py holds every game to it).
UNREAD = ("$.record.seats", "$.record.dealer", "$.record.rules")
UNITS_PER_CENT = 10_000   # a pool's meter is kept in ten-thousandths of a cent (controller/link/README.md)
SUPERVISOR_MARK = '"source":"supervisor"'   # how a supervisor's event reads in the canonical payload


def table_of(round_id: str) -> str:
    """The table a round was played at: round ids are TABLE-NNNNNN (controller/runtime/tablestate.py)."""
    return round_id.rsplit("-", 1)[0]


def round_fact(seq: int, at: str, round_id: str, payload: dict) -> dict:
    """The money of one closed round, as its game's books read its record (controller/games/game.py)."""
    fact: dict[str, Any] = {"fact": "round", "seq": seq, "at": at, "round": round_id,
                            "game": payload.get("game")}
    game = registry.of_record(payload)
    if game is None:   # a record of no game this table plays: no money the report can read
        fact.update(wagers={}, void=bool(payload.get("void")))
        return fact
    fact.update(game.books.round_fact(payload))
    return fact


def link_fact(seq: int, at: str, round_id: str | None, kind: str, p: dict) -> dict | None:
    """What a `link-op` or `link-confirm` entry tells of the pool, or None when it tells nothing the
    report counts: a contribution asked, a contribution confirmed (its exact units, and the pool's
    meter after it), a claim confirmed (the pool's meter after its awards)."""
    op, ident = p.get("op"), p.get("ident")
    base = {"fact": "link", "seq": seq, "at": at, "round": round_id, "op": op, "ident": ident}
    if kind == "link-op":
        if op != "contribution":
            return None
        return {**base, "pool": p.get("pool"), "seats": sorted(p.get("seats") or [])}
    result = p.get("result") if isinstance(p.get("result"), dict) else None
    if not p.get("confirmed") or result is None:
        return None   # queued in the outbox, or an error: not (yet) the pool's
    if op == "contribution":
        after = result.get("meter_units_after")
        overflow = result.get("overflow_units_after")   # a pool with a limit (issue 29)
        return {**base, "confirmed": True, "units": result.get("units", 0), "stake": result.get("stake_cents"),
                "meter": None if after is None else after // UNITS_PER_CENT,
                "overflow": None if overflow is None else overflow // UNITS_PER_CENT, "limit": result.get("limit_cents")}
    if op == "claim":
        awards = sorted(result.get("awards") or [], key=lambda a: a.get("seq", 0))
        meter = awards[-1].get("meter_after_cents") if awards else None
        return None if meter is None else {**base, "confirmed": True, "meter": meter}
    return None


def meter_fact(seq: int, at: str, round_id: str | None, p: dict) -> dict:
    """One movement of the table's progressive meter, as the journal has it."""
    return {"fact": "meter", "seq": seq, "at": at, "round": round_id, "reason": p.get("reason"),
            "before": p.get("before"), "after": p.get("after"), "amount": p.get("amount", 0),
            "from_meter": bool(p.get("from_meter")), "seeded": p.get("seeded", 0), "hand": p.get("hand"),
            "by": p.get("by"), "note": p.get("note"), "refused": p.get("refused"), "seat": p.get("seat")}


def event_fact(seq: int, at: str, round_id: str | None, kind: str, p: Any) -> dict | None:
    """A significant event with who and when, or None for an entry that is routine."""
    p = p if isinstance(p, dict) else {}
    who, detail = None, None
    if kind == "refused":
        who, detail = p.get("who") or p.get("source"), f"{(p.get('event') or {}).get('type')}: {p.get('error')}"
    elif kind == "alarm":
        who, detail = "device", f"{p.get('kind')}: {p.get('message')}"
    elif kind == "device":
        if p.get("state") == "connected":
            return None
        who, detail = p.get("device"), f"{p.get('state')}: {p.get('detail')}"
    elif kind == "fault":
        who, detail = p.get("source"), "; ".join(str(x.get("detail", x)) if isinstance(x, dict) else str(x)
                                                 for x in p.get("problems", []))
    elif kind == "fault-cleared":
        who, detail = p.get("by"), p.get("note") or p.get("reason")
    elif kind == "software-accepted":
        who, detail = p.get("by"), f"software {str(p.get('digest'))[:16]}"
    elif kind == "link-status":
        if p.get("playable"):
            return None
        who, detail = "link", p.get("reason")
    elif kind == "event":
        from controller.games.handpay import redacted
        ev = redacted(p.get("event") or {})   # a hand-pay's player id masked (issue 29)
        who, kind = p.get("who"), f"supervisor:{ev.get('type')}"
        detail = ", ".join(f"{k}={v}" for k, v in sorted(ev.items()) if k not in ("type", "supervisor"))
    elif kind in ("void", "misdeal"):
        who, detail = p.get("who"), p.get("detail")
    else:
        return None
    return {"fact": "event", "seq": seq, "at": at, "round": round_id, "kind": kind, "who": who,
            "detail": detail}


def facts_of(entries: Iterable) -> Iterator[dict]:
    """The facts of journal entries in order (controller.journal.store.Entry; any kind may come)."""
    for e in entries:
        p, kind = e.payload, e.kind
        if kind == "snapshot":
            meters = p.get("meters") if isinstance(p, dict) else None
            state = meters.get("progressive") if isinstance(meters, dict) else None
            if isinstance(state, dict):   # a reading of the meter as the round opens
                fact = {"fact": "reading", "seq": e.seq, "at": e.at, "amount": state.get("amount")}
                link = p.get("link")
                if isinstance(link, dict) and link.get("pool"):   # linked: the table's own meter stands still
                    fact["pool"] = link["pool"]
                yield fact
        elif kind == "round-record" and isinstance(p, dict) and e.round_id:
            fact = round_fact(e.seq, e.at, e.round_id, p)
            yield fact
            if fact.get("void"):
                voiding = p.get("void")
                void = voiding if isinstance(voiding, dict) else {}
                voided = event_fact(e.seq, e.at, e.round_id, "void", {
                    "who": void.get("by"), "detail": f"round voided, every wager returned: {void.get('reason')}"})
                if voided is not None:
                    yield voided
            elif fact.get("misdeal"):
                misdeal = event_fact(e.seq, e.at, e.round_id, "misdeal", {"who": None, "detail": str(p["misdeal"])})
                if misdeal is not None:
                    yield misdeal
        elif kind == "meter" and isinstance(p, dict) and p.get("meter") == "progressive":
            yield meter_fact(e.seq, e.at, e.round_id, p)
        elif kind in ("link-op", "link-confirm"):
            op = link_fact(e.seq, e.at, e.round_id, kind, p) if isinstance(p, dict) else None
            if op is not None:
                yield op
        elif kind == "event" and not (isinstance(p, dict) and p.get("source") == "supervisor"):
            continue
        elif kind == "pit":   # the table's books (controller/pit/books.py), as journaled
            if isinstance(p, dict):
                yield {"fact": "pit", "seq": e.seq, "at": e.at, "round": e.round_id,
                       **{k: p[k] for k in ("act", "amount", "by", "carrier", "second", "seat", "slip") if k in p}}
        elif kind == "hand-pay":   # issue 29: a hand-pay's form (the player's identification masked)
            if isinstance(p, dict):
                from controller.games.handpay import masked
                yield {"fact": "hand-pay", "seq": e.seq, "at": e.at, "round": p.get("round") or e.round_id,
                       "seat": p.get("seat"), "amount": p.get("amount"), "form": p.get("form"),
                       "paid_by": p.get("paid_by"), "player": masked(p.get("player_id"))}
        elif kind == "dealer":   # a dealer's sign-in (controller/report/dealers.py)
            from controller.report.dealers import dealer_fact
            signed = dealer_fact(e.seq, e.at, p)
            if signed is not None:
                yield signed
        else:
            event = event_fact(e.seq, e.at, e.round_id, kind, p)
            if event is not None:
                yield event


def read(journal, since: int = 0) -> Iterator[dict]:
    """The facts of a journal after entry `since`, reading only the entries a report needs.

    Of the snapshots (one a round) only the first is read: the meter at the start. After it the
    meter moves only by its journaled entries (controller/runtime/ledger.py checks that), so
    the others would repeat what the meter facts already say."""
    first = next(journal.table_entries("snapshot", since), None)
    entries = journal.report_entries(KINDS, SUPERVISOR_MARK, since, unread=UNREAD)
    if first is None:
        return facts_of(entries)
    return facts_of(_merged(first, entries))


def _merged(first, entries) -> Iterator:
    """`first` put in its place among `entries` (both in journal order)."""
    for e in entries:
        if first is not None and first.seq < e.seq:
            yield first
            first = None
        yield e
    if first is not None:
        yield first
