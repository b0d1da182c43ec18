"""Fixtures for the screens' tests: a live server in its own thread, and a real browser
(screens_fixtures.py, shared with tests/link), and the live runtime on emulated devices."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from screens_fixtures import (  # noqa: E402,F401 - fixtures, found by pytest by name
    browser, chromium, live, page_factory, screenshots, secrets_file)

PROFILES = Path(__file__).resolve().parents[2] / "config"


@pytest.fixture
def real_table(tmp_path):
    """real_table(game) -> a factory of the live runtime (controller/table.py) on emulated devices,
    its journal in a fresh directory; the screens are served by the test, not by the table."""
    def factory(game: str, seed: int = 7):
        from controller.config import load_profile
        from controller.table import Table
        profile = load_profile(PROFILES / f"{game}.toml")
        return lambda: Table(profile, data_dir=tmp_path / "data", seed=seed, screen=False)
    return factory

