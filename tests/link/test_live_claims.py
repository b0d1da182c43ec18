"""A claim is for the round the table is playing (issue 26, item 8), at live tables on the pool.

- The stress's case: a live table (`tablectl run --autoplay`) plays fifteen rounds; its own role,
  at a SQL prompt, then claims a royal flush for the first of them, inside the 5-minute bound. The
  pool refuses it (the table closed each round with the pool as it recorded it, and the round is not
  its latest), the meter stays whole, and the refusal is kept in the pool: `tablectl link check`
  reports it, and `--journal` names it as sent by another session with the table's role, beside the
  stray round that session contributed and closed.
- The table's own claim refused: another session with the table's role contributes a round after the
  table's round in progress; the table's claim at settlement is refused, journaled at the table
  (`link-confirm` with the pool's code and the key the pool recorded it under) and kept in the pool;
  the round waits for the supervisor's refusal of the win, and the journal check holds the refusal as
  the table's own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from controller.journal.store import Journal
from controller.link.outbox import op_key
from tests.link.link_helpers import ROYAL_AT_SEAT_1, close, deal_royal, profile, run
from tests.link.test_pool_sql import ROYAL, call
from tests.ui.ui_helpers import wait_until

TABLECTL = Path(sys.executable).parent / "tablectl"


def link_check(env, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(TABLECTL), "link", "check", "cs", *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PGPASSWORD": env.pg.password,
                               "TABLECTL_LINK_DSN": f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}"})


def test_a_live_tables_role_claiming_a_round_it_played_earlier_is_refused_and_reported(env):
    env.create_pool("cs")
    cfg = env.add_table("cs", "CS-A")
    table = run(env, profile(env, cfg, "CS-A"), "CS-A", 15, 7)
    out, _ = table.communicate(timeout=120)
    assert table.returncode == 0, (env.tmp / "table-CS-A.err").read_text()[-3000:]
    played = [json.loads(x)["round"] for x in out.splitlines()]
    assert len(played) == 15
    seats = dict(env.admin.execute("SELECT round_id, seats FROM link.contributions").fetchall())
    contributed = [r for (r,) in env.admin.execute("SELECT round_id FROM link.contributions ORDER BY seq")]
    assert len(contributed) >= 3 and set(contributed) <= set(played), (contributed, played)
    env.assert_journals("cs", {"CS-A": env.tmp / "data-CS-A"})

    meter = env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0]
    prompt = env.table_conn("CS-A")   # the table's own role, at a SQL prompt
    try:
        royal = [{"seat": seats[contributed[0]][0], "hand": "royal-flush", "cards": ROYAL}]   # a seat it staked
        answer = call(prompt, "SELECT link.claim('cs', %s, %s, %s::jsonb)", contributed[0], uuid.uuid4(),
                      json.dumps(royal))
        assert answer.get("refused") and answer["code"] == "LK009", answer   # on main: the whole meter, paid
        assert f"its latest contribution is round {contributed[-1]}" in answer["reason"], answer
        latest = contributed[-1]   # its latest contribution, closed when the table recorded it
        answer = call(prompt, "SELECT link.claim('cs', %s, %s, %s::jsonb)", latest, uuid.uuid4(),
                      json.dumps([{"seat": seats[latest][0], "hand": "royal-flush", "cards": ROYAL}]))
        assert answer["refused"] and "was closed with the pool" in answer["reason"], answer
        # each round the table contributed was closed with the pool as it was recorded, under its own key
        closes = dict(env.admin.execute("SELECT round_id, closed_key::text FROM link.contributions").fetchall())
        assert closes == {r: op_key("cs", "CS-A", "close", r) for r in contributed}
        # a stray round of that session's own: contributed and closed, never the table's
        call(prompt, "SELECT link.contribute('cs', 'stray-1', %s, ARRAY[1], 1)", uuid.uuid4())
        call(prompt, "SELECT link.close_round('cs', 'stray-1', %s)", uuid.uuid4())
    finally:
        prompt.close()
    assert env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0] > meter   # only the stray's stake
    assert env.admin.execute("SELECT count(*) FROM link.awards").fetchone()[0] == 0

    pool_wide = link_check(env)
    assert pool_wide.stdout.count("REFUSED: claim of table CS-A") == 2, pool_wide.stdout + pool_wide.stderr
    assert f"round {contributed[0]} at " in pool_wide.stdout
    found = link_check(env, "--journal", f"CS-A={env.tmp / 'data-CS-A'}")
    assert found.returncode == 1, found.stdout + found.stderr
    assert f"claim of round {contributed[0]} refused by the pool at " in found.stdout
    assert "never asked by this table's journal" in found.stdout
    assert "round stray-1: closed with the pool at " in found.stdout   # and its contribution, only in the pool
    assert "only in the pool: contribution|stray-1|" in found.stdout


def test_a_live_tables_own_claim_refused_by_the_pool_is_journaled_on_both_sides(env, tables):
    env.create_pool("cs")
    a = tables("CS-A", 46)
    rid = deal_royal(a, ROYAL_AT_SEAT_1)   # seat 1's royal flush, its contribution confirmed
    prompt = env.table_conn("CS-A")        # another session with the table's role: a later round
    try:
        call(prompt, "SELECT link.contribute('cs', 'stray-2', %s, ARRAY[1], 1)", uuid.uuid4())
    finally:
        prompt.close()
    assert a.submit({"type": "settle"})["ok"]
    state = wait_until(a, lambda s: s["validations"] and s["validations"][0].get("pool_refused"),
                       "the pool's refusal of the table's claim in the round")
    assert "its latest contribution is round stray-2" in state["validations"][0]["pool_refused"]
    assert env.admin.execute("SELECT count(*) FROM link.awards").fetchone()[0] == 0
    # the supervisor refuses the win the pool did not take; the round closes, and with the pool
    assert a.submit({"type": "refuse", "seat": 1, "reason": state["validations"][0]["pool_refused"]},
                    source="supervisor", who="Pat Jones")["ok"]
    closed = "SELECT closed_key::text FROM link.contributions WHERE round_id = %s"
    wait_until(a, lambda s: s["round"]["state"] == "closed"
               and env.admin.execute(closed, (rid,)).fetchone()[0] is not None, "the round closed, with the pool")
    close(a)

    key = op_key("cs", "CS-A", "claim", rid)
    kept = env.admin.execute("SELECT table_name, round_id, key::text, code FROM link.refusals").fetchall()
    assert kept == [("CS-A", rid, key, "LK009")]   # in the pool, under the table's own key
    with Journal.open(env.tmp / "data-CS-A", readonly=True) as j:
        answers = [e.payload for e in j.round_entries(rid) if e.kind == "link-confirm"
                   and e.payload.get("op") == "claim"]
    assert [(p["confirmed"], p["refused"], p["key"]) for p in answers] == [(False, "LK009", key)]
    assert env.admin.execute(closed, (rid,)).fetchone()[0] == op_key("cs", "CS-A", "close", rid)
    found = link_check(env, "--journal", f"CS-A={env.tmp / 'data-CS-A'}")
    assert f"claim {rid}: refused by the pool at " in found.stdout, found.stdout + found.stderr
    assert "held at the table until a supervisor acknowledges it" in found.stdout
    assert "never asked by this table's journal" not in found.stdout   # the refusal is the table's own
    assert "only in the pool: contribution|stray-2|" in found.stdout  # the stray round that made it stale
