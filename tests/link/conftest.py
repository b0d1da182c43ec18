"""A real PostgreSQL for the link's tests: one cluster per session, one database per test.

The cluster is started by testsupport.pgserver (initdb + pg_ctl on a free
127.0.0.1 port, run as the `postgres` user when the tests run as root, Debian's
postgresql installed with apt-get when its binaries are missing). The schema is
installed once in a template database; each test gets a copy, and roles (which
are cluster-wide) are named after the test's database.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from controller.link import admin
from controller.link.config import LinkConfig
from controller.link.outbox import Outbox
from testsupport.pgserver import PgServer

_counter = itertools.count(1)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def pg():
    # fsync off: the tests crash the server process, never the machine, so the kernel keeps
    # every committed page; benchmarks/link.py runs with the durable defaults
    server = PgServer(settings={"fsync": "off"}).start()
    server.wait_ready()
    with admin.connect(**server.admin_kwargs()) as conn:
        conn.execute("CREATE DATABASE link_template")
    with admin.connect(**server.admin_kwargs("link_template")) as conn:
        admin.install(conn)
    yield server
    server.cleanup()


class LinkEnv:
    """One test's database, its admin connection, and tables with their own roles."""

    def __init__(self, pg: PgServer, db: str, tmp: Path) -> None:
        self.pg = pg
        self.db = db
        self.tmp = tmp
        self.admin = admin.connect(**pg.admin_kwargs(db))
        self.passwords: dict[str, str] = {}

    @contextlib.contextmanager
    def database_down(self):
        """The pool's database crashed (`pg_ctl stop -m immediate`) for the block, then started
        again, ready, and the admin connection made anew, whatever the block did."""
        self.pg.stop("immediate")
        try:
            yield
        finally:
            if not self.pg.running():
                self.pg.start()
            self.pg.wait_ready()
            self.reconnect()

    def reconnect(self) -> None:
        """A fresh admin connection (after the server was stopped and started)."""
        try:
            self.admin.close()
        finally:
            self.admin = admin.connect(**self.pg.admin_kwargs(self.db))

    def create_pool(self, name: str = "cs", *, seed: int | None = None, **params) -> dict:
        p, initial = admin.progressive_params(params)
        admin.create_pool(self.admin, name, "progressive", p, initial if seed is None else seed, "test-admin")
        return p

    def create_jackpot(self, name: str = "room", *, seed: int = 0, **params) -> dict:
        p = admin.jackpot_params({"kind": "high-hand", "contribution": 100, "qualifying_hand": "four-of-a-kind",
                                  **params})
        admin.create_pool(self.admin, name, "jackpot", p, seed, "test-admin")
        return p

    def role(self, table: str) -> str:
        return f"{self.db}_{table}".lower()

    def add_table(self, pool: str, table: str, **settings) -> LinkConfig:
        role = self.role(table)
        if role not in self.passwords:
            self.passwords[role] = secrets.token_urlsafe(12)
            admin.create_table_role(self.admin, role, self.passwords[role])
            pw = self.tmp / f"{role}.pass"
            pw.write_text(self.passwords[role] + "\n")
            pw.chmod(0o600)
        admin.add_table(self.admin, pool, table, role, "test-admin")
        return self.config(pool, table, **settings)

    def config(self, pool: str, table: str, **settings) -> LinkConfig:
        role = self.role(table)
        values = {"pool": pool, "table": table, "url": self.pg.url(role, self.db),
                  "password_file": self.tmp / f"{role}.pass", "sslmode": "disable",
                  "heartbeat_ms": 200, "retry_ms": 200,
                  "outbox": self.tmp / f"outbox-{pool}-{table}.sqlite", **settings}
        return LinkConfig.model_validate(values)

    def config_file(self, cfg: LinkConfig) -> Path:
        path = self.tmp / f"{cfg.pool}-{cfg.table}.toml"
        lines = ["[link]"]
        for key, value in cfg.model_dump(exclude_none=True).items():
            lines.append(f"{key} = {value}" if isinstance(value, int) else f"{key} = {json.dumps(str(value))}")
        path.write_text("\n".join(lines) + "\n")
        return path

    def table_conn(self, table: str) -> psycopg.Connection:
        role = self.role(table)
        return psycopg.connect(host="127.0.0.1", port=self.pg.port, user=role, password=self.passwords[role],
                               dbname=self.db, autocommit=True)

    def sim(self, cfg: LinkConfig, *args: str, result: Path | None = None) -> subprocess.Popen:
        cmd = [sys.executable, "-m", "controller.link.sim", "--config", str(self.config_file(cfg))]
        if result is not None:
            cmd += ["--result", str(result)]
        log = open(self.tmp / f"sim-{cfg.table}.log", "ab")
        return subprocess.Popen(cmd + list(args), cwd=ROOT, stdout=log, stderr=log)

    def assert_books(self, pool: str, outboxes: dict[str, Path] | None = None) -> dict:
        """meter = seeds + contributions - awards, the replay agrees, and every table's records agree."""
        check = admin.check_pool(self.admin, pool)
        assert check["balanced"], check
        assert check["meter_units"] == check["seed_units"] + check["contribution_units"] - check["award_units"]
        assert admin.audit(self.admin, pool) == []
        for table, path in (outboxes or {}).items():
            box = Outbox(path)
            try:
                assert box.pending(pool) == [], f"{table} has unconfirmed operations"
                assert admin.compare_records(self.admin, pool, table, box.records(pool)) == [], table
            finally:
                box.close()
        return check

    def assert_journals(self, pool: str, journals: dict[str, Path]) -> dict[str, dict]:
        """Every table's journal agrees with the pool (`tablectl link check --journal`)."""
        from controller.journal import Journal
        from controller.link.journalcheck import compare_journal
        out = {}
        for table, directory in journals.items():
            with Journal.open(directory, readonly=True) as j:
                found = compare_journal(self.admin, pool, table, j)
            assert found["differences"] == [] and found["unconfirmed"] == [], (table, found)
            out[table] = found
        return out

    def close(self) -> None:
        self.admin.close()


@pytest.fixture
def env(pg, tmp_path):
    db = f"t{os.getpid()}_{next(_counter)}"
    with admin.connect(**pg.admin_kwargs()) as conn:
        conn.execute(f"CREATE DATABASE {db} TEMPLATE link_template")
    e = LinkEnv(pg, db, tmp_path)
    yield e
    e.close()  # the database goes with the cluster at the end of the session
