"""Test mode is never play on a pool (issue 28 item 5): a link is made live or test (`tablectl link init
[--test]`, live unless asked); a table says its mode as it opens, and a link of the other mode refuses
it before it is live on any pool; a link never changes its mode. The tests' PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from controller.link import admin

TABLECTL = str(Path(sys.executable).parent / "tablectl")
pytestmark = pytest.mark.postgres


def _opens(env, table: str, mode: str) -> str:
    conn = env.table_conn(table)
    try:
        return str(conn.execute("SELECT link.open_table('cs', %s)", (mode,)).fetchone()[0]["pool"])
    except psycopg.Error as exc:
        return f"refused {exc.sqlstate}: {exc.diag.message_primary}"
    finally:
        conn.close()


def test_a_test_link_takes_a_test_table_and_refuses_a_live_one(env):
    env.create_pool("cs")
    env.add_table("cs", "T1")
    assert _opens(env, "T1", "live") == "refused LK040: a live table is refused by a test link"
    assert env.admin.execute("SELECT count(*) FROM link.pool_tables WHERE live").fetchone()[0] == 0
    assert _opens(env, "T1", "test") == "cs"


def test_a_live_link_refuses_a_test_table_and_keeps_its_mode(pg, tmp_path):
    from tests.link.link_helpers import LinkEnv
    db = f"live_link_{os.getpid()}"
    with admin.connect(**pg.admin_kwargs()) as conn:
        conn.execute(f"CREATE DATABASE {db}")
    dsn = f"host=127.0.0.1 port={pg.port} user={pg.admin_kwargs()['user']} dbname={db}"
    env_vars = {**os.environ, "PGPASSWORD": pg.password}
    made = subprocess.run([TABLECTL, "link", "--dsn", dsn, "init"], capture_output=True, text=True, env=env_vars,
                          timeout=120)
    assert made.returncode == 0 and made.stdout.strip() == "link schema installed", made.stderr
    live = LinkEnv(pg, db, tmp_path)
    try:
        live.create_pool("cs")
        live.add_table("cs", "T2")
        assert _opens(live, "T2", "test") == "refused LK040: a test table is refused by a live link"
        assert _opens(live, "T2", "live") == "cs"
    finally:
        live.close()
    again = subprocess.run([TABLECTL, "link", "--dsn", dsn, "init", "--test"], capture_output=True, text=True,
                           env=env_vars, timeout=120)
    assert again.returncode == 1 and "live link" in again.stderr
