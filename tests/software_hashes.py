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
_warm: dict[bytes, Path] = {}   # by the journal key in force: the baseline and the memo are under its HMAC


def seed_software_hashes(data_dir: Path) -> Path:
    """Put the session's warm hash cache into `data_dir` (made if missing); the data dir.

    The hash cache is keyless and shared; the stdlib's manifest and the last start's outcome
    (startcheck.BASELINE, MEMO) are authentic only under the journal key they were made with, as a
    table's own are, so they are made once per key the tests set (TABLECTL_JOURNAL_KEY), from the
    warm hash cache, and never copied under another key (the table would rightly refuse them)."""
    from controller.journal.selfcheck import HASH_CACHE, installed_manifest
    from controller.software.startcheck import BASELINE, MEMO, _key   # the stdlib's manifest, the last outcome
    key = _key()   # the journal key in force
    with _lock:
        if key not in _warm:
            path = Path(tempfile.mkdtemp(prefix="tablectl-hashes-")) / HASH_CACHE
            atexit.register(shutil.rmtree, path.parent, True)
            first = next(iter(_warm.values()), None)
            if first is not None and first.exists():
                shutil.copy2(first, path)
            installed_manifest(path)
            _warm[key] = path
    warm = _warm[key]
    data_dir.mkdir(parents=True, exist_ok=True)
    if warm.exists():   # nothing to copy when the install has no RECORD hashes to cache
        shutil.copy2(warm, data_dir / HASH_CACHE)
    for name in (BASELINE, MEMO):
        if (warm.parent / name).exists():
            shutil.copy2(warm.parent / name, data_dir / name)
    return data_dir
