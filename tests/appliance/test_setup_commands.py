"""The README's set-up commands do what their job needs: the main command (scripts/table) installs
only the table's dependencies, without warnings; the test command adds the test extra; CI runs
exactly the test command."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOISE = ("BuildBackendWarning", "SetuptoolsDeprecationWarning", "DeprecationWarning", "deprecated",
         "Editable installation")


def test_the_main_command_installs_only_the_table_and_says_nothing_alarming(tmp_path):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("controller", "drivers", "config", "systemd", "docs", "scripts", "pyproject.toml", "README.md"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, checkout / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, checkout / name)
    done = subprocess.run(["sh", "scripts/bootstrap", "table"], cwd=checkout, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    said = done.stdout + done.stderr
    assert not [n for n in NOISE if n in said], said[-3000:]
    listed = subprocess.run([str(checkout / ".venv/bin/python"), "-m", "pip", "list", "--format=json"],
                            capture_output=True, text=True, timeout=120, check=True).stdout
    names = {p["name"].lower() for p in json.loads(listed)}
    assert {"tablectl", "pydantic", "uvicorn", "psycopg"} <= names
    assert not names & {"pytest", "playwright", "hypothesis", "pokerkit", "treys", "httpx"}
    # again: nothing to do, nothing said
    again = subprocess.run(["sh", "scripts/bootstrap", "table"], cwd=checkout, capture_output=True, text=True,
                           timeout=120)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_the_test_command_adds_the_test_extra_and_ci_runs_exactly_it():
    test = (ROOT / "scripts/test").read_text()
    assert "sh scripts/bootstrap\n" in test   # the default: the package and its test extra
    bootstrap = (ROOT / "scripts/bootstrap").read_text()
    assert "test) spec='.[test]'" in bootstrap and "table) spec='.'" in bootstrap
    assert "sh scripts/bootstrap table" in (ROOT / "scripts/table").read_text()
    assert (ROOT / ".ci/run").read_text().strip().endswith("exec sh scripts/test")
