"""The spec's example cases of Caribbean stud (shared/spec/rounds.md), in-process and through `tablectl settle`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.records import RecordError, loads
from controller.settle import settle
from tests.stud.stud_helpers import stud_cases

CASES = stud_cases()
TABLECTL = Path(sys.executable).with_name("tablectl")


def test_the_cases_are_there():
    # 001-008 and 013 of shared/cases: a copy that lost files must not pass quietly.
    assert len(CASES) >= 9


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_in_process(path: Path):
    case = json.loads(path.read_text())
    record = loads(json.dumps(case["record"]))
    if "error_field" in case:
        with pytest.raises(RecordError) as err:
            settle(record)
        assert str(err.value).startswith(case["error_field"])
    else:
        assert settle(record) == case["expected"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_through_tablectl(path: Path):
    case = json.loads(path.read_text())
    p = subprocess.run([str(TABLECTL), "settle", "-"], input=json.dumps(case["record"]),
                       capture_output=True, text=True, timeout=60)
    if "error_field" in case:
        assert p.returncode == 2
        assert p.stdout == ""
        assert p.stderr.splitlines()[0].startswith(case["error_field"])
    else:
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout) == case["expected"]
