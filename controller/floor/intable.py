"""The floor's sender inside the running table: a task that never holds up play.

Each attempt runs in a worker thread (the journal is read read-only, the server
reached with a bounded connect timeout), so a floor that is down or slow costs
the table's event loop nothing; the table's own journal is the only thing play
waits on.

At the table's orderly stop (controller/table.py `close`, after the link, once
nothing more is journaled) one last attempt reads the journal to its end into the
outbox and sends it: the floor has every fact journaled before the stop, or, when
it cannot be reached within the bound, the facts wait in the outbox and go at the
next start, as the link's outbox keeps its operations (issue 26). Before, the
rounds played after the last attempt reached the floor only at the next start.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import structlog

from controller.floor.config import FloorConfig
from controller.floor.sender import FloorTarget, Sender
from controller.floor.status import TableStatus

log = structlog.get_logger("controller.floor")

STOP_PATIENCE = 5.0   # seconds the orderly stop waits for its last attempt (after the link's 20 s, within systemd's 30)


class FloorFeed:
    """The table's facts to the floor: an attempt every `retry_ms` while it plays, and one at its stop."""

    def __init__(self, data_dir: Path, config: FloorConfig, game: str,
                 status: Callable[[], TableStatus] | None = None) -> None:
        self.status = status   # what the table is doing now (controller/floor/status.py), read in its loop
        self.sender = Sender(Path(data_dir), FloorTarget(config.url, config.password_file), config.outbox,
                             game=game)
        self.retry_s = config.retry_ms / 1000
        self._busy = threading.Lock()   # one attempt at a time: a cancelled one may still be running
        self.reachable: bool | None = None

    def _step(self, status: TableStatus | None = None) -> bool:
        with self._busy:
            try:
                return self.sender.step() and (status is None or self.sender.put_status(status))
            except Exception as exc:  # noqa: BLE001 - a journal or outbox that failed this time: next time
                self.sender.last_error = repr(exc)
                return False

    def _said(self, ok: bool) -> None:
        if ok != self.reachable:
            self.reachable = ok
            if ok:
                log.info("floor_reached", **self.sender.outbox.counts())
            else:
                log.warning("floor_unreachable", error=self.sender.last_error, **self.sender.outbox.counts())

    async def run(self) -> None:
        while True:
            status = self.status() if self.status is not None else None   # the view, read in the table's loop
            self._said(await asyncio.to_thread(self._step, status))
            await asyncio.sleep(self.retry_s)

    async def close(self, patience: float = STOP_PATIENCE) -> None:
        """The last attempt, after the table journaled its last entry, then the sender closed.

        In a thread of its own, after any attempt still running: the stop waits for it at most
        `patience`; past that the process may exit under it, and what it had not sent is in the
        outbox (read first) or still only in the journal, both read again at the next start."""
        done = threading.Event()
        outcome: dict = {}
        # the floor is told the table stopped, so the pit does not read its last round as still playing
        final = {**self.status(), "state": "stopped"} if self.status is not None else None

        def last() -> None:
            try:
                outcome["ok"] = self._step(final)  # type: ignore[arg-type]  # a TableStatus, its state "stopped"
                with self._busy:
                    outcome["counts"] = self.sender.outbox.counts()
            finally:
                with self._busy:
                    self.sender.close()
                done.set()

        threading.Thread(target=last, name="floor-last", daemon=True).start()
        if not await asyncio.to_thread(done.wait, patience):
            log.warning("floor_not_sent_at_stop", patience_s=patience)
        elif outcome.get("ok"):
            log.info("floor_sent_at_stop", **outcome.get("counts", {}))
        else:
            log.warning("floor_kept_at_stop", error=self.sender.last_error, **outcome.get("counts", {}))
