"""The par sheet computed beside a running table, never in its way.

When the table's screens start with rules whose sheet is not cached (a new table,
or a rules change, which takes a restart with the new profile), one job computes
it in a separate process at the lowest CPU priority, so no round waits for it
and the dealer's console keeps its pace on a two-core box. Jobs take one lock in
the cache directory, so two tables' jobs (or a job of each rules change) run one
after the other and the second finds the count table already cached. The result
reaches the screens through the cache only, written whole (cache.py).

TABLECTL_PAR_BACKGROUND=0 turns the job off (the test suite does, but for the test
of this module; a box may, to keep even idle CPU for something else).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys

from controller.par import cache


def enabled(environ=None) -> bool:
    env = os.environ if environ is None else environ
    return env.get("TABLECTL_PAR_BACKGROUND", "1").lower() not in ("0", "off", "no", "false")


def start(rules: dict) -> subprocess.Popen | None:
    """Start the job for these rules unless their sheet is cached or jobs are off; never waits."""
    if not enabled() or cache.load_json(cache.key("sheet", rules)) is not None:
        return None
    return subprocess.Popen(
        [sys.executable, "-m", "controller.par.background", json.dumps(rules)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)


def _job(rules: dict) -> int:
    from controller.par.sheet import compute_rules

    try:
        os.nice(19)
    except OSError:
        pass
    lock_path = cache.directory() / ".compute.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # after another job, which may have cached what we need
        compute_rules(rules)
    return 0


if __name__ == "__main__":
    sys.exit(_job(json.loads(sys.argv[1])))
