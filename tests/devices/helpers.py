"""Small waits for device tests: generous deadlines, never a timing assertion."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from drivers.events import DeviceStatus, LinkState

PATIENCE = 10.0   # seconds before a wait gives up: long enough for a loaded CI box, reached only on failure


async def until(predicate: Callable[[], bool], what: str, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.01)


async def expect(queue: asyncio.Queue, kind: type, timeout: float = PATIENCE):
    """The next event on the queue, which must be a `kind`."""
    try:
        event = await asyncio.wait_for(queue.get(), timeout)
    except asyncio.TimeoutError:
        raise AssertionError(f"no event arrived; expected a {kind.__name__}") from None
    assert isinstance(event, kind), f"expected a {kind.__name__}, got {event!r}"
    return event


async def expect_status(queue: asyncio.Queue, state: LinkState, timeout: float = PATIENCE) -> DeviceStatus:
    event = await expect(queue, DeviceStatus, timeout)
    assert event.state is state, f"expected {state.value}, got {event!r}"
    return event


def drain(queue: asyncio.Queue) -> list:
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


async def quiet(queue: asyncio.Queue, seconds: float = 0.3) -> list:
    """Whatever arrives in the next `seconds` (to show that nothing more, e.g. no duplicate, comes)."""
    await asyncio.sleep(seconds)
    return drain(queue)


async def status_of(dev, timeout: float = PATIENCE):
    """The device's STATUS, asked again if the link dropped meanwhile: on a loaded machine a 100 ms
    ACK timeout can lapse and the driver reconnect; what the test checks is the STATUS, not the link."""
    from drivers.errors import DeviceDisconnected, DeviceTimeout
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await dev.request_status()
        except (DeviceDisconnected, DeviceTimeout):
            if time.monotonic() > deadline:
                raise
            await until(lambda: dev.connected, "the link to come back", max(0.1, deadline - time.monotonic()))


def encode_frame(seq: int, type_: int, payload: bytes = b"", side=None) -> bytes:
    """A frame sealed under the factory key in a session of no nonces, as a device fresh from its
    factory sends it before any HELLO: for the framing's tests, which look at shape, not seal."""
    from drivers.pairing import FACTORY_KEY, LinkSeal, Side
    from drivers.serial_link import framing
    return framing.encode_frame(seq, type_, payload, LinkSeal(FACTORY_KEY, side or Side.DEVICE))


def named_driver(kind: str, builtin: type) -> type:
    """The driver the device test classes drive: tablectl's own, or the one an environment
    variable names from the driver registry (TABLECTL_SHOE_DRIVER, TABLECTL_SHUFFLER_DRIVER,
    TABLECTL_MANUAL_SHOE_DRIVER, TABLECTL_PROGRESSIVE_DRIVER), so that a vendor runs the same
    classes against their own driver and device (docs/DRIVERS.md)."""
    import os

    from drivers.registry import BUILTIN, driver_class
    name = os.environ.get(f"TABLECTL_{kind.upper()}_DRIVER", BUILTIN)
    return builtin if name == BUILTIN else driver_class(kind, name)
