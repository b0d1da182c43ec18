"""`tablectl link reconcile TABLE`: a table's differences with its pool, put right by two supervisors.

A table whose records disagree with the pool cannot play the progressive
(5321.18(c)); what differs is most often an operation the pool holds under the
table's role that the table never asked (a stray: another box with the table's
credential, a person at a SQL prompt). No one should need SQL to end that: the
command shows each difference between the table's journal and the pool, and a
stray operation is resolved by a decision two supervisors sign with their PINs
(the screens' secrets file, controller/ui/auth.py), read from the terminal or
stdin, never the command line:

- `void`: the pool takes the operation out of the table's records and takes its
  money back (schema.sql link.reconcile_decision);
- `record`: the pool keeps it and the table records it as its own (its outbox
  holds it as confirmed, so the next start agrees).

The decision is journaled in the pool (link.changes, both names) and in the
table's journal (`link-decision`), which `link check --journal` reads. The
journal is the table's: the table is stopped while its records are put right,
and agrees with the pool when it starts again.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from controller.link.digest import Record

DECISIONS = ("void", "record")


@dataclass(frozen=True)
class Stray:
    """An operation the pool holds for the table that the table's journal does not."""

    kind: str
    ident: str
    key: str
    amount: int


class ReconcileError(ValueError):
    """Refused before anything was changed; the message says why."""


def strays(pool_records: list[Record], journal_records: list[Record]) -> list[Stray]:
    """The pool's records of the table that its journal does not hold with the same key and amount."""
    mine = {(k, i, key, a) for k, i, key, a in journal_records}
    return [Stray(k, i, key, a) for k, i, key, a in sorted(pool_records, key=lambda r: (r[1], r[0]))
            if (k, i, key, a) not in mine]


def survey(conn: Any, pool: str, table: str, journal: Any) -> dict:
    """Everything that differs (as `link check --journal` says it) and which of it is a stray operation."""
    from controller.link import admin
    from controller.link.journalcheck import compare_journal, journal_records
    found = compare_journal(conn, pool, table, journal)
    records, _, _ = journal_records(journal, pool)
    return {**found, "strays": strays(admin.table_records(conn, pool, table), records)}


def signatures(secrets: Path, stdin: TextIO, prompt: TextIO) -> tuple[str, str]:
    """Two different supervisors, each PIN checked against the screens' secrets file
    (controller/ui/auth.py reads them, for `tablectl fault clear` too)."""
    from controller.credentials import SignatureRefused
    from controller.credentials import signatures as read_signatures
    try:
        first, second = read_signatures(secrets, stdin, prompt, 2)
    except SignatureRefused as exc:
        raise ReconcileError(str(exc)) from None
    return first, second


def record_in_outbox(outbox_path: Path, pool: str, table: str, conn: Any, stray: Stray) -> None:
    """The table keeps the pool's operation as its own: confirmed, with the pool's key and amount."""
    from controller.link.outbox import Outbox
    args = _args_of(conn, pool, table, stray)
    box = Outbox(outbox_path)
    try:
        existing = box.find(pool, stray.kind, stray.ident)
        if existing is not None and existing.key != stray.key:
            raise ReconcileError(f"the outbox holds {stray.kind} {stray.ident} under another key ({existing.key}); "
                                 "void the pool's instead")
        box.record(pool, stray.kind, stray.ident, args, key=stray.key)
        box.confirm(stray.key, stray.amount, {"recorded": "link reconcile"})
    finally:
        box.close()


def _args_of(conn: Any, pool: str, table: str, stray: Stray) -> dict:
    """The operation's arguments as the table's client would have written them."""
    if stray.kind == "contribution":
        seats, version = conn.execute(
            "SELECT c.seats, c.version FROM link.contributions c JOIN link.pools p USING (pool_id) "
            "WHERE p.name = %s AND c.table_name = %s AND c.key = %s", (pool, table, stray.key)).fetchone()
        return {"round": stray.ident, "seats": list(seats), "version": version}
    if stray.kind == "claim":
        (hits,) = conn.execute(
            "SELECT c.hits FROM link.claims c JOIN link.pools p USING (pool_id) "
            "WHERE p.name = %s AND c.table_name = %s AND c.key = %s", (pool, table, stray.key)).fetchone()
        return {"round": stray.ident, "hits": hits}
    raise ReconcileError(f"a stray {stray.kind} is put right at the pool's admin, not here")


def decide(conn: Any, *, pool: str, table: str, journal: Any, outbox: Path, stray: Stray, decision: str,
           supervisors: tuple[str, str], reason: str) -> dict:
    """Apply one signed decision: in the pool first, then the table's outbox and journal."""
    from controller.link import admin
    done = admin.reconcile_decision(conn, pool, table, stray.key, decision, supervisors[0], supervisors[1], reason)
    if decision == "record":
        record_in_outbox(outbox, pool, table, conn, stray)
    journal.append("link-decision", {"pool": pool, "table": table, "decision": decision, "kind": stray.kind,
                                     "ident": stray.ident, "key": stray.key, "amount": stray.amount,
                                     "supervisors": list(supervisors), "reason": reason,
                                     "pool_answer": {k: str(v) for k, v in done.items()}})
    return done


def render(table: str, found: dict, out: TextIO) -> None:
    print(f"{table}: {len(found['differences'])} differences with the pool, {len(found['unconfirmed'])} "
          f"operations never confirmed, {len(found.get('in_progress') or [])} rounds in progress", file=out)
    for d in found["differences"]:
        print(f"  {d}", file=out)
    for u in found["unconfirmed"]:
        print(f"  never confirmed: {u} (sent again when the table starts)", file=out)
    for s in found["strays"]:
        print(f"  stray {s.kind} {s.ident} key {s.key} amount {s.amount}: the pool holds it, the journal does "
              f"not; decide --void {s.key} or --record {s.key}", file=out)


def main(ns: Any, conn: Any) -> int:
    """`tablectl link reconcile TABLE --config PROFILE [--data-dir DIR] [--void KEY | --record KEY ...]`."""
    from controller.config import load_profile
    from controller.games import registry
    from controller.journal.store import Journal, JournalBusy, JournalError
    profile = load_profile(ns.config)
    link = registry.game(profile.game).profiles.pool(profile)
    if link is None:
        raise ReconcileError(f"{ns.config}: no [link] table: the table is not on a pool")
    if link.table != ns.table:
        raise ReconcileError(f"{ns.config} is table {link.table}'s profile, not {ns.table}'s")
    if not (ns.data_dir or profile.table.data_dir):
        raise ReconcileError(f"{ns.config}: [table] names no data_dir; name it with --data-dir")
    data_dir = Path(ns.data_dir or profile.table.data_dir)
    wanted = [(k, "void") for k in ns.void] + [(k, "record") for k in ns.record]
    try:
        journal = Journal.open(data_dir, readonly=not wanted)
    except JournalBusy:
        raise ReconcileError(f"{data_dir}: the table is running; stop it to put its records right") from None
    except JournalError as exc:
        raise ReconcileError(f"{data_dir}: {exc}") from None
    try:
        found = survey(conn, link.pool, link.table, journal)
        render(link.table, found, sys.stdout)
        if not wanted:
            clean = not found["differences"] and not found["unconfirmed"]
            return 0 if clean else 1
        by_key = {s.key: s for s in found["strays"]}
        for key, _ in wanted:
            if key not in by_key:
                raise ReconcileError(f"{key}: not a stray operation of {link.table} (see the list above)")
        if not ns.reason or not ns.reason.strip():
            raise ReconcileError("--reason: a decision needs the reason")
        if profile.screen.secrets is None and not ns.secrets:
            raise ReconcileError(f"{ns.config}: [screen] names no secrets file; name it with --secrets")
        secrets = Path(ns.secrets or profile.screen.secrets)
        pair = signatures(secrets, sys.stdin, sys.stderr)
        for key, decision in wanted:
            done = decide(conn, pool=link.pool, table=link.table, journal=journal,
                          outbox=link.outbox_path(data_dir), stray=by_key[key], decision=decision,
                          supervisors=pair, reason=ns.reason.strip())
            print(f"{decision}: {done['kind']} {done['round']} key {key}, signed by {pair[0]} and {pair[1]}")
        after = survey(conn, link.pool, link.table, journal)
        print(f"{link.table}: {len(after['differences'])} differences left")
        return 0 if not after["differences"] and not after["strays"] else 1
    finally:
        journal.close()
