"""The standard Caribbean stud sheet, made once per session by the installed command."""

from __future__ import annotations

import json

import pytest

from tests.par.par_helpers import CONFIG, par


@pytest.fixture(scope="session")
def stud_cache(tmp_path_factory):
    """(cache directory, the --json sheet of config/caribbean-stud.toml) from the shipped count table."""
    cache = tmp_path_factory.mktemp("par-cache")
    done = par(cache, CONFIG / "caribbean-stud.toml", "--json")
    assert done.returncode == 0, done.stderr
    return cache, json.loads(done.stdout)


@pytest.fixture
def counted_cache(tmp_path):
    """A fresh, empty cache directory: the count table is the package's, so no sheet is there yet."""
    cache = tmp_path / "cache"
    cache.mkdir()
    return cache
