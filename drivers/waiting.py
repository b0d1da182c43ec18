"""A bounded wait that never eats a cancellation, for every driver.

Python 3.11's `asyncio.wait_for` returns the inner result when the task is
cancelled just as the awaited thing completes (the cancellation is lost); a
driver loop that lost its cancellation runs on after `close()`, reconnects,
and holds whoever awaits it for ever (issue 15: a leaked `shoe-link` task
held the suite until pytest-timeout). `asyncio.wait` does not have that flaw:
it only waits, and a cancellation of the caller is raised at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def within(aw: Awaitable[T], seconds: float | None) -> T:
    """`await aw` for at most `seconds`: its result, TimeoutError, or CancelledError if we are cancelled.

    `aw` is cancelled on a timeout or a cancellation, as with wait_for; wrap it in
    `asyncio.shield` to keep it (a pending request's future)."""
    future = asyncio.ensure_future(aw)
    try:
        done, _ = await asyncio.wait({future}, timeout=seconds)
    except BaseException:
        if future.done():
            if not future.cancelled():
                future.exception()   # retrieved: we are leaving, its outcome is not news
        else:
            future.cancel()
        raise
    if not done:
        future.cancel()
        await asyncio.wait({future})   # let it finish cancelling before we move on
        raise TimeoutError
    return future.result()


def cancelling() -> bool:
    """Whether the current task has been asked to stop (a cancellation some callee may have absorbed)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
