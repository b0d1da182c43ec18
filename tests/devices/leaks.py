"""What a test left running: threads, file descriptors, asyncio tasks.

Drivers own threads (serial readers, USB readers and writers) and ports; a
driver that forgets one on close leaks it on every reconnect of a box that
runs for months. The autouse fixture in conftest.py takes a Snapshot before
each test and fails the test if anything new is still there after it.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from dataclasses import dataclass, field


def open_fds() -> dict[int, str]:
    fds: dict[int, str] = {}
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            fds[fd] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            pass  # the descriptor listdir itself used, already closed
    return fds


@dataclass
class Snapshot:
    threads: set[threading.Thread]
    fds: dict[int, str]

    @classmethod
    def take(cls) -> "Snapshot":
        return cls(set(threading.enumerate()), open_fds())

    def leaks(self, grace: float = 3.0) -> list[str]:
        """What is new since the snapshot, after giving finishing threads `grace` seconds to end."""
        deadline = time.monotonic() + grace
        while True:
            threads = [t for t in threading.enumerate() if t not in self.threads and t.is_alive()]
            fds = {fd: target for fd, target in open_fds().items() if self.fds.get(fd) != target}
            if (not threads and not fds) or time.monotonic() >= deadline:
                break
            time.sleep(0.02)
        return ([f"thread {t.name!r} still running" for t in threads]
                + [f"file descriptor {fd} -> {target} still open" for fd, target in sorted(fds.items())])


@dataclass
class TaskWatch(asyncio.DefaultEventLoopPolicy):
    """An event loop policy whose loops note the tasks still running when their main coroutine ends.

    asyncio.run cancels such tasks quietly on its way out, which would hide a
    driver that forgot to stop its heartbeat; this notes them first.
    """

    leaked: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        watch = self
        inner = loop.run_until_complete
        checked = False

        def run_until_complete(future):
            nonlocal checked
            first, checked = not checked, True
            try:
                return inner(future)
            finally:
                if first:
                    watch.leaked += [t.get_name() for t in asyncio.all_tasks(loop) if not t.done()]

        loop.run_until_complete = run_until_complete
        return loop
