from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from controller.journal.store import Journal
from tests.journal.journal_helpers import Clock, play_round


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture(scope="session")
def closed_journal(tmp_path_factory) -> Path:
    """A cleanly closed journal of 150 rounds (about 2,400 entries, a dozen 64 KiB chunks)."""
    d = tmp_path_factory.mktemp("closed") / "state"
    meter = [2_500_000]
    with Journal.open(d, clock=Clock(), seal_frames=200) as j:
        for n in range(150):
            play_round(j, n, seats=5, meter=meter)
    return d


@pytest.fixture
def journal_copy(closed_journal: Path, tmp_path: Path) -> Path:
    d = tmp_path / "copy"
    shutil.copytree(closed_journal, d)
    return d
