"""The par sheet cache: results kept under a hash of the rules that determine them.

A sheet depends only on the game's rules (paytable, bet multiple, progressive
awards, decks, odds, rake), not on which table or profile file asked, so two
tables with the same rules share one entry and a rules change misses the cache.
The Caribbean stud count table depends on less still (the deck and the dealer's
qualifier), so it is kept on its own: a new paytable reuses it and answers in
well under a second. Files are written whole to a temporary name and renamed,
so a reader (the supervisor's screen, `config check`) never sees half a file.

The directory: $TABLECTL_PAR_CACHE, else systemd's $CACHE_DIRECTORY/par, else
$XDG_CACHE_HOME/tablectl/par or ~/.cache/tablectl/par.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

VERSION = 2  # bump when a computation changes its results or its format


def directory(environ=None) -> Path:
    env = os.environ if environ is None else environ
    if env.get("TABLECTL_PAR_CACHE"):
        return Path(env["TABLECTL_PAR_CACHE"])
    if env.get("CACHE_DIRECTORY"):
        return Path(env["CACHE_DIRECTORY"].split(":")[0]) / "par"
    xdg = env.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path(env.get("HOME") or Path.home()) / ".cache"
    return base / "tablectl" / "par"


def key(kind: str, rules: dict) -> str:
    """The file stem for these rules: kind and a hash of their canonical JSON."""
    text = json.dumps({"version": VERSION, "kind": kind, "rules": rules}, sort_keys=True, separators=(",", ":"))
    return f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:24]}"


def _write(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def load_json(stem: str) -> dict | None:
    try:
        return json.loads((directory() / f"{stem}.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return None


def store_json(stem: str, data: dict) -> Path:
    path = directory() / f"{stem}.json"
    _write(path, lambda f: f.write(json.dumps(data, indent=1, sort_keys=True).encode()))
    return path


def load_arrays(stem: str):
    """The arrays of an .npz entry, or None."""
    import numpy as np

    try:
        with np.load(directory() / f"{stem}.npz") as z:
            return {k: z[k] for k in z.files}
    except (FileNotFoundError, ValueError, OSError):
        return None


def store_arrays(stem: str, arrays: dict) -> Path:
    import numpy as np

    path = directory() / f"{stem}.npz"
    _write(path, lambda f: np.savez_compressed(f, **arrays))
    return path
