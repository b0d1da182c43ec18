"""Root at the box's terminal acts for the table: its key, its user (issue 26, custody; controller/journal/custody.py).

The break: on a box the journal key is root's alone (/etc/tablectl/journal.key, 0400) and the data
directory the service user's. The documented `runuser -u tablectl -- tablectl fault clear` ran
without the key, so on a keyed box every clearing was refused as `journal-key`; the same command
run as root with the key cleared, but left root's files in the table's directory (the seal
rewritten, SQLite's log and index, the hash cache: even `journal verify`'s read-only open leaves
the log and index), which the service, as its user, can no longer write.

Here, as on a box: a throwaway system user owns the data directory (custody_helpers), the key is
root's alone in a directory only root may enter, the secrets file is readable by the user's group,
and every command is the installed one, run as root.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.journal.custody import installed_key
from controller.journal.durable import write_atomic

from tests.security.anchor_helpers import STUD, TABLECTL, env_for
from tests.security.custody_helpers import Terminal, give, make_user, python_env, remove_user, state, strangers
from tests.security.edit_helpers import ante_times_ten
from tests.security.security_helpers import ROOT, supervisors

pytestmark = pytest.mark.slow   # 10-40 s in all: a table started twice per test, the installed command as root

PINS = {"S1": "135713", "S2": "246824"}
TWO = f"S1\n{PINS['S1']}\nS2\n{PINS['S2']}\n"
AS_ROOT = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("useradd"),
    reason="root at the box's terminal needs root (to become the data directory's owner) and useradd "
           "(a throwaway system user owns the data directory); CI runs as root")


def run(env: dict, *args, input: str = "", prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, str(TABLECTL), *map(str, args)], input=input, capture_output=True, text=True,
                          env=env, timeout=180)


@pytest.fixture(scope="module")
def terminal() -> Iterator[Terminal]:
    """A keyed table that played a round (root's own directory, as a checkout's is), the service's
    user, the key (root's alone) and the supervisors' secrets (readable by the user's group)."""
    base = Path(tempfile.mkdtemp(prefix="tablectl-terminal-"))
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
        played = run(env, "run", "--config", STUD, "--data-dir", base / "played", "--autoplay", "--seed", "3",
                     "--rounds", "1")
        assert played.returncode == 0, played.stderr[-2000:]
        yield Terminal(base=base, user=user, key=key, env=env, secrets=secrets, played=base / "played")
    finally:
        remove_user(user)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def faulted(terminal, request):
    """The table's directory after someone with the disk multiplied an ante by ten and the service
    started (and faulted): (directory, the entry edited), owned by the service's user."""
    data = terminal.base / request.node.name.replace("[", "-").replace("]", "")
    shutil.copytree(terminal.played, data)
    seq = ante_times_ten(data, "no")
    started = run(terminal.env, "run", "--config", STUD, "--data-dir", data, "--autoplay", "--seed", "3",
                  "--rounds", "1")
    assert started.returncode == 3 and '{"fault"' in started.stdout, (started.returncode, started.stdout[-600:])
    give(data, terminal.user)
    yield data, seq
    shutil.rmtree(data, ignore_errors=True)


def test_the_installed_key_is_the_one_the_service_is_handed():
    """Root's default key is the file `system install` makes and LoadCredential= copies to the service."""
    unit = (ROOT / "systemd" / "tablectl.service").read_text()
    assert f"LoadCredential=journal.key:{installed_key()}\n" in unit
    assert str(installed_key()) == "/etc/tablectl/journal.key"


@AS_ROOT
def test_root_at_the_terminal_clears_a_keyed_tables_fault_as_the_tables_user(terminal, faulted):
    data, seq = faulted
    status = run(terminal.env, "fault", "status", "--data-dir", data)
    assert status.returncode == 1 and "FAULT (journal" in status.stdout, status.stdout + status.stderr
    cleared = run(terminal.env, "fault", "clear", "--data-dir", data, "--secrets", terminal.secrets,
                  "--note", "incident 7", input=TWO)
    assert cleared.returncode == 0 and "fault cleared by S1 and S2" in cleared.stdout, cleared.stdout + cleared.stderr
    assert cleared.stdout.splitlines()[1] == f"  entry {seq}: its contents do not match its hash", cleared.stdout
    assert terminal.key.read_text().strip() not in cleared.stdout + cleared.stderr
    verify = run(terminal.env, "journal", "verify", "--data-dir", data)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "MACs: every entry and the seal checked against the journal key" in verify.stdout
    assert f"acknowledged: entry {seq}: its contents do not match its hash (cleared by S1 and S2" in verify.stdout
    exported = run(terminal.env, "journal", "export", "--data-dir", data, "--into", data / "archives", "--keep", "2")
    assert exported.returncode == 0, exported.stderr
    archive = next((data / "archives").glob("journal-*.tar.gz"))
    assert run(terminal.env, "journal", "verify", "--archive", archive).returncode == 0
    assert strangers(data, terminal.user) == []                 # every file the commands wrote is the table's
    # the next start, with the key as the service has it, plays (a copy: the start is root's here)
    shutil.copytree(data, terminal.base / "next")
    try:
        start = run(terminal.env, "run", "--config", STUD, "--data-dir", terminal.base / "next", "--autoplay",
                    "--seed", "4", "--rounds", "1")
        assert start.returncode == 0 and '{"fault"' not in start.stdout, (start.returncode, start.stdout[-600:])
    finally:
        shutil.rmtree(terminal.base / "next", ignore_errors=True)


def at_the_box(terminal, *args, input: str = "") -> subprocess.CompletedProcess:
    """The command as root with no key named: the key at /etc/tablectl/journal.key, in a mount namespace
    of its own whose /etc is an overlay (the machine's /etc is not touched)."""
    layer = Path(tempfile.mkdtemp(dir=terminal.base, prefix="etc-"))
    (layer / "upper").mkdir()
    (layer / "work").mkdir()
    script = ('set -e; mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1/upper,workdir=$1/work" /etc; '
              'mkdir -p /etc/tablectl; install -m 0400 -o root -g root "$2" /etc/tablectl/journal.key; '
              'shift 2; exec "$@"')
    env = {k: v for k, v in terminal.env.items() if k != "TABLECTL_JOURNAL_KEY"}
    try:
        return run(env, *args, input=input,
                   prefix=("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh",
                           str(layer), str(terminal.key)))
    finally:
        shutil.rmtree(layer, ignore_errors=True)


@AS_ROOT
def test_root_takes_the_installed_key_when_none_is_named(terminal, faulted):
    """The box's procedure word for word: `tablectl fault clear` as root, no key named."""
    data, seq = faulted
    probe = at_the_box(terminal, "--version")
    if probe.returncode != 0 and "mount" in probe.stderr:
        pytest.skip(f"no private mount namespace with an overlay /etc here: {probe.stderr.strip()[:200]}")
    cleared = at_the_box(terminal, "fault", "clear", "--data-dir", data, "--secrets", terminal.secrets,
                         input=TWO)
    assert cleared.returncode == 0 and "fault cleared by S1 and S2" in cleared.stdout, cleared.stdout + cleared.stderr
    verify = at_the_box(terminal, "journal", "verify", "--data-dir", data)
    assert verify.returncode == 0 and "checked against the journal key" in verify.stdout, verify.stdout
    assert f"acknowledged: entry {seq}:" in verify.stdout
    assert strangers(data, terminal.user) == []
    # without the installed key (the machine's own /etc) nothing is authenticated, as before
    env = {k: v for k, v in terminal.env.items() if k != "TABLECTL_JOURNAL_KEY"}
    if not installed_key().exists():
        bare = run(env, "journal", "verify", "--data-dir", data)
        assert bare.returncode == 2 and "nothing was authenticated" in bare.stderr, bare.stdout + bare.stderr


@AS_ROOT
def test_root_that_cannot_become_the_owner_writes_nothing(terminal, faulted):
    """Without the power to change its user (the capabilities dropped), root refuses: exit 2, one line."""
    data, _ = faulted
    if not shutil.which("setpriv"):
        pytest.skip("setpriv (util-linux) drops the capabilities to change user")
    before = state(data)
    refused = run(terminal.env, "fault", "clear", "--data-dir", data, "--secrets", terminal.secrets, input=TWO,
                  prefix=("setpriv", "--bounding-set", "-setuid,-setgid", "--"))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    said = refused.stderr.strip().splitlines()
    assert len(said) == 1 and f"cannot become {terminal.user.pw_name}" in said[0], refused.stderr
    assert "not writing the table's directory as root" in said[0]
    assert "fault cleared" not in refused.stdout
    assert state(data) == before


@AS_ROOT
def test_root_refuses_a_table_directory_holding_roots_files(terminal, faulted):
    """A file root left in the table's directory (here: the seal, rewritten as root, as a clearing run
    as root did before) is named, and nothing is written until it is given back."""
    data, _ = faulted
    write_atomic(data / "journal.seal", (data / "journal.seal").read_bytes())   # root's file now, 0600
    assert os.stat(data / "journal.seal").st_uid == 0
    before = state(data)
    refused = run(terminal.env, "fault", "clear", "--data-dir", data, "--secrets", terminal.secrets, input=TWO)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    said = refused.stderr.strip().splitlines()
    assert len(said) == 1 and "journal.seal belongs to root" in said[0], refused.stderr
    assert f"chown -R {terminal.user.pw_name}: {data}" in said[0]
    assert state(data) == before
    give(data, terminal.user)
    cleared = run(terminal.env, "fault", "clear", "--data-dir", data, "--secrets", terminal.secrets, input=TWO)
    assert cleared.returncode == 0, cleared.stdout + cleared.stderr


@AS_ROOT
def test_root_with_a_key_it_cannot_use_writes_nothing(terminal, faulted):
    """A key named that cannot be read is said, not gone without: exit 2, one line, nothing changed."""
    data, _ = faulted
    before = state(data)
    env = {**terminal.env, "TABLECTL_JOURNAL_KEY": str(terminal.base / "no-such.key")}
    refused = run(env, "fault", "clear", "--data-dir", data, "--secrets", terminal.secrets, input=TWO)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    said = refused.stderr.strip().splitlines()
    assert len(said) == 1 and "no-such.key cannot be read" in said[0], refused.stderr
    assert state(data) == before
