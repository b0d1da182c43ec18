"""Start-up guard: the one-shot commands must not import what only the live table needs.

`tablectl settle` and `tablectl poker replay` must start in at most 0.2 s
(measured by benchmarks/startup.py, not here); the easy way to lose that is an
innocent top-level import of pydantic, transitions, structlog or a driver
library somewhere on their path. This test fails on such an import, whatever
the machine's speed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "settle"
HEAVY = ("pydantic", "pydantic_core", "transitions", "structlog", "serial", "usb")


def modules_after(code: str) -> set[str]:
    """Top-level names of every module loaded after running `code` in a fresh interpreter."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[1])
    assert run.returncode == 0, run.stderr
    return {name.split(".")[0] for name in json.loads(run.stdout.splitlines()[-1])}


def test_importing_the_cli_and_settle_loads_no_heavy_library() -> None:
    loaded = modules_after("import controller.cli, controller.settle")
    assert "controller" in loaded  # the probe did import something
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


@pytest.mark.parametrize("case", ["001-stud-spec-example.json", "009-war-basic.json"])
def test_settling_a_record_loads_no_heavy_library(case: str) -> None:
    """The whole `tablectl settle` path, game module included, not just its first imports."""
    record = json.dumps(json.loads((DATA / case).read_text())["record"])
    code = (
        "import io, sys, contextlib\n"
        "from controller.cli import main\n"
        f"sys.stdin = io.StringIO({record!r})\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    status = main(['settle', '-'])\n"
        "assert status == 0, status\n"
    )
    loaded = modules_after(code)
    assert "controller" in loaded
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
