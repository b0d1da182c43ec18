"""systemd tools for the unit tests, installed from Debian packages when missing.

The suite's set-up (scripts/test) installs them with
    apt-get update && apt-get install -y --no-install-recommends systemd
this fixture does the same when run as root on Debian, and fails (never skips)
when the tool still cannot be found.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest


def _install_systemd() -> None:
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update"], check=False, capture_output=True, env=env, timeout=600)
    subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "systemd"],
                   check=False, capture_output=True, env=env, timeout=600)


@pytest.fixture(scope="session")
def systemd_analyze() -> str:
    path = shutil.which("systemd-analyze")
    if path is None:
        _install_systemd()
        path = shutil.which("systemd-analyze")
    if path is None:
        pytest.fail("systemd-analyze is missing: apt-get install -y --no-install-recommends systemd")
    return path
