"""Power-up self-check and the fault state (9 NYCRR 5321.18(b)(3)(iv): program storage
verified at power-up, at least as strongly as a 16-bit CRC)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.journal import selfcheck
from controller.journal.store import Journal
from controller.journal.selfcheck import clear_fault, power_up, software_digest, software_manifest
from tests.journal.journal_helpers import Clock, flip, play_round, unallocated_offsets


@pytest.fixture
def software(tmp_path: Path) -> list[Path]:
    """A stand-in for the installed controller/ and drivers/ packages."""
    roots = [tmp_path / "pkg" / "controller", tmp_path / "pkg" / "drivers"]
    for root in roots:
        (root / "sub").mkdir(parents=True)
        (root / "__init__.py").write_text("")
        (root / "sub" / "rules.py").write_text(f"# {root.name}\nODDS = 100\n")
        (root / "__pycache__").mkdir()
        (root / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"bytecode")
    return roots


def start(data_dir, software, clock=None):
    result = power_up(data_dir, roots=software, clock=clock or Clock())
    if result.journal is not None:
        result.journal.close()
    return result


def test_digest_is_what_sha256sum_gives(software):
    """The recorded digest can be reproduced by a regulator with coreutils alone."""
    manifest = software_manifest(software)
    assert sorted(manifest) == ["controller/__init__.py", "controller/sub/rules.py",
                                "drivers/__init__.py", "drivers/sub/rules.py"]
    base = software[0].parent
    shell = subprocess.run(  # noqa: S602  (a fixed pipeline: the digest computed by other tools than ours)
        "find controller drivers -type f ! -name '*.py[co]' ! -path '*/__pycache__/*' "
        "| LC_ALL=C sort | xargs sha256sum | sha256sum",
        shell=True, cwd=base, capture_output=True, text=True, check=True)
    assert shell.stdout.split()[0] == software_digest(manifest)


def test_the_real_packages_have_a_digest():
    manifest = software_manifest()
    assert "controller/journal/store.py" in manifest and "controller/journal/selfcheck.py" in manifest
    assert not [p for p in manifest if "__pycache__" in p]


def test_first_start_records_the_digest_and_the_next_is_clean(data_dir, software):
    first = start(data_dir, software)
    assert not first.faulted and first.problems == []
    again = start(data_dir, software)
    assert not again.faulted
    with Journal.open(data_dir, readonly=True) as j:
        recorded = j.latest("software-accepted")
        assert recorded.payload["digest"] == first.software and recorded.payload["by"] is None
        assert len(list(j.table_entries("power-up"))) == 2


def test_changed_software_is_a_fault_that_persists_until_cleared(data_dir, software):
    start(data_dir, software)
    rules = software[1] / "sub" / "rules.py"
    original = rules.read_text()
    rules.write_text(original.replace("100", "99"))
    changed = start(data_dir, software)
    assert changed.faulted
    # other files under the same (no) version: an integrity change, which says so first
    assert [(p.code, p.where) for p in changed.problems] == [
        ("software-changed", "software"), ("software-digest", "drivers/sub/rules.py")]
    assert changed.problems[1].detail == "was changed"
    rules.write_text(original)              # put back: still a fault until a supervisor says so
    still = start(data_dir, software)
    assert still.faulted and still.problems == []
    assert len(still.faults) == 1            # not journaled twice
    # the files authenticate again: what the fault said of them is not accepted again, so one
    # supervisor returns the table to play (5319.14(a)(2)(ii); tests/appliance/test_software_verify.py)
    entry = clear_fault(data_dir, "supervisor 7", "checked the install", roots=software, clock=Clock())
    assert entry.kind == "fault-cleared" and entry.payload["by"] == "supervisor 7"
    assert entry.payload["faults"] == [still.faults[0]["seq"]]
    assert entry.at.startswith("2026-05-09T12:00:00")   # when, from the journal's clock
    assert not start(data_dir, software).faulted


def test_new_software_accepted_by_a_supervisor_becomes_the_recorded_one(data_dir, software):
    start(data_dir, software)
    (software[0] / "new.py").write_text("X = 1\n")
    assert [p.where for p in start(data_dir, software).problems] == ["software", "controller/new.py"]
    # other files under the same (no) version: an integrity change, two different supervisors
    with pytest.raises(selfcheck.SecondSupervisor, match="second supervisor"):
        clear_fault(data_dir, "supervisor 7", roots=software)
    with pytest.raises(selfcheck.SecondSupervisor):
        clear_fault(data_dir, "supervisor 7", roots=software, second="supervisor 7")
    assert start(data_dir, software).faulted
    clear_fault(data_dir, "supervisor 7", roots=software, second="supervisor 2")
    after = start(data_dir, software)
    assert not after.faulted
    with Journal.open(data_dir, readonly=True) as j:
        accepted = j.latest("software-accepted")
        assert accepted.payload["by"] == "supervisor 7" and accepted.payload["digest"] == after.software
        assert accepted.payload["second"] == "supervisor 2" and accepted.payload["kind"] == "integrity"
        assert accepted.payload["previous"]["digest"] != after.software


def test_a_damaged_journal_is_a_fault_that_persists_until_cleared(data_dir, software):
    start(data_dir, software)
    with Journal.open(data_dir, clock=Clock()) as j:
        for n in range(40):
            play_round(j, n)
        sealed = j.head_seq
    lo, hi = unallocated_offsets(data_dir / "journal.db")[-1]
    flip(data_dir / "journal.db", (lo + hi) // 2)   # space between cells that no query reads
    found = start(data_dir, software)
    assert found.faulted and [p.code for p in found.problems] == ["seal-mismatch"]
    assert found.faults[0]["source"] == "journal"
    again = start(data_dir, software)
    assert again.faulted and len(again.faults) == 1
    assert (data_dir / "fault.json").exists()
    with pytest.raises(ValueError, match="supervisor"):
        clear_fault(data_dir, "  ", roots=software)
    with pytest.raises(selfcheck.SecondSupervisor):   # the journal's file changed: two supervisors
        clear_fault(data_dir, "supervisor 3", "bad sector, disk replaced", roots=software)
    assert (data_dir / "fault.json").exists()
    cleared = clear_fault(data_dir, "supervisor 3", "bad sector, disk replaced", roots=software,
                          second="supervisor 4")
    assert [p["code"] for p in cleared.payload["accepted"]] == ["seal-mismatch"]
    assert not (data_dir / "fault.json").exists()
    after = start(data_dir, software)
    assert not after.faulted and after.problems == []
    with Journal.open(data_dir, readonly=True) as j:
        assert j.get(sealed) is not None and j.verify() == []


def test_a_changed_entry_stays_acknowledged_after_clearing(data_dir, software, capsys):
    import sqlite3
    start(data_dir, software)
    with Journal.open(data_dir, clock=Clock()) as j:
        for n in range(10):
            play_round(j, n)
        seq = next(e.seq for e in j.entries_since(10) if e.kind == "wager")
    conn = sqlite3.connect(data_dir / "journal.db", isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.execute(f"UPDATE entries SET payload = replace(payload, '500', '5000') WHERE seq = {seq}")
    conn.close()                                         # and leaves the trigger dropped
    assert start(data_dir, software).faulted
    with pytest.raises(selfcheck.SecondSupervisor, match="entry was edited"):   # one is not enough
        clear_fault(data_dir, "supervisor 3", f"entry {seq} edited by hand; see incident 12", roots=software)
    assert start(data_dir, software).faulted
    clear_fault(data_dir, "supervisor 3", f"entry {seq} edited by hand; see incident 12", roots=software,
                second="supervisor 4")
    assert not start(data_dir, software).faulted         # the clearing put the trigger back
    from controller.cli import main
    assert main(["journal", "verify", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert (f"acknowledged: entry {seq}: its contents do not match its hash (cleared by supervisor 3 and "
            "supervisor 4") in out


def test_an_edited_entry_one_supervisor_accepted_is_not_acknowledged(data_dir, software, capsys):
    """A clearing by one supervisor (as the table journaled them before issue 26) that listed an edited
    entry as accepted: `journal verify` still calls the entry a problem, and the next clearing asks two."""
    import sqlite3
    start(data_dir, software)
    with Journal.open(data_dir, clock=Clock()) as j:
        for n in range(10):
            play_round(j, n)
        seq = next(e.seq for e in j.entries_since(10) if e.kind == "wager")
    conn = sqlite3.connect(data_dir / "journal.db", isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.execute(f"UPDATE entries SET payload = replace(payload, '500', '5000') WHERE seq = {seq}")
    conn.close()
    with Journal.open(data_dir, clock=Clock()) as j:   # what a one-supervisor clearing wrote
        j.append("fault-cleared", {"by": "supervisor 3", "note": "", "faults": [], "marker": [],
                                   "accepted": [p.to_json() for p in j.verify()]})
        j.accept_current_state()
    from controller.cli import main
    assert main(["journal", "verify", "--data-dir", str(data_dir)]) == 1
    out = capsys.readouterr().out
    assert f"PROBLEM: entry {seq}: its contents do not match its hash" in out
    assert "acknowledged:" not in out
    with Journal.open(data_dir, clock=Clock()) as j:
        asked = selfcheck.to_accept(j, data_dir, roots=software)
    assert asked.needed == 2 and (asked.problems[0]["code"], asked.problems[0]["where"]) == ("chain-hash",
                                                                                           f"entry {seq}")


def test_an_unreadable_journal_is_a_fault_cleared_by_quarantine(data_dir, software):
    start(data_dir, software)
    flip(data_dir / "journal.db", 0)                     # "SQLite format 3" no more
    found = start(data_dir, software)
    assert found.faulted and found.journal is None
    assert found.problems[0].code == "journal-unreadable"
    assert start(data_dir, software).faulted             # persists (the marker)
    assert len(selfcheck.read_marker(data_dir)) == 1     # and is not marked twice
    with pytest.raises(selfcheck.SecondSupervisor):   # a journal lost to quarantine: two supervisors
        clear_fault(data_dir, "supervisor 1", "journal moved aside", roots=software, clock=Clock())
    assert not (data_dir / "quarantine").exists()       # refused before anything moved
    cleared = clear_fault(data_dir, "supervisor 1", "journal moved aside", roots=software, clock=Clock(),
                          second="supervisor 2")
    moved = data_dir / cleared.payload["quarantined"]
    assert (moved / "journal.db").exists() and (moved / "journal.seal").exists()
    assert cleared.payload["marker"][0]["problems"][0]["code"] == "journal-unreadable"
    after = start(data_dir, software)
    assert not after.faulted
    with Journal.open(data_dir, readonly=True) as j:
        assert j.latest("fault-cleared").payload["by"] == "supervisor 1"


def test_fault_commands(data_dir, software, capsys, monkeypatch):
    from types import SimpleNamespace
    start(data_dir, software)
    (software[0] / "sub" / "rules.py").write_text("ODDS = 1\n")
    start(data_dir, software)
    assert selfcheck.status_main(SimpleNamespace(data_dir=str(data_dir))) == 1
    assert "controller/sub/rules.py: was changed" in capsys.readouterr().out
    monkeypatch.setattr(selfcheck, "_software", lambda roots=None, **_: (software_manifest(software), []))
    import io
    from controller.credentials import Supervisor, hash_pin, write_secrets
    secrets = data_dir.parent / "secrets.toml"
    write_secrets(secrets, {"sup9": Supervisor("sup9", "Nine", hash_pin("999999")),
                            "sup4": Supervisor("sup4", "Four", hash_pin("444444"))})
    # the PINs come from stdin (or the terminal), never the command line; an integrity fault takes two
    monkeypatch.setattr("sys.stdin", io.StringIO("999999\n"))
    assert selfcheck.clear_main(SimpleNamespace(data_dir=str(data_dir), secrets=str(secrets),
                                                supervisor="sup9", note="")) == 2
    assert "second supervisor" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("999999\n444444\n"))
    assert selfcheck.clear_main(SimpleNamespace(data_dir=str(data_dir), secrets=str(secrets), supervisor="sup9",
                                                note="", second_supervisor="sup4")) == 0
    assert "fault cleared by sup9" in capsys.readouterr().out
    assert selfcheck.status_main(SimpleNamespace(data_dir=str(data_dir))) == 0
    assert capsys.readouterr().out == "no fault\n"


def test_the_runtime_can_raise_a_fault_while_running(data_dir, software):
    result = power_up(data_dir, roots=software)
    with result.journal as j:
        selfcheck.raise_fault(data_dir, j, "devices", [selfcheck.Problem("card-count", "shuffler", "counted 51")])
        faults = selfcheck.open_faults(j, data_dir)
    assert [f["source"] for f in faults] == ["devices"]
    assert start(data_dir, software).faulted


def test_journal_copy_elsewhere_with_its_seal_is_still_sound(data_dir, software, tmp_path):
    """Moving the data directory (a new disk) keeps the journal verifiable."""
    start(data_dir, software)
    moved = tmp_path / "moved"
    shutil.copytree(data_dir, moved)
    assert not start(moved, software).faulted


def test_hash_cache_reads_a_file_again_whenever_the_kernel_says_it_was_touched(tmp_path, monkeypatch):
    """The cache of installed files' hashes (selfcheck.HashCache) saves reading unchanged files at a
    start, and never serves a stale hash: a rewrite with its mtime set back still moves the ctime."""
    lib = tmp_path / "rules.py"
    lib.write_bytes(b"ODDS = 100\n")
    cache_file = tmp_path / "software-hashes.json"
    first = selfcheck.HashCache(cache_file)
    h1 = first.sha256(lib)
    first.save()
    assert cache_file.exists()

    reads = []
    real = selfcheck._sha256_file
    monkeypatch.setattr(selfcheck, "_sha256_file", lambda p: reads.append(p) or real(p))
    again = selfcheck.HashCache(cache_file)
    assert again.sha256(lib) == h1 and reads == []          # unchanged: taken from the cache

    st = lib.stat()
    lib.write_bytes(b"ODDS = 999\n")                        # same size, mtime set back
    os.utime(lib, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert lib.stat().st_size == st.st_size and lib.stat().st_mtime_ns == st.st_mtime_ns
    changed = selfcheck.HashCache(cache_file)
    assert changed.sha256(lib) != h1 and len(reads) == 1    # read again: its ctime moved

    cache_file.write_text("not json")                       # a damaged cache costs a full read only
    assert selfcheck.HashCache(cache_file).sha256(lib) == real(lib)


def test_a_start_keeps_the_installed_files_hashes_beside_the_journal(data_dir):
    check = selfcheck.power_up(data_dir)
    try:
        cached = json.loads((Path(data_dir) / selfcheck.HASH_CACHE).read_text())
        assert any("pydantic" in name for name in cached)    # a dependency's files, by their RECORD
    finally:
        check.journal.close()
    again = selfcheck.power_up(data_dir)                     # the same digest from the cache
    try:
        assert again.software == check.software and not again.problems and not again.faults
    finally:
        again.journal.close()
