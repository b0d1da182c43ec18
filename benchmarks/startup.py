"""Start-up time of the one-shot commands, beside a bare interpreter start.

Target (issue 2, part 7): `tablectl settle` of one record and `tablectl poker
replay` of one hand, each from a fresh process, in at most 0.2 s wall. The
baseline `python -c pass` is measured in the same run with the same
interpreter, so the figure that the code controls is the difference.

    .venv/bin/python benchmarks/startup.py [--runs 21] [--bundle] [--bundle-runs 5]

With --bundle (issue 32) it also builds the release bundle (`sh scripts/release DIR`), installs it
offline in a fresh venv (`pip install --no-index --find-links DIR --require-hashes -r
DIR/requirements.lock`) and, beside it in the same run, today's environment: the same bundle with the
lab's extra (numba, llvmlite) as every box carried it before the count table was shipped (334 MB,
0.09 s cached when it was filed). For each it reports the installed size (the venv on disk, and the
packages' own share of it) and the start's software check in a fresh process of that venv: cold (no
hash cache: the first start of a box) and cached (every later start), and a whole power-up with the
cache warm. Needs the index only for the baseline's numba.

One run of --bundle (2026-12-03, the shared 2-core box, eight engineers at work, 3 runs each):
bundle 21 wheels, 26.1 MB, built in 59 s; installed 130.2 MB (numpy 42.7), software check cold
0.87 s, cached 0.14 s, power-up cached 0.33 s; today's 343.1 MB (llvmlite 180.3, numba 32.5, numpy
42.7), 0.83 s, 0.14 s, 0.18 s. The check's distributions are the same in both: an extra is not a
requirement of tablectl, so numba's files are outside the digest either way.

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
import tempfile
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


# Run by each installed venv's interpreter, outside the checkout (the installed package, not the tree):
# the start's software check cold (no cache) once, then cached `runs` times, then whole power-ups.
START_PROBE = r"""
import json, statistics, sys, tempfile, time
from pathlib import Path
from controller.journal import selfcheck
runs = int(sys.argv[1])
with tempfile.TemporaryDirectory() as d:
    data = Path(d) / "data"
    data.mkdir()
    cache = data / selfcheck.HASH_CACHE
    t = time.perf_counter(); manifest, problems = selfcheck.installed_manifest(cache); cold = time.perf_counter() - t
    cached = []
    for _ in range(runs):
        t = time.perf_counter(); selfcheck.installed_manifest(cache); cached.append(time.perf_counter() - t)
    check = selfcheck.power_up(data, mode="test")
    if check.journal is not None:
        check.journal.close()
    power = []
    for _ in range(runs):
        t = time.perf_counter(); check = selfcheck.power_up(data, mode="test"); power.append(time.perf_counter() - t)
        if check.journal is not None:
            check.journal.close()
print(json.dumps({"software_check_cold_s": round(cold, 4),
                  "software_check_cached_median_s": round(statistics.median(cached), 4),
                  "software_check_cached_min_s": round(min(cached), 4),
                  "power_up_cached_median_s": round(statistics.median(power), 4),
                  "distributions": sorted(k[5:].split(" ")[0] for k in manifest if k.startswith("dist:")),
                  "problems": len(problems)}))
"""


def _tree_bytes(path: Path) -> int:
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def _pip(venv: Path, *args: str) -> None:
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "-q", *args], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"pip {' '.join(args)}: {done.stderr.strip()[-2000:]}")


def _installed(venv: Path, runs: int) -> dict:
    """Size and start of one installed venv, measured by its own interpreter in a fresh process."""
    site = next((venv / "lib").glob("python3*/site-packages"))
    done = subprocess.run([str(venv / "bin" / "python"), "-c", START_PROBE, str(runs)], capture_output=True,
                          text=True, cwd=venv, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    if done.returncode:
        raise SystemExit(f"the start probe failed in {venv}: {done.stderr.strip()[-2000:]}")
    probe = json.loads(done.stdout)
    heavy = {n: _tree_bytes(site / n) for n in ("numba", "llvmlite", "numpy") if (site / n).is_dir()}
    return {"installed_mb": round(_tree_bytes(venv) / 1e6, 1), "site_packages_mb": round(_tree_bytes(site) / 1e6, 1),
            "heavy_mb": {n: round(b / 1e6, 1) for n, b in heavy.items()}, **probe}


def bundle_rows(runs: int) -> dict:
    """The release bundle installed offline, beside today's environment (the bundle plus numba), same run."""
    with tempfile.TemporaryDirectory(prefix="tablectl-bundle-") as d:
        out, work = Path(d) / "bundle", Path(d)
        start = time.perf_counter()
        done = subprocess.run(["sh", str(ROOT / "scripts" / "release"), str(out)], capture_output=True, text=True,
                              cwd=ROOT)
        if done.returncode:
            raise SystemExit(f"scripts/release: {done.stderr.strip()[-2000:]}")
        built_s = time.perf_counter() - start
        lock = out / "requirements.lock"
        rows = {}
        for name, extra in (("bundle", None), ("today (bundle + numba, the lab's extra)", "lab")):
            venv = work / ("venv-" + (extra or "bundle"))
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            _pip(venv, "install", "--no-index", "--find-links", str(out), "--require-hashes", "-r", str(lock))
            if extra is not None:
                wheel = next(out.glob("tablectl-*.whl"))
                _pip(venv, "install", "--find-links", str(out), f"tablectl[{extra}] @ {wheel.as_uri()}")
            rows[name] = _installed(venv, runs)
        rows["bundle_wheels"] = len(list(out.glob("*.whl")))
        rows["bundle_mb"] = round(_tree_bytes(out) / 1e6, 1)
        rows["bundle_built_s"] = round(built_s, 1)
        return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--bundle", action="store_true", help="also the release bundle's install beside today's")
    parser.add_argument("--bundle-runs", type=int, default=5)
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
        **({"installed": bundle_rows(args.bundle_runs)} if args.bundle else {}),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
