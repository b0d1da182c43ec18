"""A linked pool's limit and overflow, and a pool retired (issue 29 items 2 and 7; 9 NYCRR 5320.8),
against the PostgreSQL the tests start, with two tables calling the pool as their clients do
(each with its own role) and the installed `tablectl link` for the people's steps.

The limit: the pool's meter never passes it; the rest of each contribution goes to the pool's
overflow; a royal flush's restart takes the overflow up to the limit ("next-reset"), the rest stays;
`link check`'s books and its replay through controller/progressive.py agree to the unit. A limit
below the reset or the initial meter is refused when the pool is made or its parameters set.

Retirement: two different supervisors of the screens' secrets file, PINs on stdin; the amount
(meter and overflow) to another pool (its meter up to its limit, the rest its overflow) or to a
recorded liability; journaled in both pools; the retired pool's tables are refused from then on
(LK011), and a live table says so in its journal (`link-status`, and a `pool-retired` event listed by
`tablectl events`) and offers no progressive wager.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from controller.credentials import Supervisor, hash_pin, write_secrets
from controller.link import admin
from controller.link.errors import LinkRefused
from tests.link.link_helpers import ROYAL_AT_SEAT_1, close
from tests.ui.ui_helpers import deal_progressive_hand, fill_in_hand_pay, wait_until

TABLECTL = Path(sys.executable).parent / "tablectl"
ROYAL = "AhKhQhJhTh"
RESET = 1_000_000
LIMIT = 1_000_250   # $10,002.50: four $1 wagers at 70% ($2.80) take a $10,000 meter past it


def call(conn, query, *params):
    return conn.execute(query, params).fetchone()[0]


def contribute(conn, round_id, seats, pool="cs"):
    version = 1
    return call(conn, "SELECT link.contribute(%s, %s, %s, %s, %s)", pool, round_id, uuid.uuid4(), seats, version)


def close_round(conn, round_id, pool="cs"):
    return call(conn, "SELECT link.close_round(%s, %s, %s)", pool, round_id, uuid.uuid4())


def pool_row(env, name="cs"):
    return env.admin.execute("SELECT meter_units, overflow_units, retired FROM link.pools WHERE name = %s",
                             (name,)).fetchone()


def link_cmd(env, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    environ = {**os.environ, "PGPASSWORD": env.pg.password,
               "TABLECTL_LINK_DSN": f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}"}
    return subprocess.run([str(TABLECTL), "link", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env=environ)


@pytest.fixture
def two_tables(env):
    env.create_pool("cs", reset=RESET, limit=LIMIT)
    env.add_table("cs", "A")
    env.add_table("cs", "B")
    a, b = env.table_conn("A"), env.table_conn("B")
    call(a, "SELECT link.open_table('cs')")
    call(b, "SELECT link.open_table('cs')")
    yield env, a, b
    a.close()
    b.close()


def test_the_pools_meter_stops_at_its_limit_and_the_overflow_seeds_it_after_the_next_royal(two_tables):
    env, a, b = two_tables
    # 0.7 x $2 = $1.40 a round: A's first round takes the meter to $10,001.40, B's to the limit
    # $10,002.50 with 30 cents over, A's next puts all $1.40 in the overflow
    first = contribute(a, "A-1", [1, 2])
    assert first["meter_units_after"] == (RESET + 140) * 10000 and first["to_overflow_units"] == 0
    second = contribute(b, "B-1", [3, 4])
    assert second["meter_units_after"] == LIMIT * 10000
    assert second["to_overflow_units"] == 30 * 10000 and second["overflow_units_after"] == 30 * 10000
    assert second["limit_cents"] == LIMIT
    third = contribute(a, "A-2", [1, 2])
    assert third["meter_units_after"] == LIMIT * 10000 and third["overflow_units_after"] == 170 * 10000
    state = call(b, "SELECT link.table_state('cs')")
    assert (state["meter_cents"], state["overflow_units"], state["limit_cents"]) == (LIMIT, 170 * 10000, LIMIT)
    env.assert_books("cs")

    # A's royal takes the whole meter (at the limit); the meter restarts at the reset and the
    # overflow's $1.70 seeds it (under the limit: all of it)
    got = call(a, "SELECT link.claim('cs', 'A-2', %s, %s)", uuid.uuid4(),
               Jsonb([{"seat": 1, "hand": "royal-flush", "cards": ROYAL}]))
    (award,) = got["awards"]
    assert award["amount_cents"] == LIMIT and award["meter_after_cents"] == RESET + 170
    meter, overflow, _ = pool_row(env)
    assert (meter, overflow) == ((RESET + 170) * 10000, 0)
    moves = env.admin.execute("SELECT m.kind, m.units, m.overflow_units FROM link.meter_moves m JOIN link.pools p "
                              "USING (pool_id) WHERE p.name = 'cs' AND m.kind LIKE '%%overflow' ORDER BY move_id"
                              ).fetchall()
    assert moves == [("to-overflow", -30 * 10000, 30 * 10000), ("to-overflow", -140 * 10000, 140 * 10000),
                     ("from-overflow", 170 * 10000, -170 * 10000)]
    books = env.assert_books("cs")   # meter = seeds + contributions - awards + overflow moves; replay agrees
    assert books["overflow_units"] == 0


def test_an_overflow_above_what_the_limit_leaves_stays_for_the_reset_after(env):
    env.create_pool("cs", reset=RESET, limit=RESET + 100)   # the meter may only rise $1.00 over its reset
    env.add_table("cs", "A")
    a = env.table_conn("A")
    call(a, "SELECT link.open_table('cs')")
    for i in range(3):   # $1.40 a round: $1.00 to the meter, then $3.20 into the overflow
        contribute(a, f"A-{i}", [1, 2])
    assert pool_row(env)[:2] == ((RESET + 100) * 10000, 320 * 10000)
    call(a, "SELECT link.claim('cs', 'A-2', %s, %s)", uuid.uuid4(),
         Jsonb([{"seat": 1, "hand": "royal-flush", "cards": ROYAL}]))
    # the restart takes $1.00 of the overflow (up to the limit); $2.20 stays for the next reset
    assert pool_row(env)[:2] == ((RESET + 100) * 10000, 220 * 10000)
    env.assert_books("cs")
    a.close()


def test_a_voided_award_goes_back_up_to_the_limit_and_the_rest_to_the_overflow(two_tables):
    env, a, _ = two_tables
    contribute(a, "A-1", [1, 2])
    got = call(a, "SELECT link.claim('cs', 'A-1', %s, %s)", uuid.uuid4(),
               Jsonb([{"seat": 1, "hand": "royal-flush", "cards": ROYAL}]))
    amount = got["awards"][0]["amount_cents"]
    assert amount == RESET + 140
    record = {"entry": 7, "at": "2026-12-01T10:00:00.000Z", "hash": "ab" * 32, "source": "supervisor",
              "who": "Sam Supervisor", "event": "refuse", "seat": 1}
    call(a, "SELECT link.settle_award('cs', 'A-1', 1, %s, 'voided', 'Sam Supervisor', 'not a royal', %s)",
         uuid.uuid4(), Jsonb(record))
    # the meter stood at the reset: $2.50 of the refused award brings it to the limit, the rest overflows
    meter, overflow, _ = pool_row(env)
    assert meter == LIMIT * 10000 and overflow == (RESET + 140 - 250) * 10000
    env.assert_books("cs")


def test_a_limit_below_the_reset_or_the_initial_meter_is_refused_when_the_pool_is_made_or_set(env):
    # through the installed command: the profile's model refuses it on its name, with the provision
    low = link_cmd(env, "pool", "create", "cs", "--params", json.dumps({"reset": RESET, "limit": RESET - 1}),
                   "--who", "Pat Manager")
    assert low.returncode == 2 and "limit" in low.stderr and "5320.8" in low.stderr, low.stderr
    # and the pool itself, whatever a client sends
    params, _ = admin.progressive_params({"reset": RESET})
    with pytest.raises(LinkRefused) as refused:
        admin.create_pool(env.admin, "cs", "progressive", {**params, "limit": RESET - 1}, RESET, "Pat")
    assert refused.value.code == "LK005" and "below the reset" in str(refused.value)
    with pytest.raises(LinkRefused) as refused:
        admin.create_pool(env.admin, "cs", "progressive", {**params, "limit": RESET}, RESET + 5, "Pat")
    assert "below the initial meter" in str(refused.value)
    with pytest.raises(LinkRefused) as refused:
        admin.create_pool(env.admin, "cs", "progressive", {**params, "overflow": "next-reset"}, RESET, "Pat")
    assert "needs a limit" in str(refused.value)
    made = link_cmd(env, "pool", "create", "cs", "--params", json.dumps({"reset": RESET, "limit": LIMIT}),
                    "--who", "Pat Manager")
    assert made.returncode == 0, made.stderr
    shown = json.loads(link_cmd(env, "show", "cs", "--json").stdout)
    assert shown["params"]["limit"] == LIMIT and shown["params"]["overflow"] == "next-reset"
    assert (shown["limit_cents"], shown["overflow_cents"]) == (LIMIT, 0)
    env.add_table("cs", "A")
    with env.table_conn("A") as a:
        call(a, "SELECT link.open_table('cs')")
        contribute(a, "A-1", [1, 2])
        call(a, "SELECT link.close_table('cs')")
    # a new limit below where the meter stands is refused: the meter never passes its limit
    below = link_cmd(env, "pool", "set", "cs", "--params", json.dumps({"reset": RESET, "limit": RESET + 100}),
                     "--who", "Pat Manager")
    assert below.returncode == 2 and "below the meter" in below.stderr, below.stderr


def secrets(env) -> Path:
    path = env.tmp / "secrets.toml"
    write_secrets(path, {"ann": Supervisor("ann", "Ann Lee", hash_pin("135790")),
                         "bob": Supervisor("bob", "Bob Roy", hash_pin("246802"))})
    return path


def test_a_pool_retired_into_another_moves_its_meter_and_overflow_signed_by_two_supervisors(two_tables):
    env, a, b = two_tables
    env.create_pool("cs2", reset=RESET, limit=RESET + 500)
    for i, conn in enumerate((a, b, a)):
        contribute(conn, f"R-{i}", [1, 2])
    meter, overflow, _ = pool_row(env)
    assert (meter, overflow) == (LIMIT * 10000, 170 * 10000)
    path = secrets(env)
    playing = link_cmd(env, "pool", "retire", "cs", "--to", "cs2", "--reason", "floor moved", "--secrets",
                       str(path), stdin="ann\n135790\nbob\n246802\n")
    assert playing.returncode == 2 and "rounds in progress" in playing.stderr and pool_row(env)[2] is None
    assert "A round R-2" in playing.stderr and "B round R-1" in playing.stderr, playing.stderr
    close_round(a, "R-2")
    close_round(b, "R-1")

    same = link_cmd(env, "pool", "retire", "cs", "--to", "cs2", "--reason", "floor moved", "--secrets", str(path),
                    stdin="ann\n135790\nann\n135790\n")
    assert same.returncode == 2 and pool_row(env)[2] is None, same.stderr
    wrong = link_cmd(env, "pool", "retire", "cs", "--to", "cs2", "--reason", "floor moved", "--secrets", str(path),
                     stdin="ann\n135790\nbob\n000000\n")
    assert wrong.returncode == 2 and pool_row(env)[2] is None, wrong.stderr

    done = link_cmd(env, "pool", "retire", "cs", "--to", "cs2", "--reason", "floor moved", "--secrets", str(path),
                    stdin="ann\n135790\nbob\n246802\n")
    assert done.returncode == 0, done.stderr
    assert "signed by ann and bob" in done.stdout and "A, B" in done.stdout, done.stdout
    meter_r, overflow_r, retired = pool_row(env)
    assert (meter_r, overflow_r) == (0, 0)
    assert retired["to"] == "cs2" and retired["supervisors"] == ["ann", "bob"] and retired["tables"] == ["A", "B"]
    # cs2 takes it into its meter up to its limit ($5.00 over the reset), the rest into its overflow
    total = meter + overflow
    assert pool_row(env, "cs2")[:2] == ((RESET + 500) * 10000, RESET * 10000 + total - (RESET + 500) * 10000)
    changes = env.admin.execute("SELECT p.name, c.who, c.what FROM link.changes c JOIN link.pools p USING (pool_id) "
                                "WHERE c.what IN ('retire pool', 'amount of a retired pool') ORDER BY c.change_id"
                                ).fetchall()
    assert changes == [("cs2", "ann and bob", "amount of a retired pool"), ("cs", "ann and bob", "retire pool")]
    env.assert_books("cs")
    env.assert_books("cs2")

    # the retired pool's tables are refused: no contribution, no state, no new table, no second retirement
    for conn in (a, b):
        with pytest.raises(psycopg.Error) as refused:
            contribute(conn, "R-9", [1])
        assert refused.value.sqlstate == "LK011" and "retired" in str(refused.value)
        with pytest.raises(psycopg.Error) as refused:
            call(conn, "SELECT link.table_state('cs')")
        assert refused.value.sqlstate == "LK011"
    again = link_cmd(env, "pool", "retire", "cs", "--liability", "cage", "--reason", "x", "--secrets", str(path),
                     stdin="ann\n135790\nbob\n246802\n")
    assert again.returncode == 2 and "retired" in again.stderr, again.stderr
    into = link_cmd(env, "pool", "retire", "cs2", "--to", "cs", "--reason", "x", "--secrets", str(path),
                    stdin="ann\n135790\nbob\n246802\n")
    assert into.returncode == 2 and "retired" in into.stderr and pool_row(env, "cs2")[2] is None, into.stderr


def test_a_pool_retired_to_a_liability_with_a_pending_award_refused_first(two_tables):
    env, a, _ = two_tables
    contribute(a, "A-1", [1, 2])
    call(a, "SELECT link.claim('cs', 'A-1', %s, %s)", uuid.uuid4(),
         Jsonb([{"seat": 1, "hand": "flush", "cards": "2h5h8hJhKh"}]))
    path = secrets(env)
    pending = link_cmd(env, "pool", "retire", "cs", "--liability", "cage ledger 7", "--reason", "closing",
                       "--secrets", str(path), stdin="ann\n135790\nbob\n246802\n")
    assert pending.returncode == 2 and "pending" in pending.stderr and pool_row(env)[2] is None, pending.stderr
    record = {"entry": 7, "at": "2026-12-01T10:00:00.000Z", "hash": "ab" * 32, "source": "supervisor",
              "who": "Sam Supervisor", "event": "validate", "seat": 1}
    call(a, "SELECT link.settle_award('cs', 'A-1', 1, %s, 'paid', 'Sam Supervisor', NULL, %s)", uuid.uuid4(),
         Jsonb(record))
    close_round(a, "A-1")
    meter = pool_row(env)[0]
    done = link_cmd(env, "pool", "retire", "cs", "--liability", "cage ledger 7", "--reason", "closing",
                    "--secrets", str(path), stdin="ann\n135790\nbob\n246802\n")
    assert done.returncode == 0, done.stderr
    retired = pool_row(env)[2]
    assert retired["liability"] == "cage ledger 7" and retired["meter_units"] == meter and retired["to"] is None
    env.assert_books("cs")
    shown = json.loads(link_cmd(env, "show", "cs", "--json").stdout)
    assert shown["retired"]["supervisors"] == ["ann", "bob"] and shown["meter_cents"] == 0
    text = link_cmd(env, "show", "cs").stdout
    assert "RETIRED at" in text and "by ann and bob: its amount to the liability 'cage ledger 7'" in text, text
    assert f"limit {admin.money(LIMIT)}, overflow $0.00" in text


def test_a_live_tables_meters_show_the_pools_limit_and_it_stops_offering_the_wager_once_retired(env, tables):
    env.create_pool("cs", reset=RESET, limit=RESET + 50)
    server = tables("CS-A", 47)
    wait_until(server, lambda s: s["progressive"]["available"], "the progressive playable")
    deal_progressive_hand(server, ROYAL_AT_SEAT_1)   # seat 1's $1 wager: 70 cents, 20 of them past the limit
    wait_until(server, lambda s: not s["progressive"]["asked"], "the contribution confirmed")
    shown = subprocess.run([str(TABLECTL), "meters", "--json", "--data-dir", str(env.tmp / "data-CS-A")],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    (pool,) = json.loads(shown.stdout)["meters"]
    assert (pool["pool"], pool["current"], pool["overflow"], pool["limit"]) == ("cs", RESET + 50, 20, RESET + 50)

    # the royal: the whole meter (at its limit), the restart seeded from the 20 cents of overflow
    assert server.submit({"type": "settle"})["ok"]
    wait_until(server, lambda s: s["validations"] and s["validations"][0]["award"] is not None, "the pool's award")
    assert server.published()["validations"][0]["award"] == RESET + 50
    assert server.submit({"type": "validate", "seat": 1}, source="supervisor", who="ann")["ok"]
    fill_in_hand_pay(server, 1, "ann")   # the royal is a hand-pay (issue 29 item 6): its form
    wait_until(server, lambda s: s["round"]["state"] == "closed" and not s["progressive"]["asked"]
               and not s["progressive"]["pending"], "the round closed and its award settled at the pool")
    assert pool_row(env)[:2] == ((RESET + 20) * 10000, 0)
    env.assert_books("cs")

    path = secrets(env)
    done = link_cmd(env, "pool", "retire", "cs", "--liability", "cage ledger 9", "--reason", "closing",
                    "--secrets", str(path), stdin="ann\n135790\nbob\n246802\n")
    assert done.returncode == 0, done.stderr
    state = wait_until(server, lambda s: not s["progressive"]["available"]
                       and "retired" in (s["progressive"]["reason"] or ""), "the table told the pool is retired")
    assert "cage ledger 9" in state["progressive"]["reason"]
    close(server)
    from controller.journal.store import Journal
    with Journal.open(env.tmp / "data-CS-A", readonly=True) as j:
        said = [e.payload for e in j.table_entries("link-status")]
    assert said and said[-1]["playable"] is False and "pool retired" in said[-1]["reason"], said
    # and a significant event of its own, journaled once by the table that heard it
    listed = json.loads(subprocess.run([str(Path(sys.executable).parent / "tablectl"), "events", "--json", "--kind",
                                        "pool-retired", "--data-dir", str(env.tmp / "data-CS-A")],
                                       capture_output=True, text=True, timeout=60, check=True).stdout)["events"]
    assert len(listed) == 1 and listed[0]["source"] == "link" and "retired" in listed[0]["detail"], listed
