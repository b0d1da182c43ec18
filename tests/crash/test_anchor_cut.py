"""A WAL cut after a kill never takes away a round the dealer was told to pay (issue 26, item 6).

The break: the anchor was written after a round's close from a task of its own,
while its line was already printed and the screens already said "pay"; under
load it ran some 150 ms behind. Killed with SIGKILL just after a round's line,
the table's log (-wal) cut back to before that round's settlement, the next start
passed the anchor check and dealt that round id a second time. Now the line,
the screens and the answer come only once the controller has acknowledged the
anchor naming the settlement's entry, so a cut that takes a paid round away
always leaves the journal behind its anchor: an integrity fault.

`tablectl run --autoplay` forked from the crash lab's zygote, on emulated devices
whose controller is slow to take an anchor (tests/crash/slow_anchor.py), with a
journal key and the controller's memory in a file outside the data directory;
SQLite's log is cut at a commit frame, its index (-shm) removed, as a disk
tool or an interrupted copy would leave it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import threading
import time
from pathlib import Path

from controller.journal.sealing import PAGE_SIZE, read_wal
from tests.crash.crash_lab import PROFILES, Zygote, freeze
from tests.security.anchor_helpers import make_key

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 3          # rounds printed before the kill
PATIENCE = 180.0    # seconds for a life of the table (a start hashes the software, slow on a busy box)


def printed(out: Path) -> list[str]:
    """The rounds the table printed as settled, in order."""
    lines = [json.loads(x) for x in out.read_text().splitlines() if x.startswith('{"round"')]
    return [x["round"] for x in lines]


def copy_journal(data: Path, scratch: Path) -> Path:
    """The journal's own files, to read with plain SQLite (which may write them as it reads)."""
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    for name in ("journal.db", "journal.db-wal"):
        shutil.copy(data / name, scratch / name)
    return scratch


def holds(data: Path, round_id: str) -> bool:
    conn = sqlite3.connect(data / "journal.db")
    try:
        return conn.execute("SELECT count(*) FROM entries WHERE round_id = ? AND kind = 'round-record'",
                            (round_id,)).fetchone()[0] > 0
    finally:
        conn.close()


def cut_before(data: Path, round_id: str, scratch: Path) -> int:
    """Cut the log at its last commit that leaves `round_id`'s record out; the commits cut."""
    wal = read_wal(data / "journal.db-wal")
    current = []
    for frame in wal.frames:   # this generation's frames come first; older ones may follow them
        if frame.salt != wal.salt:
            break
        current.append(frame)
    commits = [f for f in current if f.commit]
    for cut, frame in enumerate(reversed(commits), start=1):
        copy_journal(data, scratch)
        with open(scratch / "journal.db-wal", "r+b") as f:
            f.truncate(frame.offset + PAGE_SIZE)
        if not holds(scratch, round_id):
            with open(data / "journal.db-wal", "r+b") as f:
                f.truncate(frame.offset + PAGE_SIZE)
            (data / "journal.db-shm").unlink(missing_ok=True)
            return cut
    raise AssertionError(f"round {round_id}'s record is not in the log: nothing to cut")


def anchored(nvram: Path) -> int:
    raw = bytes.fromhex(json.loads(nvram.read_text())["anchor"])
    return int.from_bytes(raw[16:24], "big")


def recorded_at(data: Path, scratch: Path) -> dict[str, int]:
    copy_journal(data, scratch)
    conn = sqlite3.connect(scratch / "journal.db")
    try:
        return dict(conn.execute("SELECT round_id, seq FROM entries WHERE kind = 'round-record'").fetchall())
    finally:
        conn.close()


def test_a_wal_cut_after_a_kill_never_takes_away_a_paid_round(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLECTL_JOURNAL_KEY", str(make_key(tmp_path / "keys")))
    nvram = tmp_path / "nvram.json"
    monkeypatch.setenv("TABLECTL_SIM_PROGRESSIVE_NVRAM", str(nvram))   # outside the data directory, on main too
    data = tmp_path / "data"
    argv = ["run", "--config", str(PROFILES["caribbean-stud"]), "--data-dir", str(data), "--autoplay",
            "--seed", "7"]
    runner = Zygote(frozen=freeze(tmp_path / "software"), preload=("tests.crash.slow_anchor",), path=(str(ROOT),))
    try:
        out = tmp_path / "first.out"
        pid = runner.start(argv, out, tmp_path / "first.log")
        deadline = time.monotonic() + PATIENCE
        while not out.exists() or len(printed(out)) < ROUNDS:
            assert time.monotonic() < deadline, f"the table printed {printed(out) if out.exists() else []}"
            time.sleep(0.005)
        os.kill(pid, signal.SIGKILL)
        assert runner.wait(pid) == -signal.SIGKILL
        paid = printed(out)
        # before any cut: every round printed as settled lies inside the controller's anchor
        at, held = recorded_at(data, tmp_path / "scratch"), anchored(nvram)
        outside = [(rid, at[rid]) for rid in paid if at[rid] > held]
        cut = cut_before(data, paid[-1], tmp_path / "scratch")
        again = tmp_path / "again.out"
        pid = runner.start([*argv, "--rounds", "2"], again, tmp_path / "again.log")
        timer = threading.Timer(PATIENCE, os.kill, (pid, signal.SIGKILL))
        timer.start()
        try:
            rc = runner.wait(pid)
        finally:
            timer.cancel()
    finally:
        runner.close()
    dealt_again = sorted(set(paid) & set(printed(again)))
    assert dealt_again == [], (f"{cut} commit(s) cut from the log took round {paid[-1]} away unnoticed: "
                               f"rounds dealt a second time {dealt_again}")
    assert outside == [], f"rounds printed as settled beyond the anchor at entry {held}: {outside}"
    faults = [json.loads(x)["fault"] for x in again.read_text().splitlines() if x.startswith('{"fault"')]
    assert rc == 3 and faults, (rc, again.read_text()[-800:], (tmp_path / "again.log").read_text()[-800:])
    assert "anchored entry" in faults[-1]["reason"] and "(-wal) was lost or cut" in faults[-1]["reason"]
