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

from controller.journal.store import GENESIS_PREV, Journal, entry_hash, load_key
from controller.journal.sealing import CHUNK_PAGES, PAGE_SIZE, Seal, fingerprint, hash_chunks, read_seal, write_atomic
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


# -- archives and verification say the truth (issue 26) ---------------------------------------
#
# The breaks: `journal export` sealed the archive without the key, so an untouched archive of a
# keyed journal failed `journal verify --archive` with the key; and `journal verify` of a keyed
# journal without the key exited 0 ("MACs: NOT checked"), a forged one included.

def test_the_archive_of_a_keyed_journal_is_sealed_with_the_key_and_verifies_with_it(tmp_path):
    keyfile = make_key(tmp_path / "keys")
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, load_key(keyfile))
    archive = tmp_path / "out" / "journal.tar.gz"
    exported = tablectl("journal", "export", "--data-dir", str(data), "--to", str(archive), env=env_for(keyfile))
    assert exported.returncode == 0, exported.stderr
    checked = tablectl("journal", "verify", "--archive", str(archive), env=env_for(keyfile))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "MACs: every entry and the seal checked against the journal key" in checked.stdout
    assert "chain, seal and file verified" in checked.stdout and "PROBLEM" not in checked.stdout
    # without the key the archive is not authenticated, and says so in one line
    blind = tablectl("journal", "verify", "--archive", str(archive), env=env_for())
    assert blind.returncode == 2 and "PROBLEM" not in blind.stdout, blind.stdout + blind.stderr
    assert [line for line in blind.stderr.splitlines() if "nothing was authenticated" in line], blind.stderr
    told = tablectl("journal", "verify", "--archive", str(archive), "--no-key", env=env_for())
    assert told.returncode == 0 and "nothing was authenticated" in told.stdout, told.stdout + told.stderr


def test_a_keyed_journal_is_not_exported_without_its_key_or_under_another(tmp_path):
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, load_key(make_key(tmp_path / "keys")))
    for env in (env_for(), env_for(make_key(tmp_path / "other"))):
        refused = tablectl("journal", "export", "--data-dir", str(data), "--to", str(tmp_path / "a.tar.gz"), env=env)
        assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert "key" in refused.stderr and not (tmp_path / "a.tar.gz").exists()


@pytest.mark.parametrize("forged", [False, True])
def test_journal_verify_of_a_keyed_journal_without_the_key_authenticates_nothing_and_says_so(tmp_path, forged):
    data = tmp_path / "data"
    _journal_with_a_settled_round(data, load_key(make_key(tmp_path / "keys")))
    if forged:
        _forge(data, "keep")
    blind = tablectl("journal", "verify", "--data-dir", str(data), env=env_for())
    assert blind.returncode != 0, blind.stdout
    said = blind.stdout.splitlines() + blind.stderr.splitlines()
    assert len(said) == 1 and "nothing was authenticated" in said[0], said
    # asked for explicitly, the rest is checked without the key, and it still says so
    told = tablectl("journal", "verify", "--data-dir", str(data), "--no-key", env=env_for())
    assert "MACs: NOT checked: nothing was authenticated" in told.stdout, told.stdout + told.stderr
    assert told.returncode == 0, told.stdout   # (the forger's chain and seal hold; only the key tells)
