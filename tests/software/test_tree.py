"""The install's tree against its RECORDs (controller/software/tree.py), on a tree of files made here:
what no RECORD lists is found, with the start's memo of the last walk warm or not, and a compiled
file reads the same for the figure wherever the release is installed."""

from __future__ import annotations

import base64
import hashlib
import py_compile
from pathlib import Path

import pytest

from controller.software import tree


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def sha256(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def site(tmp_path, monkeypatch):
    site, scripts = tmp_path / "site-packages", tmp_path / "bin"
    (site / "pkg" / "__pycache__").mkdir(parents=True)
    scripts.mkdir()
    source = b"X = 1\n"
    (site / "pkg" / "__init__.py").write_bytes(source)
    (site / "pkg" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0" * 16)
    info = site / "pkg-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text(f"pkg/__init__.py,{_record_hash(source)},6\npkg-1.0.dist-info/RECORD,,\n")
    (scripts / "python3").symlink_to("/bin/true")   # the venv's own
    monkeypatch.setattr(tree, "site_dirs", lambda: [site.resolve()])
    monkeypatch.setattr(tree, "scripts_dir", lambda: scripts.resolve())
    monkeypatch.setattr(tree, "RACY_NS", 0)   # the tree was made a moment ago: let its walk be memoized
    return site


def found(memo: dict) -> list[tuple[str, str]]:
    return sorted((f.code, f.where) for f in tree.install_tree(sha256, memo=memo).findings)


def test_what_no_record_lists_is_found_with_the_memo_warm_or_cold(site):
    memo: dict = {}
    assert found(memo) == [] and memo["stats"]
    walked = memo["stats"]
    assert found(memo) == [] and memo["stats"] is walked   # warm: the walk's findings stand
    extra = [site / "zz.pth", site / "pkg" / "legacy.pyc", site / "pkg" / "__pycache__" / "other.cpython-311.pyc"]
    for f in extra:
        f.write_text("#\n")
    assert found(memo) == [("software-unexpected", "site-packages/pkg/__pycache__/other.cpython-311.pyc"),
                           ("software-unexpected", "site-packages/pkg/legacy.pyc"),
                           ("software-unexpected", "site-packages/zz.pth")]
    assert found({}) == found(memo)                 # the same, cold
    for f in extra:
        f.unlink()
    assert found(memo) == []


def test_a_walk_that_saw_a_directory_changed_a_moment_ago_leaves_no_memo(site, monkeypatch):
    monkeypatch.setattr(tree, "RACY_NS", 10**18)
    memo: dict = {}
    assert found(memo) == [] and memo["stats"] == []
    (site / "zz.pth").write_text("#\n")
    assert found(memo) == [("software-unexpected", "site-packages/zz.pth")]


def test_a_listed_file_changed_or_missing_is_found(site):
    memo: dict = {}
    assert found(memo) == []
    target = site / "pkg" / "__init__.py"
    target.write_bytes(b"X = 2\n")
    assert found(memo) == [("software-integrity", "pkg 1.0: site-packages/pkg/__init__.py")]
    target.unlink()
    assert [w for _, w in found(memo)] == ["pkg 1.0: site-packages/pkg/__init__.py"]
    assert [f.detail for f in tree.install_tree(sha256, memo=memo).findings] == ["is missing"]


def test_a_compiled_file_reads_the_same_wherever_it_was_compiled(tmp_path):
    bodies = []
    for where in (tmp_path / "a", tmp_path / "somewhere" / "much" / "deeper"):
        where.mkdir(parents=True)
        source = where / "rules.py"
        source.write_text("def pay(cents):\n    return cents * 2\n")
        compiled = Path(py_compile.compile(str(source), doraise=True))
        data = compiled.read_bytes()
        assert str(source).encode() in data          # the path on this box is in the code
        bodies.append(tree.figure_bytes("site-packages/x/__pycache__/rules.cpython-311.pyc", data,
                                        str(source), "site-packages/x/rules.py"))
    assert bodies[0] == bodies[1] and b"site-packages/x/rules.py" in bodies[0]
    assert tree.compiled_source_name("stdlib/__pycache__/os.cpython-311.opt-1.pyc") == "stdlib/os.py"
    assert tree.figure_bytes("bin/tablectl", b"#!/opt/x/bin/python\nimport sys\n", None, None) == b"import sys\n"
