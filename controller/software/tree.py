"""Every file the table runs, named relative to its root, and what is wrong with the install's tree.

A lab certifies a figure, so the list must be the same on every box of a release: each file is
named by the root it lies under and its path below it, never by where this box keeps it:

- `site-packages/...`: the install's tree (the venv's site-packages), every file of it. A file
  some distribution's RECORD lists is checked against the hash RECORD gives it; a file no RECORD
  lists is *unexpected* (a `.pth`, a `sitecustomize.py`, an extra module) and a fault, with no
  list to silence it. Bytecode Python writes beside a listed source (`__pycache__/NAME.TAG.pyc`
  for a listed `NAME.py`) is the compiled file of that source: covered, not unexpected; any
  other `.pyc` (one in a package directory is imported without its source) is unexpected.
- `bin/...`: the venv's scripts, the same way (RECORD's `../../../bin/NAME`). The files `venv`
  itself writes there (the `python` links to the interpreter, the `activate` scripts for a
  shell, which name this box's path) are the interpreter's, and left out of the figure.
- `interpreter/...`: the interpreter's executable and its shared library;
  `stdlib/...`: the standard library (its own site-packages left out: a venv does not read it).
  Nothing lists these files, so the figure covers them but only a `sitecustomize.py` or
  `usercustomize.py` there is unexpected (Python runs it at every start).
- `checkout/...`: a developer's checkout's packages, when the project runs from one (no RECORD),
  their bytecode left out (Python rewrites it at will there);
- `system/...`: the units and rules `tablectl system install` put under a root;
  `profile/NAME`: the table's profile.

How a file is read for the figure (`figure_bytes`): a `.pyc` from byte 16 on (the header holds the
source's time on this box) with its source's path on this box, compiled into it, written as the
source's name; a script in `bin/` from its second line on (the first names this venv's python). The installer's own records (a dist-info's RECORD, INSTALLER, REQUESTED,
direct_url.json) are checked but left out of the figure: they differ between two installs of
one release by the times and paths in them.
"""

from __future__ import annotations

import base64
import csv
import os
import re
import sys
import sysconfig
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CUSTOMIZE = ("sitecustomize.py", "usercustomize.py")
RACY_NS = 2_000_000_000   # a directory changed this recently is walked again at the next start
INSTALLER_RECORDS = ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")
VENV_OWN = re.compile(r"(python(3(\.\d+)?)?|activate(\.csh|\.fish)?|Activate\.ps1)")
_COMPILED = re.compile(r"(?P<stem>[^.]+)\.[a-z]+-\d+(\.opt-\d)?\.pyc")


@dataclass(frozen=True)
class File:
    """One file of the figure: its name (root/path), where it is on this box, and what vouches for it."""

    name: str
    path: str
    recorded: str | None = None      # the SHA-256 (hex) its RECORD gives; None: nothing lists a hash
    owner: str = ""                  # "DIST VERSION" whose RECORD lists it ("" for none)
    in_figure: bool = True           # False: checked, but per box (the installer's records)


@dataclass(frozen=True)
class Finding:
    """A file that is not what it should be: changed, missing or unexpected."""

    code: str        # "software-integrity" (changed, missing) or "software-unexpected"
    where: str       # "DIST VERSION: path" or the file's name
    detail: str


def site_dirs() -> list[Path]:
    """The install's tree: the site-packages directories this interpreter imports from."""
    out: list[Path] = []
    for key in ("purelib", "platlib"):
        p = Path(sysconfig.get_paths()[key]).resolve()
        if p.is_dir() and p not in out:
            out.append(p)
    return out


def scripts_dir() -> Path:
    return Path(sysconfig.get_paths()["scripts"]).resolve()


def _prefixes(site: list[Path], scripts: Path) -> list[tuple[str, str]]:
    """(root's path with its separator, its label) for naming files, most specific first."""
    labelled = [*(("site-packages", s) for s in site), ("bin", scripts), ("prefix", Path(sys.prefix))]
    return [(str(root).rstrip(os.sep) + os.sep, label) for label, root in labelled]


def _named(path: str, prefixes: list[tuple[str, str]]) -> str:
    """The file's name in the figure: root/path, never this box's absolute path (string work: a start
    names some ten thousand files)."""
    for r, label in prefixes:
        if path.startswith(r):
            return f"{label}/{path[len(r):].replace(os.sep, '/')}"
    return path


def _records(site: Path, stats: list[list[Any]] | None = None) -> Iterator[tuple[str, str, str, str | None]]:
    """(distribution, version, absolute path, RECORD's sha256= value or None) of every RECORD row under `site`;
    each RECORD's stat appended to `stats` (taken before it is read)."""
    base = str(site).rstrip(os.sep) + os.sep
    for entry in sorted(os.listdir(site)):
        if not entry.endswith(".dist-info"):
            continue
        record = os.path.join(site, entry, "RECORD")
        try:
            if stats is not None:
                stats.append(_stat_of(record))
            with open(record, encoding="utf-8") as fh:
                text = fh.read()
        except OSError:
            continue
        name, _, version = entry[:-len(".dist-info")].partition("-")
        for row in csv.reader(text.splitlines()):
            if not row or not row[0]:
                continue
            path = os.path.normpath(base + row[0]) if row[0].startswith(("..", "/")) or "/." in row[0] \
                else base + row[0]
            value = row[1] if len(row) > 1 and row[1].startswith("sha256=") else None
            yield name, version, path, value


def _hex(value: str | None) -> str | None:
    """RECORD's `sha256=BASE64` as hexadecimal."""
    if value is None:
        return None
    b64 = value[len("sha256="):]
    return base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4)).hex()


def walk(root: Path, skip_dirs: tuple[str, ...] = (), stats: list[list[Any]] | None = None) -> Iterator[str]:
    """Every file and link under `root` (links not followed: a link is a file of the tree), absolute,
    in no order; what the kernel says of each directory, taken before it is read, appended to
    `stats`. scandir's entries say what they are without a stat each."""
    stack = [str(root)]
    top = True
    while stack:
        here = stack.pop()
        try:
            if stats is not None:
                stats.append(_stat_of(here))
            entries = list(os.scandir(here))
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                if not (top and e.name in skip_dirs):
                    stack.append(e.path)
            else:
                yield e.path
        top = False


def compiled_source_of(path: str) -> str | None:
    """The source a `__pycache__/NAME.TAG.pyc` is the compiled file of, None for another name."""
    head, tail = os.path.split(path)
    if os.path.basename(head) != "__pycache__":
        return None
    m = _COMPILED.fullmatch(tail)
    return os.path.join(os.path.dirname(head), m.group("stem") + ".py") if m else None


@dataclass
class Install:
    """The install's tree as found: its files (for the figure) and what is wrong in it."""

    files: list[File]
    findings: list[Finding]


def install_tree(sha256: Callable[[str], str] | None = None, checked: frozenset[str] = frozenset(),
                 memo: dict[str, Any] | None = None) -> Install:
    """The venv's site-packages and scripts against every RECORD in them.

    `sha256(path)` hashes a file (the start passes its cache, selfcheck.HashCache) and the files are
    checked against their RECORD here; None: no file is read, the files are listed for the figure
    and `software verify` reads each itself. The files of the distributions `checked` names
    (normalized names) are not hashed here: the caller did.

    `memo` (the start's, kept in its hash cache) holds the last walk: every directory and RECORD
    with what the kernel says of it, and what the walk found. A file added, removed or renamed
    changes its directory's mtime and ctime, and an edited RECORD its own, which no unprivileged
    call sets back (selfcheck.HashCache), so while every one of them is as it was the walk's
    findings stand, and only the listed files' hashes are taken again. The memo is updated in place.
    """
    if sha256 is None:
        return _survey(checked, listing=True).install
    key = sorted(checked)
    survey = None
    if memo is not None and memo.get("checked") == key and _unchanged(memo.get("stats")):
        found = [Finding(*f) for f in memo.get("findings", [])]
        to_hash = [tuple(h) for h in memo.get("to_hash", [])]
    else:
        survey = _survey(checked, listing=False)
        found, to_hash = survey.install.findings, survey.to_hash
        if memo is not None:
            memo.clear()
            memo.update({"checked": key, "stats": survey.stats, "to_hash": survey.to_hash,
                         "findings": [[f.code, f.where, f.detail] for f in found]})
    findings = list(found)
    for path, recorded, where in to_hash:
        try:
            actual = sha256(path)
        except OSError:
            actual = "unreadable"
        if actual != recorded:
            findings.append(Finding("software-integrity", where, "differs from the hash its wheel installed (RECORD)"))
    return Install([], findings)


def _stat_of(path: str) -> list[Any]:
    st = os.stat(path)
    return [path, st.st_ino, st.st_mtime_ns, st.st_ctime_ns]


def _unchanged(stats: Any) -> bool:
    """Whether every directory and RECORD of the last walk is as the kernel said of it then."""
    if not isinstance(stats, list) or not stats:
        return False
    try:
        return all(isinstance(s, list) and _stat_of(s[0]) == s for s in stats)
    except (OSError, TypeError):
        return False


@dataclass
class _Survey:
    install: Install
    to_hash: list[tuple[str, str, str]]   # (path, RECORD's SHA-256 hex, where: "DIST VERSION: name")
    stats: list[list[Any]]                # every directory walked and every RECORD read (_stat_of)


def _survey(checked: frozenset[str], listing: bool) -> _Survey:
    """Walk the install's tree against its RECORDs: the files (`listing`), what is unexpected or missing,
    and the listed files to hash (those of distributions not `checked`)."""
    site, scripts = site_dirs(), scripts_dir()
    prefixes = _prefixes(site, scripts)
    listed: dict[str, tuple[str, str, str | None]] = {}
    stats: list[list[Any]] = []
    for s in site:
        for dist, version, path, recorded in _records(s, stats):
            listed.setdefault(path, (dist, version, recorded))
    files: list[File] = []
    findings: list[Finding] = []
    to_hash: list[tuple[str, str, str]] = []
    present: set[str] = set()
    roots = [str(r) for r in [*site, scripts]]
    for root in [*site, scripts]:
        for path in walk(root, stats=stats):
            present.add(path)
            name = _named(path, prefixes)
            if path in listed:
                dist, version, recorded = listed[path]
                info = f"{dist}-{version}.dist-info/"
                per_box = info in path and os.path.basename(path) in INSTALLER_RECORDS
                # the installer's records stay out of the figure, but are checked like every file
                if listing:   # the figure's list: `software verify` hashes each file itself
                    files.append(File(name, path, _hex(recorded), f"{dist} {version}", not per_box))
                elif recorded is not None and _norm(dist) not in checked:
                    to_hash.append((path, _hex(recorded) or "", f"{dist} {version}: {name}"))
                continue
            source = compiled_source_of(path)
            if source is not None and source in listed:
                if listing:
                    files.append(File(name, path, None, listed[source][0]))
                continue
            if root == scripts and VENV_OWN.fullmatch(os.path.basename(path)):
                continue   # the venv's own: links to the interpreter, a shell's activate scripts
            findings.append(Finding("software-unexpected", name,
                                    "is in the install's tree but no RECORD lists it: Python may run it "
                                    "at every start (a .pth, sitecustomize.py, an extra module or script)"))
            if listing:
                files.append(File(name, path))
    for path, (dist, version, _) in listed.items():
        if path not in present and not path.endswith((".pyc", ".pyo")) and _under(path, roots):
            findings.append(Finding("software-integrity", f"{dist} {version}: {_named(path, prefixes)}",
                                    "is missing"))
    # A directory changed in the clock tick of its stat could change again unseen in that tick (the
    # kernel's file times are coarse): a walk that saw one so recent leaves no memo (as git's racy index)
    if stats and max(st[3] for st in stats) > time.time_ns() - RACY_NS:
        stats = []
    return _Survey(Install(files, findings), to_hash, stats)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _under(path: str, roots: list[str]) -> bool:
    return any(path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def interpreter_files() -> list[File]:
    """The interpreter's executable, its shared library, and the standard library (Python's own site-packages
    left out: a venv does not import it)."""
    files = []
    exe = Path(sys.executable).resolve()
    files.append(File(f"interpreter/{exe.name}", str(exe)))
    libdir, library = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
    if libdir and library and (Path(libdir) / library).is_file():
        lib = (Path(libdir) / library).resolve()
        files.append(File(f"interpreter/{library}", str(lib)))
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    for path in walk(stdlib, skip_dirs=("site-packages", "dist-packages")):
        files.append(File(f"stdlib/{Path(path).relative_to(stdlib).as_posix()}", path))
    return files


def customize_findings() -> list[Finding]:
    """A sitecustomize.py or usercustomize.py anywhere Python looks at start: nothing lists it, and it runs."""
    found = []
    for entry in sys.path:
        for name in CUSTOMIZE:
            p = Path(entry or ".") / name
            if p.is_file():
                named = _root_name(p)
                if named.startswith(("site-packages/", "bin/")):
                    continue   # the install's tree: install_tree finds it when no RECORD lists it
                found.append(Finding("software-unexpected", named,
                                     "Python runs it at every start, and no RECORD lists it"))
    return found


def _root_name(p: Path) -> str:
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    r = p.resolve()
    if r.is_relative_to(stdlib):
        return f"stdlib/{r.relative_to(stdlib).as_posix()}"
    return _named(str(r), _prefixes(site_dirs(), scripts_dir()))


def system_files(root: Path) -> list[File]:
    """The units, rules and system files `tablectl system install --root ROOT` puts on the box, those present."""
    from controller.appliance import LINKED_DROP_IN, SYSTEM_FILES
    files = []
    for target in sorted({*SYSTEM_FILES.values(), LINKED_DROP_IN[1]}):
        p = root / target
        if p.is_file():
            files.append(File(f"system/{target}", str(p)))
    return files


def compiled_source_name(name: str) -> str | None:
    """The figure's name of the source a `.../__pycache__/NAME.TAG.pyc` is compiled from."""
    head, _, tail = name.rpartition("/")
    if not head.endswith("__pycache__"):
        return None
    m = _COMPILED.fullmatch(tail)
    return f"{head[:-len('__pycache__')]}{m.group('stem')}.py" if m else None


def figure_bytes(name: str, data: bytes, source_path: str | None, source_name: str | None) -> bytes:
    """What the figure reads of a file: a .pyc without its header and with its source's path on this box
    (compiled into it as the code's file name) written as the source's name; a script without its #! line.

    The path is found as marshal writes it, its length before it (one byte for a short ASCII string,
    else four), and the two together replaced by the name, so two boxes that differ only by where the
    release is installed read the same bytes."""
    if name.endswith(".pyc"):
        body = data[16:]
        if source_path and source_name:
            p = source_path.encode()
            width = 1 if len(p) < 256 and p.isascii() else 4
            body = body.replace(len(p).to_bytes(width, "little") + p, source_name.encode())
        return body
    if name.startswith("bin/") and data.startswith(b"#!"):
        end = data.find(b"\n")
        return b"" if end < 0 else data[end + 1:]
    return data
