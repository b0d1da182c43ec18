"""Shared by the report's tests: the installed command and tables played by `tablectl run --autoplay`.

A module of its own (not the conftest) so the tests import it by a name no other
folder's conftest shares.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.software_hashes import seed_software_hashes

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = str(Path(sys.executable).parent / "tablectl")   # the installed command, not the module
ROUNDS = {"caribbean-stud": 40, "casino-war": 40, "texas-holdem": 24}


def tablectl(*args: str, timeout: float = 120, check: bool = True, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([TABLECTL, *args], capture_output=True, text=True, timeout=timeout, **kw)
    if check:
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done


def profile_without_screen(game: str, directory: Path, table_id: str | None = None) -> Path:
    """The game's profile from config/, without its [screen] (no port taken) and maybe renamed."""
    text = (ROOT / "config" / f"{game}.toml").read_text().split("[screen]")[0]
    if table_id is not None:
        text = text.replace('\nid = "', f'\nid = "{table_id}"\n# was: id = "', 1)
    path = directory / f"{table_id or game}.toml"
    path.write_text(text)
    return path


def play(game: str, directory: Path, rounds: int, seed: int = 5, table_id: str | None = None) -> Path:
    """A table of `game` played for `rounds` rounds by autoplay; its journal directory."""
    data = directory / (table_id or game)
    profile = profile_without_screen(game, directory, table_id)
    seed_software_hashes(data)
    done = tablectl("run", "--config", str(profile), "--data-dir", str(data), "--autoplay", "--rounds",
                    str(rounds), "--seed", str(seed), timeout=180)
    assert len(done.stdout.splitlines()) == rounds
    return data


def report_json(data: Path, *extra: str) -> dict:
    return json.loads(tablectl("report", "--data-dir", str(data), "--from", "2000-01-01", "--json", "--demo",
                                *extra).stdout)
