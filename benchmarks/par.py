"""The Caribbean stud count table (controller/games/caribbean_stud/par/counts.py) beside a plain numpy pass.

Prints one JSON line. "Ours" is the whole count on 52 cards as `tablectl par --recount` runs it
(the table itself reads the count the package ships): hand values, suit classes, the sorted superset table and the
inclusion-exclusion over every (player class, up card) pair, timed end to end after
numba's compilation (done on a reduced deck first and reported apart). The baseline
does the same work the plain way, vectorised with numpy: for each player class,
mask the 1,533,939 dealer hands that avoid its cards, classify them against it and
count each outcome by up card with bincount. The baseline's pass over all 134,459
classes would take hours, so it is timed on `--sample` classes (the same ones are
counted by ours and must agree) and its full time is that rate x 134,459, reported
as an extrapolation. Ours is also timed on the sample, for a like-for-like rate.

    .venv/bin/python benchmarks/par.py [--sample 20] [--seed 21]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np


def numpy_pass(prep, rows, qualify):
    """(not qualifying, lower, tied) by up card for each class in rows: the plain numpy baseline."""
    from controller.games.caribbean_stud.par.counts import _unrank

    n = prep.n
    hands = np.empty((len(prep.values), 5), dtype=np.int64)
    pos = np.empty(5, dtype=np.int64)
    for h in range(len(prep.values)):  # once, before timing (see main)
        _unrank(h, 5, prep.binom, pos)
        hands[h] = pos
    values = prep.values.astype(np.int64)

    def run():
        out = []
        for i in rows:
            p = prep.reps[i]
            vp = values[_colex_py(p, prep.binom)]
            keep = ~np.isin(hands, p).any(axis=1)
            h, v = hands[keep], values[keep]
            outcome = np.where(v < qualify, 0, np.where(v < vp, 1, np.where(v == vp, 2, 3)))
            counts = np.zeros(n * 4, dtype=np.int64)
            for c in range(5):
                counts += np.bincount(h[:, c] * 4 + outcome, minlength=n * 4)
            counts = counts.reshape(n, 4)
            ups = np.setdiff1d(np.arange(n), p)
            out.append(counts[ups, :3])
        return out
    return run


def _colex_py(p, binom) -> int:
    return int(sum(binom[int(x), k + 1] for k, x in enumerate(p)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args(argv)

    from controller.games.caribbean_stud.par import counts as stud_counts
    t0 = time.perf_counter()
    stud_counts.Prepared(stud_counts.FULL_DECK[:20]).count()   # numba compiles (or loads its cache)
    compile_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    prep = stud_counts.Prepared(stud_counts.FULL_DECK)
    full = prep.count()
    ours_s = time.perf_counter() - t0
    classes = len(prep.reps)

    rows = np.sort(np.random.default_rng(args.seed).choice(classes, args.sample, replace=False))
    t0 = time.perf_counter()
    sample = prep.count(rows=rows)
    ours_sample_s = time.perf_counter() - t0

    run = numpy_pass(prep, rows, stud_counts.ACE_KING)
    t0 = time.perf_counter()
    base = run()
    numpy_sample_s = time.perf_counter() - t0
    for j, got in enumerate(base):
        want = np.stack([sample.not_qualifying[j], sample.lower[j], sample.tied[j]], axis=1)
        if not np.array_equal(got, want) or not np.array_equal(want[:, 0], full.not_qualifying[rows[j]]):
            print(json.dumps({"error": f"counts differ for class {int(rows[j])}"}))
            return 1
    numpy_full_s = numpy_sample_s / args.sample * classes
    print(json.dumps({
        "benchmark": "par-caribbean-stud-count-table",
        "classes": classes, "up_cards": 47, "hole_sets": int(full.hole_sets), "deals": full.deals,
        "ours_full_s": round(ours_s, 2),
        "ours_compile_or_cache_load_s": round(compile_s, 2),
        "sample_classes": args.sample,
        "ours_sample_s": round(ours_sample_s, 3),
        "numpy_sample_s": round(numpy_sample_s, 3),
        "numpy_full_s_extrapolated": round(numpy_full_s, 1),
        "speedup_full": round(numpy_full_s / ours_s, 1),
        "cpus": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
