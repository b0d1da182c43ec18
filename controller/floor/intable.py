"""The floor's sender inside the running table: a task that never holds up play.

Each attempt runs in a worker thread (the journal is read read-only, the server
reached with a bounded connect timeout), so a floor that is down or slow costs
the table's event loop nothing; the table's own journal is the only thing play
waits on.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import structlog

from controller.floor.config import FloorConfig
from controller.floor.sender import FloorTarget, Sender

log = structlog.get_logger("controller.floor")


async def send_to_floor(data_dir: Path, config: FloorConfig, game: str) -> None:
    target = FloorTarget(config.url, config.password_file)
    sender = Sender(Path(data_dir), target, config.outbox, game=game)
    busy = threading.Lock()
    reachable = None

    def step() -> bool:
        with busy:
            try:
                return sender.step()
            except Exception as exc:
                sender.last_error = repr(exc)
                return False

    try:
        while True:
            ok = await asyncio.to_thread(step)
            if ok != reachable:
                reachable = ok
                if ok:
                    log.info("floor_reached", **sender.outbox.counts())
                else:
                    log.warning("floor_unreachable", error=sender.last_error, **sender.outbox.counts())
            await asyncio.sleep(config.retry_ms / 1000)
    finally:
        # a cancelled task leaves its last attempt running in the thread: close after it
        def close() -> None:
            with busy:
                sender.close()
        threading.Thread(target=close, name="floor-close", daemon=True).start()
