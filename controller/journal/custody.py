"""Root at the box's terminal acts for the table: with the table's key, as the table's user.

On a box the journal key is root's alone (/etc/tablectl/journal.key, mode
0400; the service gets a copy through systemd's LoadCredential=) and the data
directory is the service user's (/var/lib/tablectl, owned by tablectl). A
technician's command that verifies or writes the journal needs both: the key,
which the table's user cannot read, and the table's user, because a file root
writes in the data directory (the seal a clearing rewrites, the software
check's hash cache, a quarantine, an archive) is root's and private to root:
the service, as its user, cannot read it, and the table's next start faults
on a seal it cannot read. So a journal command (controller/cli.py JOURNAL_COMMANDS) run as root
on a data directory another user owns, before anything opens the journal:

1. reads the key as root: the file $TABLECTL_JOURNAL_KEY names, else the
   installed one (`installed_key`: what LoadCredential= hands the service),
   and holds it in memory (journal.give_key): never in the environment or on
   a command line, never printed; and hashes the interpreter's own files,
   which an interpreter under root's home keeps from the table's user
   (controller/software/startcheck.py read_interpreter_now);
2. becomes the directory's owner for good (the owner's groups, the
   directory's group, then the owner), so every file it writes is the
   owner's, as the service's are;
3. refuses (exit 2, one line) rather than write the table's directory as
   root: when it cannot become the owner, or when the directory already
   holds a file that is not the owner's (written by root before; chown it
   back first).

A directory root owns is root's own (a developer's, a test's): there is
nobody to act for, and the command runs as root with the key
$TABLECTL_JOURNAL_KEY names, as any user's does. Run as any other user
(`runuser -u tablectl -- ...`) nothing changes: the key is the file
$TABLECTL_JOURNAL_KEY names, when that user may read it.
"""

from __future__ import annotations

import argparse
import os
import pwd
from pathlib import Path

from controller import paths


class Refused(Exception):
    """The command will not write the table's data directory as root; the message says why."""


def installed_key() -> Path:
    """The key `tablectl system install` makes, which LoadCredential= hands the service."""
    from controller.appliance import KEY_FILE
    return Path("/") / KEY_FILE


def for_the_table(args: argparse.Namespace) -> None:
    """As root, on a data directory another user owns: take the key, then become that user."""
    if os.geteuid() != 0 or getattr(args, "archive", None):
        return   # any other user: as it is; an archive is checked in a directory of its own
    directory = paths.data_dir(getattr(args, "data_dir", None), create=False)
    try:
        st = directory.stat()
    except FileNotFoundError:
        return   # no table's yet
    if st.st_uid == 0:
        return   # root's own
    args.data_dir = str(directory)   # the same directory once the user (and its defaults) changed
    owner = _name(st.st_uid)
    _strangers(directory, st.st_uid, owner)
    _take_key()
    from controller.software.startcheck import read_interpreter_now
    read_interpreter_now()   # root reads the interpreter it runs on, which the table's user may not
    try:
        if owner is not None:
            os.initgroups(owner, st.st_gid)
        else:
            os.setgroups([])
        os.setgid(st.st_gid)
        os.setuid(st.st_uid)
    except OSError as exc:
        raise Refused(f"cannot become {owner or st.st_uid}, the owner of {directory} "
                      f"({exc.strerror or exc}); not writing the table's directory as root") from None
    if os.getresuid() != (st.st_uid,) * 3 or os.getresgid() != (st.st_gid,) * 3:
        raise Refused(f"did not become {owner or st.st_uid} wholly; not writing the table's directory as root")


def _name(uid: int) -> str | None:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


def _strangers(directory: Path, uid: int, owner: str | None) -> None:
    """Refused when a file of the directory is not its owner's: root (or another) wrote it before,
    and the owner could not write it; the command as the owner would fail half-way."""
    with os.scandir(directory) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            found = entry.stat(follow_symlinks=False).st_uid
            if found != uid:
                who = _name(found) or str(found)
                raise Refused(f"{entry.path} belongs to {who}, not to {owner or uid}, the owner of {directory}: "
                              f"give it back first (chown -R {owner or uid}: {directory})")


def _take_key() -> None:
    """The key as root reads it: the file $TABLECTL_JOURNAL_KEY names, else the installed one if there
    is one; none when $TABLECTL_JOURNAL_KEY is set empty. Refused when the file cannot be used: a
    technician who has the key does not quietly go on without it."""
    from controller.journal.store import KEY_ENV, KeyFileError, give_key, load_key
    named = os.environ.get(KEY_ENV)
    if named is None and installed_key().exists():
        named = str(installed_key())
    if not named:
        return
    try:
        give_key(load_key(named))
    except KeyFileError as exc:
        raise Refused(str(exc)) from None
