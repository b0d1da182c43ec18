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
- `system/...`: the units and rules `tablectl system install` put under a root;
  `profile/NAME`: the table's profile.

How a file is read for the figure (`skip`): a `.pyc` from byte 16 on (its code: the header holds
the source's time on this box), a script in `bin/` from its second line on (the first names this
venv's python). The installer's own records (a dist-info's RECORD, INSTALLER, REQUESTED,
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

CUSTOMIZE = ("sitecustomize.py", "usercustomize.py")
INSTALLER_RECORDS = ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")
VENV_OWN = re.compile(r"(python(3(\.\d+)?)?|activate(\.csh|\.fish)?|Activate\.ps1)")
_COMPILED = re.compile(r"(?P<stem>[^.]+)\.[a-z]+-\d+(\.opt-\d)?\.pyc")


@dataclass(frozen=True)
class File:
    """One file of the figure: its name (root/path), where it is on this box, and what vouches for it."""

    name: str
    path: str
    recorded: str | None = None      # the SHA-256 (hex) its RECORD gives; None: nothing lists a hash
    owner: str = ""                  # the distribution whose RECORD lists it ("" for none)
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


def _records(site: Path) -> Iterator[tuple[str, str, str, str | None]]:
    """(distribution, version, absolute path, RECORD's sha256= value or None) of every RECORD row under `site`."""
    base = str(site).rstrip(os.sep) + os.sep
    for entry in sorted(os.listdir(site)):
        if not entry.endswith(".dist-info"):
            continue
        try:
            text = (site / entry / "RECORD").read_text(encoding="utf-8")
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


def _walk(root: Path, skip_dirs: tuple[str, ...] = ()) -> Iterator[str]:
    """Every file and link under `root` (links not followed: a link is a file of the tree), absolute,
    in no order. scandir's entries say what they are without a stat each."""
    stack = [str(root)]
    top = True
    while stack:
        here = stack.pop()
        try:
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


def _compiled_source(path: str) -> str | None:
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


def install_tree(sha256: Callable[[str], str] | None = None, checked: frozenset[str] = frozenset()) -> Install:
    """The venv's site-packages and scripts against every RECORD in them.

    `sha256(path)` hashes a file (the start passes its cache, selfcheck.HashCache) and the files are
    checked against their RECORD here; None: no file is read, the files are listed for the figure
    and `software verify` reads each itself. The files of
    the distributions `checked` names (normalized names) are not hashed here: the caller did."""
    site, scripts = site_dirs(), scripts_dir()
    prefixes = _prefixes(site, scripts)
    listed: dict[str, tuple[str, str, str | None]] = {}
    for s in site:
        for dist, version, path, recorded in _records(s):
            listed.setdefault(path, (dist, version, recorded))
    files: list[File] = []
    findings: list[Finding] = []
    present: set[str] = set()
    roots = [str(r) for r in [*site, scripts]]
    for root in [*site, scripts]:
        for path in _walk(root):
            present.add(path)
            name = _named(path, prefixes)
            if path in listed:
                dist, version, recorded = listed[path]
                info = f"{dist}-{version}.dist-info/"
                per_box = info in path and os.path.basename(path) in INSTALLER_RECORDS
                # the installer's records stay out of the figure, but are checked like every file
                if sha256 is None:   # the figure's list: `software verify` hashes each file itself
                    files.append(File(name, path, _hex(recorded), dist, not per_box))
                elif recorded is not None and _norm(dist) not in checked:
                    recorded = _hex(recorded)
                    try:
                        actual = sha256(path)
                    except OSError:
                        actual = "unreadable"
                    if actual != recorded:
                        findings.append(Finding("software-integrity", f"{dist} {version}: {name}",
                                                "differs from the hash its wheel installed (RECORD)"))
                continue
            source = _compiled_source(path)
            if source is not None and source in listed:
                if sha256 is None:
                    files.append(File(name, path, None, listed[source][0]))
                continue
            if root == scripts and VENV_OWN.fullmatch(os.path.basename(path)):
                continue   # the venv's own: links to the interpreter, a shell's activate scripts
            findings.append(Finding("software-unexpected", name,
                                    "is in the install's tree but no RECORD lists it: Python may run it "
                                    "at every start (a .pth, sitecustomize.py, an extra module or script)"))
            if sha256 is None:
                files.append(File(name, path))
    for path, (dist, version, _) in listed.items():
        if path not in present and not path.endswith((".pyc", ".pyo")) and _under(path, roots):
            findings.append(Finding("software-integrity", f"{dist} {version}: {_named(path, prefixes)}",
                                    "is missing"))
    return Install(files, findings)


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
    for path in _walk(stdlib, skip_dirs=("site-packages", "dist-packages")):
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


def figure_skip(name: str, head: bytes) -> int:
    """Bytes of a file's start left out of the figure: a .pyc's header, a script's #! line."""
    if name.endswith(".pyc"):
        return 16
    if name.startswith("bin/") and head.startswith(b"#!"):
        end = head.find(b"\n")
        return len(head) if end < 0 else end + 1
    return 0
