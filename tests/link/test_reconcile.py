"""`tablectl link reconcile TABLE`: a stray operation put right by two supervisors (issue 16).

A live Caribbean stud table plays a round on its pool; then an operation is
recorded in the pool under the table's role for another table's round id (the
table's credential used elsewhere). At its next start the table disagrees with
the pool and its progressive is unplayable. The installed `tablectl link
reconcile` shows the difference, refuses a wrong PIN (nothing changes), and two
supervisors of the screens' secrets file void the stray contribution (the meter
gives it back) or record a second one as the table's; each decision is in the
pool's changes and in the table's journal, the table starts playable, and
`link check --journal` agrees.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from controller.journal.store import Journal
from controller.link.journalcheck import compare_journal
from controller.credentials import Supervisor, hash_pin, write_secrets
from tests.link.link_helpers import ROYAL_AT_SEAT_1, close, deal_royal, profile
from tests.ui.ui_helpers import fill_in_hand_pay, wait_until

TABLECTL = Path(sys.executable).parent / "tablectl"


def reconcile(env, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    environ = {**os.environ, "PGPASSWORD": env.pg.password,
               "TABLECTL_LINK_DSN": f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}"}
    return subprocess.run([str(TABLECTL), "link", "reconcile", "CS-A", "--config", str(env.profile_path),
                           "--data-dir", str(env.tmp / "data-CS-A"), "--secrets", str(env.secrets), *args],
                          input=stdin, capture_output=True, text=True, timeout=60, env=environ)


def stray(env, round_id: str) -> str:
    with env.table_conn("CS-A") as t:   # the table's credential, used outside the table
        t.execute("SELECT link.contribute('cs', %s, gen_random_uuid(), ARRAY[2, 3], 1)", (round_id,))
    return str(env.admin.execute("SELECT key FROM link.contributions WHERE round_id = %s", (round_id,)).fetchone()[0])


def start_and_wait(env, tables, playable: bool):
    a = tables("CS-A", 43, data=env.tmp / "data-CS-A")
    want = "the progressive playable" if playable else "the table disagreeing with the pool"
    wait_until(a, lambda s: s["progressive"]["available"] is playable
               and (playable or "disagree" in (s["progressive"]["reason"] or "")), want, 20)
    return a


def test_a_stray_operation_is_voided_or_recorded_by_two_supervisors(env, tables):
    env.create_pool("cs")
    env.secrets = env.tmp / "secrets.toml"
    write_secrets(env.secrets, {"ann": Supervisor("ann", "Ann Lee", hash_pin("135713")),
                                "bob": Supervisor("bob", "Bob Roy", hash_pin("246824"))})
    a = tables("CS-A", 43)
    env.profile_path = profile(env, env.link_configs["CS-A"], "CS-A")
    deal_royal(a, ROYAL_AT_SEAT_1)
    assert a.submit({"type": "settle"})["ok"]
    wait_until(a, lambda s: s["validations"] and s["validations"][0]["award"] is not None, "the pool's award")
    assert a.submit({"type": "validate", "seat": 1}, source="supervisor", who="Pat Jones")["ok"]
    fill_in_hand_pay(a, 1, "Pat Jones")   # the royal is a hand-pay (issue 29 item 6): its form
    wait_until(a, lambda s: s["round"]["state"] == "closed" and not s["progressive"]["asked"], "settled")
    assert reconcile(env).returncode == 0   # shown while the table runs: nothing differs
    running = reconcile(env, "--void", "00000000-0000-0000-0000-000000000000", "--reason", "x")
    assert running.returncode == 2 and "the table is running" in running.stderr, running.stderr
    close(a)

    key = stray(env, "CS-B-000123")
    meter = env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0]
    a = start_and_wait(env, tables, playable=False)
    close(a)

    shown = reconcile(env)
    assert shown.returncode == 1, shown.stdout + shown.stderr
    assert f"stray contribution CS-B-000123 key {key}" in shown.stdout, shown.stdout
    wrong = reconcile(env, "--void", key, "--reason", "not our round", stdin="ann\n135713\nbob\n999999\n")
    assert wrong.returncode == 2 and "PIN is not right" in wrong.stderr, wrong.stderr
    same = reconcile(env, "--void", key, "--reason", "not our round", stdin="ann\n135713\nann\n135713\n")
    assert same.returncode == 2 and "two different supervisors" in same.stderr, same.stderr
    assert env.admin.execute("SELECT voided_by FROM link.contributions WHERE key = %s", (key,)).fetchone()[0] is None

    done = reconcile(env, "--void", key, "--reason", "not our round", stdin="ann\n135713\nbob\n246824\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 differences left" in done.stdout
    units = env.admin.execute("SELECT units FROM link.contributions WHERE key = %s", (key,)).fetchone()[0]
    assert env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0] == meter - units
    change = env.admin.execute("SELECT who, what FROM link.changes WHERE what LIKE 'reconcile%'").fetchall()
    assert change == [("ann and bob", "reconcile: void")]
    env.assert_books("cs")

    key2 = stray(env, "CS-B-000124")
    recorded = reconcile(env, "--record", key2, "--reason", "the spare box's round", stdin="bob\n246824\nann\n135713\n")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    with Journal.open(env.tmp / "data-CS-A", readonly=True) as j:
        decided = [(e.payload["decision"], e.payload["key"], e.payload["supervisors"])
                   for e in j.entries_since(0) if e.kind == "link-decision"]
    assert decided == [("void", key, ["ann", "bob"]), ("record", key2, ["bob", "ann"])]

    a = start_and_wait(env, tables, playable=True)

    async def check():
        return compare_journal(env.admin, "cs", "CS-A", a.table.journal)
    found = a.call(check())
    assert found["differences"] == [] and found["unconfirmed"] == [], found
    env.assert_books("cs", {"CS-A": env.link_configs["CS-A"].outbox})
