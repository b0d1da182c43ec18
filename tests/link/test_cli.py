"""`tablectl link`: its commands against the test cluster (controller/link/cli.py main(args.rest))."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3

import pytest

from controller.link.cli import main
from controller.link.pool import ProgressiveLink


@pytest.fixture
def tablectl(env, monkeypatch, capsys):
    monkeypatch.setenv("PGPASSWORD", env.pg.password)
    monkeypatch.setenv("TABLECTL_LINK_DSN", f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}")

    def run(*words: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(argparse.Namespace(rest=list(words)))
        out, err = capsys.readouterr()
        return code, out, err
    return run


def play(cfg, rounds):
    async def go():
        async with ProgressiveLink(cfg, cfg.outbox) as t:
            for n, seats, hits in rounds:
                await t.contribute(n, seats)
                if hits:
                    await t.claim(n, hits)
    asyncio.run(go())


def test_create_a_pool_add_tables_show_and_check(env, tablectl, tmp_path):
    params = tmp_path / "cs.toml"
    params.write_text("[caribbean_stud.progressive]\nwager = 100\nreset = 2000000\ninitial = 2500000\n"
                      "contribution_bp = 7500\n\"straight-flush\" = {fixed = 500000}\n")
    code, out, err = tablectl("pool", "create", "cs-main", "--params", str(params), "--who", "Pat Manager")
    assert code == 0, err
    assert json.loads(out)["meter_cents"] == 2_500_000
    pw = tmp_path / "t1.pass"
    pw.write_text("s3cret-table-one\n")
    role = env.role("T1")
    code, out, err = tablectl("table", "add", "cs-main", "T1", "--role", role, "--password-file", str(pw),
                              "--who", "Pat Manager")
    assert code == 0, err
    cfg = env.config("cs-main", "T1")
    env.passwords[role] = "s3cret-table-one"
    (env.tmp / f"{role}.pass").write_text("s3cret-table-one\n")
    play(cfg, [("r1", [1, 2], []), ("r2", [7], [(7, "straight-flush", "9h8h7h6h5h")]),
               ("r3", [3], [(3, "royal-flush", "AhKhQhJhTh")])])

    code, out, err = tablectl("show", "cs-main")
    assert code == 0, err
    assert "pool cs-main (progressive, parameters v1)" in out
    assert "meter $20,000.00" in out
    assert "royal-flush" in out and "straight-flush" in out and "T1" in out
    assert "pending awards (2)" in out
    assert "create pool by Pat Manager (role postgres)" in out
    code, out, _ = tablectl("show", "cs-main", "--json")
    shown = json.loads(out)
    assert [h["hand"] for h in shown["hits_per_level"]] == ["royal-flush", "straight-flush"]
    assert shown["contributions_per_table"] == [{"table": "T1", "rounds": 3, "wagers": 4, "stake_cents": 400,
                                                 "units": 4 * 100 * 7500}]

    code, out, err = tablectl("check", "cs-main", "--outbox", f"T1={cfg.outbox}")
    assert code == 0, out + err
    assert "T1: outbox agrees" in out and "all records agree" in out

    db = sqlite3.connect(cfg.outbox)
    db.execute("DELETE FROM ops WHERE ident = 'r2' AND kind = 'claim'")
    db.commit()
    code, out, err = tablectl("check", "--outbox", f"T1={cfg.outbox}", "--json")
    assert code == 1
    report = json.loads(out)
    assert not report["ok"]
    diffs = report["pools"][0]["tables"][0]["outbox_differences"]
    assert len(diffs) == 1 and diffs[0].startswith("only in the pool: claim|r2|")


def test_parameters_refused_by_regulation_or_while_live(env, tablectl):
    code, out, err = tablectl("pool", "create", "cs", "--params", '{"contribution_bp": 6500}', "--who", "Pat")
    assert code == 2 and out == ""
    assert "contribution_bp" in err and "5324.37(g)(5)" in err
    assert tablectl("pool", "create", "cs", "--who", "Pat")[0] == 0
    env.add_table("cs", "T1")
    play(env.config("cs", "T1"), [("r1", [1], [])])  # the table is live from here
    code, out, err = tablectl("pool", "set", "cs", "--params", '{"contribution_bp": 8000}', "--who", "Pat")
    assert code == 2 and "5321.18(b)(4)" in err and "T1" in err
    assert tablectl("table", "close", "cs", "T1", "--reason", "box replaced", "--who", "Pat")[0] == 0
    code, out, err = tablectl("pool", "set", "cs", "--params", '{"contribution_bp": 8000}', "--who", "Pat")
    assert code == 0, err
    code, out, _ = tablectl("show", "cs", "--json")
    changes = [(c["what"], c["who"]) for c in json.loads(out)["changes"]]
    assert ("set parameters", "Pat") in changes and ("force close table", "Pat") in changes


def test_a_password_on_the_command_line_is_refused(env, tablectl):
    code, out, err = tablectl("--dsn", f"postgresql://postgres:{env.pg.password}@127.0.0.1:{env.pg.port}/x", "show")
    assert code == 2 and "must not carry a password" in err
    assert env.pg.password not in err


def test_init_installs_the_schema_in_an_empty_database(env, tablectl, monkeypatch):
    env.admin.execute(f"CREATE DATABASE {env.db}_empty")
    monkeypatch.setenv("TABLECTL_LINK_DSN", f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}_empty")
    code, out, err = tablectl("show")
    assert code == 2 and "link.pools" in err and "does not exist" in err
    code, out, err = tablectl("init")
    assert code == 0, err
    assert tablectl("init")[0] == 0  # again: idempotent
    assert tablectl("show") == (0, "no pools\n", "")


def test_a_jackpot_period_closed_from_the_command_line(env, tablectl):
    code, out, err = tablectl("pool", "create", "room", "--kind", "jackpot", "--params",
                              '{"kind": "high-hand", "contribution": 200, "qualifying_hand": "full-house"}',
                              "--who", "Floor Fran")
    assert code == 0, err
    code, out, err = tablectl("period", "close", "room", "--who", "Floor Fran")
    assert code == 0, err
    assert json.loads(out)["rolled_over"] is True
    code, out, _ = tablectl("show", "room")
    assert "#1 rolled" in out and "#2 open" in out


def test_unknown_words_are_a_usage_error(tablectl):
    assert tablectl("pool", "explode")[0] == 2
    assert tablectl("--help")[0] == 0


def test_the_dsn_may_follow_the_command_and_help_passes_through_the_dispatcher(env, tablectl, monkeypatch):
    dsn = f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}"
    monkeypatch.delenv("TABLECTL_LINK_DSN")
    assert tablectl("show", "--dsn", dsn) == (0, "no pools\n", "")
    assert tablectl("--", "--dsn", dsn, "show") == (0, "no pools\n", "")
    code, out, _ = tablectl("help")
    assert code == 0 and out.startswith("usage: tablectl link")
    code, out, _ = tablectl("--", "--help")
    assert code == 0 and "check" in out
