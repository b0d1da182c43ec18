"""Pairing the table's devices: one secret key per device, set by a supervisor, journaled, kept as the journal key is.

5319.60(a) asks that the links between a table's components be protected against tampering.
Every frame of a device link is sealed under a pairing key (drivers/pairing.py); the key a
device leaves its factory with is published, so a table never uses it. `tablectl device pair
KIND` makes a new random key for the table's device of that kind (the shoe, automated or
manual, the shuffler, the progressive controller), signed for by a supervisor, and keeps it
where the journal key is kept, with the same custody: a file readable by its owner alone
(mode 0400), in the journal key's directory (the file $TABLECTL_JOURNAL_KEY names, else the
installed /etc/tablectl/journal.key), never in the data directory of a keyed table, never in a
log, a screen or an archive. The journal records who paired which kind and the key's
fingerprint, never the key, before the key takes effect. The device is given the same key by
its vendor's pairing mode from that file (`tablectl sim KIND --key-file` for an emulator).

A table on emulated devices pairs its own emulators at its first start (journaled, by
"table"): their keys live beside the emulators, in the data directory's sim/ directory.

At start the table takes for each real device the key whose fingerprint the journal last
recorded for its kind. A device never paired, or a key file that is not the one journaled
(replaced on disk without the supervised step), gets a key no device holds: the device is
refused as unpaired, and the dealer's screen says to pair it.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from controller import paths
from drivers.pairing import KEY_SIZE, new_key

KINDS = ("shoe", "shuffler", "progressive")   # the table's device of each kind; the manual shoe is its shoe
ENTRY = "device-paired"


def fingerprint(key: bytes) -> str:
    """What the journal and the screens show of a key: 16 hex digits of a hash that gives nothing
    of the key away."""
    return hashlib.sha256(b"tablectl pairing key\0" + key).hexdigest()[:16]


def read_key(path: Path) -> bytes | None:
    """The key in a key file (hex, one line), None when there is none; ValueError when it is not a key."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"the pairing key {path} is not hex") from None
    if len(key) != KEY_SIZE:
        raise ValueError(f"the pairing key {path} holds {len(key)} bytes, not {KEY_SIZE}")
    return key


def stage_key(path: Path, key: bytes) -> Path:
    """The key written durably beside `path` under a temporary name (mode 0400), to be put in place
    by `commit_key` once the pairing is journaled."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
    try:
        os.write(fd, key.hex().encode() + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    return tmp


def commit_key(staged: Path, path: Path) -> None:
    os.replace(staged, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def journaled(journal: Any) -> dict[str, str] | None:
    """Each kind's fingerprint as the journal last recorded it; None when the journal cannot be read (a
    damaged journal the table is in a fault for: nothing it holds vouches for a key)."""
    from controller.journal.store import JournalError
    found: dict[str, str] = {}
    if journal is None:
        return found
    try:
        for e in journal.entries_of((ENTRY,)):
            p = e.payload if isinstance(e.payload, dict) else {}
            if p.get("kind") in KINDS and isinstance(p.get("fingerprint"), str):
                found[p["kind"]] = p["fingerprint"]
    except JournalError:
        return None
    return found


def entry(kind: str, key: bytes, by: str, source: str) -> dict:
    return {"kind": kind, "fingerprint": fingerprint(key), "by": by, "source": source}


def table_key(kind: str, data_dir: Path, journal: Any, log: Any) -> bytes:
    """The key the table's driver of a real device uses: the paired one the journal vouches for, else
    one no device holds (the device is refused as unpaired)."""
    path = paths.pairing_key(kind, data_dir)
    try:
        key = read_key(path)
    except (ValueError, OSError) as exc:
        log.error("pairing_key_unusable", device=kind, error=str(exc))
        return new_key()
    if key is None:
        log.warning("device_not_paired", device=kind, advice=f"tablectl device pair {kind}")
        return new_key()
    known = journaled(journal)
    if known is None:
        log.error("pairing_key_unvouched", device=kind, why="the journal cannot be read")
        return new_key()
    if journal is not None and known.get(kind) != fingerprint(key):
        log.error("pairing_key_not_journaled", device=kind, fingerprint=fingerprint(key),
                  advice=f"the key file was not made by tablectl device pair {kind}: pair the device again")
        return new_key()
    return key


def emulated_key(kind: str, data_dir: Path, journal: Any, log: Any) -> bytes:
    """The key of an emulator the table runs: made and journaled at the first start, kept in sim/."""
    path = Path(data_dir) / "sim" / "pairing" / f"{kind}.key"
    try:
        key = read_key(path)
    except (ValueError, OSError):
        key = None
    known = journaled(journal)
    if known is None:   # the journal cannot be read (the table is in a fault for it): this run only
        log.error("emulator_not_paired", device=kind, error="the journal cannot be read")
        return key if key is not None else new_key()
    if key is not None and (journal is None or known.get(kind) == fingerprint(key)):
        return key
    key = new_key()
    try:
        staged = stage_key(path, key)
        if journal is not None:
            journal.append(ENTRY, entry(kind, key, "table", "emulated"))
    except Exception as exc:   # a journal that cannot take it (the table is in a fault for it): this run only
        log.error("emulator_not_paired", device=kind, error=str(exc)[:200])
        return key
    commit_key(staged, path)
    log.info("emulator_paired", device=kind, fingerprint=fingerprint(key))
    return key


def add_arguments(parser: Any) -> None:
    parser.add_argument("kind", choices=KINDS, help="the table's device to pair (the manual shoe is the shoe)")
    parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", help="the table profile whose [screen] secrets names the supervisors' file")
    where.add_argument("--secrets", help="the screens' secrets file, against which the PIN is checked")
    parser.add_argument("--supervisor", help="who pairs it (else read from stdin); the PIN is always asked")


def pair_main(args: Any) -> int:
    """`tablectl device pair KIND --config P [--data-dir D]`: a supervisor (id and PIN on stdin, as for
    `tablectl fault clear`) pairs the table's device of KIND with a new key (the table stopped).

    Run as root on a data directory another user owns (the box's terminal), the key is written as
    root beside the root-only journal key, and the journal is written by a child that has become the
    directory's owner, holding the journal key root read (controller/journal/custody.py), so that
    every file in the directory stays the service's; the key is put in place only once the child
    has journaled the pairing."""
    from controller.credentials import secrets_file
    kind = args.kind
    try:
        secrets = secrets_file(args)
    except (ValueError, OSError) as exc:
        print(f"tablectl device pair: {exc}", file=sys.stderr)
        return 2
    directory = paths.data_dir(args.data_dir, create=False)
    if not (directory / "journal.db").exists():
        print(f"tablectl device pair: {directory} holds no journal (start the table once first)", file=sys.stderr)
        return 2
    path = paths.pairing_key(kind, directory)
    key = new_key()
    owner = directory.stat()
    if os.geteuid() != 0 or owner.st_uid == 0:
        return _pair(args, secrets, directory, key, path, stage=True)
    from controller.journal import custody
    try:
        custody._take_key()   # the journal key, read as root, held in memory for the child
        staged = stage_key(path, key)
    except (custody.Refused, OSError) as exc:
        print(f"tablectl device pair: refused: {exc}; nothing was changed", file=sys.stderr)
        return 2
    sys.stdout.flush()
    child = os.fork()
    if child == 0:   # the table's user writes the table's journal
        code = 1
        try:
            name = custody._name(owner.st_uid)
            if name is not None:
                os.initgroups(name, owner.st_gid)
            else:
                os.setgroups([])
            os.setgid(owner.st_gid)
            os.setuid(owner.st_uid)
            code = _pair(args, secrets, directory, key, path, stage=False)
        except BaseException as exc:   # the child never returns into the parent's code
            print(f"tablectl device pair: {exc}; nothing was changed", file=sys.stderr)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        commit_key(staged, path)
    else:
        staged.unlink(missing_ok=True)
    return code


def _pair(args: Any, secrets: Path, directory: Path, key: bytes, path: Path, *, stage: bool) -> int:
    """Sign, journal and (when `stage`) write the key: the journal's half of the pairing."""
    from controller.credentials import SignatureRefused, signatures
    from controller.journal.store import Journal, JournalBusy, JournalError
    kind = args.kind
    try:
        journal = Journal.open(directory, wait=2.0)
    except JournalBusy:
        print("tablectl device pair: the table is running and alone writes its journal: stop it, pair, "
              "then start it again", file=sys.stderr)
        return 2
    with journal:
        if journal.problems:
            print(f"tablectl device pair: the journal has problems ({journal.problems[0].detail}); "
                  "nothing was changed", file=sys.stderr)
            return 1
        try:
            signed = signatures(secrets, sys.stdin, sys.stderr, 1, (getattr(args, "supervisor", None),))
        except SignatureRefused as exc:
            from controller import boundary
            journal.append("refused", boundary.record({"type": "device_pair", "kind": kind}, "terminal",
                                                      getattr(args, "supervisor", None), str(exc)))
            print(f"tablectl device pair: {exc}", file=sys.stderr)
            return 2
        staged = None
        if stage:
            try:
                staged = stage_key(path, key)
            except OSError as exc:
                print(f"tablectl device pair: cannot write {path}: {exc.strerror or exc}; nothing was changed",
                      file=sys.stderr)
                return 2
        try:
            done = journal.append(ENTRY, entry(kind, key, signed[0], "terminal"))
        except JournalError as exc:
            if staged is not None:
                staged.unlink(missing_ok=True)
            print(f"tablectl device pair: {exc}; nothing was changed", file=sys.stderr)
            return 1
        if staged is not None:
            commit_key(staged, path)
    print(f"paired the {kind} by {signed[0]} (journal entry {done.seq}): key {fingerprint(key)} in {path}; "
          f"give the device this key (its vendor's pairing mode), then start the table", flush=True)
    return 0


def sim_main(args: Any) -> int:
    """`tablectl sim`: drivers/sim/cli.py, with `--paired DATA_DIR` made the key file that table paired
    for the device (the table's paths are the table's to know, not the drivers')."""
    from drivers.sim import cli
    if getattr(args, "paired", None):
        kind = "shoe" if args.device == "manual-shoe" else args.device
        args.key_file = str(paths.pairing_key(kind, args.paired))
    return cli.main(args)
