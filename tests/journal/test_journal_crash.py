"""Crashes at every step of sealing leave a journal that opens clean and whole.

The seal (controller/journal/sealing.py) is kept exact across a checkpoint by writing
an intent first; these tests kill the writer between the steps, tear a page
the checkpoint was writing, and hold a checkpoint up half-way with a reader.
"""

from __future__ import annotations

import json
import os
import threading

import pytest

from controller.journal.store import Journal
from controller.journal.sealing import read_seal, read_wal
from tests.journal.journal_helpers import crash, play_round

DIE_AFTER_INTENT = """
    import controller.journal.sealing as cs   # the seal steps live there (issue 14 item 5)
    real = cs.write_atomic
    def write_then_die(path, data):
        real(path, data)
        if b'"pending":{}' not in data:
            os._exit(0)
    cs.write_atomic = write_then_die
"""


def opens_clean_and_whole(d, rounds: int) -> None:
    with Journal.open(d) as j:
        assert j.problems == []
        assert len(j.round_ids()) == rounds
    seal = read_seal(d / "journal.seal")
    assert seal.pending == {} and (d / "journal.db-wal").stat().st_size == 0
    with Journal.open(d, readonly=True) as j:
        assert j.verify() == []


def test_crash_after_the_intent_before_the_checkpoint(data_dir):
    crash(data_dir, DIE_AFTER_INTENT + """
    for n in range(30):
        play_round(j, n)
    j.seal()
    raise SystemExit("the seal should have died")
    """)
    assert read_seal(data_dir / "journal.seal").pending  # the intent is on disk
    opens_clean_and_whole(data_dir, 30)


@pytest.mark.parametrize("final", [False, True])
def test_crash_after_the_checkpoint_before_the_new_seal(data_dir, final):
    crash(data_dir, f"""
    import controller.journal.store as cj
    cj.Journal._finish_seal = lambda self, intent: os._exit(0)
    for n in range(30):
        play_round(j, n)
    j.seal(final={final})
    """)
    assert read_seal(data_dir / "journal.seal").pending
    if final:
        assert (data_dir / "journal.db-wal").stat().st_size == 0  # the checkpoint did finish
    opens_clean_and_whole(data_dir, 30)


def test_a_page_torn_by_a_power_cut_during_the_checkpoint_is_rewritten(data_dir):
    crash(data_dir, DIE_AFTER_INTENT + """
    for n in range(30):
        play_round(j, n)
    j.seal()
    """)
    seal = read_seal(data_dir / "journal.seal")
    wal = read_wal(data_dir / "journal.db-wal")
    in_log = {f.pgno for f in wal.committed()}
    size = (data_dir / "journal.db").stat().st_size
    torn = [p for p in sorted(seal.pending) if p in in_log and p * 4096 <= size]
    assert torn, "some page under the intent should be in the log"
    with open(data_dir / "journal.db", "r+b") as f:   # half the page written, half not
        f.seek((torn[0] - 1) * 4096 + 2048)
        f.write(os.urandom(2048))
    opens_clean_and_whole(data_dir, 30)


def test_a_checkpoint_held_up_by_a_reader_then_a_crash(data_dir):
    crash(data_dir, """
    import sqlite3
    for n in range(20):
        play_round(j, n)
    reader = sqlite3.connect(f"file:{j.db_path}?mode=ro", uri=True, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM entries").fetchone()   # holds an old snapshot
    for n in range(20, 50):
        play_round(j, n)
    assert j.seal() is False          # backfilled only up to the reader's snapshot
    for n in range(50, 60):
        play_round(j, n)
    """, seal_frames=100_000)
    seal = read_seal(data_dir / "journal.seal")
    assert seal.pending and (data_dir / "journal.db-wal").stat().st_size > 0
    opens_clean_and_whole(data_dir, 60)


def test_a_held_up_checkpoint_completes_later(data_dir):
    import sqlite3
    with Journal.open(data_dir, seal_frames=100_000) as j:
        for n in range(20):
            play_round(j, n)
        reader = sqlite3.connect(f"file:{j.db_path}?mode=ro", uri=True, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM entries").fetchone()
        for n in range(20, 40):
            play_round(j, n)
        assert j.seal() is False
        reader.close()
        assert j.seal() is True
        assert read_seal(data_dir / "journal.seal").pending == {}
    opens_clean_and_whole(data_dir, 40)


def test_crashes_between_seals_many_times(data_dir):
    """Die at a different point of the journal's life each time; every start is clean."""
    for k in range(6):
        crash(data_dir, f"""
    for n in range({k * 7}, {k * 7 + 7}):
        play_round(j, n)
    """, seal_frames=25)
    opens_clean_and_whole(data_dir, 42)


def test_verify_beside_a_running_writer_sees_no_problem(data_dir):
    with Journal.open(data_dir, seal_frames=40) as j:
        play_round(j, 0)
        done = threading.Event()
        failures = []

        def write():
            try:
                for n in range(1, 120):
                    play_round(j, n)
            except Exception as exc:  # pragma: no cover - reported below
                failures.append(exc)
            finally:
                done.set()

        t = threading.Thread(target=write)
        t.start()
        checks = []
        with Journal.open(data_dir, readonly=True) as reader:
            while not done.is_set() or not checks:
                checks.append(reader.verify())
        t.join()
        assert failures == []
        assert [c for c in checks if c] == [] and len(checks) >= 1
    body = json.loads((data_dir / "journal.seal").read_bytes().split(b"\n")[0])
    assert body["pending"] == {}


def test_a_reused_log_with_an_older_generation_behind_opens_clean(data_dir):
    """After a RESTART checkpoint the next writer overwrites the log from the start;
    the older frames left past its end are neither data nor lost commits."""
    crash(data_dir, """
    for n in range(40):
        play_round(j, n)
    assert j.seal()
    play_round(j, 40)
    """, seal_frames=100_000)
    wal = read_wal(data_dir / "journal.db-wal")
    assert len({f.salt for f in wal.frames}) == 2 and len(wal.committed()) < len(wal.frames)
    opens_clean_and_whole(data_dir, 41)
