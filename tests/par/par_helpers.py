"""Shared by the par sheet tests: the installed command and profiles with other rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TABLECTL = Path(sys.executable).with_name("tablectl")
CONFIG = Path(__file__).resolve().parents[2] / "config"


def par(cache: Path, profile: Path, *extra: str, timeout: float = 900) -> subprocess.CompletedProcess:
    env = {**os.environ, "TABLECTL_PAR_CACHE": str(cache)}
    return subprocess.run([str(TABLECTL), "par", "--config", str(profile), *extra], env=env,
                          capture_output=True, text=True, timeout=timeout)


def par_json(cache: Path, profile: Path) -> dict:
    done = par(cache, profile, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def profile_with(tmp: Path, name: str, base: str, replace: dict[str, str]) -> Path:
    """A copy of config/BASE.toml with whole lines replaced (old line -> new line)."""
    text = (CONFIG / f"{base}.toml").read_text()
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp / f"{name}.toml"
    path.write_text(text)
    return path
