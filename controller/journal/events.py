"""The significant events a regulator lists (9 NYCRR 5317.26, 5321.9; GLI-13), read from the journal.

An event is never kept apart from the journal: each is an entry the table wrote
as it happened (or a reading of one), so the list a lab asks for cannot say
other than the chain it verifies. `tablectl events` prints them and `tablectl
report --json` carries those of its period.

The names, one per kind of event, whatever part of the table journals it:
power-up (`unclean` after a kill or a power cut, with the gap since the last
entry), power-down (an orderly stop), fault / fault-cleared, alarm /
alarm-cleared, device-connected / device-lost (per device), link-lost /
link-restored, door-open / door-closed / battery-low (an entry of that kind, or
a device's alarm of that kind: door_open, door_closed, battery_low), software-accepted,
clock (the clock's synchronisation, its jumps), entry (the entry and maintenance
log, `tablectl entry add`), journal-restored (rebuilt from its replica at start), device-paired
(`tablectl device pair`, or the table pairing its own emulators: who, which device, the key's fingerprint),
and the table's books (controller/pit): opener / closer, fill / credit, buy-in, drop, each with who signed
it; pool-retired (the linked pool this table played retired, as the table heard it from the pool);
hand-pay (a win past the tax form's threshold paid by hand once a supervisor filled in its form, issue 29:
the round, seat, amount, form number and who paid; the player's identification masked).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from typing import Any

KINDS = ("power-up", "power-down", "fault", "fault-cleared", "alarm", "alarm-cleared", "device-connected",
         "device-lost", "link-lost", "link-restored", "door-open", "door-closed", "battery-low",
         "software-accepted", "clock", "entry", "journal-restored", "pool-retired",
         "opener", "closer", "fill", "credit", "buy-in", "drop", "device-paired", "hand-pay")
# the journal's kinds the list is read from (an index of what to read, so a reader need not read every card)
JOURNAL_KINDS = ("power-up", "power-down", "fault", "fault-cleared", "alarm", "alarm-cleared", "device",
                 "link-status", "door-open", "door-closed", "battery-low", "software-accepted", "clock", "entry",
                 "journal-restored", "pit", "pool-retired", "device-paired", "hand-pay")
DEVICE_CONDITIONS = ("door-open", "door-closed", "battery-low")
LOST_STATES = ("disconnected", "missing", "incompatible", "unpaired")


def parse_time(text: str) -> datetime:
    """An ISO time (a date alone: its midnight, UTC; no offset: UTC), as the journal's `at` is."""
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def last_run(journal: Any, now: datetime) -> dict:
    """How the previous run ended, read before this start writes: `unclean` when it powered up and
    never journaled its power-down (killed, a power cut), and the gap since its last entry."""
    up, down = journal.latest("power-up"), journal.latest("power-down")
    unclean = up is not None and (down is None or down.seq < up.seq)
    last = journal.get(journal.head_seq) if journal.head_seq > 1 else None
    out: dict[str, Any] = {"unclean": unclean}
    if up is not None and last is not None:
        out["last_entry_at"] = last.at
        out["gap_s"] = max(0, int((now - parse_time(last.at)).total_seconds()))
    return out


def _dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def _problems(p: dict) -> str:
    return "; ".join(str(x.get("detail", x)) if isinstance(x, dict) else str(x) for x in p.get("problems", []))


def _condition(name: Any) -> str | None:
    text = str(name or "").replace("_", "-")
    return text if text in DEVICE_CONDITIONS else None


def event_of(seq: int, at: str, kind: str, p: Any, links: dict[str, bool]) -> dict | None:
    """The significant event an entry is, or None for one that is routine. `links`: the link's last
    playable state (to tell a restoral from a status said again)."""
    p = p if isinstance(p, dict) else {}
    ev: dict[str, Any] = {"seq": seq, "at": at, "kind": kind, "source": "table", "who": None, "detail": None}
    if kind == "power-up":
        ev.update(unclean=bool(p.get("unclean")), gap_s=p.get("gap_s"), mode=p.get("mode", "live"),
                  detail=("after an unclean stop (killed or a power cut)" if p.get("unclean") else "started")
                  + (f"; {p.get('gap_s')} s since the last entry" if p.get("gap_s") is not None else ""))
    elif kind == "power-down":
        ev.update(detail=p.get("reason") or "an orderly stop")
    elif kind == "fault":
        ev.update(source=p.get("source") or "table", detail=_problems(p))
    elif kind == "fault-cleared":
        second = p.get("second") or p.get("second_supervisor")
        ev.update(source="supervisor", who=p.get("by") if not second else f"{p.get('by')}, {second}",
                  detail=p.get("note") or p.get("reason"),
                  accepted=[a.get("code") for a in p.get("accepted", []) if isinstance(a, dict)])
    elif kind in ("alarm", "alarm-cleared"):
        condition = _condition(p.get("kind"))
        if condition is not None and kind == "alarm":
            kind = condition
        ev.update(kind=kind, source=p.get("device") or "device", detail=f"{p.get('kind')}: {p.get('message', '')}".rstrip(": "))
    elif kind == "device":
        state, device = p.get("state"), p.get("device")
        condition = _condition(p.get("event") or p.get("condition"))
        if condition is not None:
            ev.update(kind=condition, source=device, detail=p.get("detail"))
        elif state == "connected":
            ev.update(kind="device-connected", source=device, device=device, detail=p.get("detail"))
        elif state in LOST_STATES:
            ev.update(kind="device-lost", source=device, device=device, detail=f"{state}: {p.get('detail')}")
        else:
            return None
    elif kind == "link-status":
        playable, was = bool(p.get("playable")), links.get("playable")
        links["playable"] = playable
        if playable and was is not False:
            return None   # playable from the start, or said again: nothing was lost
        ev.update(kind="link-restored" if playable else "link-lost", source="link", detail=p.get("reason"))
    elif kind in DEVICE_CONDITIONS:
        ev.update(source=p.get("device") or "device", device=p.get("device"), detail=p.get("detail"))
    elif kind == "device-paired":   # who paired which device, and the key's fingerprint (never the key)
        ev.update(source=p.get("source") or "terminal", who=p.get("by"), device=p.get("kind"),
                  fingerprint=p.get("fingerprint"), detail=f"the {p.get('kind')} paired: key {p.get('fingerprint')}")
    elif kind == "software-accepted":
        ev.update(source="supervisor" if p.get("by") else "table", who=p.get("by"),
                  detail=f"software {str(p.get('digest'))[:16]}: {p.get('reason') or ''}".rstrip(": "))
    elif kind == "clock":
        ev.update(detail=p.get("detail") or p.get("sync"), sync=p.get("sync"),
                  **({"jump": p["jump"]} if "jump" in p else {}))
    elif kind == "journal-restored":
        ev.update(detail=f"rebuilt from the replica {p.get('from')} up to entry {p.get('head')}: {p.get('why')}",
                  damaged=p.get("damaged"))
    elif kind == "pool-retired":   # `tablectl link pool retire` (controller/link), as this table heard it
        ev.update(source="link", detail=f"pool {p.get('pool')} retired: {p.get('detail')}", pool=p.get("pool"))
    elif kind == "pit":   # the table's books (controller/pit/books.py): who signed, what it was worth
        signers = [x for x in (p.get("by"), p.get("carrier") or p.get("second")) if x]
        chips = ", ".join(f"{n} x {_dollars(int(d))}" for d, n in (p.get("chips") or {}).items())
        seat = f"seat {p['seat']}: " if p.get("seat") else ""
        slip = f" (slip {p['slip']})" if p.get("slip") else ""
        ev.update(kind=p.get("act") or "pit", source=p.get("source") or "screen", who=", ".join(signers) or None,
                  amount=p.get("amount"), detail=f"{seat}{_dollars(int(p.get('amount') or 0))}{slip}"
                  + (f": {chips}" if chips else "") + (f"; {p['note']}" if p.get("note") else ""))
        for k in ("chips", "carrier", "second", "slip", "seat"):
            if p.get(k) is not None:
                ev[k] = p[k]
    elif kind == "hand-pay":   # issue 29: the form's record (the player's identification masked, never in full)
        from controller.games.handpay import masked
        ev.update(source="supervisor", who=p.get("paid_by"), round=p.get("round"), seat=p.get("seat"),
                  amount=p.get("amount"), form=p.get("form"), player=masked(p.get("player_id")),
                  detail=f"round {p.get('round')} seat {p.get('seat')} {_dollars(int(p.get('amount') or 0))}: "
                         f"form {p.get('form')}, player id {masked(p.get('player_id'))}, paid by {p.get('paid_by')}")
    elif kind == "entry":
        ev.update(source=p.get("source") or "cli", who=p.get("who"), licence=p.get("licence"),
                  detail=p.get("reason"), place=p.get("place"), by=p.get("by"))
    else:
        return None
    return ev


def significant(entries: Iterable[Any], *, since: datetime | None = None, until: datetime | None = None,
                kind: str | None = None) -> Iterator[dict]:
    """The significant events of journal entries (controller.journal.store.Entry), in the journal's order."""
    links: dict[str, bool] = {}
    for e in entries:
        if e.kind not in JOURNAL_KINDS:
            continue
        ev = event_of(e.seq, e.at, e.kind, e.payload, links)
        if ev is None or (kind is not None and ev["kind"] != kind):
            continue
        at = parse_time(e.at)
        if (since is not None and at < since) or (until is not None and at >= until):
            continue
        yield ev


def of_journal(journal: Any, **filters: Any) -> Iterator[dict]:
    """The significant events of an open journal."""
    yield from significant(journal.entries_of(JOURNAL_KINDS), **filters)


def text(ev: dict) -> str:
    """One event as one line for a person."""
    who = f" by {ev['who']}" if ev.get("who") else ""
    return f"{ev['at']}  #{ev['seq']:<7} {ev['kind']:<17} {ev.get('source') or '-':<12}{who}  {ev.get('detail') or ''}"


def main(args: Any) -> int:
    """`tablectl events`: the significant events from the journal (read-only, beside the live table)."""
    import json
    import sys

    from controller import paths
    from controller.journal.store import Journal, JournalError, JournalUnreadable
    if args.kind is not None and args.kind not in KINDS:
        print(f"tablectl events: --kind {args.kind}: not one of {', '.join(KINDS)}", file=sys.stderr)
        return 2
    try:
        since = parse_time(args.since) if args.since else None
    except ValueError:
        print(f"tablectl events: --since {args.since}: not an ISO time (2026-12-03T14:00:00Z)", file=sys.stderr)
        return 2
    try:
        journal = Journal.open(paths.data_dir(args.data_dir, create=False), readonly=True)
    except JournalUnreadable as exc:
        print(f"tablectl events: {exc}", file=sys.stderr)
        return 2
    try:
        with journal:
            found = list(of_journal(journal, since=since, kind=args.kind))
    except JournalError as exc:
        print(f"tablectl events: {exc}", file=sys.stderr)
        return 1
    if args.json:
        sys.stdout.write(json.dumps({"events": found}, indent=1) + "\n")
    else:
        for ev in found:
            print(text(ev))
    return 0
