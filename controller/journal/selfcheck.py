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
  and the hash chain (controller/journal/store.py, controller/journal/sealing.py).

A failure puts the table in a *fault*: a "fault" entry in the journal and a
marker file beside it (fault.json, for the case where the journal itself
cannot be written). A fault stays across restarts, even when the cause has
gone away, until supervisors clear it. Clearing accepts the software and the
journal as they stand: what it accepts is found afresh at that moment (the
journal verified again, the software checked again, and what the open faults
name; `to_accept`), listed worst first, and it takes the supervisors the worst
of those problems needs (controller/journal/severity.py: one, two, or nobody, for
entries the journal key did not write). The clearing is journaled with who
signed and exactly what they accepted, so `tablectl journal verify` reports
those problems as acknowledged rather than new. The table refuses to play
while `SelfCheck.faulted` is true.

The install's tree is walked too (controller/software/tree.py): a file in it that no
RECORD lists (a `.pth`, a `sitecustomize.py`, an extra module or script) is a problem
of its own, and so is a changed file of any distribution there, a dependency of the
table or not (a `.pth` of one runs at every start).

A new version (a distribution or the interpreter at another version, every
file as its RECORD says) is an upgrade: one supervisor accepts it on the
screen or with `tablectl fault clear`, and the journal keeps the old and new
versions and digests (docs/UPGRADE.md). Software that does not authenticate (a
file that differs from its RECORD or is missing, a file no RECORD lists, a
release's files changed under the same versions) nobody accepts, however many
sign (9 NYCRR 5319.14(a)(2)(ii)): the fault stays while the files differ, and
since a clearing checks the software afresh, once they are put back one
supervisor clears it. A developer's checkout, which has no RECORD, is the
exception: its edits are an integrity change two different supervisors accept.

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
from controller.journal import severity
from controller.journal.store import Entry, Journal, JournalBusy, JournalError, JournalUnreadable, utc_now
from controller.journal.sealing import Problem, write_atomic
from controller.journal.writer import Appends, JournalWriter

MARKER = "fault.json"
HASH_CACHE = "software-hashes.json"   # HashCache: installed files' hashes from the last start
TREE_MEMO = "#tree"                    # in it: the install's tree as last walked (never a file's path)
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
        self.tree: dict[str, Any] = {}   # the install's tree as last walked (controller/software/tree.py)
        self.changed = False
        if path is not None:
            try:
                loaded = json.loads(path.read_text())
                if isinstance(loaded, dict):
                    self.entries = {k: v for k, v in loaded.items() if isinstance(v, list) and len(v) == 6}
                    tree = loaded.get(TREE_MEMO)
                    self.tree = tree if isinstance(tree, dict) else {}
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
            write_atomic(self.path, json.dumps({**self.entries, TREE_MEMO: self.tree}, separators=(",", ":")).encode())
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

    from controller.software import startcheck
    memo = startcheck.StartMemo(cache.parent if cache is not None else None, package_roots())   # nothing moved
    if (known := memo.known()) is not None:
        return known[0], [Problem(*p) for p in known[1]]
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
    problems += _tree_problems(hashes, seen)
    problems += [Problem(f.code, f.where, f.detail) for f in memo.baseline_problems(hashes.sha256)]
    hashes.save()
    memo.keep(manifest, [[p.code, p.where, p.detail] for p in problems])
    return manifest, problems


def _tree_problems(hashes: HashCache, checked: set[str]) -> list[Problem]:
    """What the install's tree holds that it should not (controller/software/tree.py): files no RECORD
    lists, a sitecustomize.py; and the files of the distributions not checked above (not the table's
    dependencies, but in the tree Python imports from: a changed .pth of one runs at every start)."""
    from controller.software import tree
    walked = hashes.tree.get("stats")
    found = tree.install_tree(hashes.sha256, frozenset(checked), memo=hashes.tree)
    if hashes.tree.get("stats") is not walked:   # walked again: the memo is new
        hashes.changed = True
    out = []
    for f in [*found.findings, *tree.customize_findings()]:
        if f.code == "software-integrity" and _norm(f.where.split(" ", 1)[0]) in checked:
            continue   # said above, by the check of the distribution's own files
        out.append(Problem(f.code, f.where, f.detail))
    return out


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


def software_problems(recorded: Entry | None, manifest: dict[str, str], integrity: list[Problem],
                      change: dict | None) -> list[Problem]:
    """What is wrong with the software since it was last accepted (nothing when `change` is None).

    An integrity change says so in a problem of its own ("software-changed"), so
    that the problems alone say it takes two supervisors, as software_change does.
    """
    if change is None:
        return []
    found = list(integrity)
    if recorded is not None and recorded.payload.get("digest") != software_digest(manifest):
        found += compare_manifests(recorded.payload.get("files", {}), manifest)
    if change["kind"] == "integrity":
        # A release's files authenticate against their RECORD and the digest accepted: changed under the
        # same versions they do not, and nobody accepts that (5319.14(a)(2)(ii)). A developer's checkout
        # has no RECORD to authenticate against: its edits stay what two supervisors accept.
        code = "software-changed" if _checkout(manifest) else "software-unauthentic"
        found.insert(0, Problem(code, "software",
                                f"{change['to']['digest'][:16]}: its files changed without a new version"))
    return found


def _checkout(manifest: dict[str, str]) -> bool:
    """Whether the manifest is of a developer's checkout (or of package directories), not of a release."""
    project = manifest.get(f"dist:{DISTRIBUTION}")
    return project is None or project.endswith(" checkout")


class SecondSupervisor(ValueError):
    """What the clearing accepts needs a second, different supervisor (an edited entry, an integrity
    change of the software, ...: controller/journal/severity.py)."""


class Unacceptable(ValueError):
    """What the clearing would accept, no supervisor may: entries the journal key did not write."""


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
            "kind": "upgrade" if upgrade else "integrity",
            "supervisors": 1 if upgrade else 2 if _checkout(manifest) else None,
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


# A fault's "category" names its kind for the reader (an integrity fault: the journal damaged,
# rolled back or behind its anchor, the software changed without a new version). How many
# supervisors clear it is not its category's to say: it follows from the problems the clearing
# accepts, found afresh then (`to_accept`, controller/journal/severity.py). A fault journaled before the
# field existed is categorized by its source.
INTEGRITY = "integrity"
INTEGRITY_SOURCES = frozenset({"journal", "software", "anchor", "marker"})


def category_of(fault: dict) -> str:
    """The fault's category: its own field, or by its source for a fault that has none."""
    given = fault.get("category")
    if isinstance(given, str) and given:
        return given
    return INTEGRITY if fault.get("source") in INTEGRITY_SOURCES else "operational"


def supervisors_to_clear(problems: list[dict]) -> int | None:
    """How many different supervisors accept these problems: what the worst needs; None: nobody may."""
    return severity.supervisors_needed(problems)


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
        from controller.journal.store import RESERVE_NAME
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
             clock: Callable[[], datetime] = utc_now, seal_frames: int | None = None,
             mode: str | None = None, replica: str | os.PathLike | None = None,
             _restored: dict | None = None) -> SelfCheck:
    """Check the software and the journal; open the journal for the table.

    JournalBusy (another table process on this data directory) propagates.
    `mode` ("test" or "live", controller/testmode.py): the table's; a new journal is made
    in it, and an existing one of the other mode refuses the start (ModeRefused).
    `replica` (a profile's `[journal] replica`): the second copy kept of every batch; a journal lost
    or damaged is rebuilt from it first, and the start says so (controller/journal/replica.py).
    """
    from controller import testmode
    from controller.journal import events as significant
    directory = paths.data_dir(data_dir)
    manifest, integrity = _software(roots, cache=directory / HASH_CACHE)
    digest = software_digest(manifest)
    restored: dict | None = _restored

    def opened() -> Journal:
        if seal_frames is None:
            return Journal.open(directory, clock=clock, mode=mode)
        return Journal.open(directory, clock=clock, seal_frames=seal_frames, mode=mode)
    try:
        if replica is not None and restored is None and Path(replica).exists() \
                and not (directory / "journal.db").exists():
            restored = _restore(directory, replica, "the journal is gone")
        journal = opened()
        if replica is not None and Path(replica).exists() and restored is None and journal.problems \
                and _replica_sound(replica):
            found = "; ".join(f"{p.where}: {p.detail}" for p in journal.problems[:3])
            journal.close()
            restored = _restore(directory, replica, f"the journal is damaged ({found})")
            journal = opened()
        if replica is not None:
            journal.attach_replica(replica)
    except JournalUnreadable as exc:
        if replica is not None and Path(replica).exists() and restored is None and _replica_sound(replica):
            restored = _restore(directory, replica, f"the journal cannot be read ({exc})")
            return power_up(directory, roots=roots, clock=clock, seal_frames=seal_frames, mode=mode,
                            replica=replica, _restored=restored)
        if not any(f.get("problems") == [p.to_json() for p in exc.problems] for f in read_marker(directory)):
            raise_fault(directory, None, "journal", exc.problems, clock=clock)
        return SelfCheck(None, digest, exc.problems, open_faults(None, directory))
    if restored is not None:
        journal.append("journal-restored", restored)
    found_mode = testmode.journal_mode(journal)
    if mode is not None and found_mode != mode:
        journal.close()
        raise testmode.ModeRefused(found_mode, mode, directory)
    last_run = significant.last_run(journal, clock())   # before this start writes anything
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
        fault("software", software_problems(recorded, manifest, integrity, change),
              category="upgrade" if change["supervisors"] == 1 else INTEGRITY)
    journal.append("power-up", {"software": digest, "python": sys.version.split()[0],
                                "versions": versions(manifest),
                                "problems": [p.to_json() for p in problems],
                                "mode": found_mode, **last_run})
    return SelfCheck(journal, digest, problems, open_faults(journal, directory), change)


def _replica_sound(replica: str | os.PathLike) -> bool:
    """Whether the replica's own chain holds from its first entry (a copy no better than the journal is no
    cure for it)."""
    import sqlite3

    from controller.journal.store import GENESIS_PREV, check_chain, load_key
    try:
        conn = sqlite3.connect(f"file:{replica}?mode=ro", uri=True)
        try:
            conn.text_factory = bytes
            rows = conn.execute("SELECT seq, kind, round_id, at, payload, prev, hash, mac FROM entries ORDER BY seq")
            problems, last, _ = check_chain(rows, 1, GENESIS_PREV, load_key())
        finally:
            conn.close()
    except (sqlite3.Error, JournalError):
        return False
    return not problems and last > 0


def _restore(directory: Path, replica: str | os.PathLike, why: str) -> dict:
    """The journal rebuilt from its replica, said in the log (and journaled by the caller)."""
    import structlog

    from controller.journal.store import load_key
    head, aside = Journal.restore_from_replica(directory, replica, load_key())
    said = {"from": str(replica), "head": head, "why": why,
            "damaged": str(aside.relative_to(directory)) if aside is not None else None}
    structlog.get_logger("controller.journal").warning("journal_restored_from_replica", **said)
    return said


@dataclass
class Accepting:
    """What a clearing is asked to accept, found at the moment of clearing, and who may accept it.

    `problems`: worst first, each {code, where, detail, says, supervisors}
    (controller/journal/severity.py); `needed`: how many different supervisors that
    takes, None when nobody may (the table stays out of play).
    """

    problems: list[dict]
    needed: int | None
    faults: list[dict]
    manifest: dict[str, str]
    digest: str
    recorded: Entry | None
    change: dict | None

    @property
    def accepted(self) -> list[dict]:
        """The problems as the clearing journals them (code, where, detail), worst first."""
        return [{"code": p["code"], "where": p["where"], "detail": p["detail"]} for p in self.problems]

    def lines(self) -> list[str]:
        """The list a supervisor reads before signing, worst first: each problem as found, then its
        code, who may accept it and what it means."""
        out = []
        for p in self.problems:
            out.append(f"  {p['where'] + ': ' if p['where'] else ''}{p['detail']}")
            out.append(f"      {p['code']}, {severity.who_accepts(p['supervisors'])}: {p['says']}")
        return out

    def refusal(self) -> str:
        """Why nobody may clear it, and what the technician must do (the worst such problem)."""
        worst = next(p for p in self.problems if p["supervisors"] is None)
        return f"{worst['where'] + ': ' if worst['where'] else ''}{worst['says']}: {severity.remedy(worst['code'])}"


def to_accept(journal: Journal | None, directory: Path, *, roots: Iterable[Path] | None = None,
              unreadable: Iterable[Problem] = ()) -> Accepting:
    """What clearing the fault now accepts: the journal verified afresh (problems two supervisors
    already accepted left out), the software checked afresh, and what the open faults name (an
    anchor the journal did not reach, ...), worst first; not only what is journaled already.

    `journal` None: it cannot be opened (`unreadable` says why); clearing then quarantines it.
    """
    found: list[dict] = [p.to_json() for p in unreadable]
    if journal is not None:
        already = severity.acknowledged(journal.table_entries("fault-cleared"))
        found += [p.to_json() for p in [*journal.problems, *journal.verify()] if (p.code, p.where) not in already]
    manifest, integrity = _software(roots, cache=directory / HASH_CACHE)
    recorded = journal.latest("software-accepted") if journal is not None else None
    change = software_change(recorded, manifest, integrity) if journal is not None else None
    found += [p.to_json() for p in software_problems(recorded, manifest, integrity, change)]
    faults = open_faults(journal, directory)
    # the software as it is now says what is wrong with it: a file put back authenticates again
    # (5319.14(a)(2)(ii)), so what the faults said of the software is not accepted again
    found += [p for f in faults for p in f.get("problems", [])
              if isinstance(p, dict) and isinstance(p.get("code"), str) and isinstance(p.get("where"), str)
              and not (f.get("source") == "software" and p["code"].startswith("software-"))]
    problems = severity.worst_first(found)
    return Accepting(problems, severity.supervisors_needed(problems), faults, manifest,
                     software_digest(manifest), recorded, change)


def check_signers(asked: Accepting, supervisor: str, second: str | None) -> None:
    """Unacceptable when nobody may accept it; SecondSupervisor when it needs a second, different one."""
    if asked.needed is None:
        raise Unacceptable(asked.refusal())
    if asked.needed >= 2 and (not isinstance(second, str) or not second.strip()
                              or second.strip() == supervisor.strip()):
        worst = asked.problems[0]
        raise SecondSupervisor(f"{worst['where'] + ': ' if worst['where'] else ''}{worst['says']}: "
                               "two different supervisors must accept it; a second supervisor must accept it too")


def _quarantine(directory: Path, clock: Callable[[], datetime]) -> Path:
    """A journal that cannot be opened at all is moved aside whole, to quarantine/<time>/."""
    stamp = clock().strftime("%Y%m%dT%H%M%S.%fZ")
    quarantined = directory / "quarantine" / stamp
    quarantined.mkdir(parents=True)
    for name in ("journal.db", "journal.db-wal", "journal.db-shm", "journal.seal"):
        if (directory / name).exists():
            shutil.move(str(directory / name), str(quarantined / name))
    return quarantined


def clear_fault(data_dir: str | os.PathLike | None, supervisor: str, note: str = "", *,
                roots: Iterable[Path] | None = None,
                clock: Callable[[], datetime] = utc_now, second: str | None = None) -> Entry:
    """Supervisors clear the fault with the table stopped (`tablectl fault clear`).

    A journal that cannot be opened at all is moved to quarantine/<time>/ whole
    (once the signatures are enough for it) and a new journal begins, its first
    entries saying who did that and why.
    """
    _check_supervisor(supervisor)
    directory = paths.data_dir(data_dir)
    try:
        journal = Journal.open(directory, clock=clock)
    except JournalUnreadable as exc:
        asked = to_accept(None, directory, roots=roots, unreadable=exc.problems)
        check_signers(asked, supervisor, second)
        quarantined = _quarantine(directory, clock)
        journal = Journal.open(directory, clock=clock)
        try:
            return clear(journal, directory, supervisor, note, roots=roots, quarantined=quarantined,
                         second=second, asked=asked)
        finally:
            journal.close()
    try:
        return clear(journal, directory, supervisor, note, roots=roots, second=second)
    finally:
        journal.close()


def _check_supervisor(supervisor: Any) -> None:
    if not isinstance(supervisor, str) or not supervisor.strip():
        raise ValueError("supervisor: who clears the fault must be named")


def clear(journal: Journal, directory: Path, supervisor: str, note: str = "", *,
          roots: Iterable[Path] | None = None, quarantined: Path | None = None,
          second: str | None = None, asked: Accepting | None = None, writer: JournalWriter | None = None) -> Entry:
    """Clear the fault on an open journal (the running table's supervisor screen, or the command).

    The running table passes its `writer` (controller/journal/writer.py): an entry of the
    clearing the journal does not take faults the table again, and nothing is cleared.

    Accepts the software and the journal file as they stand: the software's
    digest is recorded again, the problems `to_accept` finds (now, unless the
    caller found them a moment ago: `asked`) are journaled as accepted by whom,
    and the file is sealed anew. Refused (Unacceptable, SecondSupervisor, nothing
    changed) when the signatures are not what the worst of those problems needs.
    """
    _check_supervisor(supervisor)
    if asked is None:
        asked = to_accept(journal, directory, roots=roots)
    check_signers(asked, supervisor, second)
    both = asked.needed is not None and asked.needed >= 2
    second = second.strip() if both and isinstance(second, str) else None
    recorded, change, manifest, digest = asked.recorded, asked.change, asked.manifest, asked.digest
    record: Appends = writer if writer is not None else journal
    if recorded is None or recorded.payload.get("digest") != digest:
        record.append("software-accepted", {
            "digest": digest, "files": manifest, "by": supervisor, "reason": note or "fault cleared",
            "versions": versions(manifest), "kind": change["kind"] if change else "integrity",
            "previous": change["from"] if change else None,
            **({"second": second} if second is not None and change is not None and change["supervisors"] == 2
               else {})})
    faults = asked.faults
    payload: dict[str, Any] = {
        "by": supervisor, "note": note, **({"second": second} if second is not None else {}),
        "faults": [] if quarantined else [f["seq"] for f in faults if f.get("seq") is not None],
        "marker": [f for f in faults if quarantined or f.get("seq") is None],
        "accepted": asked.accepted, "supervisors": asked.needed,
    }
    if quarantined is not None:
        payload["quarantined"] = str(quarantined.relative_to(directory))
    entry = record.append("fault-cleared", payload)
    assert entry is not None   # the journal is open: the writer appends to it or raises
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
            from controller.journal.readback import anchoring
            anchor = anchoring(journal)
    finally:
        if journal is not None:
            journal.close()
    # What the anchor check found at the last start, on stderr: stdout is the faults alone
    # (controller/journal/anchor.py; a table without an anchor cannot notice a rollback).
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


def clear_main(args) -> int:
    """`tablectl fault clear (--secrets FILE | --config PROFILE) [--supervisor ID [--second-supervisor ID]]`.

    Prints what the clearing would accept, worst first (found now: `to_accept`), then
    asks for as many supervisors as the worst of it needs, each PIN from the terminal,
    or from stdin (the id, then the PIN, a line each, for an id not named), never from
    the command line, checked against the screens' secrets file. What nobody may
    accept is refused (exit 2) before any PIN is asked. The journal's writer's lock is
    held from the list to the clearing, so what is signed for is what is accepted.
    """
    from controller.credentials import secrets_file
    try:
        secrets = secrets_file(args)
    except (ValueError, OSError) as exc:
        print(f"tablectl fault clear: {exc}", file=sys.stderr)
        return 2
    directory = paths.data_dir(getattr(args, "data_dir", None))
    unreadable: list[Problem] = []
    journal: Journal | None
    try:
        journal = Journal.open(directory)
    except JournalBusy:
        print("tablectl fault clear: the table is running; stop it, or clear the fault on the supervisor's screen",
              file=sys.stderr)
        return 2
    except JournalUnreadable as exc:
        journal, unreadable = None, list(exc.problems)
    try:
        return _clear_at_the_terminal(args, secrets, journal, directory, unreadable)
    finally:
        if journal is not None:
            journal.close()


def _clear_at_the_terminal(args, secrets: Path, journal: Journal | None, directory: Path,
                           unreadable: list[Problem]) -> int:
    from controller.credentials import SignatureRefused, signatures
    asked = to_accept(journal, directory, unreadable=unreadable)
    print("to accept, worst first:" if asked.problems else "no problem to accept")
    for line in asked.lines():
        print(line)
    if asked.needed is None:
        print(f"tablectl fault clear: refused: {asked.refusal()}", file=sys.stderr)
        if journal is not None:   # a refusal changes nothing, and is journaled in a bounded form
            from controller import boundary
            journal.append("refused", boundary.record({"type": "clear_fault"}, "terminal",
                                                      getattr(args, "supervisor", None), asked.refusal()))
        return 2
    if asked.needed == 2:
        print(f"two different supervisors must accept this (the worst: {asked.problems[0]['code']})",
              file=sys.stderr)
    ids = (getattr(args, "supervisor", None), getattr(args, "second_supervisor", None))[:asked.needed]
    try:
        signed = signatures(secrets, sys.stdin, sys.stderr, asked.needed, ids)
    except SignatureRefused as exc:
        print(f"tablectl fault clear: {exc}", file=sys.stderr)
        return 2
    note = getattr(args, "note", "") or ""
    second = signed[1] if len(signed) > 1 else None
    try:
        if journal is None:
            quarantined = _quarantine(directory, utc_now)
            with Journal.open(directory) as new:
                entry = clear(new, directory, signed[0], note, quarantined=quarantined, second=second, asked=asked)
        else:
            entry = clear(journal, directory, signed[0], note, second=second, asked=asked)
    except (SecondSupervisor, Unacceptable) as exc:
        print(f"tablectl fault clear: {exc}", file=sys.stderr)
        return 2
    by = " and ".join(signed)
    print(f"fault cleared by {by} at {entry.at} (journal entry {entry.seq}); "
          f"accepted: {len(asked.problems)} problem(s), listed above")
    return 0
