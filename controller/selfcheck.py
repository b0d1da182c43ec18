"""Power-up self-check and the table's fault state.

At every start, before any device is touched, the table checks

- its own software: a SHA-256 digest of the interpreter's version and of every
  file of the installed distributions the table runs on: tablectl and each of
  its dependencies, as their wheels' RECORD lists them. Each file is hashed
  again and compared with its RECORD, so a file changed after installation is
  found even at the very first start (nothing is trusted because it was there
  first), and the digest of a release is the same on every box it is installed
  on. The digest is compared with the one recorded in the journal. 9 NYCRR
  5321.18(b)(3)(iv) asks that program storage be verified by at least a 16-bit
  CRC at power-up; SHA-256 is far stronger, and the manifest kept beside the
  digest names the distribution, version or file that changed;
- its journal: every byte of the file against its seal, the write-ahead log,
  and the hash chain (controller/journal.py, controller/sealing.py).

A failure puts the table in a *fault*: a "fault" entry in the journal and a
marker file beside it (fault.json, for the case where the journal itself
cannot be written). A fault stays across restarts, even when the cause has
gone away, until a supervisor clears it; clearing is journaled with who did it
and when, accepts the software and the journal as they stand, and lists the
problems accepted so `tablectl journal verify` reports them as acknowledged
rather than new. The table refuses to play while `SelfCheck.faulted` is true.

A new version (a distribution or the interpreter at another version, every
file as its RECORD says) is an upgrade: one supervisor accepts it on the
screen or with `tablectl fault clear`, and the journal keeps the old and new
versions and digests (docs/UPGRADE.md). Any other change (a file that differs
from its RECORD, the same versions with other files) is an integrity change:
two different supervisors must accept it.

An editable install (a developer's checkout) has no RECORD for the project's
own files: its `controller` and `drivers` directories are hashed instead, and
that part is reproducible by hand from the package directory:
    find controller drivers -type f ! -name '*.py[co]' ! -path '*/__pycache__/*' \\
      | LC_ALL=C sort | xargs sha256sum | sha256sum
Bytecode (__pycache__) is left out because Python rewrites it at will; on a
box the package is installed read-only with its bytecode compiled at install
time (ProtectSystem=strict keeps it so).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from controller import paths
from controller.journal import Entry, Journal, JournalBusy, JournalError, JournalUnreadable, utc_now
from controller.sealing import Problem, write_atomic

MARKER = "fault.json"
HASH_CACHE = "software-hashes.json"   # HashCache: installed files' hashes from the last start
PACKAGES = ("controller", "drivers")
DISTRIBUTION = "tablectl"


# --------------------------------------------------------------------------
# The software digest
# --------------------------------------------------------------------------

def package_roots() -> list[Path]:
    """The directories of the installed packages (the files Python imports)."""
    import importlib
    return [Path(str(importlib.import_module(name).__file__)).parent for name in PACKAGES]   # packages have one


def software_manifest(roots: Iterable[Path] | None = None) -> dict[str, str]:
    """What the digest covers: the installed distributions (or, given `roots`, those directories only).

    Keys: a project file's path -> its SHA-256; "python" -> the interpreter;
    "dist:NAME" -> "VERSION SHA-256" of a dependency's files (of its RECORD).
    """
    if roots is None:
        return installed_manifest()[0]
    return directory_manifest(roots)


def directory_manifest(roots: Iterable[Path]) -> dict[str, str]:
    """relative path -> SHA-256 of every file of the packages, bytecode excepted."""
    manifest = {}
    for root in roots:
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


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(dist, extras: frozenset[str]) -> Iterable[tuple[str, frozenset[str]]]:
    """The distributions `dist` needs with these extras; markers other than extras are left to
    whether the distribution is installed (a dependency for another platform is not)."""
    for line in dist.requires or []:
        req, _, marker = line.partition(";")
        wanted = re.findall(r"extra\s*==\s*['\"]([^'\"]+)['\"]", marker)
        if wanted and not {_norm(w) for w in wanted} & extras:
            continue
        m = re.match(r"\s*([A-Za-z0-9._-]+)\s*(?:\[([^\]]*)\])?", req)
        if m:
            yield m.group(1), frozenset(_norm(x) for x in (m.group(2) or "").split(",") if x.strip())


def _record_file_hash(dist, f) -> str | None:
    """The file's SHA-256 (hex) as its RECORD gives it, None when RECORD gives none."""
    if f.hash is None or f.hash.mode != "sha256":
        return None
    value = f.hash.value
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).hex()


def _sha256_file(path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


class HashCache:
    """Each installed file's SHA-256 from an earlier start, keyed by what the kernel says of it.

    Hashing every file of every distribution at each start reads some 300 MB
    (llvmlite alone is 180 MB) and took half a second, a good part of a start.
    A file whose bytes change gets a new ctime, which no unprivileged call can
    set back, and a file replaced gets a new inode: so a file whose device,
    inode, size, mtime and ctime are those it had when it was hashed has the
    bytes it had then, and is not read again. Only someone who can write the
    installed files and rewind the kernel's clock (root) could change one
    unseen, and such a person could as well replace this check. The cache
    lives beside the journal; a damaged or edited cache only costs a full
    hashing (or a fault that a supervisor sees), never a file taken unread.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: dict[str, list] = {}
        self.changed = False
        if path is not None:
            try:
                loaded = json.loads(path.read_text())
                if isinstance(loaded, dict):
                    self.entries = {k: v for k, v in loaded.items() if isinstance(v, list) and len(v) == 6}
            except (OSError, ValueError):
                pass

    def sha256(self, path) -> str:
        name = str(path)
        st = os.stat(name)
        key = [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
        known = self.entries.get(name)
        if known is not None and known[:5] == key:
            return known[5]
        digest = _sha256_file(name)
        if os.stat(name).st_ctime_ns == st.st_ctime_ns:   # not changed while it was read
            self.entries[name] = key + [digest]
            self.changed = True
        return digest

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        try:
            write_atomic(self.path, json.dumps(self.entries, separators=(",", ":")).encode())
        except OSError:
            pass   # the next start hashes again


def _runs_from_record(dist) -> bool:
    """Whether the imported packages are the files this distribution's RECORD lists.

    Not so for an editable install (a checkout: an egg-info or a finder, no
    hashes) or a copy put first on the path (the crash tests' frozen software):
    then the packages' directories are what runs, and what is hashed.
    """
    import controller
    if dist.read_text("RECORD") is None:
        return False
    try:
        return Path(dist.locate_file("controller/__init__.py")).resolve() == Path(controller.__file__).resolve()
    except (OSError, TypeError):
        return False


def _installed_files(dist) -> Iterable[tuple[str, str | None, str]]:
    """(path as RECORD names it, its SHA-256 hex as RECORD gives it or None, where it is).

    RECORD is read as the CSV it is rather than through `dist.files`, whose path
    objects cost a start more than hashing the cached files does."""
    text = dist.read_text("RECORD")
    if text is None:
        for f in dist.files or []:
            yield str(f), _record_file_hash(dist, f), str(dist.locate_file(f))
        return
    base = str(dist.locate_file(""))
    for row in csv.reader(text.splitlines()):
        if not row or not row[0]:
            continue
        mode, _, value = row[1].partition("=") if len(row) > 1 else ("", "", "")
        recorded = (base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).hex()
                    if mode == "sha256" and value else None)
        yield row[0], recorded, os.path.join(base, row[0])


def installed_manifest(cache: Path | None = None) -> tuple[dict[str, str], list[Problem]]:
    """The manifest of tablectl and every distribution it depends on, and the files that
    differ from their RECORD (each one a problem: changed after installation).

    Files an installer writes per box (the dist-info's RECORD, INSTALLER, direct_url.json,
    entry-point scripts naming this venv's python, bytecode) are left out, so one release
    has one digest. `cache` (beside the journal) keeps each file's hash from the
    last start for the files the kernel says are untouched since (HashCache).
    """
    from importlib import metadata
    hashes = HashCache(cache)
    manifest: dict[str, str] = {
        "python": f"{sys.implementation.name} {sys.version.split()[0]} ({sys.version_info.releaselevel})"}
    problems: list[Problem] = []
    seen: set[str] = set()
    todo: list[tuple[str, frozenset[str]]] = [(DISTRIBUTION, frozenset())]
    while todo:
        name, extras = todo.pop()
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        key = _norm(dist.metadata["Name"])
        if key in seen:
            continue
        seen.add(key)
        todo.extend(_requirements(dist, extras if key != DISTRIBUTION else frozenset()))
        version = dist.version
        project = key == DISTRIBUTION
        if project and not _runs_from_record(dist):
            manifest.update(directory_manifest(package_roots()))
            manifest[f"dist:{key}"] = f"{version} checkout"
            continue
        lines = []
        for path, recorded, where in _installed_files(dist):
            if path.startswith("..") or path.endswith((".pyc", ".pyo")) or (
                    "-info/" in path and not path.endswith(("/METADATA", "/WHEEL", "/entry_points.txt"))):
                continue
            try:
                actual = hashes.sha256(where)
            except OSError:
                actual = "missing"
            if recorded is not None and actual != recorded:
                problems.append(Problem("software-integrity", f"{key} {version}: {path}",
                                        "is missing" if actual == "missing"
                                        else "differs from the hash its wheel installed (RECORD)"))
            if project:
                if "-info/" not in path:   # its dist-info says the version, kept as dist:tablectl
                    manifest[path] = actual
            else:
                lines.append(f"{actual}  {path}\n")
        if project:
            manifest[f"dist:{key}"] = version
        else:
            digest = hashlib.sha256("".join(sorted(lines, key=lambda x: x[66:].encode())).encode()).hexdigest()
            manifest[f"dist:{key}"] = f"{version} {digest}"
    hashes.save()
    return manifest, problems


def versions(manifest: dict[str, str]) -> dict[str, str]:
    """name -> version of every distribution of a manifest, and the interpreter ("python")."""
    out = {k[5:]: v.split()[0] for k, v in manifest.items() if k.startswith("dist:")}
    if "python" in manifest:
        out["python"] = manifest["python"]
    return out


def software_digest(manifest: dict[str, str]) -> str:
    """SHA-256 of the manifest written as `sha256sum` writes it, paths in byte order."""
    lines = "".join(f"{manifest[p]}  {p}\n" for p in sorted(manifest, key=lambda p: p.encode()))
    return hashlib.sha256(lines.encode()).hexdigest()


def compare_manifests(recorded: dict[str, str], now: dict[str, str]) -> list[Problem]:
    problems = []
    old_v, new_v = versions(recorded), versions(now)
    for name in sorted(set(old_v) | set(new_v)):
        if old_v.get(name) != new_v.get(name):
            problems.append(Problem("software-version", name,
                                    f"{old_v.get(name) or 'nothing'} was replaced by {new_v.get(name) or 'nothing'}"))
    for p in sorted(set(recorded) | set(now)):
        if p == "python" or (p.startswith("dist:") and old_v.get(p[5:]) != new_v.get(p[5:])):
            continue   # said above, once for the distribution
        if p.startswith("dist:") and p in recorded and p in now and recorded[p] != now[p]:
            problems.append(Problem("software-digest", p[5:], f"{new_v[p[5:]]}: its files changed"))
            continue
        if p not in now:
            problems.append(Problem("software-digest", p, "was removed"))
        elif p not in recorded:
            problems.append(Problem("software-digest", p, "was added"))
        elif recorded[p] != now[p]:
            problems.append(Problem("software-digest", p, "was changed"))
    return problems or [Problem("software-digest", "", "the software digest changed")]


def _software(roots: Iterable[Path] | None, cache: Path | None = None) -> tuple[dict[str, str], list[Problem]]:
    return installed_manifest(cache) if roots is None else (directory_manifest(roots), [])


class SecondSupervisor(ValueError):
    """An integrity change of the software is accepted only by two different supervisors."""


def software_change(recorded: Entry | None, manifest: dict[str, str],
                    integrity: list[Problem]) -> dict | None:
    """What changed since the software was last accepted, and how many supervisors accept it.

    None when nothing did. An upgrade (some version moved, every file as its
    RECORD says) needs one supervisor; anything else is an integrity change and needs two.
    """
    digest = software_digest(manifest)
    if recorded is not None and recorded.payload.get("digest") == digest and not integrity:
        return None
    if recorded is None and not integrity:
        return None
    old = recorded.payload.get("files", {}) if recorded is not None else {}
    upgrade = recorded is not None and not integrity and versions(old) != versions(manifest)
    return {"from": None if recorded is None else {"digest": recorded.payload.get("digest"),
                                                     "versions": versions(old)},
            "to": {"digest": digest, "versions": versions(manifest)},
            "kind": "upgrade" if upgrade else "integrity", "supervisors": 1 if upgrade else 2,
            "problems": [p.to_json() for p in integrity]}


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


# A fault's "category" says how many supervisors clear it with `tablectl fault clear`: an
# integrity fault (the journal damaged, rolled back or behind its anchor, the software
# changed without a new version) two different ones, any other fault one. A fault
# journaled before the field existed is categorized by its source.
INTEGRITY = "integrity"
INTEGRITY_SOURCES = frozenset({"journal", "software", "anchor", "marker"})


def category_of(fault: dict) -> str:
    """The fault's category: its own field, or by its source for a fault that has none."""
    given = fault.get("category")
    if isinstance(given, str) and given:
        return given
    return INTEGRITY if fault.get("source") in INTEGRITY_SOURCES else "operational"


def supervisors_to_clear(faults: list[dict]) -> int:
    """How many different supervisors clear these faults: two if any is an integrity fault."""
    return 2 if any(category_of(f) == INTEGRITY for f in faults) else 1


def raise_fault(directory: Path, journal: Journal | None, source: str, problems: list[Problem],
                *, clock: Callable[[], datetime] = utc_now, category: str | None = None) -> Entry | None:
    """Put the table in a fault: journaled when the journal can take it, and marked beside it.

    Also for the runtime, e.g. when `journal.problems` grows while the table runs.
    `category` INTEGRITY makes clearing it need two supervisors; by default it follows
    from the source (INTEGRITY_SOURCES). When the disk is full the journal has freed
    its reserve (Journal.free_reserve) so the record fits; if the marker still does
    not, the reserve file is freed here: a fault record is never what a full disk loses.
    """
    payload = {"source": source, "problems": [p.to_json() for p in problems],
               "category": category or category_of({"source": source})}
    entry = None
    if journal is not None:
        try:
            entry = journal.append("fault", payload)
        except JournalError:
            entry = None
    record = dict(payload, seq=entry.seq if entry else None,
                  at=entry.at if entry else clock().isoformat())
    try:
        _write_marker(directory, read_marker(directory) + [record])
    except OSError:
        # the disk is full: the journal's reserve is there for this record (journal.RESERVE_NAME)
        from controller.journal import RESERVE_NAME
        (directory / RESERVE_NAME).unlink(missing_ok=True)
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
    change: dict | None = None                              # the software not yet accepted

    @property
    def faulted(self) -> bool:
        return bool(self.faults) or self.journal is None


def power_up(data_dir: str | os.PathLike | None = None, *, roots: Iterable[Path] | None = None,
             clock: Callable[[], datetime] = utc_now, seal_frames: int | None = None) -> SelfCheck:
    """Check the software and the journal; open the journal for the table.

    JournalBusy (another table process on this data directory) propagates.
    """
    directory = paths.data_dir(data_dir)
    manifest, integrity = _software(roots, cache=directory / HASH_CACHE)
    digest = software_digest(manifest)
    try:
        if seal_frames is None:
            journal = Journal.open(directory, clock=clock)
        else:
            journal = Journal.open(directory, clock=clock, seal_frames=seal_frames)
    except JournalUnreadable as exc:
        if not any(f.get("problems") == [p.to_json() for p in exc.problems] for f in read_marker(directory)):
            raise_fault(directory, None, "journal", exc.problems, clock=clock)
        return SelfCheck(None, digest, exc.problems, open_faults(None, directory))
    problems: list[Problem] = []
    already = open_faults(journal, directory)

    def fault(source: str, found: list[Problem], category: str | None = None) -> None:
        problems.extend(found)
        as_json = [p.to_json() for p in found]
        if not any(f.get("source") == source and f.get("problems") == as_json for f in already):
            raise_fault(directory, journal, source, found, clock=clock, category=category)

    if journal.problems:
        fault("journal", list(journal.problems))
    recorded = journal.latest("software-accepted")
    change = software_change(recorded, manifest, integrity)
    if recorded is None and change is None:
        # every file as its wheel installed it (or a developer's checkout): this release
        journal.append("software-accepted", {"digest": digest, "files": manifest, "by": None,
                                             "reason": "first start", "versions": versions(manifest)})
    elif change is not None:
        fault("software", integrity + (compare_manifests(recorded.payload.get("files", {}), manifest)
                                       if recorded is not None and recorded.payload.get("digest") != digest
                                       else []),
              category=INTEGRITY if change["supervisors"] == 2 else "upgrade")
    journal.append("power-up", {"software": digest, "python": sys.version.split()[0],
                                "versions": versions(manifest),
                                "problems": [p.to_json() for p in problems]})
    return SelfCheck(journal, digest, problems, open_faults(journal, directory), change)


def clear_fault(data_dir: str | os.PathLike | None, supervisor: str, note: str = "", *,
                roots: Iterable[Path] | None = None,
                clock: Callable[[], datetime] = utc_now, second: str | None = None) -> Entry:
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
        return clear(journal, directory, supervisor, note, roots=roots, quarantined=quarantined, second=second)
    finally:
        journal.close()


def _check_supervisor(supervisor: Any) -> None:
    if not isinstance(supervisor, str) or not supervisor.strip():
        raise ValueError("supervisor: who clears the fault must be named")


def clear(journal: Journal, directory: Path, supervisor: str, note: str = "", *,
          roots: Iterable[Path] | None = None, quarantined: Path | None = None,
          second: str | None = None) -> Entry:
    """Clear the fault on an open journal (the running table's supervisor screen, or the command).

    Accepts the software and the journal file as they stand: the software's
    digest is recorded again, every problem a full verification finds is
    listed as accepted, and the file is sealed anew.
    """
    _check_supervisor(supervisor)
    manifest, integrity = _software(roots)
    digest = software_digest(manifest)
    recorded = journal.latest("software-accepted")
    change = software_change(recorded, manifest, integrity)
    if change is not None and change["supervisors"] == 2 and (
            not isinstance(second, str) or not second.strip() or second.strip() == supervisor.strip()):
        raise SecondSupervisor(f"the software changed without a new version ({change['kind']} change): "
                               "a second supervisor must accept it too")
    faults = open_faults(journal, directory)
    accepted = [] if quarantined else [p.to_json() for p in journal.verify()]
    # what the faults named (an anchor the journal did not reach, ...): accepted too, so the
    # next start takes them as acknowledged and anchors the journal as it now stands
    accepted += [p for f in faults for p in f.get("problems", [])
                 if isinstance(p, dict) and p not in accepted and "code" in p and "where" in p]
    if recorded is None or recorded.payload.get("digest") != digest:
        journal.append("software-accepted", {
            "digest": digest, "files": manifest, "by": supervisor, "reason": note or "fault cleared",
            "versions": versions(manifest), "kind": change["kind"] if change else "integrity",
            "previous": change["from"] if change else None,
            **({"second": second} if change is not None and change["supervisors"] == 2 else {})})
    payload: dict[str, Any] = {
        "by": supervisor, "note": note, **({"second": second.strip()} if isinstance(second, str) and second.strip()
                                          and second.strip() != supervisor.strip() else {}),
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
        anchor = None
        if journal is not None:
            from controller.readback import anchoring
            anchor = anchoring(journal)
    finally:
        if journal is not None:
            journal.close()
    # What the anchor check found at the last start, on stderr: stdout is the faults alone
    # (controller/anchor.py; a table without an anchor cannot notice a rollback).
    if anchor is not None and not anchor.startswith("anchor: checked"):
        print(anchor, file=sys.stderr)
    if not faults and journal is not None:
        print("no fault")
        return 0
    for f in faults:
        where = f"entry {f['seq']}" if f.get("seq") else "marker only"
        print(f"FAULT ({f.get('source')}, {where}, {f.get('at', '?')})")
        for p in f.get("problems", []):
            print(f"  {p.get('where')}: {p.get('detail')}" if p.get("where") else f"  {p.get('detail')}")
    return 1


def _faults_now(data_dir) -> list[dict]:
    """The open faults, read without changing anything (a journal that does not open is a fault too)."""
    directory = paths.data_dir(data_dir, create=False)
    try:
        journal = Journal.open(directory, readonly=True)
    except JournalUnreadable:
        return open_faults(None, directory) or [{"source": "journal", "category": INTEGRITY}]
    try:
        return open_faults(journal, directory)
    finally:
        journal.close()


def clear_main(args) -> int:
    """`tablectl fault clear (--secrets FILE | --config PROFILE) [--supervisor ID [--second-supervisor ID]]`.

    Each supervisor's PIN is read from the terminal, or from stdin (the id, then the PIN,
    a line each, for an id not named), never from the command line, and checked against
    the screens' secrets file. An integrity fault needs two different supervisors.
    """
    from controller.ui.auth import SignatureRefused, secrets_file, signatures
    data_dir = getattr(args, "data_dir", None)
    try:
        secrets = secrets_file(args)
        needed = supervisors_to_clear(_faults_now(data_dir))
    except (ValueError, OSError) as exc:
        print(f"tablectl fault clear: {exc}", file=sys.stderr)
        return 2
    if needed == 2:
        print("an integrity fault: two different supervisors clear it", file=sys.stderr)
    ids = (getattr(args, "supervisor", None), getattr(args, "second_supervisor", None))[:needed]
    try:
        signed = signatures(secrets, sys.stdin, sys.stderr, needed, ids)
    except SignatureRefused as exc:
        print(f"tablectl fault clear: {exc}", file=sys.stderr)
        return 2
    try:
        entry = clear_fault(data_dir, signed[0], getattr(args, "note", "") or "",
                            second=signed[1] if len(signed) > 1 else None)
    except SecondSupervisor as exc:
        print(f"tablectl fault clear: {exc}: name a second, different supervisor (--second-supervisor ID)",
              file=sys.stderr)
        return 2
    except JournalBusy:
        print("tablectl fault clear: the table is running; stop it, or clear the fault on the supervisor's screen",
              file=sys.stderr)
        return 2
    by = " and ".join(signed)
    print(f"fault cleared by {by} at {entry.at} (journal entry {entry.seq})")
    return 0
