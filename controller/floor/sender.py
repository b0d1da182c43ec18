"""A table's facts to the floor: read from its journal into the outbox, then sent, in that order.

The journal is the table's own record and is never held up by the floor: the
sender reads it read-only (as `tablectl rounds` does) beside the playing table,
in its own thread or its own process (`tablectl floor send --follow`). While the
server cannot be reached the facts wait in the outbox and the table plays on; each
attempt sends the oldest first, so the floor catches up in journal order.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb

from controller.floor.outbox import Outbox
from controller.journal.store import Journal
from controller.testmode import journal_mode
from controller.report import facts as facts_mod

BATCH = 1000
OUTBOX_NAME = "floor-outbox.sqlite"


@dataclass
class FloorTarget:
    """Where the floor's database is and how this table logs in (its own role; no password here)."""
    url: str
    password_file: Path | None = None
    connect_timeout: int = 5

    def connect(self) -> psycopg.Connection:
        password = None
        if self.password_file is not None:
            password = Path(self.password_file).read_text().strip()
        return psycopg.connect(self.url, password=password, autocommit=True,
                               connect_timeout=self.connect_timeout)


class Sender:
    def __init__(self, data_dir: Path, target: FloorTarget, outbox: Path | None = None,
                 game: str | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.target = target
        self.outbox = Outbox(outbox or self.data_dir / OUTBOX_NAME)
        self.game = game
        self._conn: psycopg.Connection | None = None
        self.last_error: str | None = None
        self.mode = "live"   # the journal's (controller/testmode.py), read at each collect

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.outbox.close()

    def collect(self) -> int:
        """Read the journal on from where the outbox stopped; the facts found go to the outbox."""
        with Journal.open(self.data_dir, readonly=True) as journal:
            self.mode = journal_mode(journal)   # the floor takes only a table of its own mode (schema.sql)
            head = journal.head_seq
            found = [f for f in facts_mod.read(journal, self.outbox.read_to) if f["seq"] <= head]
        if self.game is None:
            self.game = next((f["game"] for f in found if f["fact"] == "round" and f.get("game")), None)
        return self.outbox.add(found, head)

    def send(self) -> int:
        """Send what waits, oldest first; the number the floor had not stored before. Raises
        psycopg.Error when the floor cannot be reached (what was sent stays marked)."""
        added = 0
        while True:
            batch = self.outbox.unsent(BATCH)
            if not batch:
                return added
            if self._conn is None or self._conn.closed:
                self._conn = self.target.connect()
            try:
                row = self._conn.execute("SELECT floor.put(%s, %s, %s)",
                                         (self.game, Jsonb(batch), self.mode)).fetchone()
                added += row[0] if row is not None else 0   # floor.put returns one row: the count it added
            except psycopg.OperationalError:
                self._conn.close()
                self._conn = None
                raise
            self.outbox.mark_sent([f["seq"] for f in batch])

    def put_status(self, status: Mapping[str, Any]) -> bool:
        """What the table is doing now, replacing what it said last (controller/floor/status.py); False
        (the reason in last_error) while the floor cannot be reached."""
        try:
            if self._conn is None or self._conn.closed:
                self._conn = self.target.connect()
            self._conn.execute("SELECT floor.put_status(%s, %s)", (Jsonb(status), self.mode))
        except psycopg.Error as exc:
            if self._conn is not None and isinstance(exc, psycopg.OperationalError):
                self._conn.close()
                self._conn = None
            self.last_error = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return False
        return True

    def step(self) -> bool:
        """One attempt: collect, then send. False (the reason in last_error) while unreachable."""
        self.collect()
        try:
            self.send()
        except psycopg.Error as exc:
            self.last_error = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return False
        self.last_error = None
        return True

    def follow(self, retry_s: float, stop) -> None:
        """Until `stop()` says so: a step, then wait `retry_s` (the floor need not be up to the second);
        and one step more once stopped, so what was journaled before the stop goes too (issue 26)."""
        while not stop():
            self.step()
            deadline = time.monotonic() + retry_s
            while not stop() and time.monotonic() < deadline:
                time.sleep(min(0.1, retry_s))
        self.step()
