"""A journal rewritten without the key is caught (issue 15, item 3).

The break: edit a settled amount, recompute the SHA-256 chain from there on
and a fresh seal, and neither the start-up check nor `tablectl journal
verify` noticed: everything in the data directory was recomputable from the
data directory. Now every entry and the seal carry an HMAC under a key kept
outside it, and the forger, who has the disk but not the key, cannot make
them.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from controller.journal import GENESIS_PREV, Journal, entry_hash, load_key
from controller.sealing import CHUNK_PAGES, PAGE_SIZE, Seal, fingerprint, hash_chunks, read_seal, write_atomic
from tests.security.anchor_helpers import env_for, make_key, tablectl


def _journal_with_a_settled_round(data, key):
    with Journal.open(data, key=key) as j:
        j.append("round-opened", {"round": "r1"}, round_id="r1")
        j.record_round("r1", {"round": "r1"}, {"paid": {"1": 1500}, "net": -1500})
        for i in range(30):
            j.append("event", {"n": i})


def _forge(data, macs: str) -> None:
    """What someone with the disk and not the key can do: rewrite an amount, re-chain, re-seal."""
    db = data / "journal.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    rows = conn.execute("SELECT seq, kind, round_id, at, payload, mac FROM entries ORDER BY seq").fetchall()
    prev = GENESIS_PREV
    conn.execute("BEGIN")
    for seq, kind, round_id, at, payload, mac in rows:
        if kind == "round-record":
            value = json.loads(payload)
            value["settlement"]["paid"]["1"] = 150000
            payload = json.dumps(value, sort_keys=True, separators=(",", ":"))
        h = entry_hash(prev, seq, kind, round_id, at, payload.encode())
        conn.execute("UPDATE entries SET payload=?, prev=?, hash=?, mac=? WHERE seq=?",
                     (payload, prev, h, mac if macs == "keep" else b"", seq))
        prev = h
    conn.execute("COMMIT")
    conn.execute("CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries "
                 "BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    old = read_seal(data / "journal.seal")
    size = db.stat().st_size
    seal = Seal(journal_id=old.journal_id, pages=size // PAGE_SIZE,
                chunks=hash_chunks(db, size, PAGE_SIZE * CHUNK_PAGES), head_seq=rows[-1][0], head_hash=prev,
                file=fingerprint(db))
    write_atomic(data / "journal.seal", seal.dumps())


@pytest.mark.parametrize("macs", ["keep", "strip"])
def test_a_rewritten_and_resealed_journal_is_a_fault_at_start(tmp_path, macs):
    key = load_key(make_key(tmp_path / "keys"))
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, key)
    _forge(data, macs)
    with Journal.open(data, key=key) as j:
        codes = {p.code for p in j.problems}
        assert "seal-forged" in codes
        assert not j.sealing   # the evidence stays as found
        found = {p.code for p in j.verify()}
    assert ("entry-forged" if macs == "keep" else "entry-unauthenticated") in found


def test_journal_verify_names_the_forgery(tmp_path):
    keyfile = make_key(tmp_path / "keys")
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, load_key(keyfile))
    before = tablectl("journal", "verify", "--data-dir", str(data), env=env_for(keyfile))
    assert before.returncode == 0, before.stdout + before.stderr
    _forge(data, "keep")
    after = tablectl("journal", "verify", "--data-dir", str(data), env=env_for(keyfile))
    assert after.returncode == 1
    assert "MAC is not the journal key's" in after.stdout


def test_the_same_journal_under_another_key_is_not_accepted(tmp_path):
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, load_key(make_key(tmp_path / "k1")))
    with Journal.open(data, key=load_key(make_key(tmp_path / "k2"))) as j:
        assert "seal-forged" in {p.code for p in j.problems}
        assert "entry-forged" in {p.code for p in j.verify()}


def test_an_honest_journal_with_its_key_verifies(tmp_path):
    key = load_key(make_key(tmp_path / "keys"))
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, key)
    with Journal.open(data, key=key, file_check="full") as j:
        assert j.problems == []
        assert j.verify() == []
        assert all(e.mac for e in j.entries_since(0))


def test_a_keyed_journal_opened_without_its_key_is_a_fault(tmp_path):
    """Removing the key from the service's environment does not quietly turn the MACs off."""
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, load_key(make_key(tmp_path / "keys")))
    with Journal.open(data, key=None) as j:
        assert "journal-key" in {p.code for p in j.problems}
        assert not j.sealing
