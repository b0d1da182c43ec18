"""The table's durable record of what it sent to its pool, and whether the pool confirmed it.

Every operation is written here (SQLite, WAL, synchronous FULL) before it is
sent, with the key that makes a retry idempotent, and marked confirmed with the
pool's answer once the pool has committed it. A box killed between the pool's
commit and its own confirmation finds the operation still pending when it starts
again and sends it once more; the pool recognizes the key and answers as before,
so nothing is counted twice or lost (5321.18(c)). The confirmed operations are
the table's side of the digest that must agree with the pool's.

An operation is identified at the table by (pool, kind, ident): asking twice for
the contribution of the same round returns the operation already recorded, so a
table that replays its journal after a crash cannot contribute a round twice.
Its key is derived from (pool, table, kind, ident) (`op_key`), so even an
operation recorded afresh (an outbox restored from an older copy) carries the
key the pool already knows.

Durability: the record written before an operation is sent is flushed to disk
(synchronous FULL) so the table always knows what it may have sent; the
confirmation is not flushed by itself (it rides on the next flush): one lost in
a power cut only means the operation is sent once more and the pool answers
"duplicate".
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from controller.link.digest import IN_DIGEST, Record, digest

KINDS = ("contribution", "claim", "settle", "close", "jackpot-contribution", "qualify")

SCHEMA = """
CREATE TABLE IF NOT EXISTS ops (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  pool         TEXT NOT NULL,
  kind         TEXT NOT NULL,
  ident        TEXT NOT NULL,
  key          TEXT NOT NULL UNIQUE,
  args         TEXT NOT NULL,
  status       TEXT NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'confirmed', 'refused', 'acknowledged')),
  amount       INTEGER,
  result       TEXT,
  reason       TEXT,
  created_at   TEXT NOT NULL,
  settled_at   TEXT,
  UNIQUE (pool, kind, ident)
);
CREATE INDEX IF NOT EXISTS ops_status ON ops (pool, status, seq);
"""


LINK_NAMESPACE = uuid.UUID("6f0f6c1e-4b8e-5d0a-9a53-2d1c0e1b5324")


def op_key(pool: str, table: str, kind: str, ident: str) -> str:
    """The idempotency key of an operation: the same operation always has the same key."""
    return str(uuid.uuid5(LINK_NAMESPACE, "\x1f".join((pool, table, kind, ident))))


class OutboxConflict(ValueError):
    """The same operation asked for again with different contents (a round contributed twice)."""


@dataclass(frozen=True)
class Op:
    seq: int
    pool: str
    kind: str
    ident: str
    key: str
    args: Mapping[str, Any]
    status: str
    amount: int | None
    result: Mapping[str, Any] | None
    reason: str | None

    def record(self) -> Record:
        assert self.amount is not None
        return (self.kind, self.ident, self.key, self.amount)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _no_floats(text: str) -> Any:
    raise ValueError(f"{text}: the outbox holds whole numbers only")


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text, parse_float=_no_floats)


class Outbox:
    """One SQLite file per table; safe for one writer process (the table's)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def _op(self, row: tuple | None) -> Op | None:
        if row is None:
            return None
        seq, pool, kind, ident, key, args, status, amount, result, reason = row
        return Op(seq, pool, kind, ident, key, _loads(args), status, amount, _loads(result), reason)

    _COLS = "seq, pool, kind, ident, key, args, status, amount, result, reason"

    def record(self, pool: str, kind: str, ident: str, args: Mapping[str, Any], key: str | None = None) -> Op:
        """The operation (pool, kind, ident), written now (with `key`, else a fresh one) unless already there."""
        if kind not in KINDS:
            raise ValueError(f"kind {kind!r}: one of {', '.join(KINDS)}")
        text = json.dumps(dict(args), sort_keys=True)
        existing = self.find(pool, kind, ident)
        if existing is not None:
            if json.dumps(dict(existing.args), sort_keys=True) != text:
                raise OutboxConflict(f"{kind} {ident} of pool {pool} is already recorded as "
                                     f"{json.dumps(dict(existing.args), sort_keys=True)}, not {text}")
            return existing
        key = key or str(uuid.uuid4())
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("INSERT INTO ops (pool, kind, ident, key, args, created_at) VALUES (?,?,?,?,?,?)",
                         (pool, kind, ident, key, text, _now()))
        op = self.get(key)
        assert op is not None
        return op

    def find(self, pool: str, kind: str, ident: str) -> Op | None:
        return self._op(self._db.execute(f"SELECT {self._COLS} FROM ops WHERE pool=? AND kind=? AND ident=?",
                                         (pool, kind, ident)).fetchone())

    def get(self, key: str) -> Op | None:
        return self._op(self._db.execute(f"SELECT {self._COLS} FROM ops WHERE key=?", (key,)).fetchone())

    def pending(self, pool: str) -> list[Op]:
        """Unconfirmed operations in the order they were recorded (the order they must be sent)."""
        rows = self._db.execute(f"SELECT {self._COLS} FROM ops WHERE pool=? AND status='pending' ORDER BY seq",
                                (pool,)).fetchall()
        return [self._op(r) for r in rows]  # type: ignore[misc]

    def refused(self, pool: str) -> list[Op]:
        rows = self._db.execute(f"SELECT {self._COLS} FROM ops WHERE pool=? AND status='refused' ORDER BY seq",
                                (pool,)).fetchall()
        return [self._op(r) for r in rows]  # type: ignore[misc]

    def ops(self, pool: str) -> list[Op]:
        rows = self._db.execute(f"SELECT {self._COLS} FROM ops WHERE pool=? ORDER BY seq", (pool,)).fetchall()
        return [self._op(r) for r in rows]  # type: ignore[misc]

    def confirm(self, key: str, amount: int, result: Mapping[str, Any]) -> None:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ValueError(f"amount {amount!r} must be a whole number")
        self._db.execute("PRAGMA synchronous=NORMAL")  # see the module's note on durability
        self._db.execute("UPDATE ops SET status='confirmed', amount=?, result=?, settled_at=? "
                         "WHERE key=? AND status='pending'",
                         (amount, json.dumps(dict(result), sort_keys=True, default=str), _now(), key))

    def refuse(self, key: str, reason: str) -> None:
        """The pool refused the operation for good (not a lost link): a person must look at it."""
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("UPDATE ops SET status='refused', reason=?, settled_at=? WHERE key=? AND status='pending'",
                         (reason, _now(), key))

    def acknowledge(self, key: str, who: str) -> None:
        """A supervisor has dealt with a refused operation; it no longer holds the link unplayable."""
        if not who.strip():
            raise ValueError("who: acknowledging a refused operation needs the supervisor's name")
        self._db.execute("PRAGMA synchronous=FULL")
        cur = self._db.execute("UPDATE ops SET status='acknowledged', reason=reason || ?, settled_at=? "
                               "WHERE key=? AND status='refused'", (f" [acknowledged by {who.strip()}]", _now(), key))
        if cur.rowcount != 1:
            raise ValueError(f"no refused operation with key {key}")

    def records(self, pool: str) -> list[Record]:
        """The confirmed operations of the digest: those that move money (a round's close does not)."""
        rows = self._db.execute("SELECT kind, ident, key, amount FROM ops WHERE pool=? AND status='confirmed'",
                                (pool,)).fetchall()
        return [(k, i, key, a) for k, i, key, a in rows if k in IN_DIGEST]

    def digest(self, pool: str) -> tuple[int, str]:
        return digest(self.records(pool))
