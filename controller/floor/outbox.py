"""The table's durable list of facts for the floor, and which the floor has stored.

The same pattern as the link's outbox (controller/link/outbox.py): a fact is
written here (SQLite, WAL, synchronous FULL) before it is sent, keyed by the
journal entry it was read from, and marked sent once the floor's transaction
committed. A box killed between the floor's commit and its own mark sends the
fact again and the floor stores it once ((table, seq) is its key there too), so
nothing is counted twice or lost. `read_to` is how far the journal has been
read, so a restart reads on from there rather than from the beginning.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
  seq     INTEGER PRIMARY KEY,               -- the journal entry the fact was read from
  body    TEXT NOT NULL,
  sent    INTEGER NOT NULL DEFAULT 0 CHECK (sent IN (0, 1))
);
CREATE INDEX IF NOT EXISTS facts_unsent ON facts (sent, seq);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def one_an_entry(facts: list[dict]) -> list[dict]:
    """One fact a journal entry, as the outbox and the floor key them: a fact read from the same
    entry as another (the event of a round's record that voids it, beside the round's own fact)
    rides on the first as `with`, rather than being taken for its double and dropped (issue 26).
    controller/floor/admin.py `facts` gives them back one by one."""
    by_entry: dict[int, dict] = {}
    for f in facts:
        first = by_entry.get(f["seq"])
        if first is None:
            by_entry[f["seq"]] = dict(f)
        else:
            first.setdefault("with", []).append(f)
    return list(by_entry.values())


class Outbox:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    @property
    def read_to(self) -> int:
        row = self._db.execute("SELECT value FROM state WHERE key = 'read_to'").fetchone()
        return int(row[0]) if row else 0

    def add(self, facts: list[dict], read_to: int) -> int:
        """Keep facts read from the journal up to entry `read_to`, in one durable transaction."""
        facts = one_an_entry(facts)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR IGNORE INTO facts (seq, body) VALUES (?, ?)",
                                 [(f["seq"], json.dumps(f, separators=(",", ":"), sort_keys=True)) for f in facts])
            self._db.execute("INSERT INTO state (key, value) VALUES ('read_to', ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value "
                             "WHERE CAST(excluded.value AS INTEGER) > CAST(state.value AS INTEGER)", (str(read_to),))
        return len(facts)

    def unsent(self, limit: int = 1000) -> list[dict]:
        rows = self._db.execute("SELECT body FROM facts WHERE sent = 0 ORDER BY seq LIMIT ?", (limit,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def mark_sent(self, seqs: list[int]) -> None:
        """Once the floor committed them (not flushed by itself: a mark lost only sends a fact again)."""
        with self._db:
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executemany("UPDATE facts SET sent = 1 WHERE seq = ?", [(s,) for s in seqs])
        self._db.execute("PRAGMA synchronous=FULL")

    def counts(self) -> dict[str, int]:
        sent, total = self._db.execute("SELECT coalesce(sum(sent), 0), count(*) FROM facts").fetchone()
        return {"facts": total, "sent": sent, "unsent": total - sent}
