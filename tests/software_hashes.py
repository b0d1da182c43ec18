"""A warm cache of the installed files' hashes for the tables the tests start in new data directories.

Every table start checks the software: it hashes each installed file (some 300 MB: numba,
llvmlite, pokerkit, ...) unless the data directory holds `software-hashes.json` from an earlier
start (controller.journal.selfcheck.HashCache). A test's data directory is new, so each start paid the
full hashing, seconds on a loaded box. The cache is made once per test process and copied into
the data directory before the table starts; it is the product's own cache, checked by the
product the same way (device, inode, size, mtime and ctime of every file), so a file changed
under it is still hashed and found. Tests of the software check itself do not use it.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from pathlib import Path

_lock = threading.Lock()
_warm: list[Path] = []


def seed_software_hashes(data_dir: Path) -> Path:
    """Put the session's warm hash cache into `data_dir` (made if missing); the data dir."""
    from controller.journal.selfcheck import HASH_CACHE, installed_manifest
    with _lock:
        if not _warm:
            path = Path(tempfile.mkdtemp(prefix="tablectl-hashes-")) / HASH_CACHE
            installed_manifest(path)
            _warm.append(path)
            atexit.register(shutil.rmtree, path.parent, True)
    data_dir.mkdir(parents=True, exist_ok=True)
    if _warm[0].exists():   # nothing to copy when the install has no RECORD hashes to cache
        shutil.copy2(_warm[0], data_dir / HASH_CACHE)
    from controller.software.startcheck import BASELINE, MEMO   # the stdlib's manifest, the last outcome
    for name in (BASELINE, MEMO):
        if (_warm[0].parent / name).exists():
            shutil.copy2(_warm[0].parent / name, data_dir / name)
    return data_dir
