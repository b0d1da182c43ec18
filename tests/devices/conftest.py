"""Fixtures for the device tests: leak checks, an event-loop runner, emulators or real hardware.

The same driver test classes run against real devices when an environment
variable names one (as python-can does with its virtual and real buses):
  TABLECTL_SHOE_PORT=/dev/serial/by-id/usb-...        the dealing shoe
  TABLECTL_SHUFFLER_PORT=/dev/serial/by-id/usb-...    the shuffler
  TABLECTL_MANUAL_SHOE_PORT=/dev/serial/by-id/usb-... the card-reading manual dealing shoe
  TABLECTL_PROGRESSIVE=VID:PID[:SERIAL]               the progressive controller (hex ids)
Without them, every test runs against the emulators in drivers/sim.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

import pytest

from .leaks import Snapshot, TaskWatch


@pytest.fixture(autouse=True)
def no_leaks(request):
    """Fail a test that leaves a thread, a file descriptor or an asyncio task behind."""
    before = Snapshot.take()
    policy = asyncio.get_event_loop_policy()
    watch = TaskWatch()
    asyncio.set_event_loop_policy(watch)
    try:
        yield
    finally:
        asyncio.set_event_loop_policy(policy)
    leaks = before.leaks() + [f"asyncio task {name!r} still running" for name in watch.leaked]
    if leaks:
        pytest.fail(f"{request.node.nodeid} leaked: " + "; ".join(leaks), pytrace=False)


class TaskLeak(AssertionError):
    pass


def run(coro: Coroutine[Any, Any, Any], timeout: float = 30.0) -> Any:
    """Run a test scenario on a fresh loop; fail if it leaves tasks behind or runs past `timeout`."""
    async def main() -> Any:
        result = await asyncio.wait_for(coro, timeout)
        me = asyncio.current_task()
        left = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        if left:
            for t in left:
                t.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            raise TaskLeak("tasks left running: " + ", ".join(t.get_name() for t in left))
        return result
    return asyncio.run(main())


@pytest.fixture
def arun():
    return run


@dataclass
class SerialRig:
    port: str
    emulator: Any | None   # None: real hardware, no knobs


@pytest.fixture
def shoe_rig():
    port = os.environ.get("TABLECTL_SHOE_PORT")
    if port:
        yield SerialRig(port, None)
        return
    from controller.cards import CARDS
    from drivers.sim.shoe import ShoeEmulator
    with ShoeEmulator(list(CARDS)) as emu:
        yield SerialRig(emu.port, emu)


@pytest.fixture
def manual_shoe_rig():
    port = os.environ.get("TABLECTL_MANUAL_SHOE_PORT")
    if port:
        yield SerialRig(port, None)
        return
    from controller.cards import CARDS
    from drivers.sim.manual_shoe import ManualShoeEmulator
    with ManualShoeEmulator(list(CARDS)) as emu:
        yield SerialRig(emu.port, emu)


@pytest.fixture
def shuffler_rig():
    port = os.environ.get("TABLECTL_SHUFFLER_PORT")
    if port:
        yield SerialRig(port, None)
        return
    from drivers.sim.shuffler import ShufflerEmulator
    with ShufflerEmulator() as emu:
        yield SerialRig(emu.port, emu)


@dataclass
class UsbRig:
    vendor: int
    product: int
    serial: str | None
    backend: Any | None
    emulator: Any | None


@pytest.fixture
def progressive_rig():
    spec = os.environ.get("TABLECTL_PROGRESSIVE")
    if spec:
        vendor, product, *serial = spec.split(":", 2)
        yield UsbRig(int(vendor, 16), int(product, 16), serial[0] if serial else None, None, None)
        return
    from drivers.sim.progressive import ProgressiveEmulator
    emu = ProgressiveEmulator()
    yield UsbRig(emu.vendor, emu.product, emu.serial_number, emu.backend, emu)
