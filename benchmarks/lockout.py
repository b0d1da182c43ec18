"""Lock-out button to every acceptor light acknowledged, through the real table (issue 15).

  .venv/bin/python benchmarks/lockout.py [--presses N] [--pause SECONDS] [--load N] [--seal-cost]

From the instant the progressive controller (the emulator, behind its pyusb backend, as the
table's DeviceSet connects it) queues the STATE report of a lock-out press, through the driver,
the table's queue, its consumer, the durable journal append of "no more bets", the effects, the
lights-and-indicator command to the controller, to the moment the driver holds the controller's
acknowledgement echoing all seven lights and the indicator on. Each press is a real round: an
ante and a progressive wager placed, the press, then the round voided by a supervisor and the
next opened, with `--pause` between presses (a dealer does not press twice in a second).

Beside it in the same run, the named baseline: the driver alone (benchmarks/devices.py's
lock-out figure: the same report to the same acknowledgement with no table between them).
Target: p99 <= 10 ms with emulated devices. Exit status 0 when the table's p99 meets it.

The device links are sealed (drivers/pairing.py). `--seal-cost` measures, in the same run, the
same table and the driver alone with the seal's HMAC taken out (benchmarks/devices.py
`seal_stubbed`: a constant MAC, the format and counters unchanged), so what the seal costs on
the lock-out's path shows beside the sealed figures; the target stays on the sealed table.

Under load (`--load N`: N processes spinning beside the table, started for the measurement and
stopped after it) the table is measured twice in the same run: as a plain process, and
scheduled as systemd/tablectl.service schedules the service (its Nice= and CPUWeight=, read
from the unit: the benchmark, run as root, takes the same nice value; the cgroup weight
counts only between services, so a process beside the service on the box is what the
spinners stand for). Targets (issue 33): p99 <= 5 ms beside two spinners, <= 10 ms at a
load of 5.

The anchor (controller/journal/anchor.py, issue 26) is written as part of every close's effects,
awaited by the consumer before it answers: what it costs is timed on the void that closes
each press's round (void_round submitted to answered, and the anchor's write and record
within it), beside the same table with no anchor sink, in the same run. It is not on the
lock-out's path: the lock-out figure is shown for both tables.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

import structlog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from devices import lockout_latency as driver_only
from devices import seal_stubbed
from tests.security.state_machine_helpers import profile

TARGET_P99_MS = 10.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def until(predicate, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.002)


async def through_the_table(presses: int, pause: float, data_dir: Path,
                            anchored: bool = True) -> tuple[list[float], list[float], list[float]]:
    """Lock-out latencies, close latencies, and the anchor's share of each close (empty without one)."""
    from controller.table import Table
    from drivers.progressive import protocol as pp
    table = Table(profile("stud"), data_dir=data_dir, screen=False)
    await table.start()
    latencies: list[float] = []
    closes: list[float] = []
    covers: list[float] = []
    try:
        keeper = table.anchors
        assert keeper is not None and keeper.sinks, "the emulated table keeps an anchor"
        if not anchored:
            keeper.sinks = []   # the baseline: the same table with nowhere to keep an anchor
        cover = keeper.cover

        async def timed_cover() -> bool:
            t = time.perf_counter()
            try:
                return await cover()
            finally:
                if keeper.sinks:
                    covers.append(time.perf_counter() - t)
        keeper.cover = timed_cover
        emu = table.devices.world.progressive
        driver = table.devices.progressive
        acked: dict[str, float] = {}
        set_lights = driver.set_lights

        async def timed(lights, lockout):
            await set_lights(lights, lockout)   # returns once the controller echoed all seven and the indicator
            if lockout and "at" not in acked:
                acked["at"] = time.monotonic()
        driver.set_lights = timed
        for i in range(presses):
            await until(lambda: table.published()["round"]["state"] == "open", "an open round")
            seat = i % 7 + 1
            ok = await table.submit({"type": "ante", "seat": seat, "amount": 1000}, source="panel", who="dealer")
            assert ok["ok"], ok
            await asyncio.to_thread(emu.place_wager, seat)
            await until(lambda seat=seat: emu.lights[seat - 1] == pp.Light.ON, f"seat {seat}'s light")
            await asyncio.sleep(pause)
            acked.clear()
            await asyncio.to_thread(emu.press_lockout)
            sent = emu.sent_at[emu._tx_seq]
            await until(lambda: "at" in acked, "the lights acknowledged with the lock-out on")
            latencies.append(acked["at"] - sent)
            await asyncio.to_thread(emu.release_lockout)
            await asyncio.to_thread(emu.remove_wager, seat)
            t = time.perf_counter()
            void = await table.submit({"type": "void_round", "reason": "benchmark"}, source="supervisor",
                                      who="SUP1")
            closes.append(time.perf_counter() - t)
            assert void["ok"], void
            nxt = await table.submit({"type": "next_round"}, source="panel", who="dealer")
            assert nxt["ok"], nxt
    finally:
        await table.close()
    return latencies, closes, covers


def unit_scheduling(unit: Path = ROOT / "systemd" / "tablectl.service") -> dict[str, str]:
    """The scheduling lines of the service's unit (Nice=, CPUWeight=, CPUSchedulingPolicy=...)."""
    keys = ("Nice", "CPUWeight", "CPUSchedulingPolicy", "CPUSchedulingPriority", "IOSchedulingClass")
    out = {}
    for line in unit.read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() in keys:
            out[key.strip()] = value.strip()
    return out


def spin(n: int) -> list:
    """`n` processes that spin until killed: the load beside the table."""
    import subprocess
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def stop(spinners: list) -> None:
    for p in spinners:
        p.kill()
        p.wait()


def under_load(presses: int, pause: float, load: int, data_dir: Path) -> list[tuple[str, list[float]]]:
    """The lock-out beside `load` spinners: as a plain process, then with the unit's nice value."""
    import os
    rows = []
    spinners = spin(load)
    try:
        plain, _, _ = asyncio.run(through_the_table(presses, pause, data_dir / "plain"))
        rows.append((f"the real Table beside {load} spinners, plain process", plain))
        nice = int(unit_scheduling().get("Nice", "0"))
        before = os.getpriority(os.PRIO_PROCESS, 0)
        try:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        except PermissionError:
            print(f"  (not root: cannot take the unit's Nice={nice}; the scheduled row is left out)")
            return rows
        try:
            scheduled, _, _ = asyncio.run(through_the_table(presses, pause, data_dir / "scheduled"))
        finally:
            os.setpriority(os.PRIO_PROCESS, 0, before)
        rows.append((f"the real Table beside {load} spinners, Nice={nice} as the unit", scheduled))
        driver = asyncio.run(driver_only(presses))
        rows.append((f"baseline: the driver alone beside {load} spinners", driver))
    finally:
        stop(spinners)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=500)
    ap.add_argument("--pause", type=float, default=0.05, help="seconds between a wager and the press")
    ap.add_argument("--load", type=int, default=0, help="processes spinning beside the table (0: quiet only)")
    ap.add_argument("--seal-cost", action="store_true",
                    help="also the table and the driver with the links' HMAC taken out, beside the sealed figures")
    args = ap.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
    logging.disable(logging.CRITICAL)
    loaded: list[tuple[str, list[float]]] = []
    if args.load:
        with tempfile.TemporaryDirectory(prefix="lockout-load-") as tmp:
            loaded = under_load(args.presses, args.pause, args.load, Path(tmp))
    with tempfile.TemporaryDirectory(prefix="lockout-") as tmp:
        table, closes, covers = asyncio.run(through_the_table(args.presses, args.pause, Path(tmp) / "anchored"))
        bare, bare_closes, _ = asyncio.run(through_the_table(args.presses, args.pause, Path(tmp) / "bare",
                                                             anchored=False))
        unsealed: list[tuple[str, list[float]]] = []
        if args.seal_cost:
            with seal_stubbed():
                plain, _, _ = asyncio.run(through_the_table(args.presses, args.pause, Path(tmp) / "unsealed"))
                unsealed = [("the same Table, the links' HMAC taken out", plain),
                            ("the driver alone, the links' HMAC taken out", asyncio.run(driver_only(args.presses)))]
    driver = asyncio.run(driver_only(args.presses))
    ms = lambda v: v * 1000
    print(f"lock-out report -> all seven acceptor lights and the indicator acknowledged ({args.presses} presses, "
          f"emulated progressive controller via its pyusb backend)")
    print(f"  {'':60s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s}")
    for name, v in (("the real Table (queue, consumer, journal, effects, anchor)", table),
                    ("the same Table with no anchor sink", bare),
                    ("baseline: the driver alone, no table", driver), *unsealed):
        print(f"  {name:60s} {ms(statistics.median(v)):8.3f} {ms(pct(v, 0.99)):8.3f} {ms(max(v)):8.3f}")
    print(f"a round's close (void_round submitted -> answered), {args.presses} closes")
    for name, v in (("the real Table: journal, anchor written, effects", closes),
                    ("  of which the anchor (written, the controller's ACK)", covers),
                    ("baseline: the same Table with no anchor sink", bare_closes)):
        print(f"  {name:60s} {ms(statistics.median(v)):8.3f} {ms(pct(v, 0.99)):8.3f} {ms(max(v)):8.3f}")
    p99 = ms(pct(table, 0.99))
    verdict = "met" if p99 <= TARGET_P99_MS else "MISSED"
    print(f"  target: p99 <= {TARGET_P99_MS:.1f} ms through the table -> {verdict} ({p99:.3f} ms)")
    ok = p99 <= TARGET_P99_MS
    if loaded:
        target = 5.0 if args.load <= 2 else 10.0
        print(f"under load: {args.load} spinning processes beside the table ({args.presses} presses each)")
        for name, v in loaded:
            print(f"  {name:60s} {ms(statistics.median(v)):8.3f} {ms(pct(v, 0.99)):8.3f} {ms(max(v)):8.3f}")
        best = ms(pct(next((v for name, v in loaded if "as the unit" in name), loaded[0][1]), 0.99))
        verdict = "met" if best <= target else "MISSED"
        print(f"  target: p99 <= {target:.0f} ms through the table at a load of {args.load} -> {verdict} "
              f"({best:.3f} ms, scheduled as the unit)")
        ok &= best <= target
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
