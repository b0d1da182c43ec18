"""A live linked table killed (SIGKILL) between asking the pool and the pool's confirmation (issue 10).

The pool's contributions table is held locked so the lock-out's contribution
cannot be committed: the table journals the operation (`link-op`) and keeps it
in its outbox, unconfirmed. The table is then killed and started again on the
same data directory; the operations its journal asked for and never saw
confirmed are sent again with their keys (idempotent), so each is counted once,
the journal ends with a confirmation for every operation, and the pool's meter is
its seed plus every contribution minus every award (5321.18(c)).
"""

from __future__ import annotations

import contextlib
import json
import queue
import sqlite3
import time

import psycopg

from controller.journal.store import Journal
from tests.link.link_helpers import profile, run
from tests.link.test_live_outage import _drain, _lines, _progressive_seats, _until


def _pending(outbox) -> set[str]:
    """The rounds of the outbox's unconfirmed operations."""
    if not outbox.exists():
        return set()
    with sqlite3.connect(f"file:{outbox}?mode=ro", uri=True) as db:
        return {json.loads(a)["round"] for (a,) in db.execute("SELECT args FROM ops WHERE status = 'pending'")}


def test_a_table_killed_before_the_pool_confirms_sends_again_after_its_restart_and_the_books_agree(env):
    env.create_pool("cs")
    tid = "CS-01"
    cfg = env.add_table("cs", tid)
    path = profile(env, cfg, tid)
    proc = run(env, path, tid, 200, 31)
    q, seen = _lines(proc), []
    lock = psycopg.connect(**env.pg.admin_kwargs(env.db))   # a transaction held open: the lock
    try:
        _until(q, seen, lambda s: len(s) >= 2, 30, "two rounds before the lock")
        lock.execute("LOCK TABLE link.contributions IN ACCESS EXCLUSIVE MODE")
        # the round whose contribution is left unconfirmed settles and the table plays on, so only
        # the journal (not the round being replayed) can bring that operation back after the kill
        deadline = time.monotonic() + 20
        while not _pending(cfg.outbox) & {x["round"] for x in seen[:-1]}:   # a later round settled too
            assert time.monotonic() < deadline, f"no settled round was left unconfirmed: {seen}"
            with contextlib.suppress(queue.Empty):
                seen.append(q.get(timeout=0.05))
        proc.kill()                                        # SIGKILL: no close, no drain
        proc.wait(timeout=10)
        _drain(q, seen, 10)
    finally:
        lock.rollback()
        lock.close()
    assert proc.returncode == -9
    assert _pending(cfg.outbox)

    again = run(env, path, tid, 4, 32)                     # the same data directory and outbox
    out, _ = again.communicate(timeout=40)
    assert again.returncode == 0, (env.tmp / f"table-{tid}.err").read_text()[-3000:]
    seen += [json.loads(x) for x in out.splitlines()]
    assert len(seen) >= 4

    # the journal: every operation asked of the pool was confirmed, those before the kill included
    with Journal.open(env.tmp / f"data-{tid}", readonly=True) as j:
        entries = [e for e in j.entries_since(0) if e.kind in ("link-op", "link-confirm")]
    ops = {(e.payload["op"], e.payload["round"], e.payload.get("seat")) for e in entries if e.kind == "link-op"}
    confirmed = {(e.payload["op"], e.payload["round"], e.payload.get("seat")) for e in entries
                 if e.kind == "link-confirm" and e.payload["confirmed"]}
    assert ops and ops <= confirmed, ops - confirmed

    # the books agree: each contribution once, meter = seed + contributions - awards, to the cent
    check = env.assert_books("cs", {tid: cfg.outbox})
    env.assert_journals("cs", {tid: env.tmp / f"data-{tid}"})
    pool = dict(env.admin.execute("SELECT round_id, seats FROM link.contributions WHERE table_name = %s",
                                  (tid,)).fetchall())
    played = {x["round"]: _progressive_seats(x) for x in seen if x["settlement"]}
    assert pool == {r: seats for r, seats in played.items() if seats}
    meter = env.admin.execute("SELECT meter_units FROM link.pools WHERE name = 'cs'").fetchone()[0]
    assert meter == check["meter_units"] == check["seed_units"] + check["contribution_units"] - check["award_units"]
