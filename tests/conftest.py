"""The suite's root conftest: how tests import each other, the shared fixtures, the markers.

Imports: tests/ is a package (tests/__init__.py, one in each folder) and the repository's root is
on the path (`pythonpath` in pyproject.toml), so a helper is imported by its full name, from any
folder: `from tests.ui.ui_helpers import wait_until`. No test inserts into sys.path and no test
imports a conftest.

Shared fixtures are plugins registered here, so every folder sees the same ones (one Chromium
install check, one PostgreSQL cluster per session): tests/ui/screens_fixtures.py (`browser`,
`page_factory`, `live`, ...) and tests/pg_fixtures.py (`pg`, `env`).

Markers (registered in pyproject.toml, `--strict-markers`), set here from what a test uses:
`browser` for a test that asks for the browser, `postgres` for one that asks for the PostgreSQL
cluster, `crash` for the kill-and-restart tests of tests/crash; `slow` for one that uses a fixture
of SLOW_FIXTURES below, and by hand on a test that takes more than a few seconds. The fast inner loop of the README deselects all four.

Every test's par sheet cache is the session's own empty directory, and no table starts the
par sheet's background job (controller/par/background.py): a developer's cached sheets must not
change what `tablectl config check` prints in a test, and the suite must not spend a CI core on
a job no test waits for. tests/par sets its own cache and, where it tests the job, turns it on.
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

pytest_plugins = ["tests.ui.screens_fixtures", "tests.pg_fixtures"]

HERE = Path(__file__).resolve().parent
_made: list[str] = []


def pytest_configure(config):
    _made.append(tempfile.mkdtemp(prefix="tablectl-par-"))
    os.environ["TABLECTL_PAR_CACHE"] = _made[-1]
    os.environ["TABLECTL_PAR_BACKGROUND"] = "0"


def pytest_unconfigure(config):
    for path in _made:
        shutil.rmtree(path, ignore_errors=True)


# Fixtures that cost tens of seconds before the test starts: a test using one is `slow`
# (the wheel built and installed in a venv, three tables autoplayed).
SLOW_FIXTURES = {"box", "played"}
# By hand, from `--durations=80` over the whole suite (seconds on a loaded 2-core box, about four
# times an idle one's): a node id, or the start of one, is `slow`.
SLOW_TESTS = (
    "tests/par/test_par_stud_counts.py",            # 124 s: the count visits every dealer hand
    "tests/par/test_par_recount.py",                # a minute or more: every deal counted again
    "tests/poker/test_poker_differential.py",       # 109 s: every hand against pokerkit
    "tests/poker/test_poker_export.py",             # 72 s: every written hand rebuilt and replayed
    "tests/poker/test_poker_hand.py::test_rebuilt_from_its_actions",                      # 26 s
    "tests/table/test_table.py::test_the_readme_command_plays_rounds",                    # 23-39 s each
    "tests/appliance/test_setup_commands.py::test_the_main_command_installs_only_the_table",  # 35 s
    "tests/systemd/test_ready.py",                  # 15-21 s a test: the table under systemd's protocol
    "tests/journal/test_tamper.py::test_every_flipped_byte_at_many_random_offsets",       # 13 s
    "tests/hands/test_hands_differential.py",       # 2-7 s a test: hundreds of thousands of hands
    "tests/hands/test_hands_counts.py",             # 2-6 s a test: every class of every hand
    "tests/ui/test_supervisor_guard.py",            # 3-8 s a test: a live table played to validation
    # measured by the fast loop's --durations on a loaded box (issues 14, 15):
    "tests/security/test_readers.py",               # 27 s: read-only tools in a loop beside a playing table
    "tests/security/test_supervisor_actions.py",    # 4-9 s a test: the installed table and CLI
    "tests/security/test_full_disk.py",             # 8 s: a table on a full tmpfs
    "tests/security/test_cli_inputs.py",            # 3-8 s a test: the installed command on hostile input
    "tests/security/test_state_machines.py",        # 4-9 s a test: hypothesis state machines, live tables
    "tests/par/test_par_units.py::test_every_five_card_category_has_its_textbook_count",  # 16 s
    "tests/devices/test_fuzz.py",                   # 3-10 s a test: many thousands of frames
    "tests/report/test_events.py",                  # 8 s: a live table's journal reported
    "tests/journal/test_journal_crash.py::test_crashes_between_seals_many_times",         # 7 s
    "tests/war/test_war_properties.py",             # 3-7 s a test: hypothesis rounds to the cover card
    "tests/stud/test_stud_properties.py",           # 3-4 s a test: hypothesis rounds
    "tests/appliance/test_operator_logs.py",        # 6 s: a live table's logs
)


def pytest_collection_modifyitems(config, items):
    # Under scripts/test's two workers (`--dist loadfile`) each file's tests go to one worker in
    # order, so a module's fixtures are made once; a session fixture that several files use (the
    # played journals, the par count) may be made once on each worker.
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if "browser" in used:
            item.add_marker(pytest.mark.browser)
        if "pg" in used:
            item.add_marker(pytest.mark.postgres)
        if HERE / "crash" in Path(item.fspath).parents:
            item.add_marker(pytest.mark.crash)
        if used & SLOW_FIXTURES or item.nodeid.startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
