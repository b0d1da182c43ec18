"""No driver task swallows a cancellation (issue 15).

A task that runs on after it was cancelled reconnects, holds its port, and
holds whoever awaits it for ever: a leaked `shoe-link` task held the suite
until pytest-timeout. Python 3.11's `asyncio.wait_for` loses a cancellation
that arrives as the awaited thing completes, so the first tests make exactly
that moment happen, for the link's heartbeat and for a request in flight; the
last cancels every driver task (the link, commands in flight, close itself) at
seeded random points while the devices work, and checks each ends in time.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from controller.cards import CARDS
from drivers.errors import DeviceError
from drivers.events import LinkState
from drivers.manual_shoe.device import ManualShoeDevice
from drivers.progressive import protocol as pp
from drivers.progressive.device import ProgressiveDevice, UsbTiming
from drivers.serial_link import messages as m
from drivers.serial_link.device import LinkTiming
from drivers.shoe.device import ShoeDevice
from drivers.shuffler.device import ShufflerDevice
from drivers.sim.manual_shoe import ManualShoeEmulator
from drivers.sim.progressive import ProgressiveEmulator
from drivers.sim.shoe import ShoeEmulator
from drivers.sim.shuffler import ShufflerEmulator

from .helpers import expect_status, until

BOUND = 3.0   # seconds a cancelled task may take to end: generous for a loaded machine, reached only on failure
TRIALS = 5
SERIAL_TIMING = LinkTiming(backoff_initial=0.02, backoff_max=0.2)


async def ends_within(tasks: list[asyncio.Task], what: str) -> None:
    done, pending = await asyncio.wait(tasks, timeout=BOUND)
    names = [t.get_name() for t in pending]
    for t in pending:   # do not leave them running into the next test
        t.cancel()
    assert not pending, f"{what}: {names} still running {BOUND} s after being cancelled"
    for t in done:
        if not t.cancelled() and t.exception() is not None:
            assert isinstance(t.exception(), (DeviceError, asyncio.CancelledError)), repr(t.exception())


def driver_tasks(name: str) -> list[asyncio.Task]:
    me = asyncio.current_task()
    return [t for t in asyncio.all_tasks() if t is not me and not t.done() and t.get_name().startswith(name)]


class TestTheMomentWaitForLosesACancellation:
    """Cancelled just as the awaited thing completes: the task must end all the same."""

    def test_the_link_ends_when_cancelled_as_it_learns_the_line_is_lost(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                queue: asyncio.Queue = asyncio.Queue()
                dev = ShoeDevice(emu.port, queue, timing=SERIAL_TIMING)
                assert await dev.start()
                await expect_status(queue, LinkState.CONNECTED)
                runner = dev._runner
                await asyncio.sleep(0.05)      # the heartbeat is waiting for the line to be lost
                dev._link_lost("cut for the test")
                runner.cancel()                # in the same turn of the loop
                await ends_within([runner], "the shoe's link")
                await dev.close()
        arun(scenario())

    def test_a_request_ends_when_cancelled_as_its_answer_arrives(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                queue: asyncio.Queue = asyncio.Queue()
                dev = ShoeDevice(emu.port, queue, timing=SERIAL_TIMING)
                assert await dev.start()
                await expect_status(queue, LinkState.CONNECTED)
                emu.incoming.drop(1, types={m.STATUS_REQUEST})   # the answer is ours to give, below
                asker = asyncio.create_task(dev.request_status(), name="shoe-status")
                await until(lambda: dev._pending is not None and dev._pending.type == m.STATUS_REQUEST,
                            "the request in flight")
                pending = dev._pending
                pending.future.set_exception(DeviceError("shoe", "answered for the test"))
                asker.cancel()                 # in the same turn as the answer
                await ends_within([asker], "a STATUS request")
                assert asker.cancelled()
                await dev.close()
        arun(scenario())


async def _shoe_work(dev: ShoeDevice, rng: random.Random) -> None:
    while True:
        try:
            await (dev.dispense_stack(5) if rng.random() < 0.5 else dev.request_status())
        except DeviceError:
            await asyncio.sleep(0.01)


async def _shuffler_work(dev: ShufflerDevice, rng: random.Random) -> None:
    while True:
        try:
            await (dev.count() if rng.random() < 0.5 else dev.request_status())
        except DeviceError:
            await asyncio.sleep(0.01)


async def _manual_work(dev: ManualShoeDevice, emu: ManualShoeEmulator, rng: random.Random) -> None:
    while True:
        await asyncio.to_thread(emu.draw)
        try:
            await dev.request_status()
        except DeviceError:
            await asyncio.sleep(0.01)


async def _progressive_work(dev: ProgressiveDevice, emu: ProgressiveEmulator, rng: random.Random) -> None:
    while True:
        seat = rng.randrange(1, 8)
        try:
            await dev.set_lights({seat: pp.Light.ON}, lockout=rng.random() < 0.5)
            await dev.set_meter(rng.randrange(10**6), pp.MeterMode.SHOW)
        except DeviceError:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(emu.place_wager, seat)


def _serial(kind: str):
    if kind == "shoe":
        return ShoeEmulator(list(CARDS) * 40), ShoeDevice, lambda dev, emu, rng: _shoe_work(dev, rng)
    if kind == "shuffler":
        return ShufflerEmulator(), ShufflerDevice, lambda dev, emu, rng: _shuffler_work(dev, rng)
    return ManualShoeEmulator(list(CARDS) * 40), ManualShoeDevice, _manual_work


@pytest.mark.parametrize("kind", ["shoe", "shuffler", "manual shoe"])
def test_every_serial_driver_task_ends_when_cancelled_at_a_random_point(kind, arun):
    """The link task, a command in flight and close itself, each cancelled at random while the device
    works (and sometimes while it is unplugged, so the link is reconnecting): each ends within BOUND."""
    async def scenario():
        rng = random.Random(f"cancel:{kind}")
        emu, driver, work = _serial(kind)
        with emu:
            for trial in range(TRIALS):
                queue: asyncio.Queue = asyncio.Queue()
                dev = driver(emu.port, queue, timing=SERIAL_TIMING, name=f"t{trial}")
                await dev.start()
                worker = asyncio.create_task(work(dev, emu, rng), name=f"t{trial}-work")
                if rng.random() < 0.3:
                    await asyncio.to_thread(emu.unplug)
                    await asyncio.sleep(rng.uniform(0, 0.2))
                    await asyncio.to_thread(emu.replug)
                await asyncio.sleep(rng.uniform(0, 0.3))
                tasks = driver_tasks(f"t{trial}")
                assert dev._runner in tasks
                for t in tasks:
                    t.cancel()
                await ends_within(tasks, f"{kind} trial {trial}")
                assert worker.done()   # named t{trial}-work: among the tasks cancelled
                closer = asyncio.create_task(dev.close(), name=f"t{trial}-close")
                await asyncio.sleep(rng.uniform(0, 0.05))
                closer.cancel()
                await ends_within([closer], f"{kind} trial {trial} close")
                await dev.close()
                assert not driver_tasks(f"t{trial}")
                await asyncio.to_thread(lambda: emu.call(lambda: (emu.incoming.clear(), emu.outgoing.clear())))
    arun(scenario(), timeout=60)


def test_every_progressive_driver_task_ends_when_cancelled_at_a_random_point(arun):
    async def scenario():
        rng = random.Random("cancel:progressive")
        emu = ProgressiveEmulator()
        timing = UsbTiming(backoff_initial=0.02, backoff_max=0.2)
        for trial in range(TRIALS):
            queue: asyncio.Queue = asyncio.Queue()
            dev = ProgressiveDevice(queue, vendor=emu.vendor, product=emu.product, serial=emu.serial_number,
                                    backend=emu.backend, timing=timing, name=f"p{trial}")
            await dev.start()
            worker = asyncio.create_task(_progressive_work(dev, emu, rng), name=f"p{trial}-work")
            await asyncio.sleep(rng.uniform(0, 0.3))
            tasks = driver_tasks(f"p{trial}")
            assert dev._runner in tasks and worker in tasks
            for t in tasks:
                t.cancel()
            await ends_within(tasks, f"progressive trial {trial}")
            closer = asyncio.create_task(dev.close(), name=f"p{trial}-close")
            await asyncio.sleep(rng.uniform(0, 0.05))
            closer.cancel()
            await ends_within([closer], f"progressive trial {trial} close")
            await dev.close()
            assert not driver_tasks(f"p{trial}")
    arun(scenario(), timeout=60)
