"""Cost of the power-up software check (issue 19), beside the check it replaced.

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
`installed_distributions_cached` is a start after the first: the files the
kernel says are untouched come from the hash cache beside the journal
(selfcheck.HashCache), which is what each start of a table pays.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from controller.journal import selfcheck
def timed(fn, runs: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=11)
    runs = ap.parse_args().runs
    base_t, base = timed(lambda: selfcheck.directory_manifest(selfcheck.package_roots()), runs)
    new_t, (manifest, problems) = timed(selfcheck.installed_manifest, runs)
    with tempfile.TemporaryDirectory() as d:
        cache = Path(d) / selfcheck.HASH_CACHE
        selfcheck.installed_manifest(cache)   # the first start fills the cache
        cached_t, (cached_manifest, _) = timed(lambda: selfcheck.installed_manifest(cache), runs)
    assert cached_manifest == manifest, "the cache changed the digest"
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
        "ratio_median": round(statistics.median(new_t) / statistics.median(base_t), 2),
        "ratio_median_cached": round(statistics.median(cached_t) / statistics.median(base_t), 2),
        "runs": runs,
    }, indent=1))


if __name__ == "__main__":
    main()
