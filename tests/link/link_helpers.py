"""The link's test database: pools, tables with their own roles, the simulated table, the books checked.

Used through the `env` fixture (tests/pg_fixtures.py) by tests/link and tests/report.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import subprocess
import sys
from pathlib import Path

import psycopg

from controller.link import admin
from controller.link.config import LinkConfig
from controller.link.outbox import Outbox
from testsupport.pgserver import PgServer
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import STUD_DECK, deal_progressive_hand, wait_until

ROOT = Path(__file__).resolve().parents[2]


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
        with open(self.tmp / f"sim-{cfg.table}.log", "ab") as log:   # the child holds its own copy
            return subprocess.Popen(cmd + list(args), cwd=ROOT, stdout=log, stderr=log)

    def assert_books(self, pool: str, outboxes: dict[str, Path] | None = None) -> dict:
        """meter = seeds + contributions - awards, the replay agrees, and every table's records agree."""
        check = admin.check_pool(self.admin, pool)
        assert check["balanced"], check
        assert check["meter_units"] == (check["seed_units"] + check["contribution_units"] - check["award_units"]
                                        + check["overflow_moved_units"])   # a limit's overflow, a retirement
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
        from controller.journal.store import Journal
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


ROYAL_AT_SEAT_1 = STUD_DECK[0:5] + STUD_DECK[15:20]          # seat 1 a royal flush, the dealer ace-king
ROYAL_AT_SEAT_1_CLUBS = "Ac Kc Qc Jc Tc As Kd 7h 4c 2s".split()  # the same, in clubs


def profile(env, cfg, table_id: str) -> Path:
    text = (ROOT / "config/caribbean-stud.toml").read_text().split("[screen]")[0]
    text = text.replace('id = "CS-01"', f'id = "{table_id}"')
    link = env.config_file(cfg).read_text()
    path = env.tmp / f"profile-{table_id}.toml"
    path.write_text(text + "\n" + link)
    return path


def run(env, path: Path, table_id: str, rounds: int, seed: int) -> subprocess.Popen:
    # a restarted table's errors follow its first; the child holds its own copy of the file
    with open(env.tmp / f"table-{table_id}.err", "ab") as err:
        return subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(path),
                                 "--data-dir", str(env.tmp / f"data-{table_id}"), "--autoplay",
                                 "--rounds", str(rounds), "--seed", str(seed)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True)


def close(server: LiveServer) -> None:
    if getattr(server, "closed", False):
        return
    server.closed = True
    server.stop()
    server.call(server.table.close() if hasattr(server.table, "close") else _stop(server.table), timeout=60)
    server.loop.call_soon_threadsafe(server.loop.stop)
    server.thread.join(10)


async def _stop(table) -> None:
    table.stop()


def deal_royal(server: LiveServer, deck: list[str]) -> str:
    """Seat 1's ante and progressive wager, the stacked deck dealt, seat 1 bets, the dealer revealed;
    the round's contribution confirmed by the pool (it went at the lock-out)."""
    rid = deal_progressive_hand(server, deck)
    wait_until(server, lambda s: not s["progressive"]["asked"], "the contribution confirmed")
    return rid
