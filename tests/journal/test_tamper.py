"""Tamper and damage detection: flipped bytes anywhere, removed, changed and reordered rows.

"A single flipped byte anywhere in the journal is detected at start" (issue 8):
each test damages a copy of a cleanly closed journal, or of one whose writer
died, and opens it as the table does at power-up.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from controller.journal.store import Journal, JournalUnreadable
from controller.journal.sealing import read_wal
from tests.journal.journal_helpers import crash, flip, play_round, unallocated_offsets


def problems_at_start(d: Path) -> list:
    """What the power-up check reports: its problems, or the reason it cannot open."""
    try:
        j = Journal.open(d)
    except JournalUnreadable as exc:
        return exc.problems
    try:
        return j.problems
    finally:
        j.close()


def damaged_copy(src: Path, dst: Path, name: str, offset: int, xor: int) -> Path:
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    flip(dst / name, offset, xor)
    return dst


def test_every_flipped_byte_at_many_random_offsets_is_detected(closed_journal, tmp_path):
    size = (closed_journal / "journal.db").stat().st_size
    rng = random.Random(8)
    offsets = sorted({rng.randrange(size) for _ in range(150)} | {0, 17, 99, 100, size - 1})
    missed = []
    for offset in offsets:
        d = damaged_copy(closed_journal, tmp_path / "d", "journal.db", offset, rng.randrange(1, 256))
        if not problems_at_start(d):
            missed.append(offset)
    assert missed == []


def test_flips_in_space_no_query_reads_are_detected(closed_journal, tmp_path):
    """Unallocated bytes between cells: SQLite's own integrity check cannot see them."""
    gaps = unallocated_offsets(closed_journal / "journal.db")
    assert gaps, "the test journal should have free space in its pages"
    rng = random.Random(5)
    picks = [rng.randrange(lo, hi) for lo, hi in rng.sample(gaps, min(25, len(gaps)))]
    for offset in picks:
        d = damaged_copy(closed_journal, tmp_path / "d", "journal.db", offset, 0x01)
        conn = sqlite3.connect(f"file:{d / 'journal.db'}?mode=ro", uri=True)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]  # invisible to SQLite
        finally:
            conn.close()
        found = problems_at_start(d)
        assert [p.code for p in found] == ["seal-mismatch"], offset
        lo, hi = map(int, found[0].where.split("bytes ")[1].split("-"))
        assert lo <= offset <= hi


def test_a_flipped_byte_in_the_seal_is_detected(closed_journal, tmp_path):
    size = (closed_journal / "journal.seal").stat().st_size
    rng = random.Random(3)
    for offset in [0, size - 1, *rng.sample(range(size), 20)]:
        d = damaged_copy(closed_journal, tmp_path / "d", "journal.seal", offset, 0x20)
        assert [p.code for p in problems_at_start(d)][:1] == ["seal-corrupt"], offset


def test_a_missing_seal_is_a_problem(journal_copy):
    (journal_copy / "journal.seal").unlink()
    assert [p.code for p in problems_at_start(journal_copy)] == ["seal-missing"]


def test_a_seal_from_another_journal_is_a_problem(journal_copy, tmp_path):
    other = tmp_path / "other"
    Journal.open(other).close()
    shutil.copy(other / "journal.seal", journal_copy / "journal.seal")
    assert [p.code for p in problems_at_start(journal_copy)] == ["seal-foreign"]


def _foreign_edit(d: Path, *statements: str) -> None:
    """Someone edits the closed journal with sqlite3 (dropping the append-only triggers)."""
    conn = sqlite3.connect(d / "journal.db", isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.execute("DROP TRIGGER entries_no_delete")
    for s in statements:
        conn.execute(s)
    conn.close()


def test_a_deleted_row_is_detected(journal_copy):
    _foreign_edit(journal_copy, "DELETE FROM entries WHERE seq = 500")
    assert problems_at_start(journal_copy)  # the schema and the file changed
    with Journal.open(journal_copy, readonly=True) as j:
        chain = [(p.code, p.where) for p in j.verify() if p.code.startswith("chain")]
    assert ("chain-gap", "entry 501") in chain and ("chain-link", "entry 501") in chain


def test_a_deleted_row_is_detected_even_with_the_schema_restored(journal_copy):
    """The tamperer puts the triggers back: the seal still sees the file changed."""
    _foreign_edit(journal_copy, "DELETE FROM entries WHERE seq = 500")
    from controller.journal.store import SCHEMA
    conn = sqlite3.connect(journal_copy / "journal.db", isolation_level=None)
    for s in SCHEMA[3:]:
        conn.execute(s)
    conn.close()
    found = problems_at_start(journal_copy)
    assert found and {p.code for p in found} <= {"seal-mismatch", "chain-gap", "chain-link"}
    assert "seal-mismatch" in {p.code for p in found}


def test_reordered_rows_are_detected(journal_copy):
    with Journal.open(journal_copy, readonly=True) as j:
        a, b = j.get(300), j.get(301)
    _foreign_edit(
        journal_copy,
        f"UPDATE entries SET payload = '{json.dumps(b.payload, separators=(',', ':'), sort_keys=True)}', "
        f"kind = '{b.kind}' WHERE seq = 300",
        f"UPDATE entries SET payload = '{json.dumps(a.payload, separators=(',', ':'), sort_keys=True)}', "
        f"kind = '{a.kind}' WHERE seq = 301")
    assert problems_at_start(journal_copy)
    with Journal.open(journal_copy, readonly=True) as j:
        chain = {(p.code, p.where) for p in j.verify()}
    assert {("chain-hash", "entry 300"), ("chain-hash", "entry 301")} <= chain


def _a_wager(d: Path) -> int:
    with Journal.open(d, readonly=True) as j:
        return next(e.seq for e in j.entries_since(40) if e.kind == "wager")


def test_a_changed_amount_is_detected(journal_copy):
    seq = _a_wager(journal_copy)
    _foreign_edit(journal_copy,
                  f"UPDATE entries SET payload = replace(payload, '\"ante\":500', '\"ante\":5000') WHERE seq = {seq}")
    with Journal.open(journal_copy, readonly=True) as j:
        assert j.get(seq).payload["ante"] == 5000
        assert {(p.code, p.where) for p in j.verify() if p.code.startswith("chain")} == {("chain-hash", f"entry {seq}")}


def test_a_rewritten_chain_is_still_caught_by_the_seal(journal_copy):
    """Change a row and recompute every hash after it: the chain verifies, the seal does not."""
    from controller.journal.store import entry_hash
    wager = _a_wager(journal_copy)
    conn = sqlite3.connect(journal_copy / "journal.db", isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    rows = conn.execute("SELECT seq, kind, round_id, at, payload, prev FROM entries WHERE seq >= 41 "
                        "ORDER BY seq").fetchall()
    prev = conn.execute("SELECT hash FROM entries WHERE seq = 40").fetchone()[0]
    conn.execute("BEGIN")
    for seq, kind, rid, at, payload, _ in rows:
        if seq == wager:
            payload = payload.replace('"ante":500', '"ante":5000')
        h = entry_hash(prev, seq, kind, rid, at, payload.encode())
        conn.execute("UPDATE entries SET payload = ?, prev = ?, hash = ? WHERE seq = ?", (payload, prev, h, seq))
        prev = h
    conn.execute("COMMIT")
    from controller.journal.store import SCHEMA
    conn.execute(SCHEMA[3])
    conn.close()
    with Journal.open(journal_copy, readonly=True) as j:
        assert j.get(wager).payload["ante"] == 5000
        assert not [p for p in j.verify() if p.code.startswith("chain")]
    assert "seal-mismatch" in {p.code for p in problems_at_start(journal_copy)}


# ---- after a crash: the log holds committed data not yet in the main file --------

@pytest.fixture(scope="module")
def crashed_journal(tmp_path_factory) -> Path:
    """A journal whose writer died with about 40 transactions in the log."""
    d = tmp_path_factory.mktemp("crashed") / "state"
    with Journal.open(d) as j:
        for n in range(60):
            play_round(j, n)
    crash(d, """
        for n in range(60, 100):
            play_round(j, n)
    """, seal_frames=10_000)
    return d


def test_a_crashed_journal_opens_clean(crashed_journal, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(crashed_journal, d)
    assert (d / "journal.db-wal").stat().st_size > 0
    with Journal.open(d) as j:
        assert j.problems == [] and len(j.round_ids()) == 100


def test_flipped_bytes_in_a_crashed_journals_file_are_detected(crashed_journal, tmp_path):
    size = (crashed_journal / "journal.db").stat().st_size
    rng = random.Random(11)
    for offset in rng.sample(range(size), 40):
        d = damaged_copy(crashed_journal, tmp_path / "d", "journal.db", offset, rng.randrange(1, 256))
        assert problems_at_start(d), offset


def test_flipped_bytes_in_the_log_are_detected(crashed_journal, tmp_path):
    """SQLite drops a log frame that fails its checksum, and every later transaction with it."""
    wal = read_wal(crashed_journal / "journal.db-wal")
    size = (crashed_journal / "journal.db-wal").stat().st_size
    last = wal.frames[-1]
    rng = random.Random(13)
    offsets = [0, 3, 8, 16, 24, 31,                                  # the log header
               32, 32 + 4, 32 + 8, 32 + 16, 32 + 20,                 # the first frame header
               last.offset - 24 + 3, last.offset - 24 + 18,          # the last (commit) frame's header
               last.offset, size - 1,                                # the last frame's page
               *rng.sample(range(32, size), 40)]
    missed = []
    for offset in offsets:
        d = damaged_copy(crashed_journal, tmp_path / "d", "journal.db-wal", offset, 0xFF)
        if not problems_at_start(d):
            missed.append(offset)
    assert missed == []


def test_the_lock_byte_page_past_1_gib_is_zeros_not_a_change(tmp_path, monkeypatch):
    """SQLite never writes the page at 1 GiB; once the file grows past it that page is a hole.

    Scaled down: the lock-byte offset is moved to the end of a small sealed file.
    """
    import os as _os

    from controller.journal import sealing
    from controller.journal.sealing import Seal, check_file, hash_chunks, sha
    db = tmp_path / "journal.db"
    sealed_pages = 40
    db.write_bytes(_os.urandom(sealed_pages * 4096))
    seal = Seal("id", sealed_pages, hash_chunks(db, sealed_pages * 4096, 16 * 4096), 1, bytes(32))
    new_page = _os.urandom(4096)
    with open(db, "ab") as f:
        f.write(bytes(4096))          # the lock-byte page: never written, zeros
        f.write(new_page)             # the page after it, from the log
    monkeypatch.setattr(sealing, "LOCK_BYTE_OFFSET", sealed_pages * 4096)
    after = {sealed_pages + 2: {sha(new_page)}}
    assert check_file(db, seal, after) == []
    flip(db, sealed_pages * 4096 + 100, 0x01)
    assert [p.where for p in check_file(db, seal, after)] == [
        f"journal.db page {sealed_pages + 1} (bytes {sealed_pages * 4096}-{sealed_pages * 4096 + 4095})"]


# ---- the start-up shortcut and the scrub ----------------------------------------

def test_an_untouched_journal_is_not_reread_at_start_unless_asked(journal_copy, monkeypatch):
    from controller.journal import sealing
    Journal.open(journal_copy).close()        # a copy is a new file: read once, fingerprint kept
    calls = []
    real = sealing.hash_chunks
    monkeypatch.setattr(sealing, "hash_chunks", lambda *a, **k: calls.append(a) or real(*a, **k))
    with Journal.open(journal_copy) as j:
        assert j.problems == []
    assert calls == []                        # flat: the file's fingerprint vouched for it
    with Journal.open(journal_copy, file_check="full") as j:
        assert j.problems == []
    assert len(calls) == 1


def test_a_flip_in_place_is_caught_at_start_even_with_mtime_put_back(journal_copy):
    import os as _os
    Journal.open(journal_copy).close()
    db = journal_copy / "journal.db"
    st = db.stat()
    flip(db, st.st_size // 2, 0x04)
    _os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns))   # ctime cannot be put back
    assert "seal-mismatch" in {p.code for p in problems_at_start(journal_copy)}


def test_the_scrub_finds_what_the_fingerprint_hid(journal_copy):
    """A disk that returns other bytes without any write: only re-reading finds it."""
    from dataclasses import replace as _replace

    from controller.journal.sealing import fingerprint, read_seal, write_atomic
    Journal.open(journal_copy).close()
    db = journal_copy / "journal.db"
    flip(db, 3 * 65536 + 7, 0x10)
    seal = read_seal(journal_copy / "journal.seal")
    write_atomic(journal_copy / "journal.seal", _replace(seal, file=fingerprint(db)).dumps())
    with Journal.open(journal_copy) as j:
        assert j.problems == []               # the start-up shortcut trusted the fingerprint
        found = j.scrub()
        assert [p.where for p in found] == [f"journal.db bytes {3 * 65536}-{4 * 65536 - 1}"]
        assert j.problems == found and not j.sealing
    with Journal.open(journal_copy, readonly=True) as j:
        assert "seal-mismatch" in [p.code for p in j.verify()]


def test_the_scrub_of_a_sound_journal_finds_nothing(journal_copy):
    with Journal.open(journal_copy) as j:
        play_round(j, 5000)
        assert j.scrub(batch=3) == [] and j.sealing


def test_a_write_from_outside_while_the_table_runs_stops_the_sealing(journal_copy):
    with Journal.open(journal_copy) as j:
        play_round(j, 5000)
        size = (journal_copy / "journal.db").stat().st_size
        flip(journal_copy / "journal.db", size - 1, 0x01)
        assert j.seal() is False
        assert [p.detail for p in j.problems] == ["was written outside the journal while the table ran"]
    assert problems_at_start(journal_copy)
