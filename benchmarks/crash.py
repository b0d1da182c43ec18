"""Kill the running table at 1,000 random points (or more) and check every recovery.

    .venv/bin/python benchmarks/crash.py [--kills 1000] [--lanes 4] [--max-delay 0.9] [--exec] [--keep DIR]

Lanes of `tablectl run --autoplay` on emulated devices (half Caribbean stud,
half casino war), each killed with SIGKILL after a delay drawn from a seeded
RNG, restarted at once, again and again, then run to the end of its round and
checked from its journal (tests/crash/crash_lab.py: chain and seal, the ledger
to the cent, each restart's resume or void, the shoe's cards against the
journal's). Prints, per lane and in total: kill points, seconds, rounds
settled and voided, where in a round the kills fell, what each restart did,
and the time from power-up to the rebuilt round beside the same time on the
lane's first, empty start (the baseline). Exit status 1 if any check failed.

Children are forked from a warmed-up zygote unless --exec (a fresh interpreter
per start: slower, the same checks).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "crash"))

from crash_lab import Lane, freeze

GAMES = ("caribbean-stud", "casino-war")


def startup_ms(data_dir: Path) -> tuple[float | None, list[float]]:
    """(first start, later starts): ms from the power-up entry to the recovery entry of each start."""
    from controller.journal.store import Journal
    with Journal.open(data_dir, readonly=True) as j:
        entries = [e for e in j.entries_since(0) if e.kind in ("power-up", "recovery")]
    times = []
    for a, b in zip(entries, entries[1:], strict=False):
        if a.kind == "power-up" and b.kind == "recovery":
            t0 = datetime.fromisoformat(a.at.replace("Z", "+00:00"))
            t1 = datetime.fromisoformat(b.at.replace("Z", "+00:00"))
            times.append((t1 - t0).total_seconds() * 1000)
    return (times[0] if times else None), times[1:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=1000, help="kill points in all (default 1000)")
    ap.add_argument("--lanes", type=int, default=4, help="tables killed side by side (default 4)")
    ap.add_argument("--max-delay", type=float, default=0.9, help="longest life before a kill, seconds")
    ap.add_argument("--seed", type=int, default=20260509)
    ap.add_argument("--exec", action="store_true", help="a fresh interpreter per start instead of a zygote")
    ap.add_argument("--keep", help="keep the lanes' data directories here")
    args = ap.parse_args()

    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="tablectl-crash-"))
    frozen = freeze(root / "software")
    per_lane = -(-args.kills // args.lanes)
    lanes = [Lane(GAMES[i % 2], root / f"lane{i}-{GAMES[i % 2]}" / "data", args.seed + i, per_lane,
                  max_delay=args.max_delay, exec_mode=args.exec, frozen=frozen) for i in range(args.lanes)]
    started = time.monotonic()
    errors: list[BaseException] = []

    def run(lane: Lane) -> None:
        try:
            lane.run()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(lane,)) for lane in lanes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - started
    if errors:
        raise errors[0]

    total_kills = 0
    phases: Counter = Counter()
    restarts: Counter = Counter()
    first_starts, later_starts = [], []
    failed = 0
    print(f"{'lane':<26} {'kills':>6} {'seconds':>8} {'settled':>8} {'voided':>7} {'misdeal':>8}  checks")
    for lane in lanes:
        kills = sum(lane.phases.values())
        total_kills += kills
        phases.update(lane.phases)
        led = lane.stats.get("ledger", {})
        restarts.update({k: v for k, v in lane.stats.items() if k != "ledger"})
        first, later = startup_ms(lane.data_dir)
        if first is not None:
            first_starts.append(first)
        later_starts += later
        ok = "ok" if not lane.problems else f"{len(lane.problems)} PROBLEM(S)"
        failed += bool(lane.problems)
        print(f"{lane.data_dir.parent.name:<26} {kills:>6} {lane.seconds:>8.1f} {led.get('settled', 0):>8} "
              f"{led.get('voided', 0):>7} {led.get('misdeals', 0):>8}  {ok}")
        for p in lane.problems[:10]:
            print(f"    {p}")
    print(f"\nkill points: {total_kills} in {wall:.1f} s wall ({'exec' if args.exec else 'zygote'} starts, "
          f"lives of 0-{args.max_delay} s, {args.lanes} lanes side by side)")
    print("where the kills fell (the last journal entry before each):")
    for phase, n in phases.most_common():
        print(f"  {phase:<28} {n:>5}")
    print("what the restarts did:")
    for what, n in sorted(restarts.items()):
        print(f"  {what:<48} {n:>5}")
    if later_starts:
        q = statistics.quantiles(later_starts, n=20)
        print(f"power-up to rebuilt round, ms: median {statistics.median(later_starts):.1f}, p95 {q[-1]:.1f}, "
              f"max {max(later_starts):.1f} over {len(later_starts)} restarts; baseline (each lane's first, "
              f"empty start): median {statistics.median(first_starts):.1f}")
    meters = [lane.stats["ledger"]["meter"] for lane in lanes if lane.stats.get("ledger", {}).get("meter")]
    for m in meters:
        print(f"meter: {m['final']} = {m['initial']} + {m['contributions']} - {m['awards_from_meter']} "
              f"+ {m['seeded']} + {m['corrections']}; carry {m['carry']} (1/10000 cent); "
              f"{m['wagered']} cents wagered")
    print("RESULT: " + ("every check passed" if not failed else f"{failed} lane(s) failed"))
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
