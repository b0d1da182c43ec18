"""The start's check when nothing moved, and the standard library and the bytecode held to the manifest
taken at the first start (controller/software/startcheck.py), on trees of files made here: a byte
changed, a file added or missing, a `.pyc` planted or one Python compiled, the memo and the manifest
edited. The whole start on a wheel's install: tests/appliance/test_start_coverage.py."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import py_compile
from pathlib import Path

import pytest

from controller.software import startcheck, tree


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def sha256(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def replace(path: Path, data: bytes) -> None:
    """A new file in its place (a new inode), as an editor or an installer writes one."""
    path.unlink()
    path.write_bytes(data)


def compiled(source: Path) -> Path:
    return Path(py_compile.compile(str(source), doraise=True))


@pytest.fixture
def trees(tmp_path, monkeypatch):
    """A site-packages with one listed package and its bytecode, a scripts directory, a standard library
    with a module and its bytecode, an interpreter file, and a data directory."""
    site, scripts, stdlib = tmp_path / "site-packages", tmp_path / "bin", tmp_path / "lib" / "python3.11"
    (site / "pkg").mkdir(parents=True)
    scripts.mkdir()
    (stdlib / "test").mkdir(parents=True)
    source = b"X = 1\n"
    (site / "pkg" / "__init__.py").write_bytes(source)
    compiled(site / "pkg" / "__init__.py")
    info = site / "pkg-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text(f"pkg/__init__.py,{_record_hash(source)},6\n"
                                 "pkg/__pycache__/__init__.cpython-311.pyc,,\npkg-1.0.dist-info/RECORD,,\n")
    (stdlib / "colours.py").write_text("def mix(a, b):\n    return (a + b) // 2\n")
    compiled(stdlib / "colours.py")
    (stdlib / "test" / "test_colours.py").write_text("# the regression suite: not the start's\n")
    exe = tmp_path / "python3.11"
    exe.write_bytes(b"\x7fELF an interpreter")
    monkeypatch.setattr(tree, "site_dirs", lambda: [site.resolve()])
    monkeypatch.setattr(tree, "scripts_dir", lambda: scripts.resolve())
    monkeypatch.setattr(startcheck, "stdlib_dir", lambda: stdlib.resolve())
    monkeypatch.setattr(startcheck, "interpreter_paths", lambda: [str(exe.resolve())])
    monkeypatch.setattr(startcheck, "RACY_NS", 0)   # the trees were made a moment ago
    data = tmp_path / "data"
    data.mkdir()
    return {"site": site, "stdlib": stdlib, "exe": exe, "data": data}


def found(trees) -> list[tuple[str, str]]:
    return sorted((f.code, f.where) for f in startcheck.baseline_problems(trees["data"], sha256).problems)


def test_a_stdlib_file_changed_added_or_missing_is_found_against_the_manifest_taken_at_first_start(trees):
    first = startcheck.baseline_problems(trees["data"], sha256)
    assert first.problems == [] and first.outside and first.taken_at and first.files == 4
    names = json.loads((trees["data"] / startcheck.BASELINE).read_text())["files"]
    assert not [p for p in names if "/test/" in p], "CPython's regression suite is not the start's"
    module = trees["stdlib"] / "colours.py"
    original = module.read_bytes()
    replace(module, original.replace(b"// 2", b"// 3"))   # one byte
    assert found(trees) == [("software-integrity", "stdlib/colours.py")]
    replace(module, original)
    assert found(trees) == []
    (trees["stdlib"] / "sitecustomize.py").write_text("import os\n")
    assert found(trees) == [("software-unexpected", "stdlib/sitecustomize.py")]
    (trees["stdlib"] / "sitecustomize.py").unlink()
    module.unlink()
    assert found(trees) == [("software-integrity", "stdlib/colours.py")]
    module.write_bytes(original)
    replace(trees["exe"], b"\x7fELF another interpreter")
    assert found(trees) == [("software-integrity", "interpreter/python3.11")]


def test_a_planted_pyc_is_found_and_one_python_compiled_from_its_source_is_taken(trees, tmp_path):
    assert found(trees) == []
    pyc = trees["site"] / "pkg" / "__pycache__" / "__init__.cpython-311.pyc"
    original = pyc.read_bytes()
    other = tmp_path / "other" / "__init__.py"
    other.parent.mkdir()
    other.write_text("X = 2\nimport os\n")
    planted = compiled(other).read_bytes()
    replace(pyc, original[:16] + planted[16:])   # the source's header: Python would run it
    assert found(trees) == [("software-unexpected", "site-packages/pkg/__pycache__/__init__.cpython-311.pyc")]
    replace(pyc, original)
    assert found(trees) == []
    # Python compiles a module it imports for the first time, and at another optimization level
    (trees["stdlib"] / "shades.py").write_text("GREY = 7\n")
    assert found(trees) == [("software-unexpected", "stdlib/shades.py")]   # the source itself is new
    (trees["stdlib"] / "shades.py").unlink()
    again = Path(py_compile.compile(str(trees["stdlib"] / "colours.py"), doraise=True, optimize=2))
    assert again.name == "colours.cpython-311.opt-2.pyc"
    assert found(trees) == []
    assert str(again.resolve()) in json.loads((trees["data"] / startcheck.BASELINE).read_text())["files"]
    replace(again, original[:16] + planted[16:])
    assert found(trees) == [("software-unexpected", "stdlib/__pycache__/colours.cpython-311.opt-2.pyc")]


def test_an_edited_manifest_is_not_taken(trees):
    assert found(trees) == []
    path = trees["data"] / startcheck.BASELINE
    body = json.loads(path.read_text())
    module = str((trees["stdlib"] / "colours.py").resolve())
    replace(trees["stdlib"] / "colours.py", b"def mix(a, b):\n    return a\n")
    body["files"][module] = sha256(module)   # the manifest made to agree with the changed file
    path.write_text(json.dumps(body))
    assert found(trees) == [("software-integrity", startcheck.BASELINE)]


def test_the_last_outcome_stands_while_nothing_moved_and_only_then(trees, monkeypatch):
    memo = startcheck.StartMemo(trees["data"])
    assert memo.known() is None
    memo.baseline_problems(sha256)
    memo.keep({"dist:pkg": "1.0 abc"}, [["software-unexpected", "site-packages/x.pth", "no RECORD lists it"]])
    again = startcheck.StartMemo(trees["data"])
    assert again.known() == ({"dist:pkg": "1.0 abc"},
                             [["software-unexpected", "site-packages/x.pth", "no RECORD lists it"]])
    assert again.note["outside_tree"] is True
    module = trees["stdlib"] / "colours.py"
    os.utime(module, ns=(1, 1))   # its stat moves (the ctime with it)
    assert startcheck.StartMemo(trees["data"]).known() is None
    # a memo edited to say another outcome is not taken
    memo = startcheck.StartMemo(trees["data"])
    memo.keep({"dist:pkg": "1.0 abc"}, [["software-unexpected", "site-packages/x.pth", "no RECORD lists it"]])
    path = trees["data"] / startcheck.MEMO
    body = json.loads(path.read_text())
    body["problems"] = []
    path.write_text(json.dumps(body))
    assert startcheck.StartMemo(trees["data"]).known() is None
    # nor one kept of a state too recent to be named by its stat
    path.unlink()
    monkeypatch.setattr(startcheck, "RACY_NS", 2_000_000_000)
    fresh = startcheck.StartMemo(trees["data"])
    fresh.newest = fresh.taken_ns
    fresh.keep({}, [])
    assert not path.exists()


def test_a_file_the_user_cannot_read_is_not_vouched_for_unless_root_read_it_before_becoming_that_user(
        trees, monkeypatch):
    """Root at the terminal becomes the table's user (controller/journal/custody.py); an interpreter
    under root's home is one that user runs on and cannot read. Unread, it is no longer called
    missing but unreadable; read by root before the drop (read_interpreter_now), it is vouched for,
    and still found when root read other bytes than the manifest's."""
    assert startcheck.baseline_problems(trees["data"], sha256).problems == []
    exe = str(trees["exe"].resolve())

    def as_the_table(path: str) -> str:
        if path == exe:
            raise PermissionError(13, "Permission denied", path)
        return sha256(path)

    unread = startcheck.baseline_problems(trees["data"], as_the_table).problems
    assert [(f.code, f.where, f.detail.split(":")[0]) for f in unread] == [
        ("software-integrity", "interpreter/python3.11", "cannot be read by this user (Permission denied)")]
    monkeypatch.setattr(startcheck, "_READ_BEFORE_DROP", {})
    startcheck.read_interpreter_now()   # as root, before the drop
    assert startcheck.baseline_problems(trees["data"], as_the_table).problems == []
    replace(trees["exe"], b"\x7fELF another interpreter")
    startcheck.read_interpreter_now()
    assert [(f.code, f.where) for f in startcheck.baseline_problems(trees["data"], as_the_table).problems] == [
        ("software-integrity", "interpreter/python3.11")]
