"""Reading the journal back: `tablectl rounds list|show`, `journal verify`, `meters`.

Every command opens the journal read-only: it can run beside the live table
(SQLite's WAL lets readers in while the table writes) and never changes a
byte, so using it in a dispute cannot disturb the evidence.

What a round looks like here is whatever the table journaled for it: its
events in order (cards in dealing order, burns, wagers, decisions, the button
pressed and by whom, each meter change) and, once it ended, its record (kind
"round-record": the record of docs/ROUNDS.md with its settlement, or
the PHH text of a poker hand). Meter entries (kind "meter") carry
{"meter": name, "after": cents, ...}; snapshots carry {"meters": {name:
cents or {"amount": cents, ...}}}.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from controller import paths
from controller.games import registry
from controller.journal.store import Entry, Journal, JournalError, JournalUnreadable


def _open(args) -> Journal | None:
    directory = paths.data_dir(getattr(args, "data_dir", None), create=False)
    try:
        return Journal.open(directory, readonly=True)
    except JournalUnreadable as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return None


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def _compact(value: Any) -> str:
    from controller.games.handpay import redacted   # a hand-pay's player id: masked (issue 29)
    return json.dumps(redacted(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------
# tablectl journal verify
# --------------------------------------------------------------------------

def verify_main(args) -> int:
    """Exit 0: sound (or every problem acknowledged by the supervisors it needs); 1: problems;
    2: no journal, or a keyed journal without its key (unless --no-key: then said, and checked
    without it)."""
    journal = _open(args)
    if journal is None:
        return 2
    with journal:
        unauthenticated = journal.key is None and carries_macs(journal)
        if unauthenticated and not getattr(args, "no_key", False):
            print(f"tablectl journal verify: {NOTHING_AUTHENTICATED}; give the key, or --no-key to check "
                  "the rest without it", file=sys.stderr)
            return 2
        problems = journal.verify()
        from controller.journal.severity import acknowledged as by_enough
        acknowledged = by_enough(journal.table_entries("fault-cleared"))
        print(f"journal {journal.journal_id or '?'} in {journal.data_dir}")
        print(f"entries: {journal.head_seq}; head {journal.head_hash.hex()}")
        print(authentication(journal, unauthenticated))
        print(anchoring(journal))
        fresh = 0
        for p in problems:
            ack = acknowledged.get((p.code, p.where))
            if ack is not None:
                by = " and ".join(str(x) for x in (ack.payload.get("by"), ack.payload.get("second")) if x)
                print(f"acknowledged: {p} (cleared by {by} at {ack.at}, entry {ack.seq})")
            else:
                fresh += 1
                print(f"PROBLEM: {p}")
        if fresh:
            print(f"{fresh} problem(s): the journal has been changed or damaged")
            return 1
        print("chain, seal and file verified" + (" (with acknowledged problems)" if problems else ""))
        return _verify_ledger(journal)


NOTHING_AUTHENTICATED = ("nothing was authenticated: the journal carries MACs and no journal key was given "
                         "($TABLECTL_JOURNAL_KEY names the key file)")


def carries_macs(journal: Journal) -> bool:
    """Whether anything in the journal says a key wrote it: an entry's MAC, or the seal's.

    Read without the key: a journal whose every MAC was stripped reads as one never
    keyed, which only the key tells apart (docs/SECURITY.md)."""
    if journal._rows("SELECT 1 FROM entries WHERE mac IS NOT NULL AND length(mac) > 0 LIMIT 1"):
        return True
    try:
        _, _, mac = journal.seal_path.read_bytes().split(b"\n", 2)
    except (OSError, ValueError):
        return False
    return bool(mac.strip())


def authentication(journal: Journal, unauthenticated: bool = False) -> str:
    """Whether the MACs were checked (they need the key, which the data directory does not hold)."""
    from controller.journal.store import KEY_ENV
    if journal.key is not None:
        return "MACs: every entry and the seal checked against the journal key"
    if unauthenticated:
        return f"MACs: NOT checked: {NOTHING_AUTHENTICATED} (--no-key)"
    return (f"MACs: NOT checked: nothing was authenticated: no journal key (${KEY_ENV} names the key file; "
            "it is readable by root and the table's service only)")


def anchoring(journal: Journal) -> str:
    """What the table found of its anchors at its last start (controller/journal/anchor.py)."""
    last = journal.latest("anchor-check")
    status = last.payload.get("status") if last is not None and isinstance(last.payload, dict) else None
    if last is None or not isinstance(status, dict) or not status:
        return "anchor: NONE: the journal's head has never been anchored off the box"
    told = "; ".join(f"{k}: {v}" for k, v in sorted(status.items()))
    if last.payload.get("problems"):
        return f"anchor: FAILED at the last start (entry {last.seq}): {told}"
    if not any(isinstance(v, str) and v.startswith(("ok", "put into service")) for v in status.values()):
        return f"anchor: NONE at the last start (entry {last.seq}): {told}"
    return f"anchor: checked at the last start (entry {last.seq}): {told}"


def _verify_ledger(journal: Journal) -> int:
    """The money of the rounds the live table journaled: re-settled, the meter accounted for."""
    first = next(journal.table_entries("snapshot"), None)
    if first is None or "opening" not in (first.payload if isinstance(first.payload, dict) else {}):
        return 0   # not written by the live table: nothing to add up
    from controller.runtime.ledger import of_journal
    led = of_journal(journal)
    print(f"rounds: {led.rounds_opened} opened, {led.settled} settled, {led.voided} voided before the deal, "
          f"{led.misdeals} misdeals, {len(led.in_progress)} in progress")
    for p in led.problems:
        print(f"LEDGER: {p}")
    if led.problems:
        print(f"{len(led.problems)} ledger problem(s)")
        return 1
    m = led.meter
    meter = "" if m is None else (
        f"; meter {money(m['final'])} = {money(m['initial'])} + contributions {money(m['contributions'])} - "
        f"awards {money(m['awards_from_meter'])} + seeded {money(m['seeded'])} + corrections "
        f"{money(m['corrections'])}, carry {m['carry'] / 10_000:.4f} cent")
    print(f"ledger balances: every round re-settles to what was paid{meter}")
    return 0


# --------------------------------------------------------------------------
# tablectl rounds list / show
# --------------------------------------------------------------------------

def list_main(args) -> int:
    journal = _open(args)
    if journal is None:
        return 2
    out = sys.stdout
    with journal:
        rounds = journal.round_ids()
        if not rounds:
            print("no rounds journaled")
            return 0
        print(f"{'ROUND':<24} {'OPENED (UTC)':<27} {'ENTRIES':>7}  STATUS")
        for round_id, first, last, count in rounds:
            opened = journal.get(first)
            record = journal.round_record(round_id)
            status = _status(journal.get(last), record)
            out.write(f"{round_id:<24} {opened.at if opened else '?':<27} {count:>7}  {status}\n")
    return 0


def _status(last: Entry | None, record: Entry | None) -> str:
    if record is not None:
        payload = record.payload if isinstance(record.payload, dict) else {}
        if payload.get("void"):
            return "voided"
        game = registry.of_record(payload)
        return game.books.status(payload) if game is not None else "recorded"
    if last is not None and "void" in last.kind:
        return "voided"
    return f"in progress (last: {last.kind})" if last else "?"


def show_main(args) -> int:
    journal = _open(args)
    if journal is None:
        return 2
    with journal:
        entries = journal.round_entries(args.round_id)
        if not entries:
            print(f"tablectl: no round {args.round_id} in the journal", file=sys.stderr)
            return 1
        from controller.runtime import retell as reconstruction
        if reconstruction.is_table_round(entries):
            problems = reconstruction.render(entries, sys.stdout)
            for p in problems:
                print(f"PROBLEM: {p}")
            return 1 if problems else 0
        print(f"round {args.round_id}: {len(entries)} entries, {entries[0].at} to {entries[-1].at}")
        record = None
        opening = next((e.payload for e in entries if e.kind == "round-opened" and isinstance(e.payload, dict)), None)
        books = getattr(registry.find(opening.get("game")), "books", None) if opening is not None else None
        words = getattr(books, "event_text", None)   # a game that tells its events in words (poker)
        for e in entries:
            if e.kind == "round-record":
                record = e
                continue
            said = _said(words, opening, e)
            print(f"{e.seq:>9}  {e.at}  {e.kind:<20} {said if said is not None else _compact(e.payload)}")
        if record is not None:
            print(f"\nround record (entry {record.seq}, {record.at}):")
            payload = record.payload
            game = registry.of_record(payload) if isinstance(payload, dict) else None
            text = game.books.record_text(payload) if game is not None else None
            print(text if text is not None else json.dumps(payload, indent=2, ensure_ascii=False))
    return 0


def _said(words: Any, opening: dict | None, e: Entry) -> str | None:
    """An event entry in its game's words, with who did it ("by the dealer's panel, D-7")."""
    p = e.payload
    event = p.get("event") if e.kind == "event" and isinstance(p, dict) else None
    text = words(opening, event) if words is not None and isinstance(event, dict) else None
    if text is None:
        return None
    who = ", ".join(str(x) for x in (p.get("source"), p.get("who")) if x)
    return f"{text}" + (f"  (by {who})" if who else "")


# --------------------------------------------------------------------------
# tablectl meters
# --------------------------------------------------------------------------

def _amount(value: Any) -> int | None:
    if isinstance(value, dict):
        value = value.get("amount")
    return value if type(value) is int else None


def current_meters(journal: Journal) -> dict[str, tuple[int, Entry]]:
    """name -> (cents, the entry that set it): the latest snapshot, then meter entries since."""
    meters: dict[str, tuple[int, Entry]] = {}
    snapshot = journal.latest_snapshot()
    since = 0
    if snapshot is not None:
        since = snapshot.seq
        state = snapshot.payload.get("meters", {}) if isinstance(snapshot.payload, dict) else {}
        for name, value in (state.items() if isinstance(state, dict) else ()):
            amount = _amount(value)
            if amount is not None:
                meters[name] = (amount, snapshot)
    for e in journal.entries_since(since):
        if e.kind == "meter" and isinstance(e.payload, dict):
            amount = _amount(e.payload.get("after"))
            if isinstance(e.payload.get("meter"), str) and amount is not None:
                meters[e.payload["meter"]] = (amount, e)
    return meters


def meter_figures(journal: Journal) -> list[dict[str, Any]]:
    """Each meter as 9 NYCRR 5320.8 lists it (controller/progressive.py `figures`), read from the journal:
    the meter's state in the latest snapshot or round record that holds it, moved on by the meter
    entries since; each hit's time is its round record's. A linked table's progressive is the pool's,
    shown as last confirmed by it (`tablectl link show` has the rest)."""
    from controller.progressive import ProgressiveMeter, too_long
    states: dict[str, tuple[dict[str, Any], Entry]] = {}
    snapshot = journal.latest_snapshot()
    since = 0
    link = None
    if snapshot is not None and isinstance(snapshot.payload, dict):
        since = snapshot.seq
        opening = snapshot.payload.get("opening")
        link = opening.get("link") if isinstance(opening, dict) else None
        for name, state in (snapshot.payload.get("meters") or {}).items():
            if isinstance(state, dict):
                states[name] = (dict(state), snapshot)
            elif type(state) is int:   # a meter journaled by its amount alone
                states[name] = ({"amount": state}, snapshot)
    moved: dict[str, dict[str, Any]] = {}
    for e in journal.entries_since(since):
        p = e.payload if isinstance(e.payload, dict) else {}
        if e.kind == "round-record" and isinstance(p.get("meters"), dict):
            for name, state in p["meters"].items():
                if isinstance(state, dict):
                    states[name] = (dict(state), e)
                    moved.pop(name, None)
        elif e.kind == "meter-pending" and p.get("meter") in states and isinstance(p.get("state"), dict):
            states[p["meter"]] = (dict(p["state"]), e)   # a pending change applied at once (two supervisors)
            moved.pop(p["meter"], None)
        elif e.kind == "meter-pending" and p.get("meter") in states and isinstance(p.get("pending"), dict):
            states[p["meter"]][0]["pending"] = dict(p["pending"])   # a change waiting for the next reset
        elif e.kind == "meter" and isinstance(p.get("meter"), str) and type(p.get("after")) is int:
            moved[p["meter"]] = {"after": p["after"], "overflow": p.get("overflow_after"), "seq": e.seq, "at": e.at}
    out: list[dict[str, Any]] = []
    for name, (state, entry) in sorted(states.items()):
        if isinstance(link, dict) and name == "progressive":
            continue   # the pool's, below
        last = moved.pop(name, None)
        try:
            meter = ProgressiveMeter.from_dict(state)
        except ValueError:
            figures = _amount_only(name, _amount(state))
        else:
            if last is not None:   # moved since (a round settled, not yet recorded; a correction)
                meter.amount = last["after"]
                if type(last["overflow"]) is int:
                    meter.overflow = last["overflow"]
            figures = meter.figures(name)
        if last is not None:
            figures["current"] = last["after"]
        for hit in figures["last_hits"]:
            if "at" not in hit and isinstance(hit.get("round"), str):
                record = journal.round_record(hit["round"])
                hit["at"] = record.at if record is not None else None
        figures["as_of"] = {"entry": last["seq"] if last else entry.seq, "at": last["at"] if last else entry.at}
        out.append(figures)
    for name, last in sorted(moved.items()):   # a meter known by its entries alone
        out.append({**_amount_only(name, last["after"]), "as_of": {"entry": last["seq"], "at": last["at"]}})
    if isinstance(link, dict):
        out.append(_pool_figures(journal, link, too_long))
    return sorted(out, key=lambda m: str(m["name"]))


def _amount_only(name: str, amount: int | None) -> dict[str, Any]:
    from controller.progressive import too_long
    return {"name": name, "current": amount, "overflow": None, "hits": None, "wins": None, "last_hits": [],
            "base": None, "limit": None, "contributions": None,
            "exceeds_ten_digits": ["current"] if amount is not None and too_long(amount) else []}


def _pool_figures(journal: Journal, link: dict[str, Any], too_long: Any) -> dict[str, Any]:
    """A linked pool's meter as the pool last confirmed it to this table (its limit, overflow and
    hits are the pool's: `tablectl link show POOL`)."""
    from controller.report.facts import link_fact
    current, at, overflow, limit = None, None, None, None
    for e in journal.report_entries(("link-confirm",), "\x00"):
        fact = link_fact(e.seq, e.at, e.round_id, e.kind, e.payload if isinstance(e.payload, dict) else {})
        if fact is not None and type(fact.get("meter")) is int:
            current, at = fact["meter"], {"entry": e.seq, "at": e.at}
            if fact.get("op") == "contribution":   # the pool's overflow and limit as its last contribution left them
                overflow, limit = fact.get("overflow"), fact.get("limit")
    return {"name": f"pool {link.get('pool')}", "pool": link.get("pool"), "table": link.get("table"),
            "current": current, "overflow": overflow, "hits": None, "wins": None, "last_hits": [], "base": None,
            "limit": limit, "contributions": None, "as_of": at, "confirmed_by_pool": True,
            "held_by": f"the pool's database (`tablectl link show {link.get('pool')}`)",
            "exceeds_ten_digits": ["current"] if current is not None and too_long(current) else []}


def _figures_text(m: dict[str, Any]) -> list[str]:
    def cents(value: Any) -> str:
        return "none" if value is None else money(value) if type(value) is int else str(value)
    long = set(m.get("exceeds_ten_digits") or [])

    def flag(key: str) -> str:
        return " [MORE THAN 10 DIGITS]" if key in long else ""
    as_of = m.get("as_of") or {}
    lines = [f"{m['name']:<24} {cents(m['current']):>16}{flag('current')}   (entry {as_of.get('entry')}, "
             f"{as_of.get('at')})"]
    if m.get("pool"):
        confirmed = "never confirmed yet" if m["current"] is None else f"last confirmed {cents(m['current'])}"
        return [f"{'progressive':<24} linked: the meter is the pool {m['pool']!r}'s, held in its database "
                f"(`tablectl link show {m['pool']}`; this table is {m.get('table')!r}): {confirmed}"
                f"{flag('current')} (entry {as_of.get('entry')}, {as_of.get('at')}); its overflow, limit and "
                "hits are the pool's"]
    if m.get("base") is None and m.get("hits") is None:
        return lines
    lines.append(f"{'':<24} overflow {cents(m['overflow'])}{flag('overflow')}; base (reset) {cents(m['base'])}; "
                 f"limit {cents(m['limit'])}{flag('limit')}; hits {m['hits']}; wins {cents(m['wins'])}{flag('wins')} "
                 f"paid from the meter; contributions {cents(m['contributions'])}{flag('contributions')}")
    change = m.get("pending_change")
    if change:
        lines.append(f"{'':<24} PENDING change, {change.get('applies')}: rate {change['contribution_bp']} bp, "
                     f"reset {cents(change['reset'])}, limit {cents(change.get('limit'))}")
    for h in reversed(m["last_hits"]):
        who = h.get("validated_by") or "?"
        if h.get("second_signer"):
            who += f" and {h['second_signer']}"
        what = f"REFUSED by {who}: {h['refused']} (not paid, not a hit)" if h.get("refused") else f"validated by {who}"
        lines.append(f"{'':<24} hit {h.get('at') or '?'} round {h.get('round')} seat {h.get('seat')} {h.get('hand')} "
                     f"{cents(h.get('amount'))}: {what}")
    return lines


def meters_main(args) -> int:
    if getattr(args, "action", None) == "apply-pending":   # issue 29: two supervisors, the table stopped
        from controller.journal.pending_cli import main
        return main(args)
    journal = _open(args)
    if journal is None:
        return 2
    with journal:
        try:
            figures = meter_figures(journal)
        except JournalError as exc:
            print(f"tablectl: {exc}", file=sys.stderr)
            return 1
    if getattr(args, "json", False):
        json.dump({"meters": figures}, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not figures:
        print("no meters journaled")
        return 0
    for m in figures:
        print("\n".join(_figures_text(m)))
    if any(not m.get("pool") for m in figures):   # a linked table's own meter never moves: no audit of it
        _meter_audit(args)
    return 0


def _meter_audit(args) -> None:
    """For the live table's journal: the carry, and the meter accounted for since it began."""
    journal = _open(args)
    if journal is None:
        return
    with journal:
        first = next(journal.table_entries("snapshot"), None)
        if first is None or "opening" not in (first.payload if isinstance(first.payload, dict) else {}):
            return
        from controller.runtime.ledger import of_journal
        led = of_journal(journal)
    m = led.meter
    if m is None:
        return
    print(f"{'':<24} carry {m['carry'] / 10_000:.4f} cent; since {money(m['initial'])}: contributions "
          f"{money(m['contributions'])} from {money(m['wagered'])} wagered, awards from the meter "
          f"{money(m['awards_from_meter'])}, by the house {money(m['awards_by_house'])}, seeded "
          f"{money(m['seeded'])}, corrections {money(m['corrections'])}: "
          + ("balances" if not led.problems else f"{len(led.problems)} problem(s), see tablectl journal verify"))
