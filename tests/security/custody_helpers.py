"""A box's ownership in a test run as root: the service's user, the data directory it owns, a root-only key.

A throwaway system user stands for `tablectl` (made with useradd, removed after the module).
Everything it must reach lives under a directory of /tmp that others may traverse (pytest's own
temporary directories are root's alone), as /var/lib/tablectl and /etc/tablectl are on a box.

The interpreter: on a box it is world-readable (the service runs on it as tablectl); a build under
root's home (0700), as on a developer's or CI machine, is not, and a command that became the
table's user could import nothing it had not imported yet. Then the command gets a readable
standard library: the same files, hard-linked into a directory others may read, named by
PYTHONHOME; the interpreter, its version and the installed software are unchanged.
"""

from __future__ import annotations

import hashlib
import os
import pwd
import secrets
import shutil
import subprocess
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Terminal:
    """What a box gives the technician at its terminal, in a test: where it all lives (others may
    traverse it), the service's user, the key (root's alone), the command's environment, the
    supervisors' secrets (the user's group reads them) and a keyed table that played a round."""

    base: Path
    user: pwd.struct_passwd
    key: Path
    env: dict[str, str]
    secrets: Path
    played: Path


def make_user() -> pwd.struct_passwd:
    """A system user of its own group, no home, no shell: as systemd-sysusers makes tablectl."""
    name = f"tablectl-t{secrets.token_hex(3)}"
    deadline = time.monotonic() + 30
    while True:   # another useradd (another test, another helper) may hold /etc/passwd's lock a moment
        done = subprocess.run(["useradd", "--system", "--user-group", "--no-create-home",
                               "--shell", "/usr/sbin/nologin", name], capture_output=True, text=True)
        if done.returncode == 0 or time.monotonic() > deadline or "lock" not in done.stderr:
            break
        time.sleep(0.2)
    assert done.returncode == 0, done.stderr
    return pwd.getpwnam(name)


def remove_user(user: pwd.struct_passwd) -> None:
    subprocess.run(["userdel", user.pw_name], check=False, capture_output=True)
    subprocess.run(["groupdel", user.pw_name], check=False, capture_output=True)   # if userdel left it


def _others_may_read(path: Path) -> bool:
    """Whether a user of no group of the path's owners reaches and reads `path`."""
    for p in [path, *path.parents]:
        if not os.stat(p).st_mode & 0o001:
            return False
    return bool(os.stat(path).st_mode & 0o004)


def python_env(base: Path) -> dict[str, str]:
    """What the command's environment needs for the table's user to import the standard library."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    if _others_may_read(stdlib) and _others_may_read(stdlib / "os.py"):
        return {}
    home = base / "python"
    target = home / "lib" / stdlib.name
    if not target.exists():
        skip = {"site-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3"}
        shutil.copytree(stdlib, target, copy_function=_link, symlinks=True,
                        ignore=lambda d, names: [n for n in names if Path(d) == stdlib and n in skip])
        for d in [home, *home.rglob("*")]:
            if d.is_dir():
                d.chmod(0o755)
    return {"PYTHONHOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:   # another file system
        shutil.copy2(source, target)


def give(path: Path, user: pwd.struct_passwd) -> None:
    """chown -R user:its-group, as StateDirectory= leaves the table's directory."""
    for dirpath, _dirs, filenames in os.walk(path):
        os.chown(dirpath, user.pw_uid, user.pw_gid)
        for name in filenames:
            os.chown(os.path.join(dirpath, name), user.pw_uid, user.pw_gid, follow_symlinks=False)
    path.chmod(0o750)


def strangers(path: Path, user: pwd.struct_passwd) -> list[str]:
    """Every file or directory under `path` (itself included) that is not user:its-group."""
    found = []
    for dirpath, _dirs, filenames in os.walk(path):
        for p in [dirpath, *(os.path.join(dirpath, n) for n in filenames)]:
            st = os.lstat(p)
            if (st.st_uid, st.st_gid) != (user.pw_uid, user.pw_gid):
                found.append(f"{p} ({st.st_uid}:{st.st_gid})")
    return found


def state(path: Path) -> dict[str, tuple]:
    """Each file under `path`: (owner, size, mtime, bytes' digest): to show nothing changed."""
    out = {}
    for dirpath, _dirs, filenames in os.walk(path):
        for name in filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            with open(p, "rb") as f:
                digest = hashlib.file_digest(f, "sha256").hexdigest()
            out[os.path.relpath(p, path)] = (st.st_uid, st.st_size, st.st_mtime_ns, digest)
    return out
