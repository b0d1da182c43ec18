"""Shared by the certification tests: the installed command, a screen-less profile, the journal's entries."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = str(Path(sys.executable).parent / "tablectl")   # the installed command, not the module
WAIT = 60.0


def data_dir(path: Path) -> Path:
    """A new data directory with the session's warm software-hash cache (tests/software_hashes.py)."""
    from tests.software_hashes import seed_software_hashes
    return seed_software_hashes(path)


def tablectl(*args: str, timeout: float = 120, check: bool = True, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([TABLECTL, *[str(a) for a in args]], capture_output=True, text=True, timeout=timeout, **kw)
    if check:
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done


def screenless(game: str, directory: Path) -> Path:
    """The game's shipped profile without its [screen] (no port taken): every device left out."""
    path = directory / f"{game}.toml"
    path.write_text((ROOT / "config" / f"{game}.toml").read_text().split("[screen]")[0])
    return path


def events(data: Path, *extra: str) -> list[dict]:
    return json.loads(tablectl("events", "--json", "--data-dir", data, *extra).stdout)["events"]


def first_round(out: Path, proc: subprocess.Popen, what: str) -> None:
    """Wait (bounded) until the autoplayed table printed a closed round."""
    deadline = time.monotonic() + WAIT
    while '"round"' not in (out.read_text() if out.exists() else ""):
        assert proc.poll() is None, f"{what}: the table stopped ({proc.returncode})"
        assert time.monotonic() < deadline, f"{what}: no round closed"
        time.sleep(0.05)
