"""Shared set-up for the journal trust tests: the installed CLI, a key outside the data directory."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

TABLECTL = shutil.which("tablectl", path=str(Path(sys.executable).parent)) or "tablectl"
HERE = Path(__file__).resolve().parent
STUD = str(HERE / "stud.toml")   # profiles without a screen: no port shared with other tables on the box
WAR = str(HERE / "war.toml")


def make_key(directory: Path) -> Path:
    """A journal key file as `tablectl system install` makes it: 32 random bytes, owner-only."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "journal.key"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, secrets.token_bytes(32).hex().encode() + b"\n")
    finally:
        os.close(fd)
    return path


def env_for(key: Path | None = None, nvram: Path | None = None) -> dict:
    env = dict(os.environ)
    env.pop("TABLECTL_JOURNAL_KEY", None)
    env.pop("TABLECTL_SIM_PROGRESSIVE_NVRAM", None)
    if key is not None:
        env["TABLECTL_JOURNAL_KEY"] = str(key)
    if nvram is not None:
        env["TABLECTL_SIM_PROGRESSIVE_NVRAM"] = str(nvram)
    return env


def tablectl(*args: str, env: dict | None = None, timeout: float = 60,
             input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([TABLECTL, *args], capture_output=True, text=True, env=env, timeout=timeout,
                          input=input)
