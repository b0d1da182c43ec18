"""A journal cannot be silently rolled back, replaced or cut short (issue 15, item 3).

The breaks: an older journal.db and journal.seal copied back, the whole data
directory deleted, or the log (-wal) deleted after a crash, and the table
started and played on as if nothing had happened: paid rounds gone, round
numbers reused, the meter back. Now the table anchors its journal's head in
the progressive controller's non-volatile memory at every round's close
(controller/anchor.py), and at power-up a journal that does not reach its
anchor is an integrity fault that persists. The tables here are `tablectl
run --autoplay` of the installed CLI with the emulated controller, whose
memory is a file outside the data directory; an autoplayed table that
faults prints the fault and exits 3.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time

import pytest

from tests.security.anchor_helpers import STUD, TABLECTL, env_for, make_key, tablectl

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
