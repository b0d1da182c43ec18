"""Start-up time of the one-shot commands, beside a bare interpreter start.

Target (issue 2, part 7): `tablectl settle` of one record and `tablectl poker
replay` of one hand, each from a fresh process, in at most 0.2 s wall. The
baseline `python -c pass` is measured in the same run with the same
interpreter, so the figure that the code controls is the difference.

    .venv/bin/python benchmarks/startup.py [--runs 21]

Prints one JSON object: the median (and min) wall time of each command, its
exit status, whether it meets the target, its cost over the baseline, the
modules each imports that it should not (pydantic, transitions, structlog,
serial, usb), and its slowest imports (from -X importtime, one extra run).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.2
HEAVY = ("pydantic", "pydantic_core", "transitions", "structlog", "serial", "usb")
SETTLE_CASE = ROOT / "tests" / "data" / "settle" / "001-stud-spec-example.json"
PHH_CASE = ROOT / "tests" / "data" / "phh" / "NT-001.phh"


def tablectl() -> str:
    """The console script beside this interpreter (the venv's), else on PATH."""
    beside = Path(sys.executable).parent / "tablectl"
    return str(beside) if beside.exists() else "tablectl"


def wall(argv: list[str], stdin: bytes | None, env: dict | None = None) -> tuple[float, int, bytes]:
    start = time.perf_counter()
    run = subprocess.run(argv, input=stdin, capture_output=True, cwd=ROOT, env=env)
    return time.perf_counter() - start, run.returncode, run.stderr


def imports(argv: list[str], stdin: bytes | None) -> tuple[list[str], list[tuple[str, float]]]:
    """Modules a command imports and the slowest five by cumulative time (ms)."""
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    _, _, err = wall(argv, stdin, env)
    modules, cumulative = [], []
    for line in err.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [p.strip() for p in line[len("import time:"):].split("|")]
        if not parts[0].isdigit():
            continue  # the header line
        name = parts[2].strip()
        modules.append(name)
        if not line.split("|")[2].startswith("   "):  # top-level imports only (no nesting indent)
            cumulative.append((name, int(parts[1]) / 1000))
    cumulative.sort(key=lambda x: -x[1])
    return modules, cumulative[:5]


def measure(commands: list[dict], runs: int) -> list[list[float]]:
    """Wall times of each command, run interleaved (one of each per round).

    Interleaving matters on a shared machine: a burst of load then slows every
    command of that round alike instead of whichever block it fell on.
    """
    for c in commands:
        wall(c["argv"], c["stdin"], c["env"])  # warm the page cache and .pyc files
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for c, t in zip(commands, times, strict=True):
            elapsed, status, err = wall(c["argv"], c["stdin"], c["env"])
            t.append(elapsed)
            c.setdefault("statuses", set()).add(status)
            if status:
                c["stderr"] = err
    return times


def command(name: str, argv: list[str], stdin: bytes | None = None, env: dict | None = None,
            target: bool = True) -> dict:
    return {"name": name, "argv": argv, "stdin": stdin, "env": env, "target": target}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()

    record = json.dumps(json.loads(SETTLE_CASE.read_text())["record"]).encode()
    python = sys.executable
    no_site = dict(os.environ, PYTHONPATH=str(ROOT))
    commands = [
        command("python -c pass", [python, "-c", "pass"], target=False),
        command("tablectl settle (one record on stdin)", [tablectl(), "settle", "-"], record),
        command("tablectl poker replay (one hand)", [tablectl(), "poker", "replay", str(PHH_CASE)]),
        # The same settle without the console-script wrapper: the wrapper's own cost is the difference.
        command("python -m controller.cli settle", [python, "-m", "controller.cli", "settle", "-"], record),
        # Without site: no venv .pth files, so no setuptools editable finder (importlib.util, pathlib,
        # urllib.parse) at start: what a non-editable install or a path-style .pth would save.
        command("python -S -c pass", [python, "-S", "-c", "pass"], target=False),
        command("python -S -m controller.cli settle (PYTHONPATH, no site)",
                [python, "-S", "-m", "controller.cli", "settle", "-"], record, no_site),
    ]
    times = measure(commands, args.runs)
    baseline = statistics.median(times[0])
    results = []
    for c, t in zip(commands, times, strict=True):
        median = statistics.median(t)
        row = {
            "name": c["name"],
            "median_s": round(median, 4),
            "min_s": round(min(t), 4),
            "exit_status": sorted(c["statuses"]),
        }
        if c["target"]:
            row["over_baseline_s"] = round(median - baseline, 4)
            row["within_target"] = median <= TARGET_S
        if "stderr" in c:
            err = c["stderr"].decode(errors="replace")
            row["stderr_tail"] = err.strip().splitlines()[-1:]
            if "Traceback" in err:  # the command is not there (yet) or crashed: its time means nothing
                row["within_target"] = None
        if c["name"].startswith("tablectl"):
            modules, slowest = imports(c["argv"], c["stdin"])
            row["heavy_imports"] = sorted({m.split(".")[0] for m in modules} & set(HEAVY))
            row["slowest_top_level_imports_ms"] = dict(slowest)
        results.append(row)
    print(json.dumps({
        "benchmark": "startup",
        "python": sys.version.split()[0],
        "runs": args.runs,
        "target_s": TARGET_S,
        "baseline": results[0],
        "commands": results[1:],
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
