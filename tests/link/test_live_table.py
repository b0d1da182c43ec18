"""Live Caribbean stud tables (`tablectl run --autoplay`) on one linked progressive (issue 10)."""

from __future__ import annotations

import json

from tests.link.link_helpers import profile, run


def test_three_live_tables_on_one_pool_contribute_at_the_lockout_and_the_books_agree(env):
    env.create_pool("cs")
    tables = {}
    for i, tid in enumerate(("CS-01", "CS-02", "CS-03")):
        cfg = env.add_table("cs", tid)
        tables[tid] = (cfg, run(env, profile(env, cfg, tid), tid, 6, 11 + i))
    lines = {}
    for tid, (_cfg, proc) in tables.items():
        out, _ = proc.communicate(timeout=80)
        assert proc.returncode == 0, (env.tmp / f"table-{tid}.err").read_text()[-3000:]
        lines[tid] = [json.loads(x) for x in out.splitlines()]
        assert len(lines[tid]) == 6
    check = env.assert_books("cs", {tid: cfg.outbox for tid, (cfg, _) in tables.items()})
    env.assert_journals("cs", {tid: env.tmp / f"data-{tid}" for tid in tables})
    assert check["contribution_units"] > 0
    for tid in tables:
        pool = dict(env.admin.execute("SELECT round_id, seats FROM link.contributions WHERE table_name = %s",
                                      (tid,)).fetchall())
        # every round with a recognized progressive wager reached the pool at its lock-out, and only those
        played = {x["round"]: sorted(s["seat"] for s in x["settlement"]["seats"] if "progressive" in s)
                  for x in lines[tid] if x["settlement"]}
        assert pool == {r: seats for r, seats in played.items() if seats}
        assert pool, f"{tid} made no progressive wager"
        assert all(x["link"]["playable"] for x in lines[tid])
    # the meter shown is the pool's: seed + contributions - awards, in whole cents
    assert lines["CS-01"][-1]["link"]["meter"] is not None
    meter = env.admin.execute("SELECT meter_units FROM link.pools WHERE name = 'cs'").fetchone()[0]
    assert meter == check["meter_units"]
