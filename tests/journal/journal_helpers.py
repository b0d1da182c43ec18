"""Shared by the journal tests: a clock, rounds to journal, byte flips, crashes."""

from __future__ import annotations

import hashlib
import os
import struct
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

from controller.journal.store import Journal

START = datetime(2026, 5, 9, 12, 0, tzinfo=timezone.utc)


class Clock:
    """A clock that moves one millisecond per reading, so entries' times are known."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


def play_round(j: Journal, n: int, *, seats: int = 3, finish: bool = True, meter: list | None = None,
               one_by_one: bool = False) -> str:
    """Journal one round of events as the table would; returns its id.

    The entries go in one transaction unless `one_by_one` (as the live table
    appends them): the chain is the same, the tests just spend less time in fsync.
    """
    rid = f"R{n:06d}"
    items = [("round-opened", {"game": "caribbean-stud", "seats": list(range(1, seats + 1))}, rid)]
    items += [("wager", {"seat": s, "ante": 500, "progressive": s == 1}, rid) for s in range(1, seats + 1)]
    items.append(("lockout", {"by": "dealer"}, rid))
    items += [("stack", {"to": s, "cards": ["As", "Kd", "7h", "4c", "2s"]}, rid)
              for s in [*range(1, seats + 1), "dealer"]]
    if finish:
        items.append(("round-record", {"record": {"game": "caribbean-stud", "seats": seats},
                                       "settlement": {"net": -500 * seats}}, rid))
        if meter is not None:
            meter[0] += 70
            items.append(("meter", {"meter": "progressive", "before": meter[0] - 70, "after": meter[0],
                                    "reason": "contribution"}, rid))
            items.append(("snapshot", {"meters": {"progressive": meter[0]}, "round": None, "rounds": n + 1},
                          None))
    if one_by_one:
        for kind, payload, round_id in items:
            j.append(kind, payload, round_id=round_id)
    else:
        j.append_many(items)
    return rid


def flip(path: Path, offset: int, xor: int = 0xFF) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ xor]))


def digests(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.iterdir()) if p.is_file()}


def crash(data_dir: Path, body: str, *, seal_frames: int = 1000) -> None:
    """Run `body` in a fresh process with `j` the open journal, then die without closing it."""
    code = textwrap.dedent("""
        import os, sys
        sys.path.insert(0, {helpers!r})
        from controller.journal.store import Journal
        from tests.journal.journal_helpers import Clock, play_round
        j = Journal.open({d!r}, clock=Clock(), seal_frames={sf})
        assert not j.problems, j.problems
    """).format(helpers=str(Path(__file__).resolve().parents[2]), d=str(data_dir), sf=seal_frames)
    code += textwrap.dedent(body) + "\nos._exit(0)\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def unallocated_offsets(db: Path, page_size: int = 4096) -> list[tuple[int, int]]:
    """(start, end) byte ranges of b-tree pages' unallocated space: bytes no query reads."""
    data = db.read_bytes()
    ranges = []
    for base in range(0, len(data), page_size):
        hdr = base + (100 if base == 0 else 0)
        kind = data[hdr]
        if kind not in (0x02, 0x05, 0x0A, 0x0D):
            continue
        ncells, content = struct.unpack_from(">HH", data, hdr + 3)
        content = content or 65536
        start = hdr + (12 if kind in (0x02, 0x05) else 8) + 2 * ncells
        end = base + content
        if end - start > 0:
            ranges.append((start, end))
    return ranges


def run_in_process(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
