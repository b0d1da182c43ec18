"""The start covers the standard library and the bytecode (issue 28), on the wheel installed as a box is,
driven through the installed command.

The box's interpreter is this one's, given a prefix of its own: its executable and its standard library
hard-linked into a directory of the test's (no byte copied, and a file is only ever replaced by a new
one, never written in place, so the interpreter the tests run on is untouched). A venv made from it
has its standard library outside the install's tree, as a system python's: the start covers it by
the manifest taken at the first start, and says so. Then:

- a standard library module changed by one byte stops play; no two supervisors clear it; put back, one does;
- a `.pyc` of the table's own replaced by another's code (its header kept, so Python would run it) stops
  play the same way; put back, one supervisor clears it;
- a start with nothing moved takes the last outcome (the memo beside the journal).
"""

from __future__ import annotations

import json
import os
import py_compile
import shutil
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.appliance.test_wheel import VERSION, build_wheel, free_port, run

pytestmark = pytest.mark.timeout(1800)


def _own_prefix(where: Path) -> Path:
    """This interpreter with a prefix of its own (hard links), its regression suite and site-packages left out."""
    stdlib = sysconfig.get_paths()["stdlib"]
    exe = os.path.realpath(sys.executable)
    (where / "bin").mkdir(parents=True)
    os.link(exe, where / "bin" / os.path.basename(exe))
    shutil.copytree(stdlib, where / os.path.relpath(stdlib, sys.base_prefix), symlinks=True, copy_function=os.link,
                    ignore=lambda d, names: [n for n in names if d == stdlib and n in ("site-packages", "test")])
    return where / "bin" / os.path.basename(exe)


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    work = tmp_path_factory.mktemp("coverage")
    python = _own_prefix(work / "python")
    wheel, _ = build_wheel(work / "wheels", VERSION, work)
    venv = work / "opt-tablectl"
    run(python, "-m", "venv", venv, cwd=work)
    run(venv / "bin/pip", "install", "-q", wheel, cwd=work, timeout=900)
    b = {"work": work, "venv": venv, "bin": venv / "bin", "data": work / "state"}
    stdlib = json.loads(tablectl(b, "-c", "import sysconfig, json; print(json.dumps(sysconfig.get_paths()['stdlib']))",
                                 exe="python").stdout)
    b["stdlib"] = Path(stdlib)
    assert b["stdlib"].is_relative_to(work / "python"), "the box's own standard library"
    text = tablectl(b, "config", "show", "caribbean-stud").stdout
    b["profile"] = work / "table.toml"
    b["profile"].write_text(text.replace("port = 8080", f"port = {free_port()}")
                            .replace("kiosk_port = 8081", f"kiosk_port = {free_port()}"))
    b["secrets"] = work / "secrets.toml"
    for who, pin in (("S1", "111111"), ("S2", "222222")):
        tablectl(b, "supervisor", "add", who, "--secrets", b["secrets"], "--pin-stdin", input=f"{pin}\n")
    return b


def tablectl(box, *args, exe: str = "tablectl", **kw):
    return run(box["bin"] / exe, *args, cwd=box["work"], **kw)


def play(box, check: bool = True, data: Path | None = None):
    return tablectl(box, "run", "--config", box["profile"], "--data-dir", data or box["data"], "--emulate", "--autoplay",
                    "--rounds", 1, "--seed", 3, check=check, timeout=600)


def replace(path: Path, data: bytes) -> None:
    """A new file in its place: the hard link to the tests' own interpreter's file is left as it was."""
    path.unlink()
    path.write_bytes(data)


def first_start(box) -> None:
    """The table started once (the manifest taken), whichever test of the module runs first on this worker."""
    if not (box["data"] / "software-baseline.json").exists():
        assert len(play(box).stdout.splitlines()) == 1


def refused_then_cleared(box, name: str, put_back) -> None:
    started = play(box, check=False)
    assert started.returncode == 3, started.stdout[-2000:] + started.stderr[-2000:]
    status = tablectl(box, "fault", "status", "--data-dir", box["data"], check=False)
    assert status.returncode == 1 and name in status.stdout, status.stdout
    two = tablectl(box, "fault", "clear", "--data-dir", box["data"], "--secrets", box["secrets"],
                   "--supervisor", "S1", "--second-supervisor", "S2", input="111111\n222222\n", check=False)
    assert two.returncode == 2 and "nobody may accept it" in two.stdout, two.stdout + two.stderr
    assert play(box, check=False).returncode == 3   # still a fault
    put_back()
    tablectl(box, "fault", "clear", "--data-dir", box["data"], "--secrets", box["secrets"], "--supervisor", "S1",
             "--note", "the files are back", input="111111\n")
    assert len(play(box).stdout.splitlines()) == 1   # a round played


def test_the_first_start_takes_the_manifest_and_says_so(box):
    data = box["work"] / "state-first"   # a table of its own: a first start
    first = play(box, data=data)
    assert len(first.stdout.splitlines()) == 1
    assert "stdlib_covered_by_install_manifest" in first.stdout + first.stderr
    baseline = json.loads((data / "software-baseline.json").read_text())
    assert str(box["stdlib"] / "colorsys.py") in baseline["files"]
    assert [p for p in baseline["files"] if p.endswith(".pyc") and "/site-packages/controller/" in p]


def test_a_stdlib_module_changed_by_one_byte_stops_play_until_it_is_put_back(box):
    first_start(box)
    module = box["stdlib"] / "colorsys.py"
    original = module.read_bytes()
    assert original.endswith(b"\n")
    replace(module, original[:-1] + b" ")
    refused_then_cleared(box, "stdlib/colorsys.py", lambda: replace(module, original))


def test_a_replaced_pyc_stops_play_until_it_is_put_back(box, tmp_path):
    first_start(box)
    site = next((box["venv"] / "lib").glob("python3*/site-packages"))
    pyc = next((site / "controller" / "__pycache__").glob("settle.*.pyc"))
    original = pyc.read_bytes()
    other = tmp_path / "settle.py"
    other.write_text("def settle(*args, **kw):\n    return 0\n")
    planted = Path(py_compile.compile(str(other), doraise=True)).read_bytes()
    replace(pyc, original[:16] + planted[16:])   # the source's header kept: Python would run it
    refused_then_cleared(box, f"site-packages/controller/__pycache__/{pyc.name}", lambda: replace(pyc, original))


def test_a_start_with_nothing_moved_takes_the_last_outcome(box):
    """A start whose stat pass names the state the memo holds takes it, and does not write it again.

    Nothing moving is the premise, and a play can move something: a start within the kernel's clock
    tick of a change keeps no memo (startcheck.RACY_NS), the memo left by the fault's state names a
    state that is no more, and Python compiles a module a play imports for the first time (a `.pyc`
    written in the tree: a new state). So starts go on until one finds the memo of the start before
    it; a memo never taken fails."""
    memo = box["data"] / "software-start.json"
    taken = []
    for _ in range(6):
        before = memo.stat() if memo.exists() else None
        clean = before is not None and json.loads(memo.read_text())["problems"] == []
        assert len(play(box).stdout.splitlines()) == 1
        if not memo.exists():
            continue   # too near a change to be named by its stat
        after = memo.stat()
        if clean and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns):
            taken.append(after)   # taken, not made again
            break
    assert taken, "no start took the memo of the start before it"
    assert json.loads(memo.read_text())["problems"] == []
