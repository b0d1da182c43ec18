"""Fixtures of the profile tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.config.config_helpers import Profiles


@pytest.fixture
def profiles(tmp_path: Path) -> Profiles:
    return Profiles(tmp_path)
