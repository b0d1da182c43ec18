"""Tables played by the installed `tablectl run --autoplay`, shared by the report's tests."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.report.report_helpers import ROUNDS, play, tablectl


@pytest.fixture(scope="session")
def played(tmp_path_factory) -> dict[str, Path]:
    """One autoplayed table of each game (Caribbean stud, casino war, Texas hold'em): game -> journal dir.

    The three tables play at once, each its own process and data directory: a table mostly
    waits on its emulated devices and its fsyncs, so three take little longer than one."""
    base = tmp_path_factory.mktemp("played")
    with ThreadPoolExecutor(len(ROUNDS)) as pool:
        dirs = pool.map(lambda item: (item[0], play(item[0], base, item[1])), ROUNDS.items())
        return dict(dirs)


class Floor:
    """A database of the test's PostgreSQL for the floor, its admin, and tables with their own roles."""

    def __init__(self, pg, db: str, tmp: Path) -> None:
        self.pg, self.db, self.tmp = pg, db, tmp
        self.admin_pw = tmp / "admin.pass"
        self.admin_pw.write_text(pg.password + "\n")
        self.admin_url = pg.url("postgres", db)

    def role(self, table: str) -> str:
        return f"{self.db}_{table}".lower().replace("-", "_")

    def add(self, table: str) -> tuple[str, Path]:
        """`tablectl floor add`: the table's role and password file; (its url, the file)."""
        pw = self.tmp / f"{table}.pass"
        if not pw.exists():
            import secrets
            pw.write_text(secrets.token_urlsafe(12) + "\n")
            pw.chmod(0o600)
            tablectl("floor", "add", table, "--role", self.role(table), "--role-password-file", str(pw),
                     "--url", self.admin_url, "--password-file", str(self.admin_pw))
        return self.pg.url(self.role(table), self.db), pw

    def report(self, *extra: str) -> dict:
        return json.loads(tablectl("floor", "report", "--url", self.admin_url, "--password-file",
                                   str(self.admin_pw), "--from", "2000-01-01", "--json", *extra).stdout)

    def connect(self, role: str | None = None, password_file: Path | None = None):
        import psycopg
        if role is None:
            return psycopg.connect(**self.pg.admin_kwargs(self.db), autocommit=True)
        return psycopg.connect(host="127.0.0.1", port=self.pg.port, user=role, dbname=self.db, autocommit=True,
                               password=password_file.read_text().strip())


@pytest.fixture(scope="module")
def floor(pg, tmp_path_factory, request):
    """A fresh floor database with the schema installed by `tablectl floor init`."""
    import psycopg
    db = f"floor_{request.module.__name__.rsplit('.', 1)[-1].replace('test_', '')}_{os.getpid()}"
    with psycopg.connect(**pg.admin_kwargs(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {db}")
    f = Floor(pg, db, tmp_path_factory.mktemp("floor"))
    tablectl("floor", "init", "--url", f.admin_url, "--password-file", str(f.admin_pw), "--test")   # emulated tables
    return f
