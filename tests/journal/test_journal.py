"""The journal: appending, reading, the chain, durability settings, snapshots, crashes."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

from controller.journal.store import (GENESIS_PREV, Journal, JournalBusy, JournalError, JournalUnreadable, PayloadError,
                                entry_hash)
from tests.journal.journal_helpers import crash, digests, play_round


def test_append_chains_each_entry_to_the_one_before(data_dir, clock):
    with Journal.open(data_dir, clock=clock) as j:
        first = j.get(1)
        assert first.kind == "journal-created" and first.prev == GENESIS_PREV
        a = j.append("lockout", {"by": "dealer"}, round_id="R1")
        b = j.append("card", {"card": "Qh"}, round_id="R1")
        assert (a.seq, b.seq) == (2, 3)
        assert a.prev == first.hash and b.prev == a.hash
        payload = json.dumps({"card": "Qh"}, separators=(",", ":")).encode()
        assert b.hash == entry_hash(a.hash, 3, "card", "R1", b.at, payload)
        assert b.at == "2026-05-09T12:00:00.003000Z"
        assert j.head_seq == 3 and j.head_hash == b.hash


def test_entries_read_back_as_written(data_dir, clock):
    with Journal.open(data_dir, clock=clock) as j:
        play_round(j, 0)
        play_round(j, 1, finish=False)
        j.append("fault", {"source": "test", "problems": []})
    with Journal.open(data_dir, readonly=True) as j:
        entries = j.round_entries("R000001")
        assert [e.kind for e in entries] == ["round-opened", "wager", "wager", "wager", "lockout",
                                             "stack", "stack", "stack", "stack"]
        assert entries[-1].payload == {"to": "dealer", "cards": ["As", "Kd", "7h", "4c", "2s"]}
        assert j.round_record("R000000").payload["settlement"] == {"net": -1500}
        assert j.round_record("R000001") is None
        assert j.latest("fault").payload["source"] == "test"
        assert [r[0] for r in j.round_ids()] == ["R000000", "R000001"]
        assert [e.seq for e in j.entries_since(j.head_seq - 2)] == [j.head_seq - 1, j.head_seq]


def test_append_many_is_one_transaction(data_dir, clock):
    with Journal.open(data_dir, clock=clock) as j:
        with pytest.raises(PayloadError, match=r"payload\.cents: 1\.5 is a float"):
            j.append_many([("wager", {"seat": 1}, "R1"), ("wager", {"cents": 1.5}, "R1")])
        assert j.head_seq == 1
        out = j.append_many([("wager", {"seat": s}, "R1") for s in (1, 2, 3)])
        assert [e.seq for e in out] == [2, 3, 4] and j.head_seq == 4


@pytest.mark.parametrize("kind, payload, round_id, message", [
    ("wager", {"ante": 5.0}, None, r"payload\.ante: 5\.0 is a float"),
    ("wager", {"seats": [1, {"x": 0.5}]}, None, r"payload\.seats\[1\]\.x"),
    ("wager", {1: 2}, None, r"key 1 is not a string"),
    ("wager", {"card": object()}, None, r"object is not plain JSON"),
    ("Wager", {}, None, r"kind: 'Wager'"),
    ("", {}, None, r"kind"),
    ("wager", {}, "R 1", r"round_id: 'R 1'"),
    ("wager", {}, 7, r"round_id: 7"),
])
def test_bad_entries_are_refused_saying_where(data_dir, clock, kind, payload, round_id, message):
    with Journal.open(data_dir, clock=clock) as j:
        with pytest.raises(PayloadError, match=message):
            j.append(kind, payload, round_id=round_id)
        assert j.head_seq == 1


def test_durability_settings_are_in_force(data_dir, clock):
    with Journal.open(data_dir, clock=clock) as j:
        assert j.settings() == {"journal_mode": "wal", "synchronous": 2,  # 2 = FULL
                                "wal_autocheckpoint": 0, "page_size": 4096,
                                "application_id": 0x54424C4A}
    # WAL mode is a property of the file, not only of our connection
    conn = sqlite3.connect(f"file:{data_dir / 'journal.db'}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_the_journal_refuses_update_and_delete(data_dir, clock):
    with Journal.open(data_dir, clock=clock) as j:
        j.append("wager", {"seat": 1}, round_id="R1")
        for sql in ("UPDATE entries SET payload = '{}' WHERE seq = 2", "DELETE FROM entries WHERE seq = 2"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                j._conn.execute(sql)
        assert j.get(2).payload == {"seat": 1}


def test_a_second_writer_is_refused(data_dir, clock):
    with Journal.open(data_dir, clock=clock):
        with pytest.raises(JournalBusy):
            Journal.open(data_dir, clock=clock, wait=0.2)
        with Journal.open(data_dir, readonly=True) as reader:  # readers are welcome
            assert reader.head_seq == 1


def test_an_appended_entry_survives_the_process_dying_at_once(data_dir):
    crash(data_dir, """
        for n in range(20):
            play_round(j, n)
        play_round(j, 20, one_by_one=True)
        e = j.append("settlement", {"net": 1234}, round_id="R000020")
        print(e.seq)
    """)
    assert (data_dir / "journal.db-wal").stat().st_size > 0  # not checkpointed: it died
    with Journal.open(data_dir) as j:
        assert j.problems == []
        assert j.head_seq == 1 + 21 * 10 + 1
        assert j.get(j.head_seq).payload == {"net": 1234}


def test_verify_is_clean_on_a_sound_journal(closed_journal):
    with Journal.open(closed_journal, readonly=True) as j:
        assert j.verify() == []


def test_read_only_use_changes_no_byte(journal_copy):
    crash(journal_copy, "play_round(j, 999)")  # leave a log behind, as after a power cut
    before = digests(journal_copy)
    with Journal.open(journal_copy, readonly=True) as j:
        assert j.verify() == []
        assert len(j.round_entries("R000999")) == 10
    after = digests(journal_copy)
    assert {k: v for k, v in after.items() if not k.endswith("-shm")} == \
           {k: v for k, v in before.items() if not k.endswith("-shm")}


def test_snapshot_then_replay_only_the_tail(data_dir, clock):
    meter = [2_500_000]
    with Journal.open(data_dir, clock=clock) as j:
        for n in range(30):
            play_round(j, n, meter=meter)
        play_round(j, 30, finish=False)  # the round in progress when the power went
        snap = j.latest_snapshot()
        assert snap.payload == {"meters": {"progressive": 2_500_000 + 30 * 70}, "round": None, "rounds": 30}
        tail = list(j.entries_since(snap.seq))
        assert [e.round_id for e in tail] == ["R000030"] * 9
        assert tail[0].kind == "round-opened" and tail[-1].kind == "stack"


def test_recovery_replays_a_bounded_tail_however_long_the_journal(data_dir, clock):
    with Journal.open(data_dir, clock=clock, seal_frames=100) as j:
        meter = [0]
        for n in range(200):
            play_round(j, n, meter=meter)
        play_round(j, 200, finish=False)
    with Journal.open(data_dir) as j:
        snap = j.latest_snapshot()
        assert snap.payload["rounds"] == 200
        assert len(list(j.entries_since(snap.seq))) == 9


def test_journal_removed_but_seal_left_is_refused(journal_copy):
    for name in ("journal.db", "journal.db-wal", "journal.db-shm"):
        (journal_copy / name).unlink(missing_ok=True)
    with pytest.raises(JournalUnreadable, match="removed or moved"):
        Journal.open(journal_copy)


def test_a_file_that_is_not_a_journal_is_refused(data_dir):
    data_dir.mkdir(parents=True)
    conn = sqlite3.connect(data_dir / "journal.db")
    conn.execute("CREATE TABLE t(x)")
    conn.close()
    with pytest.raises(JournalUnreadable, match="not a tablectl journal"):
        Journal.open(data_dir)


def test_interrupted_creation_finishes_instead_of_faulting(data_dir, monkeypatch, clock):
    import controller.journal.store as journal

    real = journal.Journal._move_in

    def die(directory):  # the power goes after the seal is written, before the rename
        raise KeyboardInterrupt

    monkeypatch.setattr(journal.Journal, "_move_in", staticmethod(die))
    with pytest.raises(KeyboardInterrupt):
        Journal.open(data_dir, clock=clock)
    assert (data_dir / "journal-new.db").exists() and not (data_dir / "journal.db").exists()
    monkeypatch.setattr(journal.Journal, "_move_in", staticmethod(real))
    with Journal.open(data_dir, clock=clock) as j:
        assert j.problems == [] and j.head_seq == 1


def test_closed_journal_is_sealed_and_the_log_empty(closed_journal):
    seal = (closed_journal / "journal.seal").read_bytes()
    body = json.loads(seal.split(b"\n")[0])
    assert body["pending"] == {}
    size = (closed_journal / "journal.db").stat().st_size
    assert body["pages"] * 4096 == size
    assert (closed_journal / "journal.db-wal").stat().st_size == 0
    with Journal.open(closed_journal, readonly=True) as j:
        assert body["head_seq"] == j.head_seq and body["head_hash"] == j.head_hash.hex()


def test_entry_hash_is_sha256_of_prev_and_canonical_bytes():
    h = entry_hash(b"\x01" * 32, 7, "card", "R1", "2026-05-09T12:00:00.000000Z", b'{"card":"Qh"}')
    expected = hashlib.sha256(b"\x01" * 32 + b'[7,"card","R1","2026-05-09T12:00:00.000000Z",{"card":"Qh"}]')
    assert h == expected.digest()


def test_closed_journal_cannot_be_written(data_dir, clock):
    j = Journal.open(data_dir, clock=clock)
    j.close()
    with pytest.raises(JournalError, match="closed"):
        j.append("wager", {})


def test_round_records_and_hand_histories(data_dir, clock):
    with Journal.open(data_dir, clock=clock) as j:
        j.record_round("R1", {"game": "casino-war", "seats": []}, {"game": "casino-war", "seats": [], "burned": []})
        j.record_hand("H1", "variant = 'NT'\n")
        with pytest.raises(PayloadError, match="phh"):
            j.record_hand("H2", {"not": "text"})
        assert j.round_record("R1").payload["record"]["game"] == "casino-war"
        assert j.round_record("H1").payload == {"phh": "variant = 'NT'\n"}


def test_recovery_gives_the_snapshot_and_what_came_after(data_dir, clock):
    with Journal.open(data_dir, clock=clock) as j:
        assert j.recovery() == (None, [j.get(1)])
        j.snapshot({"meters": {"progressive": 10}, "round": None})
        e = j.append("wager", {"seat": 2, "ante": 500}, round_id="R9")
    with Journal.open(data_dir) as j:
        snapshot, tail = j.recovery()
        assert snapshot.payload == {"meters": {"progressive": 10}, "round": None}
        assert [(t.seq, t.payload) for t in tail] == [(e.seq, {"seat": 2, "ante": 500})]
