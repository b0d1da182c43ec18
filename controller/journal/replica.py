"""A second physical copy of the journal (`[journal] replica = PATH`, on separate media; NZ 1.15.6, 2.4.7).

Critical memory is kept twice: every batch the journal commits is written, in
the same order and with the same hashes and MACs, into the replica (an SQLite
file of the journal's own schema, synchronous FULL) before the batch's effects
are carried out. A replica that cannot be written is the table's fault like the
journal's own (a copy that silently fell behind is no copy). At start a journal
lost or damaged is rebuilt from the replica and sealed anew, and the start says
so (`journal-restored`, and the log); the anchor kept off the box then checks
that the copy is not behind what the table last settled (controller/journal/anchor.py).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationInfo


def _beside_profile(value: Any, info: ValidationInfo) -> Any:
    """A relative path is relative to the profile's directory, as everywhere in a profile."""
    base = (info.context or {}).get("base")
    if isinstance(value, str) and value and not Path(value).is_absolute() and base is not None:
        return Path(base) / value
    return value


ProfileFile = Annotated[Path, BeforeValidator(_beside_profile)]

REPLICA_COLUMNS = "seq, kind, round_id, at, payload, prev, hash, mac"


class JournalConfig(BaseModel):
    """A profile's `[journal]` block."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    replica: ProfileFile | None = None   # the second copy's file, on other media than the data directory


class ReplicaError(Exception):
    """The replica cannot be written or read."""


class Replica:
    """The second copy, open for the running journal's batches."""

    def __init__(self, path: str | os.PathLike, schema: Iterable[str], application_id: int, version: int) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            new = not self.path.exists()
            conn = sqlite3.connect(self.path, isolation_level=None)
            conn.text_factory = bytes
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            if new:
                conn.execute("BEGIN IMMEDIATE")
                for statement in schema:
                    conn.execute(statement)
                conn.execute(f"PRAGMA application_id={application_id}")
                conn.execute(f"PRAGMA user_version={version}")
                conn.execute("COMMIT")
        except (OSError, sqlite3.Error) as exc:
            raise ReplicaError(f"the journal's replica {self.path} cannot be opened: {exc}") from None
        self._conn = conn

    def head(self) -> int:
        try:
            row = self._conn.execute("SELECT MAX(seq) FROM entries").fetchone()
        except sqlite3.Error as exc:
            raise ReplicaError(f"the journal's replica {self.path} cannot be read: {exc}") from None
        return int(row[0] or 0)

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        """A batch as the journal committed it (each row: the journal's columns, in order), durable on return."""
        if not rows:
            return
        c = self._conn
        try:
            c.execute("BEGIN IMMEDIATE")
            try:
                c.executemany("INSERT OR REPLACE INTO entries(seq, kind, round_id, at, payload, prev, hash, mac) "
                              "VALUES (?,?,?,?,?,?,?,?)", rows)
                c.execute("COMMIT")
            except BaseException:
                if c.in_transaction:
                    c.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise ReplicaError(f"the journal's replica {self.path} could not take entries "
                               f"{rows[0][0]}-{rows[-1][0]}: {exc}") from None

    def catch_up(self, rows: Iterable[tuple[Any, ...]]) -> int:
        """The journal's entries the replica lacks (a replica configured on a journal already written)."""
        batch: list[tuple[Any, ...]] = []
        count = 0
        for row in rows:
            batch.append(row)
            if len(batch) >= 512:
                self.write(batch)
                count, batch = count + len(batch), []
        self.write(batch)
        return count + len(batch)

    def close(self) -> None:
        try:
            self._conn.close()
        except sqlite3.Error:
            pass


def copy_into(replica: Path, target: Path) -> int:
    """The replica's entries written into a new SQLite file at `target` (a consistent copy, made with
    SQLite's backup so the replica's own log is read too); the head seq copied."""
    try:
        src = sqlite3.connect(f"file:{replica}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=WAL")   # as the journal is kept: its header says so before the seal
                head = dst.execute("SELECT MAX(seq) FROM entries").fetchone()[0]
                dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise ReplicaError(f"the journal's replica {replica} cannot be copied: {exc}") from None
    return int(head or 0)
