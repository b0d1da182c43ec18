"""Emulated tables as separate processes on one pool, with the database and the tables failing.

After each: the meter equals seeds + contributions - awards to the unit, the
history replays through controller/progressive.py, and every table's outbox
agrees with the pool (nothing lost, nothing counted twice; 5321.18(c)).
"""

from __future__ import annotations

import json
import signal
import sqlite3
import time

from controller.link import admin


def finish(procs, timeout=120):
    deadline = time.monotonic() + timeout
    codes = []
    for p in procs:
        try:
            codes.append(p.wait(max(1, deadline - time.monotonic())))
        except Exception:
            p.kill()
            raise
    return codes


def results(paths):
    return [json.loads(p.read_text()) for p in paths]


def test_four_tables_play_at_once_on_one_meter(env):
    env.create_pool("cs")
    tables = ["T1", "T2", "T3", "T4"]
    cfgs = {t: env.add_table("cs", t) for t in tables}
    out = {t: env.tmp / f"{t}.json" for t in tables}
    procs = [env.sim(cfgs[t], "--rounds", "120", "--seed", str(i), "--hit-rate", "0.08", "--wait-playable-start", "10",
                     result=out[t]) for i, t in enumerate(tables, 1)]
    assert finish(procs) == [0, 0, 0, 0], [(env.tmp / f"sim-{t}.log").read_text()[-2000:] for t in tables]
    res = results(out.values())
    assert all(r["playable_at_end"] for r in res)
    assert sum(r["progressive_rounds"] for r in res) > 200
    assert sum(r["claims"] for r in res) >= 10  # the pool paid awards while all four played
    check = env.assert_books("cs", {t: cfgs[t].outbox for t in tables})
    contributions = env.admin.execute("SELECT table_name, count(*) FROM link.contributions GROUP BY 1 ORDER BY 1").fetchall()
    assert contributions == [(t, r["progressive_rounds"]) for t, r in zip(tables, res, strict=True)]
    assert check["award_units"] > 0
    assert env.admin.execute("SELECT count(*) FROM link.awards WHERE status = 'pending'").fetchone()[0] == 0


def test_two_royal_flushes_at_two_tables_in_the_same_instant(env):
    """5321.18(b)(3)(iii): the database orders them; the first takes the whole meter, the
    second the meter as it stands at its turn (reseeded); both pending on every table."""
    env.create_pool("cs")
    cfgs = {t: env.add_table("cs", t) for t in ("A", "B")}
    out = {t: env.tmp / f"{t}.json" for t in cfgs}
    barrier = env.tmp / "barrier"
    barrier.mkdir()
    procs = [env.sim(cfgs[t], "--rounds", "0", "--royal-barrier", str(barrier), "--royal-seat", seat,
                     "--wait-playable-start", "10", result=out[t]) for t, seat in (("A", "3"), ("B", "5"))]
    deadline = time.monotonic() + 60
    while not all((barrier / f"ready-{t}").exists() for t in cfgs):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs), "tables not ready"
        time.sleep(0.01)
    (barrier / "go.tmp").write_text(f"{time.time() + 0.3:.3f}")
    (barrier / "go.tmp").rename(barrier / "go")  # both claim at this instant
    assert finish(procs) == [0, 0]
    res = results(out.values())
    seqs = env.admin.execute("SELECT max(seq) FROM link.contributions").fetchone()[0]
    awards = env.admin.execute("SELECT seq, table_name, amount_cents, meter_before_cents, meter_after_cents "
                               "FROM link.awards ORDER BY seq").fetchall()
    assert len(awards) == 2 and seqs < awards[0][0], "both contributions must precede both claims"
    (s1, t1, amount1, before1, after1), (s2, t2, amount2, before2, after2) = awards
    assert {t1, t2} == {"A", "B"} and s2 == s1 + 1
    assert amount1 == before1 == 1_000_000 + 2 * 70   # the whole meter: seed and both contributions
    assert after1 == 1_000_000                          # reseeded at once
    assert amount2 == before2 == 1_000_000              # the second royal: the meter at its turn
    assert [r["royal_pending_seen"] for r in res] == [2, 2]  # each table showed both pending
    env.assert_books("cs", {t: cfgs[t].outbox for t in cfgs})


def test_the_database_crashes_in_the_middle_of_rounds_and_comes_back(env):
    env.create_pool("cs")
    tables = ["T1", "T2", "T3"]
    cfgs = {t: env.add_table("cs", t) for t in tables}
    out = {t: env.tmp / f"{t}.json" for t in tables}
    procs = [env.sim(cfgs[t], "--rounds", "400", "--seed", str(10 + i), "--pace-ms", "10", "--hit-rate", "0.1",
                     "--wait-playable-start", "10", result=out[t]) for i, t in enumerate(tables)]
    deadline = time.monotonic() + 20
    while env.admin.execute("SELECT count(*) FROM link.contributions").fetchone()[0] < 30:
        assert time.monotonic() < deadline, "the tables did not start playing"
        time.sleep(0.05)
    env.pg.stop("immediate")  # a crash: no shutdown checkpoint, clients cut mid-statement
    time.sleep(2.5)
    env.pg.start()
    env.reconnect()
    assert finish(procs) == [0, 0, 0], [(env.tmp / f"sim-{t}.log").read_text()[-2000:] for t in tables]
    res = results(out.values())
    assert sum(r["unplayable_rounds"] for r in res) > 0  # the progressive was closed during the outage
    assert all(r["playable_at_end"] for r in res)
    env.assert_books("cs", {t: cfgs[t].outbox for t in tables})
    log = "".join((env.tmp / f"sim-{t}.log").read_text() for t in tables)
    assert '"link_lost"' in log and '"link_up"' in log
    assert all(pw not in log for pw in env.passwords.values())


def test_a_table_killed_between_its_contribution_and_its_confirmation(env):
    env.create_pool("cs")
    cfg = env.add_table("cs", "A")
    args = ["--rounds", "40", "--seed", "5", "--wager-rate", "1", "--hit-rate", "0.1", "--wait-playable-start", "10"]
    crashed = env.sim(cfg, *args, "--crash-after-send", "7")
    assert finish([crashed]) == [17]
    db = sqlite3.connect(cfg.outbox)
    pending = db.execute("SELECT kind, ident, key FROM ops WHERE status = 'pending'").fetchall()
    db.close()
    assert [(k, i) for k, i, _ in pending] == [("contribution", "r7")]
    key = pending[0][2]
    # the pool committed it; the table never recorded that it did
    assert env.admin.execute("SELECT round_id FROM link.contributions WHERE key = %s", (key,)).fetchall() == [("r7",)]
    again = env.sim(cfg, *args, result=env.tmp / "A.json")
    assert finish([again]) == [0]
    assert env.admin.execute("SELECT count(*) FROM link.contributions WHERE round_id = 'r7'").fetchone()[0] == 1
    assert env.admin.execute("SELECT count(*) FROM link.contributions").fetchone()[0] == 40
    env.assert_books("cs", {"A": cfg.outbox})


def test_a_table_killed_at_any_moment_starts_again_without_loss(env):
    env.create_pool("cs")
    cfgs = {t: env.add_table("cs", t) for t in ("A", "B")}
    args = ["--rounds", "300", "--seed", "9", "--pace-ms", "3", "--hit-rate", "0.1", "--wait-playable-start", "10"]
    other = env.sim(cfgs["B"], *args[:-2], "--seed", "8")
    victim = env.sim(cfgs["A"], *args)
    deadline = time.monotonic() + 20
    while env.admin.execute("SELECT count(*) FROM link.contributions WHERE table_name = 'A'").fetchone()[0] < 40:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    victim.send_signal(signal.SIGKILL)
    assert victim.wait(10) == -signal.SIGKILL
    again = env.sim(cfgs["A"], *args)
    assert finish([again, other]) == [0, 0]
    env.assert_books("cs", {t: cfgs[t].outbox for t in cfgs})
    shown = admin.show(env.admin, "cs")
    assert [t["table"] for t in shown["contributions_per_table"]] == ["A", "B"]
