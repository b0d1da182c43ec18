"""Every test's par sheet cache is the session's own empty directory, and no table starts the
par sheet's background job (controller/par/background.py): a developer's cached sheets must not
change what `tablectl config check` prints in a test, and the suite must not spend a CI core on
a job no test waits for. tests/par sets its own cache and, where it tests the job, turns it on."""

import os
import shutil
import tempfile

_made: list[str] = []


def pytest_configure(config):
    _made.append(tempfile.mkdtemp(prefix="tablectl-par-"))
    os.environ["TABLECTL_PAR_CACHE"] = _made[-1]
    os.environ["TABLECTL_PAR_BACKGROUND"] = "0"


def pytest_unconfigure(config):
    for path in _made:
        shutil.rmtree(path, ignore_errors=True)
