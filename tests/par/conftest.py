"""The standard Caribbean stud sheet, counted once per session by the installed command.

The full count is the longest single piece of work of the suite (tens of seconds on two cores,
and numba compiles the counting functions first on a fresh checkout). So it starts in the
background as soon as the tests are collected, when the session will ask for it (not under
pytest-xdist, whose workers do not know yet which of them runs tests/par), at a lower priority
so that it takes the idle core and leaves the tests before tests/par theirs. `stud_cache` then
waits for that same command, back at normal priority; if the priority cannot be raised again
(an unprivileged user), the background count is stopped and the count runs in the foreground
as it did before, its numba compilation already cached. The assertions are the same either way:
the command's exit status and its --json output.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.par.par_helpers import CONFIG, TABLECTL, par

BACKGROUND_NICE = 10
# The in-process tests of test_par_stud_counts compile the direct count (the second algorithm)
# too; the background compiles it on a small deck, the same argument types, into numba's cache.
_COMPILE_DIRECT = ("import numpy as np; from controller.par import stud_counts as s; "
                   "p = s.Prepared(s.FULL_DECK[:16]); p.count_directly(np.array([0, 1]))")
_started: dict = {}


def _lower_priority() -> None:
    os.nice(BACKGROUND_NICE)


# The count, then the direct count's compilation; the count's exit status kept in a file.
_SCRIPT = ('TABLECTL_PAR_CACHE="$1" "$2" par --config "$3" --json > "$4/out" 2> "$4/err"; echo $? > "$4/rc"; '
           'exec "$5" -c "$6" > /dev/null 2>&1')


def pytest_collection_finish(session):
    if _started or hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return
    if not any("stud_cache" in getattr(item, "fixturenames", ()) for item in session.items):
        return
    base = Path(tempfile.mkdtemp(prefix="tablectl-par-count-"))
    cache = base / "cache"
    cache.mkdir()
    proc = subprocess.Popen(["sh", "-c", _SCRIPT, "par-count", str(cache), str(TABLECTL),
                             str(CONFIG / "caribbean-stud.toml"), str(base), sys.executable, _COMPILE_DIRECT],
                            preexec_fn=_lower_priority, start_new_session=True)
    _started.update(base=base, cache=cache, proc=proc)


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def pytest_unconfigure(config):
    proc = _started.get("proc")
    if proc is not None and proc.poll() is None:
        _stop(proc)
    if _started:
        shutil.rmtree(_started["base"], ignore_errors=True)


def _background_count() -> tuple[Path, subprocess.CompletedProcess] | None:
    """The background command's result once it ends, or None when it had to be given up."""
    proc = _started.pop("proc", None)
    if proc is None:
        return None
    if proc.poll() is None:
        try:   # the whole process group: the shell, the command and the compilation after it
            os.setpriority(os.PRIO_PGRP, proc.pid, 0)
        except OSError:   # lowering a niceness needs privilege: count in the foreground instead
            _stop(proc)
            return None
    proc.wait(timeout=900)
    base = _started["base"]
    rc = (base / "rc").read_text().strip() if (base / "rc").exists() else "-1"
    done = subprocess.CompletedProcess(["tablectl", "par"], int(rc), (base / "out").read_text(),
                                       (base / "err").read_text())
    return _started["cache"], done


@pytest.fixture(scope="session")
def stud_cache(tmp_path_factory):
    """(cache directory, the --json sheet of config/caribbean-stud.toml) after one full count."""
    background = _background_count()
    if background is None:
        cache = tmp_path_factory.mktemp("par-cache")
        done = par(cache, CONFIG / "caribbean-stud.toml", "--json")
    else:
        cache, done = background
    assert done.returncode == 0, done.stderr
    return cache, json.loads(done.stdout)


@pytest.fixture
def counted_cache(stud_cache, tmp_path):
    """A fresh cache directory holding only the count table (no sheet)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    for table in stud_cache[0].glob("stud-counts-*.npz"):
        shutil.copy2(table, cache / table.name)
    return cache
