"""A pool checks the mode of every table it opens (issue 28): a table that does not state its mode,
through the one-argument `link.open_table(pool)`, a mode of NULL or a word that is not one, is refused
by a live link before it is live on any pool; a test link takes it as a test table. The link's own
client says its mode as it opens, and one that says none is refused by a live link too. The tests'
PostgreSQL, a live link made by the installed command (`tablectl link init`)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from controller.link import admin
from controller.link.pool import LinkClient

TABLECTL = str(Path(sys.executable).parent / "tablectl")
pytestmark = pytest.mark.postgres


def _opens(env, table: str, sql: str, args: tuple = ()) -> str:
    conn = env.table_conn(table)
    try:
        return str(conn.execute(sql, args).fetchone()[0]["pool"])
    except psycopg.Error as exc:
        return f"refused {exc.sqlstate}"
    finally:
        conn.close()


def _live_count(env) -> int:
    return int(env.admin.execute("SELECT count(*) FROM link.pool_tables WHERE live").fetchone()[0])


@pytest.fixture(scope="module")
def live(pg, tmp_path_factory):
    from tests.link.link_helpers import LinkEnv
    tmp_path = tmp_path_factory.mktemp("stated")
    db = f"stated_{os.getpid()}"
    with admin.connect(**pg.admin_kwargs()) as conn:
        conn.execute(f"CREATE DATABASE {db}")
    dsn = f"host=127.0.0.1 port={pg.port} user={pg.admin_kwargs()['user']} dbname={db}"
    made = subprocess.run([TABLECTL, "link", "--dsn", dsn, "init"], capture_output=True, text=True,
                          env={**os.environ, "PGPASSWORD": pg.password}, timeout=120)
    assert made.returncode == 0 and made.stdout.strip() == "link schema installed", made.stderr
    e = LinkEnv(pg, db, tmp_path)
    e.create_pool("cs")
    e.add_table("cs", "T1")
    e.add_table("cs", "T2")
    yield e
    e.close()


def test_a_live_link_refuses_a_table_that_does_not_state_its_mode(live):
    for sql, args in (("SELECT link.open_table('cs')", ()), ("SELECT link.open_table('cs', NULL)", ()),
                      ("SELECT link.open_table('cs', %s)", ("demo",))):
        assert _opens(live, "T1", sql, args) == "refused LK041", sql
        assert _live_count(live) == 0   # a refusal changes nothing
    assert _opens(live, "T1", "SELECT link.open_table('cs', 'live')") == "cs"
    assert _live_count(live) == 1


def test_the_links_client_that_says_no_mode_is_refused_by_a_live_link(live):
    config = live.config("cs", "T2")

    async def opened(mode: str | None) -> tuple[bool, str]:
        client = LinkClient(config, config.outbox)
        client.mode = mode
        try:
            await client.start()   # the table opened on the pool, or refused, before it returns
            up = client.status.playable or (mode is not None and await client.wait_playable(20))
            return up, client.status.reason or ""
        finally:
            await client.stop()

    before = _live_count(live)
    up, reason = asyncio.run(opened(None))
    assert not up and "does not state its mode" in reason, reason
    assert _live_count(live) == before
    up, reason = asyncio.run(opened("live"))
    assert up, reason


def test_a_test_link_takes_a_table_that_says_no_mode_as_a_test_table(env):
    env.create_pool("cs")
    env.add_table("cs", "T1")
    assert _opens(env, "T1", "SELECT link.open_table('cs')") == "cs"
    assert _opens(env, "T1", "SELECT link.open_table('cs', 'live')") == "refused LK040"
