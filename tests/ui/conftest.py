"""Fixtures for the screens' tests: the live runtime on emulated devices. The live server and the
real browser (tests/ui/screens_fixtures.py) are registered for every folder by tests/conftest.py."""

from __future__ import annotations

import pytest

from tests.software_hashes import seed_software_hashes
from tests.ui.ui_helpers import PROFILES


@pytest.fixture
def real_table(tmp_path):
    """real_table(game) -> a factory of the live runtime (controller/table.py) on emulated devices,
    its journal in a fresh directory (with the warm hash cache of tests/software_hashes.py); the
    screens are served by the test, not by the table."""
    def factory(game: str, seed: int = 7):
        from controller.config import load_profile
        from controller.table import Table
        profile = load_profile(PROFILES / f"{game}.toml")
        seed_software_hashes(tmp_path / "data")
        return lambda: Table(profile, data_dir=tmp_path / "data", seed=seed, screen=False)
    return factory
