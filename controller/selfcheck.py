"""Power-up self-check and the table's fault state.

At every start, before any device is touched, the table checks

- its own software: a SHA-256 digest of every file of the installed
  `controller` and `drivers` packages, compared with the digest recorded in
  the journal (the first start records it). 9 NYCRR 5321.18(b)(3)(iv) asks
  that program storage be verified by at least a 16-bit CRC at power-up;
  SHA-256 is far stronger, and the per-file manifest kept beside the digest
  names the file that changed;
- its journal: every byte of the file against its seal, the write-ahead log,
  and the hash chain (controller/journal.py, controller/sealing.py).

A failure puts the table in a *fault*: a "fault" entry in the journal and a
marker file beside it (fault.json, for the case where the journal itself
cannot be written). A fault stays across restarts, even when the cause has
gone away, until a supervisor clears it; clearing is journaled with who did it
and when, accepts the software and the journal as they stand, and lists the
problems accepted so `tablectl journal verify` reports them as acknowledged
rather than new. The table refuses to play while `SelfCheck.faulted` is true.

The digest is reproducible by hand from the package directory:
    find controller drivers -type f ! -name '*.py[co]' ! -path '*/__pycache__/*' \\
      | LC_ALL=C sort | xargs sha256sum | sha256sum
Bytecode (__pycache__) is left out because Python rewrites it at will; on a
box the package is installed read-only with its bytecode compiled at install
time (ProtectSystem=strict keeps it so).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from controller import paths
from controller.journal import Entry, Journal, JournalError, JournalUnreadable, utc_now
from controller.sealing import Problem, write_atomic

MARKER = "fault.json"
PACKAGES = ("controller", "drivers")


# --------------------------------------------------------------------------
# The software digest
# --------------------------------------------------------------------------

def package_roots() -> list[Path]:
    """The directories of the installed packages (the files Python imports)."""
    import importlib
    return [Path(importlib.import_module(name).__file__).parent for name in PACKAGES]


def software_manifest(roots: Iterable[Path] | None = None) -> dict[str, str]:
    """relative path -> SHA-256 of every file of the packages, bytecode excepted."""
    manifest = {}
    for root in (package_roots() if roots is None else roots):
        root = Path(root)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in filenames:
                if name.endswith((".pyc", ".pyo")):
                    continue
                path = Path(dirpath) / name
                rel = f"{root.name}/{path.relative_to(root).as_posix()}"
                with open(path, "rb") as f:
                    manifest[rel] = hashlib.file_digest(f, "sha256").hexdigest()
    return manifest


def software_digest(manifest: dict[str, str]) -> str:
    """SHA-256 of the manifest written as `sha256sum` writes it, paths in byte order."""
    lines = "".join(f"{manifest[p]}  {p}\n" for p in sorted(manifest, key=lambda p: p.encode()))
    return hashlib.sha256(lines.encode()).hexdigest()


def compare_manifests(recorded: dict[str, str], now: dict[str, str]) -> list[Problem]:
    problems = []
    for p in sorted(set(recorded) | set(now)):
        if p not in now:
            problems.append(Problem("software-digest", p, "was removed"))
        elif p not in recorded:
            problems.append(Problem("software-digest", p, "was added"))
        elif recorded[p] != now[p]:
            problems.append(Problem("software-digest", p, "was changed"))
    return problems or [Problem("software-digest", "", "the software digest changed")]


# --------------------------------------------------------------------------
# Fault state
# --------------------------------------------------------------------------

def read_marker(directory: Path) -> list[dict]:
    try:
        value = json.loads((directory / MARKER).read_text())
        return list(value["faults"])
    except FileNotFoundError:
        return []
    except (ValueError, KeyError, TypeError, OSError):
        # A damaged marker is still a fault: somebody or something wrote it.
        return [{"source": "marker", "problems": [{"code": "marker-unreadable", "where": MARKER,
                                                   "detail": "the fault marker cannot be read"}]}]


def _write_marker(directory: Path, faults: list[dict]) -> None:
    if faults:
        write_atomic(directory / MARKER, json.dumps({"faults": faults}, indent=1).encode())
    else:
        (directory / MARKER).unlink(missing_ok=True)


def raise_fault(directory: Path, journal: Journal | None, source: str, problems: list[Problem],
                *, clock: Callable[[], datetime] = utc_now) -> Entry | None:
    """Put the table in a fault: journaled when the journal can take it, and marked beside it.

    Also for the runtime, e.g. when `journal.problems` grows while the table runs.
    """
    payload = {"source": source, "problems": [p.to_json() for p in problems]}
    entry = None
    if journal is not None:
        try:
            entry = journal.append("fault", payload)
        except JournalError:
            entry = None
    record = dict(payload, seq=entry.seq if entry else None,
                  at=entry.at if entry else clock().isoformat())
    _write_marker(directory, read_marker(directory) + [record])
    return entry


def open_faults(journal: Journal | None, directory: Path) -> list[dict]:
    """Faults not yet cleared: journaled ones after the last clearing, and any only in the marker."""
    faults: list[dict] = []
    cleared_at = 0
    if journal is not None:
        last = journal.latest("fault-cleared")
        cleared_at = last.seq if last else 0
        for e in journal.table_entries("fault", since=cleared_at):
            faults.append(dict(e.payload, seq=e.seq, at=e.at))
    seen = {f["seq"] for f in faults}
    for f in read_marker(directory):
        seq = f.get("seq")
        if seq is None or (seq not in seen and seq > cleared_at):
            faults.append(f)
    return faults


@dataclass
class SelfCheck:
    """The outcome of the power-up self-check."""

    journal: Journal | None
    software: str                                    # the digest of the software now
    problems: list[Problem] = field(default_factory=list)   # found at this start
    faults: list[dict] = field(default_factory=list)        # open faults, old and new

    @property
    def faulted(self) -> bool:
        return bool(self.faults) or self.journal is None


def power_up(data_dir: str | os.PathLike | None = None, *, roots: Iterable[Path] | None = None,
             clock: Callable[[], datetime] = utc_now, seal_frames: int | None = None) -> SelfCheck:
    """Check the software and the journal; open the journal for the table.

    JournalBusy (another table process on this data directory) propagates.
    """
    directory = paths.data_dir(data_dir)
    manifest = software_manifest(roots)
    digest = software_digest(manifest)
    kwargs = {} if seal_frames is None else {"seal_frames": seal_frames}
    try:
        journal = Journal.open(directory, clock=clock, **kwargs)
    except JournalUnreadable as exc:
        if not any(f.get("problems") == [p.to_json() for p in exc.problems] for f in read_marker(directory)):
            raise_fault(directory, None, "journal", exc.problems, clock=clock)
        return SelfCheck(None, digest, exc.problems, open_faults(None, directory))
    problems: list[Problem] = []
    already = open_faults(journal, directory)

    def fault(source: str, found: list[Problem]) -> None:
        problems.extend(found)
        as_json = [p.to_json() for p in found]
        if not any(f.get("source") == source and f.get("problems") == as_json for f in already):
            raise_fault(directory, journal, source, found, clock=clock)

    if journal.problems:
        fault("journal", list(journal.problems))
    recorded = journal.latest("software-accepted")
    if recorded is None:
        journal.append("software-accepted", {"digest": digest, "files": manifest, "by": None,
                                             "reason": "first start"})
    elif recorded.payload.get("digest") != digest:
        fault("software", compare_manifests(recorded.payload.get("files", {}), manifest))
    journal.append("power-up", {"software": digest, "python": sys.version.split()[0],
                                "problems": [p.to_json() for p in problems]})
    return SelfCheck(journal, digest, problems, open_faults(journal, directory))


def clear_fault(data_dir: str | os.PathLike | None, supervisor: str, note: str = "", *,
                roots: Iterable[Path] | None = None,
                clock: Callable[[], datetime] = utc_now) -> Entry:
    """A supervisor clears the fault with the table stopped (`tablectl fault clear`).

    A journal that cannot be opened at all is moved to quarantine/<time>/ whole
    and a new journal begins, its first entries saying who did that and why.
    """
    _check_supervisor(supervisor)
    directory = paths.data_dir(data_dir)
    quarantined = None
    try:
        journal = Journal.open(directory, clock=clock)
    except JournalUnreadable:
        stamp = clock().strftime("%Y%m%dT%H%M%S.%fZ")
        quarantined = directory / "quarantine" / stamp
        quarantined.mkdir(parents=True)
        for name in ("journal.db", "journal.db-wal", "journal.db-shm", "journal.seal"):
            if (directory / name).exists():
                shutil.move(str(directory / name), str(quarantined / name))
        journal = Journal.open(directory, clock=clock)
    try:
        return clear(journal, directory, supervisor, note, roots=roots, quarantined=quarantined)
    finally:
        journal.close()


def _check_supervisor(supervisor: Any) -> None:
    if not isinstance(supervisor, str) or not supervisor.strip():
        raise ValueError("supervisor: who clears the fault must be named")


def clear(journal: Journal, directory: Path, supervisor: str, note: str = "", *,
          roots: Iterable[Path] | None = None, quarantined: Path | None = None) -> Entry:
    """Clear the fault on an open journal (the running table's supervisor screen, or the command).

    Accepts the software and the journal file as they stand: the software's
    digest is recorded again, every problem a full verification finds is
    listed as accepted, and the file is sealed anew.
    """
    _check_supervisor(supervisor)
    manifest = software_manifest(roots)
    digest = software_digest(manifest)
    faults = open_faults(journal, directory)
    accepted = [] if quarantined else [p.to_json() for p in journal.verify()]
    recorded = journal.latest("software-accepted")
    if recorded is None or recorded.payload.get("digest") != digest:
        journal.append("software-accepted", {"digest": digest, "files": manifest,
                                             "by": supervisor, "reason": note or "fault cleared"})
    payload: dict[str, Any] = {
        "by": supervisor, "note": note,
        "faults": [] if quarantined else [f["seq"] for f in faults if f.get("seq") is not None],
        "marker": [f for f in faults if quarantined or f.get("seq") is None],
        "accepted": accepted,
    }
    if quarantined is not None:
        payload["quarantined"] = str(quarantined.relative_to(directory))
    entry = journal.append("fault-cleared", payload)
    journal.accept_current_state()
    _write_marker(directory, [])
    return entry


# --------------------------------------------------------------------------
# Commands (`tablectl fault status`, `tablectl fault clear`)
# --------------------------------------------------------------------------

def status_main(args) -> int:
    """Print the open faults; exit 1 when the table is in a fault."""
    directory = paths.data_dir(getattr(args, "data_dir", None), create=False)
    try:
        journal = Journal.open(directory, readonly=True)
    except JournalUnreadable as exc:
        print(f"journal: {exc}")
        journal = None
    try:
        faults = open_faults(journal, directory)
    finally:
        if journal is not None:
            journal.close()
    if not faults and journal is not None:
        print("no fault")
        return 0
    for f in faults:
        where = f"entry {f['seq']}" if f.get("seq") else "marker only"
        print(f"FAULT ({f.get('source')}, {where}, {f.get('at', '?')})")
        for p in f.get("problems", []):
            print(f"  {p.get('where')}: {p.get('detail')}" if p.get("where") else f"  {p.get('detail')}")
    return 1


def clear_main(args) -> int:
    entry = clear_fault(getattr(args, "data_dir", None), args.supervisor, getattr(args, "note", "") or "")
    print(f"fault cleared by {entry.payload['by']} at {entry.at} (journal entry {entry.seq})")
    return 0
