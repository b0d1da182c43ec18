"""The start's software check made cheap when nothing moved, and stretched to the standard library
and the compiled files.

Why a memo. The start's check (selfcheck.installed_manifest) finds every installed distribution,
reads its RECORD and metadata, looks each file up in the hash cache and walks the install's tree;
with a warm cache that still cost a loaded box a third of a second, mostly in Python objects made
for files that had not changed. What the kernel says of a file (inode, size, mtime and ctime in
nanoseconds) changes when its bytes do, and its ctime cannot be set back without root
(selfcheck.HashCache). So one pass of `os.scandir` over every root the check depends on, each
file's stat fed into one SHA-256 (no object kept per file), names the state of the whole program:
when it is the state the last check saw, the last check's outcome (the manifest and its problems)
stands. That outcome is kept beside the journal (`software-start.json`) under an HMAC keyed with
the journal's key, so an edited memo is not taken: the check runs in full, as after any change.
A state whose newest ctime is within RACY_NS of the pass is not memoized (a file changed again in
the same tick of the kernel's clock would keep its stat, as git's racy index).

Why a baseline. Nothing lists the standard library's files or a `.pyc`'s hash (pip's RECORD names
the bytecode it compiled without a hash), yet Python runs both: an edited stdlib module or a
planted `.pyc` runs at every start. When the interpreter's standard library lies outside the
install's tree (a system or pyenv python), its files and the interpreter's are covered by a
manifest taken at the table's first start (`software-baseline.json`, beside the journal, under
its own HMAC), and the start says so in its log. The bytecode of the install's tree (a `.pyc` of a
listed source) is in that manifest too. After that, at each start (only files whose stat moved
are read again, through the hash cache):

- a stdlib or interpreter file whose bytes differ from the manifest is a changed file
  (`software-integrity`); one missing is missing; a file the manifest does not know is unexpected;
- a `.pyc` the manifest does not know, or whose bytes moved, is taken only when it is the compiled
  file of its source (its code equal to the source compiled afresh, as Python would write it):
  Python writes bytecode when it imports a module it has not compiled before. Otherwise it is a
  planted file, `software-unexpected` (it is what Python would run in place of its source).

Nobody accepts any of these (controller/journal/severity.py): the fault stays while the files
differ, and once they are put back one supervisor clears it. A file changed before the first
start is taken into the manifest: `tablectl software verify` (the figure a lab compares with the
certified one) is what finds that.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import marshal
import os
import sys
import sysconfig
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from controller.software import tree

MEMO = "software-start.json"          # the last check's outcome, keyed by the stat pass
BASELINE = "software-baseline.json"   # the manifest taken at the first start
RACY_NS = 2_000_000_000
FORMAT = 1
# Not the start's: the interpreter's own site-packages (a venv does not import it) and CPython's regression
# suite `test/` (a third of a pyenv stdlib's files, which no table imports and Debian ships apart, in
# libpython3-testsuite); `software verify`'s figure covers the suite all the same.
STDLIB_LEFT_OUT = ("site-packages", "dist-packages", "test")
_UNKEYED = b"tablectl software memo (no journal key: a checksum, as the journal's own chain)"


def _key() -> bytes:
    """The journal's key (the memo is as authentic as the journal); without one, a checksum only."""
    from controller.journal.store import JournalError, load_key
    try:
        key = load_key()
    except (JournalError, OSError):
        key = None
    return hmac.new(key, b"software-start", "sha256").digest() if key else _UNKEYED


def _mac(key: bytes, body: dict[str, Any]) -> str:
    return hmac.new(key, json.dumps(body, sort_keys=True, separators=(",", ":")).encode(), "sha256").hexdigest()


def _load(path: Path, key: bytes) -> dict[str, Any] | None:
    """The body of a file written by _save, None when absent, unreadable or not under this key."""
    try:
        loaded = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("mac"), str):
        return None
    body = {k: v for k, v in loaded.items() if k != "mac"}
    return body if hmac.compare_digest(loaded["mac"], _mac(key, body)) else None


def _save(path: Path, key: bytes, body: dict[str, Any]) -> None:
    from controller.journal.sealing import write_atomic
    try:
        write_atomic(path, json.dumps({**body, "mac": _mac(key, body)}, separators=(",", ":")).encode())
    except OSError:
        pass   # the next start checks in full


# --------------------------------------------------------------------------
# The roots the check depends on, and one stat pass over them
# --------------------------------------------------------------------------

def stdlib_dir() -> Path:
    return Path(sysconfig.get_paths()["stdlib"]).resolve()


# interpreter path (as root resolved it) -> its SHA-256 as root read it, None when root could not either
_READ_BEFORE_DROP: dict[str, str | None] = {}


def read_interpreter_now() -> None:
    """Hash the interpreter's files while the process may still read them (controller/journal/custody.py).

    Root at the terminal becomes the table's user for a journal command; an interpreter built under
    root's home (0700) is one that user runs on but cannot read, nor resolve the links to. Root reads
    it first, as it reads the key, so the check that follows vouches for the files the process runs on
    rather than calling them missing. On a box the interpreter is world-readable and this changes nothing."""
    read: dict[str, str | None] = {}
    for path in interpreter_paths():
        try:
            with open(path, "rb") as fh:
                read[path] = hashlib.file_digest(fh, "sha256").hexdigest()
        except OSError:
            read[path] = None
    _READ_BEFORE_DROP.clear()
    _READ_BEFORE_DROP.update(read)


def interpreter_paths() -> list[str]:
    """The interpreter's executable and its shared library (tree.interpreter_files, without the stdlib)."""
    if _READ_BEFORE_DROP:
        return list(_READ_BEFORE_DROP)
    out = [str(Path(sys.executable).resolve())]
    libdir, library = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
    if libdir and library and os.path.isfile(os.path.join(libdir, library)):
        out.append(str(Path(libdir, library).resolve()))
    return out


@dataclass(frozen=True)
class Root:
    path: str
    skip: tuple[str, ...] = ()        # directory names not walked, at any depth
    top_skip: tuple[str, ...] = ()    # directory names not walked directly under the root
    bytecode: bool = True             # False: .pyc files left out (a checkout's, rewritten at will)


def roots(packages: Iterable[Path] = ()) -> list[Root]:
    """Every tree the check reads: the install's tree, the standard library, and the table's `packages`
    (selfcheck.package_roots) where they lie outside it (a developer's checkout)."""
    out = [Root(str(p)) for p in [*tree.site_dirs(), tree.scripts_dir()]]
    out.append(Root(str(stdlib_dir()), top_skip=STDLIB_LEFT_OUT))
    covered = [r.path.rstrip(os.sep) + os.sep for r in out]
    for p in packages:
        if not (str(p.resolve()) + os.sep).startswith(tuple(covered)):   # a developer's checkout
            out.append(Root(str(p.resolve()), skip=("__pycache__",), bytecode=False))
    return out


def _scan(root: Root) -> Iterator[os.DirEntry[str]]:
    """Every file and link under the root (links not followed), in the directories' own order."""
    stack = [root.path]
    top = True
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                if e.name not in root.skip and not (top and e.name in root.top_skip):
                    stack.append(e.path)
            elif root.bytecode or not e.name.endswith((".pyc", ".pyo")):
                yield e
        top = False


def snapshot(found: list[Root]) -> tuple[str, int]:
    """(SHA-256 of what the kernel says of every file the check depends on, the newest ctime seen)."""
    h = hashlib.sha256()
    h.update(repr((sys.version, sys.path, sys.executable, FORMAT)).encode())
    newest = 0
    for root in found:
        h.update(b"\0root\0" + root.path.encode())
        for e in _scan(root):
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            h.update(f"{e.path}\0{st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}\n".encode())
            if st.st_ctime_ns > newest:
                newest = st.st_ctime_ns
    for path in interpreter_paths():
        try:
            st = os.stat(path)
        except OSError:
            continue
        h.update(f"{path}\0{st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}\n".encode())
        newest = max(newest, st.st_ctime_ns)
    for entry in sys.path:   # a directory on the path outside the roots: a file added there changes it
        try:
            st = os.stat(entry or ".")
        except OSError:
            continue
        h.update(f"path\0{entry}\0{st.st_ino} {st.st_mtime_ns} {st.st_ctime_ns}\n".encode())
    return h.hexdigest(), newest


def _digest_of(path: Path) -> str | None:
    """The manifest's bytes as the memo knew them (a copy of both to another data directory stands)."""
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None


# --------------------------------------------------------------------------
# The memo: the last check's outcome while nothing moved
# --------------------------------------------------------------------------

class StartMemo:
    """The outcome of the last full check, taken while the stat pass names the same state.

    Made before the check (the pass is taken then, so a file changed during the check moves the
    state the next start sees); `known()` is the outcome when it stands, `keep()` saves a new one.
    """

    def __init__(self, directory: Path | None, packages: Iterable[Path] = ()) -> None:
        self.packages = list(packages)
        self.path = directory / MEMO if directory is not None else None
        self.baseline_path = directory / BASELINE if directory is not None else None
        self.key = _key() if directory is not None else _UNKEYED
        self.taken_ns = time.time_ns()
        self.state, self.newest = snapshot(roots(self.packages)) if directory is not None else ("", 0)

        self.note: dict[str, Any] = {}

    def known(self) -> tuple[dict[str, str], list[list[str]]] | None:
        """The last check's (manifest, problems as [code, where, detail]) while nothing moved, else None."""
        if self.path is None:
            return None
        body = _load(self.path, self.key)
        if body is None or body.get("format") != FORMAT or body.get("state") != self.state:
            return None
        if self.baseline_path is None or body.get("baseline") != _digest_of(self.baseline_path):
            return None
        manifest, problems = body.get("manifest"), body.get("problems")
        if not isinstance(manifest, dict) or not isinstance(problems, list):
            return None
        note = body.get("note")
        self.note = note if isinstance(note, dict) else {}
        _say(self.note)
        return manifest, problems

    def baseline_problems(self, sha256: Callable[[str], str]) -> list[tree.Finding]:
        """The standard library, the interpreter and the bytecode against the manifest taken at install."""
        if self.path is None:
            return []
        covered = baseline_problems(self.path.parent, sha256, self.packages)
        self.note = {"stdlib": str(stdlib_dir()), "outside_tree": covered.outside, "taken_at": covered.taken_at,
                     "files": covered.files}
        _say(self.note)
        return covered.problems

    def keep(self, manifest: dict[str, str], problems: list[list[str]]) -> None:
        """Save the outcome, unless the state is too recent to be named by its stat (RACY_NS)."""
        if self.path is None or self.baseline_path is None or self.newest > self.taken_ns - RACY_NS:
            return
        _save(self.path, self.key, {"format": FORMAT, "state": self.state, "manifest": manifest,
                                    "problems": problems, "baseline": _digest_of(self.baseline_path),
                                    "note": self.note})


def _say(note: dict[str, Any]) -> None:
    """The start says how the standard library is covered (a system python's: by the manifest taken at install)."""
    import structlog
    if note.get("outside_tree") and structlog.is_configured():   # the table's log (a tool's stdout is its answer)
        structlog.get_logger("controller.software").info(
            "stdlib_covered_by_install_manifest", stdlib=note.get("stdlib"), taken_at=note.get("taken_at"),
            files=note.get("files"),
            why="the interpreter's standard library lies outside the install's tree: checked against the "
                "manifest taken at the table's first start")


# --------------------------------------------------------------------------
# The baseline: the standard library, the interpreter and the bytecode, as at the first start
# --------------------------------------------------------------------------

def compiled_from(pyc: str, source: str) -> bool:
    """Whether the `.pyc` holds the code its source compiles to (as Python writes it on import).

    The code objects are compared (their bytecode, constants, names, line tables), not the marshalled
    bytes, which differ by what else the writing process held."""
    opt = 0
    name = os.path.basename(pyc)
    if ".opt-" in name:
        opt = int(name.rsplit(".opt-", 1)[1].split(".", 1)[0] or 0)
    try:
        with open(pyc, "rb") as fh:
            data = fh.read()
        with open(source, "rb") as fh:
            text = fh.read()
        if len(data) < 16 or data[:4] != importlib.util.MAGIC_NUMBER:
            return False
        # the bytes Python itself would load on import, read here to be judged before it runs them
        code = marshal.loads(data[16:])  # noqa: S302
        return bool(code == compile(text, source, "exec", dont_inherit=True, optimize=opt))
    except (OSError, ValueError, EOFError, TypeError, SyntaxError, OverflowError):
        return False


def _in_baseline(roots_: list[Root]) -> Iterator[tuple[str, str]]:
    """(path, name in the figure) of every file the baseline covers: the standard library and the
    interpreter when they lie outside the install's tree, and the install tree's bytecode of a source."""
    stdlib = str(stdlib_dir())
    site = [r for r in roots_ if r.path != stdlib and r.bytecode]
    inside = any((stdlib + os.sep).startswith(r.path.rstrip(os.sep) + os.sep) for r in site)
    for root in roots_:
        if root.path == stdlib and not inside:
            for e in _scan(root):
                yield e.path, f"stdlib/{e.path[len(stdlib) + 1:]}"
        elif root in site:
            base = root.path.rstrip(os.sep) + os.sep
            label = "bin" if root.path == str(tree.scripts_dir()) else "site-packages"
            for e in _scan(root):
                if e.name.endswith(".pyc"):
                    source = tree.compiled_source_of(e.path)
                    if source is not None and os.path.isfile(source):
                        yield e.path, f"{label}/{e.path[len(base):]}"
    if not inside:
        for path in interpreter_paths():
            yield path, f"interpreter/{os.path.basename(path)}"


@dataclass
class Covered:
    problems: list[tree.Finding]
    taken_at: str | None      # when the baseline was taken (None: not kept, no data directory)
    outside: bool             # the standard library lies outside the install's tree
    files: int


def baseline_problems(directory: Path | None, sha256: Callable[[str], str], packages: Iterable[Path] = ()) -> Covered:
    """The standard library, the interpreter and the bytecode against the manifest taken at the first start
    (taken now when there is none). `sha256` is the start's hash cache."""
    found_roots = roots(packages)
    stdlib = str(stdlib_dir())
    outside = not any((stdlib + os.sep).startswith(r.path.rstrip(os.sep) + os.sep)
                      for r in found_roots if r.path != stdlib and r.bytecode)
    key = _key()
    path = directory / BASELINE if directory is not None else None
    body = _load(path, key) if path is not None else None
    if path is not None and body is None and path.exists():
        return Covered([tree.Finding("software-integrity", BASELINE,
                                     "the manifest of the standard library taken at install is not authentic "
                                     "(edited, or another journal key): restore it from the box's backup")],
                       None, outside, 0)
    first = body is None
    files: dict[str, str] = dict(body["files"]) if body and isinstance(body.get("files"), dict) else {}
    now: dict[str, str] = {}
    problems: list[tree.Finding] = []
    changed = first
    unreadable: dict[str, str] = {}
    for where, name in _in_baseline(found_roots):
        try:
            actual = sha256(where)
        except FileNotFoundError:
            continue
        except OSError as exc:
            read = _READ_BEFORE_DROP.get(where)
            if read is None:
                unreadable[where] = exc.strerror or type(exc).__name__
                continue
            actual = read
        now[where] = actual
        known = files.get(where)
        if first or known == actual:
            continue
        if where.endswith(".pyc"):
            source = tree.compiled_source_of(where)
            if source is not None and compiled_from(where, source):
                changed = True   # Python compiled it on import: taken
                continue
            problems.append(tree.Finding("software-unexpected", name,
                                         "is not the compiled file of its source: Python would run it in its place"))
        elif known is None:
            problems.append(tree.Finding("software-unexpected", name,
                                         "is not in the manifest taken at install: Python may run it"))
        else:
            problems.append(tree.Finding("software-integrity", name,
                                         "differs from the manifest taken at install"))
    for where, why in unreadable.items():
        problems.append(tree.Finding("software-integrity", _name_of(where, found_roots),
                                     f"cannot be read by this user ({why}): the check cannot vouch for it"))
    for where in files:
        if where not in now and where not in unreadable and not where.endswith(".pyc"):
            problems.append(tree.Finding("software-integrity", _name_of(where, found_roots), "is missing"))
    taken_at = body.get("taken_at") if body else datetime.now(timezone.utc).isoformat()
    if path is not None and not problems and (changed or set(now) != set(files)):
        # what authenticates is kept (a .pyc Python wrote, one it removed); a problem leaves the manifest as
        # it was, so the file put back authenticates again
        _save(path, key, {"format": FORMAT, "taken_at": taken_at, "stdlib": stdlib, "files": now})
    return Covered(problems, taken_at if path is not None else None, outside, len(now))


def _name_of(where: str, found_roots: list[Root]) -> str:
    stdlib = str(stdlib_dir())
    if where.startswith(stdlib + os.sep):
        return f"stdlib/{where[len(stdlib) + 1:]}"
    for r in found_roots:
        if where.startswith(r.path.rstrip(os.sep) + os.sep):
            label = "bin" if r.path == str(tree.scripts_dir()) else "site-packages"
            return f"{label}/{where[len(r.path.rstrip(os.sep)) + 1:]}"
    return f"interpreter/{os.path.basename(where)}"
