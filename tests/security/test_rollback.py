"""A journal cannot be silently rolled back, replaced or cut short (issue 15, item 3; issue 26).

The breaks: an older journal.db and journal.seal copied back, the whole data
directory deleted, or the log (-wal) deleted after a crash, and the table
started and played on as if nothing had happened: paid rounds gone, round
numbers reused, the meter back. Now the table anchors its journal's head in
the progressive controller's non-volatile memory at every round's close
(controller/journal/anchor.py), and at power-up a journal that does not reach its
anchor is an integrity fault that persists. The tables here are `tablectl
run --autoplay` of the installed CLI with the emulated controller, whose
memory is a file outside the data directory; an autoplayed table that
faults prints the fault and exits 3.

Issue 26: a controller that forgot (its memory file removed: a controller wiped,
swapped or without its battery) under a journal that says it was anchored is a
fault naming the entry, and two supervisors put a new controller into service;
the demo table (no environment variable) keeps its emulated controller's memory
in its data directory's sim/, so it shows the same protection.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time

import pytest

from controller.journal.store import Journal
from tests.security.anchor_helpers import STUD, TABLECTL, env_for, make_key, tablectl
from tests.security.security_helpers import supervisors

PROFILE = STUD


def _run(data, env, rounds=1) -> subprocess.CompletedProcess:
    return tablectl("run", "--config", PROFILE, "--data-dir", str(data), "--autoplay", "--seed", "3",
                    "--rounds", str(rounds), env=env, timeout=120)


def _fault(result) -> dict:
    lines = [json.loads(x) for x in result.stdout.splitlines() if x.startswith('{"fault"')]
    assert result.returncode == 3 and lines, (result.returncode, result.stdout[-800:], result.stderr[-800:])
    return lines[-1]["fault"]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A table that played a round (its journal saved then) and another; its anchor off the box.

    The second start is also the control: an untouched journal reaches its anchor and plays."""
    root = tmp_path_factory.mktemp("played")
    env = env_for(make_key(root / "keys"), root / "nvram.json")
    data = root / "data"
    first = _run(data, env, rounds=1)
    assert first.returncode == 0, first.stderr[-2000:]
    shutil.copytree(data, root / "older")
    second = _run(data, env, rounds=1)
    assert second.returncode == 0, second.stderr[-2000:]
    verify = tablectl("journal", "verify", "--data-dir", str(data), env=env)
    assert verify.returncode == 0 and "anchor: checked at the last start" in verify.stdout, verify.stdout
    return root


def _copy(played, tmp_path):
    """Each test attacks its own copy of the table: data directory, controller memory, key."""
    shutil.copytree(played / "data", tmp_path / "data")
    shutil.copy(played / "nvram.json", tmp_path / "nvram.json")
    shutil.copytree(played / "keys", tmp_path / "keys")
    return tmp_path / "data", env_for(tmp_path / "keys" / "journal.key", tmp_path / "nvram.json")


def test_an_older_journal_copied_back_is_a_fault_that_stays(played, tmp_path):
    data, env = _copy(played, tmp_path)
    for name in ("journal.db", "journal.seal"):
        shutil.copy(played / "older" / name, data / name)
    for name in ("journal.db-wal", "journal.db-shm"):
        (data / name).unlink(missing_ok=True)
    fault = _fault(_run(data, env))
    assert "anchored entry" in fault["reason"] and "older journal" in fault["reason"]
    status = tablectl("fault", "status", "--data-dir", str(data), env=env)
    assert status.returncode == 1 and "progressive controller anchored" in status.stdout
    assert "anchor: FAILED" in status.stderr
    assert "integrity" in json.dumps(json.loads((data / "fault.json").read_text()))
    _fault(_run(data, env))   # a restart does not forget it


def test_a_deleted_data_directory_is_a_fault(played, tmp_path):
    data, env = _copy(played, tmp_path)
    shutil.rmtree(data)
    fault = _fault(_run(data, env))
    assert "is not the one the progressive controller anchored" in fault["reason"]
    assert "anchor-foreign" in json.dumps(json.loads((data / "fault.json").read_text()))


def _last_anchored(data) -> int | None:
    """The entry the journal says it last anchored (None for a journal that keeps no such record)."""
    with Journal.open(data, readonly=True) as j:
        return max((e.payload["seq"] for e in j.entries_since(0) if e.kind == "anchor-written"), default=None)


def _put_back_older(played, data) -> None:
    for name in ("journal.db", "journal.seal"):
        shutil.copy(played / "older" / name, data / name)
    for name in ("journal.db-wal", "journal.db-shm"):
        (data / name).unlink(missing_ok=True)


def test_an_older_data_directory_under_a_wiped_controller_is_a_fault_naming_the_entry(played, tmp_path):
    """The break: the older journal put back and the controller's memory gone started clean and
    dealt its rounds a second time. Its journal says where it was anchored, so the empty controller
    is a fault that names the entry, kept across restarts and cleared by two supervisors."""
    data, env = _copy(played, tmp_path)
    _put_back_older(played, data)
    (tmp_path / "nvram.json").unlink()                 # a controller wiped, swapped or without its battery
    entry = _last_anchored(data)
    fault = _fault(_run(data, env))
    assert (f"the progressive controller holds no anchor; the journal was anchored at entry {entry}"
            in fault["reason"]), fault
    marker = json.dumps(json.loads((data / "fault.json").read_text()))
    assert "anchor-missing" in marker and '"integrity"' in marker
    _fault(_run(data, env))                            # a restart does not forget it
    assert not (tmp_path / "nvram.json").exists()      # and nothing was anchored over the evidence


def test_two_supervisors_put_a_new_controller_into_service_and_the_table_plays_on_it(played, tmp_path):
    data, env = _copy(played, tmp_path)
    (tmp_path / "nvram.json").unlink()                 # a new controller, its memory empty
    entry = _last_anchored(data)
    _fault(_run(data, env))
    secrets = tmp_path / "supervisors.toml"
    supervisors(secrets, {"S1": "135713", "S2": "246824"})
    one = tablectl("fault", "clear", "--data-dir", str(data), "--secrets", str(secrets), "--supervisor", "S1",
                   input="135713\n", env=env)
    assert one.returncode == 2 and "second supervisor" in one.stderr, one.stderr
    two = tablectl("fault", "clear", "--data-dir", str(data), "--secrets", str(secrets),
                   "--note", "controller replaced", input="S1\n135713\nS2\n246824\n", env=env)
    assert two.returncode == 0, two.stderr
    played_on = _run(data, env)
    assert played_on.returncode == 0, played_on.stdout[-800:] + played_on.stderr[-800:]
    with Journal.open(data, readonly=True) as j:
        commissioned = [e for e in j.entries_since(0) if e.kind == "anchor-commissioned"]
        cleared = j.latest("fault-cleared")
        jid, head = j.journal_id, j.head_seq
    (put,) = commissioned
    assert (put.payload["by"], put.payload["second"], put.payload["cleared"]) == ("S1", "S2", cleared.seq)
    assert put.payload["sink"] == "progressive controller" and put.payload["seq"] > entry
    assert [p["code"] for p in put.payload["found"]] == ["anchor-missing"]
    held = bytes.fromhex(json.loads((tmp_path / "nvram.json").read_text())["anchor"])
    assert held[:16].hex() == jid and put.payload["seq"] <= int.from_bytes(held[16:24], "big") <= head
    again = _run(data, env)                             # the new controller's anchor is checked like any
    assert again.returncode == 0, again.stderr[-800:]
    verify = tablectl("journal", "verify", "--data-dir", str(data), env=env)
    assert "anchor: checked at the last start" in verify.stdout, verify.stdout


def test_the_demo_tables_emulated_controller_remembers_its_anchor(tmp_path):
    """The break: without $TABLECTL_SIM_PROGRESSIVE_NVRAM the emulated controller forgot its anchor at
    every exit, so the README's table showed none of this. Now it keeps it in the data directory's
    sim/, apart from the journal's files, and an older journal put back there is a fault too."""
    env = env_for()                                      # no key, no variable: the demo table
    data = tmp_path / "data"
    first = _run(data, env)
    assert first.returncode == 0, first.stderr[-2000:]
    shutil.copytree(data, tmp_path / "older")
    second = _run(data, env)
    assert second.returncode == 0, second.stderr[-2000:]
    assert (data / "sim" / "progressive-nvram.json").exists()
    verify = tablectl("journal", "verify", "--data-dir", str(data), env=env)
    assert "anchor: checked at the last start" in verify.stdout, verify.stdout
    for name in ("journal.db", "journal.seal"):
        shutil.copy(tmp_path / "older" / name, data / name)
    for name in ("journal.db-wal", "journal.db-shm"):
        (data / name).unlink(missing_ok=True)
    fault = _fault(_run(data, env))
    assert "anchored entry" in fault["reason"] and "older journal" in fault["reason"]


def test_a_log_deleted_after_a_crash_is_a_fault(played, tmp_path):
    data, env = _copy(played, tmp_path)
    out = tmp_path / "table.out"
    with open(out, "w") as f:
        table = subprocess.Popen([TABLECTL, "run", "--config", PROFILE, "--data-dir", str(data), "--autoplay",
                                  "--seed", "4"], stdout=f, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 60
        while out.read_text().count('"round"') < 2:   # the first round's anchor is written by then
            assert table.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        table.send_signal(signal.SIGKILL)
        table.wait()
    assert (data / "journal.db-wal").stat().st_size > 0
    (data / "journal.db-wal").unlink()
    (data / "journal.db-shm").unlink(missing_ok=True)
    fault = _fault(_run(data, env))
    assert "anchored entry" in fault["reason"] and "(-wal) was lost" in fault["reason"]


def test_an_anchor_written_without_the_key_is_a_fault(played, tmp_path):
    data, env = _copy(played, tmp_path)
    nvram = tmp_path / "nvram.json"
    raw = bytearray.fromhex(json.loads(nvram.read_text())["anchor"])
    raw[60] ^= 1   # a byte of its MAC
    nvram.write_text(json.dumps({"anchor": raw.hex()}))
    fault = _fault(_run(data, env))
    assert "not the journal key's" in fault["reason"]
