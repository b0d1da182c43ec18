"""What the table's tasks on its event loop share: the queue's item, waiting, and stopping.

controller/table.py keeps the queue and its one consumer; beside it run the
device workers (workers.py), and it holds the fault state (faults.py) and the
published state (view.py), each an object with its dependencies declared.

Every loop here stops when cancelled even if a callee swallowed the
cancellation: Python 3.11's wait_for can, when the cancel arrives as its
timeout fires, and a driver's call may use it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import structlog

STALL = 3.0            # seconds a dispense may go unanswered before it is asked again
SHUFFLE_STALL = 20.0   # and a shuffle and count (a real shuffler takes a while)
CLOSE_PATIENCE = 2.0   # seconds for a task to stop when the table closes

log = structlog.get_logger("controller.table")


@dataclass
class Submission:
    event: Any
    source: str
    who: str | None = None
    future: asyncio.Future[dict[str, Any]] | None = None   # the submitter's answer (Table.submit)


async def wait_event(event: asyncio.Event, timeout: float) -> None:
    """Wait for `event` (then clear it), or at most `timeout` seconds.

    asyncio.wait, not wait_for or asyncio.timeout: in Python 3.11 those can swallow a
    cancellation that arrives as the timeout fires, and a task that should stop with
    the table would run on."""
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({waiter}, timeout=timeout)
    finally:
        waiter.cancel()
    event.clear()
    stop_if_cancelled()


def stop_if_cancelled() -> None:
    """Stop a loop whose cancellation a callee swallowed (a driver's wait_for in Python 3.11)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def cancel_all(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel tasks and wait for them, asking again of any that swallowed the first request."""
    for _ in range(3):
        pending = [t for t in tasks if not t.done()]
        if not pending:
            return
        for t in pending:
            t.cancel()
        await asyncio.wait(pending, timeout=CLOSE_PATIENCE)
    left = [t.get_name() for t in tasks if not t.done()]
    if left:
        log.error("tasks_would_not_stop", tasks=left)


def report_failure(task: asyncio.Task[Any]) -> None:
    """A helper task that failed is logged; it must not take the table down with it."""
    if not task.cancelled() and task.exception() is not None:
        log.error("task_failed", task=task.get_name(), error=repr(task.exception()))
