"""What someone with the disk (and not the journal key) can do to a stopped table's journal: edit an
ante, with or without the chain and the seal recomputed after it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from controller.journal.store import GENESIS_PREV, entry_hash
from controller.journal.sealing import CHUNK_PAGES, PAGE_SIZE, Seal, fingerprint, hash_chunks, read_seal, write_atomic

GUARD = ("CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries "
         "BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END")


def first_ante(data: Path) -> tuple[int, int]:
    """(entry, amount) of the first ante the journal holds."""
    conn = sqlite3.connect(f"file:{data / 'journal.db'}?mode=ro", uri=True)
    try:
        for seq, payload in conn.execute("SELECT seq, payload FROM entries WHERE kind = 'event' ORDER BY seq"):
            event = json.loads(payload).get("event", {})
            if event.get("type") == "ante":
                return seq, event["amount"]
    finally:
        conn.close()
    raise AssertionError("no ante journaled")


def ante_times_ten(data: Path, rechain: str = "no") -> int:
    """Multiply the first ante by ten; returns its entry.

    rechain "no": only the entry's payload (its hash, the chain and the seal left as they were, and
    the guard trigger left dropped); "keep": every hash after it recomputed and a fresh seal, the
    entries' MACs kept; "strip": the same with the MACs emptied. Nobody without the key makes a MAC.
    """
    seq, amount = first_ante(data)
    db = data / "journal.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    rows = conn.execute("SELECT seq, kind, round_id, at, payload, mac FROM entries ORDER BY seq").fetchall()
    prev = GENESIS_PREV
    conn.execute("BEGIN")
    for s, kind, round_id, at, payload, mac in rows:
        text = payload
        if s == seq:
            value = json.loads(text)
            value["event"]["amount"] = amount * 10
            text = json.dumps(value, sort_keys=True, separators=(",", ":"))
            if rechain == "no":
                conn.execute("UPDATE entries SET payload = ? WHERE seq = ?", (text, s))
                break
        if rechain == "no":
            continue
        h = entry_hash(prev, s, kind, round_id, at, text.encode())
        conn.execute("UPDATE entries SET payload = ?, prev = ?, hash = ?, mac = ? WHERE seq = ?",
                     (text, prev, h, mac if rechain == "keep" else b"", s))
        prev = h
    conn.execute("COMMIT")
    if rechain != "no":
        conn.execute(GUARD)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    if rechain != "no":
        old = read_seal(data / "journal.seal")
        size = db.stat().st_size
        seal = Seal(journal_id=old.journal_id, pages=size // PAGE_SIZE,
                    chunks=hash_chunks(db, size, PAGE_SIZE * CHUNK_PAGES), head_seq=rows[-1][0], head_hash=prev,
                    file=fingerprint(db))
        write_atomic(data / "journal.seal", seal.dumps())
    return seq
