"""A small file replaced so that a crash leaves the old one or the new one, both whole.

The journal's seal, the software check's hashes and the supervisors' lock-out
counts all need it; it lives here, apart from the journal, so that a screen can
keep its own small state durable without importing the journal (docs/ARCHITECTURE.md,
"Layers").
"""

from __future__ import annotations

import os
from pathlib import Path


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` so that a crash leaves either the old or the new file, both whole."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)
