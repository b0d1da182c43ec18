"""`tablectl sim progressive --table DIR` (issue 30): a chip put on a running table's emulated acceptor
from the installed command, through the emulator's own control channel, is counted by the table.
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from drivers.progressive import protocol as pp
from tests.table.table_helpers import running, stud_profile, until
from tests.table.test_table import journal_events, ready_to_deal, run, seat

TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")


def sim(device: str, table: Path, lines: str) -> subprocess.CompletedProcess:
    return subprocess.run([TABLECTL, "sim", device, "--table", str(table)], input=lines, capture_output=True,
                          text=True, timeout=60)


def test_a_chip_put_on_from_the_command_is_counted_and_the_console_stops_with_the_table(tmp_path):
    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            emu = table.devices.world.progressive
            await ready_to_deal(table)
            assert (await table.submit({"type": "ante", "seat": 4, "amount": 1000}, source="panel"))["ok"]
            put = await asyncio.to_thread(sim, "progressive", tmp_path, "help\nwager 4\nbogus\nshow\nquit\n")
            await until(lambda: "progressive" in seat(table.published(), 4)["wagers"], "seat 4's chip counted")
            await until(lambda: emu.lights[3] == pp.Light.ON, "seat 4's light")
            stacked = await asyncio.to_thread(sim, "shoe", tmp_path / "sim", "status\n")
            return put, stacked
    put, stacked = run(scenario())
    assert put.returncode == 0, put.stderr
    assert "wager on seat 4" in put.stdout and "unknown command 'bogus'" in put.stdout
    assert "remove SEAT" in put.stdout and "now: lights" in put.stdout
    assert stacked.returncode == 0 and "0 dealt, 52 left" in stacked.stdout
    chips = [e.payload for e in journal_events(tmp_path) if e.payload["event"]["type"] == "progressive"]
    assert [(c["event"]["seat"], c["source"], c["who"]) for c in chips] == [(4, "device", "progressive")]
    gone = sim("progressive", tmp_path, "show\n")   # the table has stopped: nothing to attach to
    assert gone.returncode == 2 and "no emulated progressive" in gone.stderr
    manual = sim("manual-shoe", tmp_path, "status\n")   # a Caribbean stud table has no manual shoe
    assert manual.returncode == 2
