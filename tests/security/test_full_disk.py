"""A full disk or an I/O error in the journal ends in a fault that is kept (issue 15, item 6).

The breaks: a full disk at a seal step raised out of the journal and killed
the table's consumer with no fault (the screens showed a live round, every
request hung); a full disk during an append lost the fault record itself
and the restart said "no fault". Now the journal keeps a reserve (an
allocated file in the data directory) that it frees when the disk refuses
it, so the fault's record fits; the table faults, stops play and exits (an
autoplayed table prints the fault and exits 3).

The live table runs on a small tmpfs when the test may mount one (root);
the seal step's failure is also shown in-process with a double of the OS's
write call (the OS is not our product), which runs everywhere.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import time

import pytest

from controller.journal import selfcheck
from controller.journal.store import RESERVE_NAME, Journal, JournalIOError
from controller.journal.sealing import Problem
from tests.security.anchor_helpers import TABLECTL, WAR, env_for, make_key, tablectl


def _full_on_seal_files(real_write):
    def write(fd, data):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target.endswith("journal.seal.tmp"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)
    return write


def test_a_full_disk_at_the_seal_step_is_kept_as_a_fault(tmp_path, monkeypatch):
    data = tmp_path / "data"
    j = Journal.open(data, seal_frames=4, key=None)
    try:
        assert (data / RESERVE_NAME).stat().st_blocks * 512 >= 1 << 20
        monkeypatch.setattr(os, "write", _full_on_seal_files(os.write))
        with pytest.raises(JournalIOError) as failed:
            for i in range(50):
                j.append("event", {"n": i})
        assert failed.value.committed   # the entry was durable before the seal step failed
        assert "journal-io" in {p.code for p in j.problems} and not j.sealing
        assert not (data / RESERVE_NAME).exists()   # freed for the fault's record
        monkeypatch.undo()
        entry = selfcheck.raise_fault(data, j, "journal", [Problem("journal-io", "table", str(failed.value))])
        assert entry is not None
        j.append("event", {"after": True})   # the journal still records; it no longer seals
    finally:
        j.close()
    assert [f["seq"] for f in selfcheck.read_marker(data)] == [entry.seq]
    with Journal.open(data, key=None) as again:
        assert selfcheck.open_faults(again, data), "the restart forgot the fault"


def _fill(path) -> None:
    """Take every byte the file system has left."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):
            block = b"\0" * size
            try:
                while True:
                    os.write(fd, block)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root; the test above runs anywhere")
def test_a_live_table_on_a_full_disk_faults_keeps_it_and_exits(tmp_path):
    mnt = tmp_path / "disk"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", str(mnt)], check=True)
    try:
        data = mnt / "data"
        # the emulated devices keep their state under data/sim: off the full disk, as a real
        # shoe's memory is (they are the test's rig, not the table under test)
        data.mkdir()
        (tmp_path / "sim").mkdir()
        (data / "sim").symlink_to(tmp_path / "sim")
        env = env_for(make_key(tmp_path / "keys"))
        out = tmp_path / "table.out"
        with open(out, "w") as f, open(tmp_path / "table.err", "w") as err:
            table = subprocess.Popen([TABLECTL, "run", "--config", WAR, "--data-dir", str(data),
                                      "--autoplay", "--seed", "5"], stdout=f, stderr=err, env=env)
        try:
            deadline = time.monotonic() + 60
            while out.read_text().count('"round"') < 2:
                assert table.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            _fill(mnt / "filler")
            assert table.wait(timeout=60) == 3, (tmp_path / "table.err").read_text()[-2000:]
        finally:
            if table.poll() is None:
                table.kill()
                table.wait()
        fault = [json.loads(x) for x in out.read_text().splitlines() if x.startswith('{"fault"')]
        assert fault and "full" in fault[-1]["fault"]["reason"], out.read_text()[-600:]
        status = tablectl("fault", "status", "--data-dir", str(data), env=env)
        assert status.returncode == 1 and "full" in status.stdout, status.stdout
        (mnt / "filler").unlink()
        again = tablectl("run", "--config", WAR, "--data-dir", str(data), "--autoplay", "--rounds", "1",
                         env=env, timeout=60)
        assert again.returncode == 3, "the restart forgot the fault"
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
        shutil.rmtree(mnt, ignore_errors=True)
