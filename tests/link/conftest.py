"""Live linked tables in the test's own thread (`tables`). The database fixtures (`pg`, one cluster
for the session, and `env`, one database per test) live in tests/pg_fixtures.py, registered for
the whole suite by tests/conftest.py, because tests/report and tests/appliance share the cluster."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.link.link_helpers import close, profile
from tests.ui.screens_fixtures import LiveServer


@pytest.fixture
def tables(env):
    started: list[LiveServer] = []

    def start(table_id: str, seed: int, data: Path | None = None) -> LiveServer:
        from controller.config import load_profile
        from controller.table import Table
        if table_id not in env.link_configs:   # a table started again keeps its role
            env.link_configs[table_id] = env.add_table("cs", table_id)
        cfg = env.link_configs[table_id]
        prof = load_profile(profile(env, cfg, table_id))
        server = LiveServer(lambda: Table(prof, data_dir=data or env.tmp / f"data-{table_id}", seed=seed,
                                          screen=False), None)
        started.append(server)
        return server

    env.link_configs = {}
    yield start
    for s in started:
        close(s)
