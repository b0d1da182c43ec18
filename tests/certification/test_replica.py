"""The journal kept twice (`[journal] replica`; issue 28 item 8), through the installed command: the journal
deleted with a replica beside it, and the next start rebuilds it from the copy and says so."""

from __future__ import annotations

import json

from tests.certification.cert_helpers import data_dir, events, screenless, tablectl


def test_a_deleted_journal_is_rebuilt_from_its_replica(tmp_path):
    profile = screenless("caribbean-stud", tmp_path)
    copy = tmp_path / "other-media" / "journal-copy.db"
    profile.write_text(profile.read_text() + f"\n[journal]\nreplica = {json.dumps(str(copy))}\n")
    data = data_dir(tmp_path / "data")
    tablectl("run", "--config", profile, "--data-dir", data, "--autoplay", "--rounds", "2", "--seed", "8")
    assert copy.exists()
    before = tablectl("rounds", "list", "--data-dir", data).stdout.splitlines()
    for name in ("journal.db", "journal.db-wal", "journal.db-shm"):
        (data / name).unlink(missing_ok=True)
    again = tablectl("run", "--config", profile, "--data-dir", data, "--autoplay", "--rounds", "1", "--seed", "9")
    assert "journal_restored_from_replica" in again.stderr
    after = tablectl("rounds", "list", "--data-dir", data).stdout.splitlines()
    assert len(after) == len(before) + 1 and after[:len(before)] == before   # played on from where it stopped
    assert "ok" in tablectl("journal", "verify", "--data-dir", data).stdout.lower()
    restored = events(data, "--kind", "journal-restored")
    assert len(restored) == 1 and "gone" in restored[0]["detail"]
    assert '"fault"' not in again.stdout


def test_a_wrong_key_in_the_journal_block_is_refused_on_its_line(tmp_path):
    profile = screenless("casino-war", tmp_path)
    profile.write_text(profile.read_text() + "\n[journal]\nreplika = \"x.db\"\n")
    done = tablectl("config", "check", profile, check=False)
    assert done.returncode != 0 and "replika" in (done.stdout + done.stderr)
