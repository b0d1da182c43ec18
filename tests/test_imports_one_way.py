"""The tests import one way (tests/conftest.py): a helper by its full name, never through a
sys.path insert or a conftest, so any files of any folders, in any order, collect together."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# three folders whose files used to reach into each other's folders through sys.path
CROSS = ["tests/link/test_screens_linked.py", "tests/ui/test_browser_poker_kill.py", "tests/report/test_linked.py",
         "tests/journal/test_tamper.py", "tests/par/test_par_screen.py"]


def test_no_test_reaches_another_folder_through_sys_path_or_a_conftest():
    found = []
    for path in sorted(HERE.rglob("*.py")):
        text = path.read_text()
        for n, line in enumerate(text.splitlines(), 1):
            if re.match(r"\s*(from conftest import|import conftest\b)", line) or \
                    re.match(r"sys\.path\.(insert|append)\(", line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


def collected(files: list[str]) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "no:xdist", *files], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return sorted(line for line in done.stdout.splitlines() if "::" in line)


@pytest.mark.slow   # two pytest collections in subprocesses
def test_files_of_several_folders_collect_the_same_in_either_order():
    forward = collected(CROSS)
    assert {line.split("/")[1] for line in forward} == {"link", "ui", "report", "journal", "par"}
    assert collected(list(reversed(CROSS))) == forward
