"""Test mode is never play on the floor (issue 28 item 5): a floor is made live or test (`floor init
[--test]`, live unless asked), a test floor refuses a live table's facts and a live floor a test
table's, and a floor never changes its mode. Through the installed command and the tests' PostgreSQL."""

from __future__ import annotations

import os

import psycopg

from controller.journal.store import Journal
from tests.report.conftest import Floor
from tests.report.report_helpers import play, tablectl


def _send(floor, table: str, data, outbox):
    url, pw = floor.add(table)
    return tablectl("floor", "send", "--data-dir", str(data), "--outbox", str(outbox), "--url", url,
                    "--password-file", str(pw), check=False)


def test_a_test_floor_refuses_a_live_table(floor, tmp_path):
    live = tmp_path / "live"
    with Journal.open(live) as journal:   # a live table's journal: no mode in its first entry
        journal.append("alarm", {"kind": "device", "message": "a live table's event"})
    done = _send(floor, "LIVE-1", live, tmp_path / "o.sqlite")
    assert done.returncode == 1 and "live table's facts are refused by a test floor" in done.stdout, done.stdout
    assert [t for t in floor.report()["tables"] if t["table"] == "LIVE-1" and t["events"]] == []


def test_a_live_floor_refuses_a_test_table_and_keeps_its_mode(pg, tmp_path):
    db = f"floor_live_{os.getpid()}"
    with psycopg.connect(**pg.admin_kwargs(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {db}")
    live = Floor(pg, db, tmp_path)
    assert "live floor" in tablectl("floor", "init", "--url", live.admin_url, "--password-file",
                                    str(live.admin_pw)).stdout
    data = play("casino-war", tmp_path, 2, seed=3, table_id="CW-T1")   # autoplayed: a test table
    done = _send(live, "CW-T1", data, tmp_path / "o.sqlite")
    assert done.returncode == 1 and "test table's facts are refused by a live floor" in done.stdout, done.stdout
    with live.connect() as conn:
        assert conn.execute("SELECT count(*) FROM floor.facts").fetchone()[0] == 0
    again = tablectl("floor", "init", "--url", live.admin_url, "--password-file", str(live.admin_pw), "--test",
                     check=False)
    assert again.returncode == 1 and "live floor" in again.stderr
