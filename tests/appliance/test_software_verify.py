"""The software verified as a lab and an inspector do it (issue 28), on the wheel installed as a box is:
built once for the module, installed into two venvs of their own at different paths with pip's
defaults (bytecode compiled at install, as docs/UPGRADE.md), and driven through the installed command.

- `tablectl software verify --seed`: the same figure on both boxes, and the lab's own script in
  docs/CERTIFICATION.md (taken from the document and run here) computes it from the files;
- a file no RECORD lists, or a dependency's file changed by one byte, faults the start and the
  verification; no two supervisors clear it while it is there; put back, one supervisor does;
- `tablectl software history`: what the table ran, from its journal.

The tests run in order and share the install (module-scoped), each from where the one before left it.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.appliance.test_wheel import ROOT, VERSION, build_wheel, free_port, run

SEED = "0badc0ffee"
# the module's first test pays for the wheel and two installs with their bytecode compiled, and each
# verification reads every file the table runs: minutes on a loaded 2-core box, not seconds
pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    """One wheel, installed in two venvs (the second at another depth of path: another box)."""
    work = tmp_path_factory.mktemp("certify")
    wheel, _ = build_wheel(work / "wheels", VERSION, work)
    venvs = [work / "opt-tablectl", work / "srv" / "elsewhere" / "tablectl"]
    for venv in venvs:
        run(sys.executable, "-m", "venv", venv, cwd=work)
        run(venv / "bin/pip", "install", "-q", wheel, cwd=work, timeout=900)
    b = {"work": work, "venv": venvs[0], "bin": venvs[0] / "bin", "other": venvs[1] / "bin", "data": work / "state"}
    text = tablectl(b, "config", "show", "caribbean-stud").stdout
    b["profile"] = work / "table.toml"
    b["profile"].write_text(text.replace("port = 8080", f"port = {free_port()}")
                            .replace("kiosk_port = 8081", f"kiosk_port = {free_port()}"))
    b["secrets"] = work / "secrets.toml"
    for who, pin in (("S1", "111111"), ("S2", "222222")):
        tablectl(b, "supervisor", "add", who, "--secrets", b["secrets"], "--pin-stdin", input=f"{pin}\n")
    b["root"] = work / "sysroot"
    tablectl(b, "system", "install", "--root", b["root"])
    return b


def tablectl(box, *args, bin_: Path | None = None, **kw) -> subprocess.CompletedProcess:
    return run((bin_ or box["bin"]) / "tablectl", *args, cwd=box["work"], **kw)


def play(box, check: bool = True) -> subprocess.CompletedProcess:
    return tablectl(box, "run", "--config", box["profile"], "--data-dir", box["data"], "--autoplay",
                    "--rounds", 1, "--seed", 3, check=check)


def verify(box, *extra, bin_: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    return tablectl(box, "software", "verify", "--seed", SEED, *extra, bin_=bin_, check=check, timeout=600)


def verified(box, *extra, bin_: Path | None = None) -> dict:
    return json.loads(verify(box, "--json", *extra, bin_=bin_).stdout)


def lab_script() -> str:
    """The lab's script, as docs/CERTIFICATION.md gives it (the block after its marker)."""
    doc = (ROOT / "docs" / "CERTIFICATION.md").read_text()
    m = re.search(r"<!-- lab-script -->\s*```python\n(.*?)```", doc, re.S)
    assert m, "docs/CERTIFICATION.md holds the lab's script after <!-- lab-script -->"
    return m.group(1)


def site_packages(box) -> Path:
    return next((box["venv"] / "lib").glob("python3*/site-packages"))


def test_the_figure_covers_every_file_the_table_runs_and_the_labs_script_reproduces_it(box, tmp_path):
    out = verified(box, "--config", box["profile"], "--root", box["root"])
    assert set(out) >= {"seed", "algorithm", "digest", "files", "manifest"}
    assert (out["seed"], out["algorithm"], out["files"]) == (SEED, "sha256", len(out["manifest"]))
    names = [f["name"] for f in out["manifest"]]
    assert names == sorted(names, key=str.encode) and len(set(names)) == len(names)   # a stable order
    assert not [n for n in names if n.startswith("/")], "names are relative to their roots"
    for needed in ("site-packages/controller/journal/selfcheck.py", "site-packages/pydantic/main.py",
                   "bin/tablectl", "stdlib/os.py", "stdlib/encodings/utf_8.py",
                   "system/etc/systemd/system/tablectl.service", "profile/table.toml"):
        assert needed in names, needed
    assert [n for n in names if n.startswith("interpreter/")], "the interpreter's executable"
    assert [n for n in names if re.fullmatch(r"site-packages/controller/__pycache__/settle\..*\.pyc", n)]
    assert [n for n in names if n.startswith("stdlib/") and n.endswith(".pyc")]
    assert not [n for n in names if n.endswith(("-info/RECORD", "-info/INSTALLER"))]   # per box: left out
    # the lab's own script computes the figure from the files the manifest names
    script = tmp_path / "lab.py"
    script.write_text(lab_script())
    sha1 = verified(box, "--algorithm", "sha1", "--config", box["profile"], "--root", box["root"])
    assert len(sha1["digest"]) == 40 and len(out["digest"]) == 64
    for answer in (out, sha1):
        lab = run(sys.executable, script, cwd=tmp_path, input=json.dumps(answer), timeout=600).stdout.strip()
        assert lab == answer["digest"], answer["algorithm"]


def test_the_same_seed_gives_the_same_figure_on_every_box_of_the_release(box):
    here, there = verified(box), verified(box, bin_=box["other"])
    assert [f["name"] for f in here["manifest"]] == [f["name"] for f in there["manifest"]]
    assert here["digest"] == there["digest"]
    other_seed = tablectl(box, "software", "verify", "--seed", "01", timeout=600).stdout
    assert re.search(r"^digest: [0-9a-f]{64}$", other_seed, re.M) and "\nauthentic\n" in other_seed
    assert here["digest"] not in other_seed
    bad = tablectl(box, "software", "verify", "--seed", "not-hex", check=False)
    assert bad.returncode == 2 and "hexadecimal" in bad.stderr


def _refused_by_two(box) -> None:
    """Two different supervisors' PINs do not clear it; the refusal is journaled."""
    two = tablectl(box, "fault", "clear", "--data-dir", box["data"], "--secrets", box["secrets"],
                   "--supervisor", "S1", "--second-supervisor", "S2", input="111111\n222222\n", check=False)
    assert two.returncode == 2 and "refused" in two.stderr and "nobody may accept it" in two.stdout
    assert "put the files back" in two.stderr
    assert play(box, check=False).returncode == 3   # still a fault


def _cleared_by_one(box) -> None:
    status = tablectl(box, "fault", "status", "--data-dir", box["data"], check=False)
    assert status.returncode == 1   # the fault stays until a supervisor clears it
    tablectl(box, "fault", "clear", "--data-dir", box["data"], "--secrets", box["secrets"], "--supervisor", "S1",
             "--note", "the release's files are back", input="111111\n")
    assert len(play(box).stdout.splitlines()) == 1   # a round played


def test_a_file_no_record_lists_stops_play_until_it_is_gone(box):
    assert len(play(box).stdout.splitlines()) == 1   # the first start accepts the release
    site = site_packages(box)
    extra = [site / "zz-extra.pth", site / "sitecustomize.py", site / "controller" / "extra_rules.py"]
    for f in extra:
        f.write_text("# not of the release\n")
    try:
        found = verify(box, check=False)
        assert found.returncode == 1 and "NOT AUTHENTIC" in found.stdout
        for name in ("site-packages/zz-extra.pth", "site-packages/sitecustomize.py",
                     "site-packages/controller/extra_rules.py"):
            assert f"{name}: is in the install's tree but no RECORD lists it" in found.stdout
        started = play(box, check=False)
        assert started.returncode == 3
        status = tablectl(box, "fault", "status", "--data-dir", box["data"], check=False).stdout
        assert "site-packages/zz-extra.pth: is in the install's tree" in status
        _refused_by_two(box)
    finally:
        for f in extra:
            f.unlink()
    assert verify(box).returncode == 0
    _cleared_by_one(box)


def test_a_dependency_file_changed_by_one_byte_stops_play_until_it_is_put_back(box):
    site = site_packages(box)
    record = next(site.glob("structlog-*.dist-info")) / "RECORD"
    target = next(site / row[0] for row in csv.reader(record.read_text().splitlines())
                  if row and row[0].endswith(".py") and not row[0].endswith("__init__.py"))
    original = target.read_bytes()
    assert original.endswith(b"\n")
    target.write_bytes(original[:-1] + b" ")   # one byte: a newline become a space
    try:
        found = verify(box, check=False)
        assert found.returncode == 1
        name = f"site-packages/{target.relative_to(site).as_posix()}"
        assert re.search(rf"structlog\S* \S+: {re.escape(name)}: differs from the hash its wheel installed",
                         found.stdout), found.stdout
        assert play(box, check=False).returncode == 3
        _refused_by_two(box)
    finally:
        target.write_bytes(original)
    assert verify(box).returncode == 0
    _cleared_by_one(box)


def test_the_history_lists_what_the_table_ran_and_who_accepted_it(box):
    rows = json.loads(tablectl(box, "software", "history", "--json", "--data-dir", box["data"]).stdout)
    # one release accepted (the files put back are the software accepted at the first start), and the
    # software with the changed byte, which two starts ran and nobody accepted
    assert [r["accepted_at"] is not None for r in rows] == [True, False]
    first, changed = rows
    assert changed["starts"] == 2 and changed["by"] is None and changed["reason"].startswith("not accepted")
    assert first["versions"]["tablectl"] == VERSION and first["reason"] == "first start" and first["by"] is None
    assert first["starts"] >= 5 and first["accepted_at"] <= first["first_start"] <= first["last_start"]
    text = tablectl(box, "software", "history", "--data-dir", box["data"]).stdout
    assert f"tablectl {VERSION}" in text and first["digest"][:16] in text
    with_refusals = run(box["bin"] / "python", "-c",
                        "import sys, json; from controller.journal.store import Journal; "
                        "j = Journal.open(sys.argv[1], readonly=True); "
                        "print(json.dumps([e.payload for e in j.table_entries('refused')]))",
                        box["data"], cwd=box["work"]).stdout
    refusals = json.loads(with_refusals)
    assert len(refusals) == 2 and all(r["source"] == "terminal" and len(r["error"]) <= 1000 for r in refusals)
