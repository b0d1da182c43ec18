"""The pairing keys' custody (controller/pairing.py): the table takes only the key the journal vouches for,
and pairs its own emulators once, journaled. Against a real journal on disk."""

from __future__ import annotations

import stat

import structlog

from controller import pairing, paths
from controller.journal.store import Journal
from drivers.pairing import new_key

log = structlog.get_logger("test")


def test_the_table_takes_only_the_key_the_journal_last_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLECTL_JOURNAL_KEY", str(tmp_path / "keys" / "journal.key"))
    data = tmp_path / "data"
    path = paths.pairing_key("shuffler", data)
    assert path == tmp_path / "keys" / "device-shuffler.key"   # beside the journal key
    with Journal.open(data) as journal:
        assert len(pairing.table_key("shuffler", data, journal, log)) == 32   # never paired: a key nobody holds
        paired = new_key()
        pairing.commit_key(pairing.stage_key(path, paired), path)
        assert pairing.table_key("shuffler", data, journal, log) != paired   # on disk, but never journaled
        journal.append(pairing.ENTRY, pairing.entry("shuffler", paired, "S1", "terminal"))
        assert pairing.table_key("shuffler", data, journal, log) == paired
        assert stat.S_IMODE(path.stat().st_mode) == 0o400
        swapped = new_key()   # a key put in its place without the supervised step
        path.chmod(0o600)
        path.write_text(swapped.hex() + "\n")
        taken = pairing.table_key("shuffler", data, journal, log)
        assert taken not in (swapped, paired)


def test_an_emulated_table_pairs_its_emulators_once_and_journals_it(tmp_path, monkeypatch):
    monkeypatch.delenv("TABLECTL_JOURNAL_KEY", raising=False)
    with Journal.open(tmp_path) as journal:
        first = pairing.emulated_key("progressive", tmp_path, journal, log)
        again = pairing.emulated_key("progressive", tmp_path, journal, log)
        assert first == again
        entries = [e.payload for e in journal.entries_of((pairing.ENTRY,))]
    assert entries == [{"kind": "progressive", "fingerprint": pairing.fingerprint(first), "by": "table",
                        "source": "emulated"}]
    assert first.hex() not in str(entries)
