"""Cost of the power-up software check (issue 19), beside the check it replaced, and of the
verification on demand (issue 28, `tablectl software verify`) beside the start's cached check.

The check now hashes every installed file of tablectl and of each dependency
and compares it with its wheel's RECORD (controller/selfcheck.installed_manifest).
The baseline, measured in the same run and process, is the previous check:
the files of the controller and drivers packages only
(selfcheck.directory_manifest of the package roots). The difference is what the
wider coverage costs each start; there is no target beyond "well under the
service's TimeoutStartSec=60s", and the figure is reported, not asserted.

    .venv/bin/python benchmarks/software_digest.py [--runs 11]

Prints one JSON object: median and min seconds of each, the number of files and
bytes each covers, and the ratio. Run it on the box's own disk: the first run
reads from disk, the rest mostly from the page cache (reported separately).
`installed_distributions_cached` is a start after the first, which is what each start of a table
pays: one stat pass over every file the check depends on (the install's tree, the standard library,
the interpreter; controller/software/startcheck.py), and while it names the state the last check
saw, that check's outcome, kept beside the journal. Its target is at most 0.2 s, median and p90
(`start_check_cached`, reported beside the packages-only baseline of the same run, not asserted:
timing is not a contract). `start_check_moved` is a start after something moved (the memo not taken:
the hash cache's files read only where their stat moved, the standard library against its manifest). `software_verify` is the seeded HMAC
over every file the table runs, read afresh (no cache: the inspector's figure trusts nothing), and
`power_up_cached` a whole power-up (software and journal) on a new data directory with a warm cache.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from controller.journal import selfcheck
from controller.software import startcheck


def timed(fn, runs: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def close(check: selfcheck.SelfCheck) -> None:
    if check.journal is not None:
        check.journal.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--verify-runs", type=int, default=3)
    parsed = ap.parse_args()
    runs, verify_runs = parsed.runs, parsed.verify_runs
    base_t, base = timed(lambda: selfcheck.directory_manifest(selfcheck.package_roots()), runs)
    new_t, (manifest, problems) = timed(selfcheck.installed_manifest, runs)
    with tempfile.TemporaryDirectory() as d:
        cache = Path(d) / selfcheck.HASH_CACHE
        selfcheck.installed_manifest(cache)   # the first start fills the cache
        cached_t, (cached_manifest, _) = timed(lambda: selfcheck.installed_manifest(cache), runs)
        memo = Path(d) / startcheck.MEMO

        def moved() -> object:
            memo.unlink(missing_ok=True)   # as after a change: the full check, through the hash cache
            return selfcheck.installed_manifest(cache)
        moved_t, _ = timed(moved, max(3, runs // 3))
        selfcheck.installed_manifest(cache)
        data = Path(d) / "data"
        data.mkdir()
        shutil.copy2(cache, data / selfcheck.HASH_CACHE)
        close(selfcheck.power_up(data))   # the first start records the release
        power_t, _ = timed(lambda: close(selfcheck.power_up(data)), runs)
    assert cached_manifest == manifest, "the cache changed the digest"
    from controller.software.verify import verify
    verify_t, verified = timed(lambda: verify(b"\x0b\xad\xc0\xde"), verify_runs)
    dists = sorted(k[5:] for k in manifest if k.startswith("dist:"))
    base_bytes = sum(p.stat().st_size for r in selfcheck.package_roots() for p in Path(r).rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts)
    print(json.dumps({
        "baseline_packages_only": {"median_s": round(statistics.median(base_t), 4), "min_s": round(min(base_t), 4),
                                   "first_s": round(base_t[0], 4), "files": len(base), "bytes": base_bytes},
        "installed_distributions": {"median_s": round(statistics.median(new_t), 4), "min_s": round(min(new_t), 4),
                                    "first_s": round(new_t[0], 4), "distributions": dists,
                                    "manifest_entries": len(manifest), "problems": len(problems)},
        "installed_distributions_cached": {"median_s": round(statistics.median(cached_t), 4),
                                           "min_s": round(min(cached_t), 4)},
        "start_check_cached": {"median_s": round(statistics.median(cached_t), 4), "p90_s": round(p90(cached_t), 4),
                               "max_s": round(max(cached_t), 4), "target_s": 0.2,
                               "baseline_median_s": round(statistics.median(base_t), 4)},
        "start_check_moved": {"median_s": round(statistics.median(moved_t), 4), "p90_s": round(p90(moved_t), 4)},
        "power_up_cached": {"median_s": round(statistics.median(power_t), 4), "p90_s": round(p90(power_t), 4),
                            "min_s": round(min(power_t), 4)},
        "software_verify": {"median_s": round(statistics.median(verify_t), 4), "min_s": round(min(verify_t), 4),
                            "first_s": round(verify_t[0], 4), "files": len(verified.manifest),
                            "problems": len(verified.problems), "runs": verify_runs},
        "ratio_verify_to_start_cached": round(statistics.median(verify_t) / statistics.median(cached_t), 1),
        "ratio_median": round(statistics.median(new_t) / statistics.median(base_t), 2),
        "ratio_median_cached": round(statistics.median(cached_t) / statistics.median(base_t), 2),
        "runs": runs,
    }, indent=1))


if __name__ == "__main__":
    main()
