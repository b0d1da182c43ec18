"""`tablectl sim X` runs one emulator alone, says where to connect, and a driver connects there."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from drivers.events import LinkState
from drivers.manual_shoe import protocol as ms
from drivers.manual_shoe.device import ManualShoeDevice
from drivers.progressive import protocol as pp
from drivers.progressive.device import ProgressiveDevice
from drivers.shoe import protocol as sp
from drivers.shoe.device import ShoeDevice
from drivers.shuffler import protocol as fp
from drivers.shuffler.device import ShufflerDevice
from drivers.sim.usb_socket import SocketBackend

from .helpers import expect, expect_status

TABLECTL = os.path.join(os.path.dirname(sys.executable), "tablectl")


class Sim:
    def __init__(self, device: str, directory: str) -> None:
        env = dict(os.environ, TABLECTL_SIM_DIR=directory, TABLECTL_SIM_SEED="7")
        self.proc = subprocess.Popen([TABLECTL, "sim", device], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: list[str] = []
        self.where = self.read_until("connect to: ").split("connect to: ", 1)[1].strip()

    def read_until(self, marker: str) -> str:
        for line in self.proc.stdout:
            self.lines.append(line)
            if marker in line:
                return line
        raise AssertionError(f"no {marker!r} in: {''.join(self.lines)}")

    async def say(self, command: str, answer: str) -> str:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return await asyncio.get_running_loop().run_in_executor(None, self.read_until, answer)

    def quit(self) -> int:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        code = self.proc.wait(timeout=20)
        self.proc.stdout.close()
        return code


@pytest.fixture
def sim(tmp_path):
    started: list[Sim] = []

    def start(device: str) -> Sim:
        started.append(Sim(device, str(tmp_path)))
        return started[-1]
    yield start
    for s in started:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait()
        for stream in (s.proc.stdin, s.proc.stdout):
            if not stream.closed:
                stream.close()


def test_sim_shoe(sim, arun):
    s = sim("shoe")
    assert s.where.endswith("-if00-port0") and os.path.islink(s.where)

    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        async with ShoeDevice(s.where, queue) as dev:
            await expect_status(queue, LinkState.CONNECTED)
            await dev.dispense_stack(5)
            assert [(await expect(queue, sp.CardDispensed)).stack_position for _ in range(5)] == [1, 2, 3, 4, 5]
            await s.say("jam 3", "jammed")
            assert (await expect(queue, sp.ShoeJammed)).code == sp.JamCode.DOOR_OPEN
    arun(scenario())
    assert s.quit() == 0


def test_sim_manual_shoe(sim, arun):
    s = sim("manual-shoe")

    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        async with ManualShoeDevice(s.where, queue):
            await expect_status(queue, LinkState.CONNECTED)
            await s.say("load Qh 7c", "loaded 2 cards")
            assert (await expect(queue, ms.ShoeLoaded)).cards == 2
            await s.say("draw 2", "drew Qh 7c")
            assert [str((await expect(queue, ms.CardDrawn)).card) for _ in range(2)] == ["Qh", "7c"]
    arun(scenario())
    assert s.quit() == 0


def test_sim_shuffler(sim, arun):
    s = sim("shuffler")

    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        async with ShufflerDevice(s.where, queue) as dev:
            await expect_status(queue, LinkState.CONNECTED)
            await s.say("insert -Qs", "deck inserted (51 cards)")
            await expect(queue, fp.DeckInserted)
            await dev.count()
            count = await expect(queue, fp.DeckCount)
            assert count.total == 51 and [str(c) for c in count.cards(fp.AnomalyKind.MISSING)] == ["Qs"]
    arun(scenario())
    assert s.quit() == 0


def test_sim_progressive(sim, arun):
    s = sim("progressive")
    assert s.where.endswith("progressive.sock")

    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        async with ProgressiveDevice(queue, serial="SIM-PROG-0001", backend=SocketBackend(s.where)) as dev:
            await expect_status(queue, LinkState.CONNECTED)
            await expect(queue, pp.ControllerState)
            await s.say("wager 3", "wager on seat 3")
            assert await expect(queue, pp.WagerSensor) == pp.WagerSensor(3, True)
            await s.say("lockout", "lock-out pressed and released")
            assert (await expect(queue, pp.LockoutPressed)).wagers == frozenset({3})
            await expect(queue, pp.LockoutReleased)
            await dev.set_lights({3: pp.Light.ON}, lockout=True)
            assert "3:on" in await s.say("show", "now:")
            await s.say("unplug", "unplugged")
            await expect_status(queue, LinkState.DISCONNECTED)
            await s.say("replug", "plugged in")
            await expect_status(queue, LinkState.CONNECTED)
    arun(scenario())
    assert s.quit() == 0
