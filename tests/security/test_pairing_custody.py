"""`tablectl device pair` as root at the box's terminal (controller/pairing.py, custody as
controller/journal/custody.py): the key written as root beside the root-only journal key, the
journal written as the table's user with the journal key root read, so every file in the table's
directory stays the service's and the journal still verifies. The installed command, as root, on a
directory a throwaway system user owns."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from controller.pairing import fingerprint, read_key
from tests.security.anchor_helpers import STUD, TABLECTL, env_for
from tests.security.custody_helpers import give, make_user, python_env, remove_user, strangers
from tests.security.security_helpers import supervisors

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("useradd"),
    reason="root at the box's terminal needs root and useradd (a throwaway user owns the data directory)")]
PINS = {"S1": "135790"}


def run(env: dict, *args, input: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(TABLECTL), *map(str, args)], input=input, capture_output=True, text=True,
                          env=env, timeout=180)


def test_root_pairs_a_device_for_the_table_as_the_tables_user():
    base = Path(tempfile.mkdtemp(prefix="tablectl-pair-"))
    base.chmod(0o711)
    user = make_user()
    try:
        keys = base / "keys"
        keys.mkdir(mode=0o700)
        key = keys / "journal.key"
        fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
        os.write(fd, os.urandom(32).hex().encode() + b"\n")
        os.close(fd)
        env = {**env_for(key), **python_env(base)}
        secrets = base / "supervisors.toml"
        supervisors(secrets, PINS)
        os.chown(secrets, 0, user.pw_gid)
        secrets.chmod(0o640)
        data = base / "data"
        played = run(env, "run", "--config", STUD, "--data-dir", data, "--autoplay", "--seed", "3", "--rounds", "1")
        assert played.returncode == 0, played.stderr[-2000:]
        give(data, user)
        done = run(env, "device", "pair", "progressive", "--secrets", secrets, "--data-dir", data,
                   input=f"S1\n{PINS['S1']}\n")
        assert done.returncode == 0, done.stderr
        paired = keys / "device-progressive.key"
        st = paired.stat()
        assert (st.st_uid, stat.S_IMODE(st.st_mode)) == (0, 0o400)   # root's alone, beside the journal key
        assert strangers(data, user) == []   # the journal written as the table's user
        verified = run(env, "journal", "verify", "--data-dir", data)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        listed = run(env, "events", "--json", "--kind", "device-paired", "--data-dir", data)
        last = json.loads(listed.stdout)["events"][-1]
        assert (last["who"], last["device"], last["fingerprint"]) == ("S1", "progressive",
                                                                      fingerprint(read_key(paired)))
    finally:
        remove_user(user)
        shutil.rmtree(base, ignore_errors=True)
