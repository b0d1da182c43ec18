"""The standard Caribbean stud sheet, counted once per session by the installed command."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.par.par_helpers import CONFIG, par


@pytest.fixture(scope="session")
def stud_cache(tmp_path_factory):
    """(cache directory, the --json sheet of config/caribbean-stud.toml) after one full count."""
    cache = tmp_path_factory.mktemp("par-cache")
    done = par(cache, CONFIG / "caribbean-stud.toml", "--json")
    assert done.returncode == 0, done.stderr
    return cache, json.loads(done.stdout)


@pytest.fixture
def counted_cache(stud_cache, tmp_path):
    """A fresh cache directory holding only the count table (no sheet)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    for table in stud_cache[0].glob("stud-counts-*.npz"):
        shutil.copy2(table, cache / table.name)
    return cache
