"""Does a table's journal agree with its pool? (`tablectl link check --journal TABLE=DIR`, issue 10)

The outbox is the link's working copy; the journal is the table's record for a
dispute (every wager, card and award before it took effect). So the regulator's
question is asked of the journal: every operation the table journaled as
confirmed is in the pool with the same key and amount, and nothing of the table
is in the pool that its journal does not hold (the same records the outbox
digest compares, rebuilt from `link-op` / `link-confirm` entries). For a Caribbean
stud table it also checks the money the journal paid against the pool's awards:
each award the pool holds for the table is paid in the round record at the
pool's amount when the pool says paid, refused by a named supervisor when the
pool says voided, and still waiting when the pool says pending; and each round's
progressive wagers are the seats the pool took a contribution for.

A round is the pool's when it opened linked to it (`round-opened` names the
pool, as does its record). A round voided before a card was recorded (a restart
that found cards out unrecorded, 5324.37(h)) returns every wager, but its
contribution went to the pool at the lock-out (its `no_more_bets`) and stays
there; a round voided before its lock-out contributed nothing.

A round the journal opened and has not recorded yet is in progress (it resumes, or
is voided, at the table's next start): its contribution in the pool is no
difference, and it is listed apart (`in_progress`). A settlement the pool holds
carries the journal entry of its validation (issue 16): that entry must be in the
journal, with the same hash, an event of the supervisor's screen for that seat,
signed by the supervisor the pool names. A difference put right by two
supervisors (`tablectl link reconcile`, a `link-decision` entry) is one no more:
a stray operation voided is out of the pool's records, one recorded is the
table's own from then on. A claim the pool refused (issue 26: it keeps each in
link.refusals) is the table's own when the journal asked it (`refused`, held at
the table until a supervisor acknowledges it), and a difference when it did not:
another session sent it with the table's role. A round's close moves no money and
is not in the records compared.
"""

from __future__ import annotations

from typing import Any

from controller.link.digest import IN_DIGEST, Record
from controller.link.outbox import Op


def journal_records(journal: Any, pool: str) -> tuple[list[Record], list[tuple[str, str]], dict]:
    """(confirmed records as the pool keeps them, operations asked and never confirmed, what the rounds paid).

    Each round record carries `locked_out`: whether the journal has the round's lock-out.
    """
    from controller.link.pool import QUERIES
    asked: dict[tuple[str, str], dict] = {}
    confirmed: dict[tuple[str, str], dict] = {}
    refused: set[tuple[str, str]] = set()   # answered by the pool's refusal (held at the table, not resent)
    rounds: dict[str, dict] = {}
    linked: set[str] = set()       # rounds opened on this pool
    locked_out: set[str] = set()   # rounds past their lock-out (no more bets)
    for e in journal.entries_since(0):   # an audit reads everything
        p = e.payload
        if not isinstance(p, dict):
            continue
        if e.kind == "round-opened" and (p.get("link") or {}).get("pool") == pool:
            linked.add(e.round_id)
        elif e.kind == "event" and e.round_id is not None and (p.get("event") or {}).get("type") == "no_more_bets":
            locked_out.add(e.round_id)
        elif e.kind == "link-op" and p.get("pool") == pool:
            asked[(p["op"], p["ident"])] = {k: v for k, v in p.items() if k not in ("op", "pool", "table", "ident")}
        elif e.kind == "link-confirm" and p.get("confirmed") and "ident" in p:
            confirmed[(p["op"], p["ident"])] = p
        elif e.kind == "link-confirm" and p.get("refused") and "ident" in p:
            refused.add((p["op"], p["ident"]))
        elif e.kind == "round-record" and (p.get("pool") == pool or e.round_id in linked):
            rounds[e.round_id] = {**p, "locked_out": e.round_id in locked_out}
    records: list[Record] = []
    for (kind, ident), c in confirmed.items():
        if (kind, ident) not in asked or kind not in IN_DIGEST:
            continue   # another pool's operation, or a round's close (no money: not in the digest)
        op = Op(seq=0, pool=pool, kind=kind, ident=ident, key=c["key"], args=asked[(kind, ident)],
                status="confirmed", amount=None, result=c.get("result"), reason=None)   # as the journal asked it
        amount = QUERIES[kind][2](op, c.get("result") or {})
        records.append((kind, ident, c["key"], amount))
    records += [(d["kind"], d["ident"], d["key"], d["amount"])
                for d in decisions(journal, pool) if d["decision"] == "record"]
    never = sorted(k for k in asked if k not in confirmed and k not in refused)
    return records, never, rounds


def refusals(conn: Any, pool: str, table: str, journal: Any) -> tuple[list[str], list[str]]:
    """(differences, refused): each refusal the pool recorded for this table (link.refusals, issue 26)
    against the journal. One the journal asked is the table's own, held until a supervisor
    acknowledges it; one it never asked was sent by another session with the table's role, and so
    was a round's close under a key the table never sent (each operation's key is op_key's)."""
    from controller.link.outbox import op_key
    if conn.execute("SELECT to_regclass('link.refusals')").fetchone()[0] is None:
        return [], []   # a pool not yet upgraded by `tablectl link init`
    keys = {op_key(pool, table, e.payload["op"], e.payload["ident"]) for e in journal.entries_since(0)
            if e.kind == "link-op" and isinstance(e.payload, dict) and e.payload.get("pool") == pool
            and "ident" in e.payload}
    rows = conn.execute("SELECT r.kind, r.round_id, r.key::text, r.code, r.reason, r.db_role, r.at FROM link.refusals r "
                        "JOIN link.pools p USING (pool_id) WHERE p.name = %s AND r.table_name = %s "
                        "ORDER BY r.refusal_id", (pool, table)).fetchall()
    out: list[str] = []
    held: list[str] = []
    # a round closed under a key this table never sent: another session closed it (its claim then refused)
    for rid, closed, at in conn.execute(
            "SELECT c.round_id, c.closed_key::text, c.closed_at FROM link.contributions c JOIN link.pools p "
            "USING (pool_id) WHERE p.name = %s AND c.table_name = %s AND c.closed_key IS NOT NULL "
            "ORDER BY c.seq", (pool, table)).fetchall():
        if closed != op_key(pool, table, "close", rid):
            out.append(f"round {rid}: closed with the pool at {at} under a key this table's journal never sent")
    for kind, rid, key, code, reason, role, at in rows:
        if key in keys:
            held.append(f"{kind} {rid}: refused by the pool at {at} ({code}: {reason})")
        else:
            out.append(f"{kind} of round {rid} refused by the pool at {at} ({code}: {reason}): sent as role {role}, "
                       "never asked by this table's journal")
    return out, held


def decisions(journal: Any, pool: str) -> list[dict]:
    """The two-supervisor decisions on this pool the journal holds (`tablectl link reconcile`)."""
    return [e.payload for e in journal.entries_since(0)
            if e.kind == "link-decision" and isinstance(e.payload, dict) and e.payload.get("pool") == pool]


def in_progress(journal: Any, pool: str, rounds: dict[str, dict]) -> list[str]:
    """Rounds opened on the pool and not recorded yet: they resume (or are voided) at the next start."""
    opened = [e.round_id for e in journal.entries_since(0)
              if e.kind == "round-opened" and isinstance(e.payload, dict)
              and (e.payload.get("link") or {}).get("pool") == pool]
    return [rid for rid in dict.fromkeys(opened) if rid not in rounds]


def validation_differences(journal: Any, rid: str, seat: int, status: str, by: str | None,
                           record: Any) -> list[str]:
    """The pool's record of a settlement's validation against the journal entry it names."""
    where = f"round {rid} seat {seat}"
    if not isinstance(record, dict):
        return [f"{where}: the pool's award is {status} without the journal entry of its validation"]
    e = journal.get(record.get("entry")) if isinstance(record.get("entry"), int) else None
    event = (e.payload.get("event") or {}) if e is not None and isinstance(e.payload, dict) else {}
    want = "validate" if status == "paid" else "refuse"
    if (e is None or e.hash.hex() != record.get("hash") or e.round_id != rid or e.kind != "event"
            or event.get("type") != want or event.get("seat") != seat):
        return [f"{where}: the pool's award is {status} on journal entry {record.get('entry')}, which is not this "
                f"table's {want} of the seat"]
    if e.payload.get("source") != "supervisor" or e.payload.get("who") != by:
        return [f"{where}: the pool's award is {status} by {by}; the journal entry is {e.payload.get('source')}/"
                f"{e.payload.get('who')}'s"]
    return []


def stud_differences(conn: Any, pool: str, table: str, rounds: dict[str, dict], journal: Any = None,
                     ongoing: tuple[str, ...] = (), decided: frozenset = frozenset()) -> list[str]:
    """The journal's round records against the pool's awards and contributions for this table."""
    out: list[str] = []
    awards = conn.execute("SELECT a.round_id, a.seat, a.hand, a.amount_cents, a.status, a.settled_by, a.validation "
                          "FROM link.awards a JOIN link.pools p USING (pool_id) JOIN link.claims c "
                          "ON c.key = a.claim_key WHERE p.name = %s AND a.table_name = %s "
                          "AND c.voided_by IS NULL", (pool, table)).fetchall()
    contributions = dict(conn.execute(
        "SELECT round_id, seats FROM link.contributions c JOIN link.pools p USING (pool_id) "
        "WHERE p.name = %s AND c.table_name = %s AND c.voided_by IS NULL", (pool, table)).fetchall())
    held = set()
    for rid, seat, hand, amount, status, by, validation in awards:
        held.add((rid, seat))
        rec = rounds.get(rid)
        if rid in decided:
            continue
        if rec is None:
            if status != "pending" and rid not in ongoing:
                out.append(f"round {rid} seat {seat}: the pool's award is {status}, the journal has no record")
            continue
        paid = {a["seat"]: a for a in (rec["settlement"].get("progressive") or {}).get("awards", [])}
        a = paid.get(seat)
        if a is None or (a["hand"], a["amount"]) != (hand, amount):
            theirs = "nothing" if a is None else f"{a['amount']} for a {a['hand']}"
            out.append(f"round {rid} seat {seat}: the pool awarded {amount} for a {hand}, the journal {theirs}")
            continue
        validated, refused = rec.get("validated") or {}, rec.get("refused") or {}
        said = "paid" if str(seat) in validated else "voided" if str(seat) in refused else "pending"
        if said != status:
            out.append(f"round {rid} seat {seat}: the pool says {status}, the journal {said}")
        elif status == "paid" and validated[str(seat)] != by:
            out.append(f"round {rid} seat {seat}: paid on {by}'s validation in the pool, {validated[str(seat)]}'s "
                       "in the journal")
        elif status != "pending" and journal is not None:
            out += validation_differences(journal, rid, seat, status, by, validation)
    for rid in contributions:
        if rid not in rounds and rid not in ongoing and rid not in decided:
            out.append(f"round {rid}: the pool holds its contribution, the journal no record of the round")
    for rid, rec in rounds.items():
        if rec.get("void"):   # voided before a card: every wager went back, the contribution stays
            seats = sorted(w["seat"] for w in rec["void"]["wagers"] if "progressive" in w)
            held_seats = sorted(contributions.get(rid) or [])
            if rec.get("locked_out", True) and held_seats != seats and (seats or rid in contributions):
                out.append(f"round {rid} (void): progressive wagers at seats {seats}, the pool's contribution "
                           f"{held_seats or 'none'}")
            elif not rec.get("locked_out", True) and rid in contributions:
                out.append(f"round {rid} (void before its lock-out): the pool holds a contribution for seats "
                           f"{held_seats}")
            continue
        settlement = rec["settlement"] or {}
        for a in (settlement.get("progressive") or {}).get("awards", []):
            if (rid, a["seat"]) not in held:
                out.append(f"round {rid} seat {a['seat']}: the journal pays {a['amount']}, the pool holds no award")
        seats = sorted(s["seat"] for s in settlement.get("seats", []) if "progressive" in s)
        if seats and sorted(contributions.get(rid) or []) != seats:
            out.append(f"round {rid}: progressive wagers at seats {seats}, the pool's contribution "
                       f"{sorted(contributions.get(rid) or []) or 'none'}")
    return out


def compare_journal(conn: Any, pool: str, table: str, journal: Any) -> dict:
    """Everything that differs between a table's journal and the pool (empty lists: they agree)."""
    from controller.link.admin import compare_records
    records, never, rounds = journal_records(journal, pool)
    diffs = compare_records(conn, pool, table, records)
    ongoing = tuple(in_progress(journal, pool, rounds))
    decided = frozenset(d["ident"] for d in decisions(journal, pool))
    strange, held = refusals(conn, pool, table, journal)
    return {"differences": diffs + stud_differences(conn, pool, table, rounds, journal, ongoing, decided) + strange,
            "unconfirmed": [f"{k} {i}" for k, i in never], "records": len(records), "rounds": len(rounds),
            "in_progress": list(ongoing), "refused": held}
