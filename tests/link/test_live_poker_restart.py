"""A live poker table on the room's jackpot, killed (SIGKILL) between asking the pool and its answer (issue 10).

The pool's jackpot contributions are held locked, so a hand's contribution cannot
be committed: the link goes down, and the poker table plays on (9 NYCRR
5321.18(c): the jackpot stakes nothing, the drop still goes into the box,
5324.42(r)(3)); the operations are journaled as asked (`link-op`), the first one
waiting in the outbox, the later ones only in the journal. The table is killed,
the lock let go (the pool then commits the first operation nobody is left to
hear), and the table started again on the same data directory: what its journal
asked and never saw confirmed is sent again with its key, so each contribution
is in the pool once and confirmed once in the journal. No qualifying hand is in
the pool: none was verified by a floorperson (a verified one killed before the
pool's answer: test_live_poker_verify.py).
"""

from __future__ import annotations

import collections
import contextlib
import json
import queue
import sqlite3
import time

import psycopg

from tests.link.test_live_outage import _drain, _lines, _until
from tests.link.test_live_poker import journal_hands, link_entries, poker_profile, qualifiers_of, run_table


def _outbox_idents(outbox) -> dict[tuple[str, str], str]:
    """(kind, ident) -> status of every operation in the outbox."""
    if not outbox.exists():
        return {}
    with sqlite3.connect(f"file:{outbox}?mode=ro", uri=True) as db:
        return {(k, i): s for k, i, s in db.execute("SELECT kind, ident, status FROM ops")}


def test_a_poker_table_killed_before_the_pool_confirms_sends_again_after_its_restart(env):
    env.create_jackpot("room", seed=0, qualifying_hand="two-pair", contribution=100)
    tid = "PK-01"
    cfg = env.add_table("room", tid)
    path = poker_profile(env, cfg, tid)
    proc = run_table(env, path, tid, 300, 41)
    q, seen = _lines(proc), []
    lock = psycopg.connect(**env.pg.admin_kwargs(env.db))   # a transaction held open: the lock
    try:
        _until(q, seen, lambda s: len(s) >= 2, 30, "two hands before the lock")
        lock.execute("LOCK TABLE link.jackpot_contributions IN ACCESS EXCLUSIVE MODE")
        locked_at = len(seen)
        # the hands go on while the pool cannot be reached, the link down on the table's lines
        _until(q, seen, lambda s: len(s) >= locked_at + 6 and not s[-1]["link"]["playable"], 30,
               "hands played on while the pool's contributions are locked")
        deadline = time.monotonic() + 10
        while "pending" not in _outbox_idents(cfg.outbox).values():
            assert time.monotonic() < deadline, "no contribution waits in the outbox"
            with contextlib.suppress(queue.Empty):
                seen.append(q.get(timeout=0.05))
        proc.kill()                                        # SIGKILL: no close, no drain
        proc.wait(timeout=10)
        _drain(q, seen, 10)
    finally:
        lock.rollback()
        lock.close()
    assert proc.returncode == -9

    entries = link_entries(env, tid)
    asked = {(e.payload["op"], e.payload["ident"]) for e in entries if e.kind == "link-op"}
    answered = {(e.payload["op"], e.payload["ident"]) for e in entries
                if e.kind == "link-confirm" and e.payload["confirmed"]}
    waiting = asked - answered
    boxed = _outbox_idents(cfg.outbox)
    assert any(boxed.get(op) == "pending" for op in waiting), "an operation the outbox holds unconfirmed"
    assert any(op not in boxed for op in waiting), "an operation only the journal holds"

    again = run_table(env, path, tid, 3, 42)               # the same data directory and outbox
    out, _ = again.communicate(timeout=60)
    assert again.returncode == 0, (env.tmp / f"table-{tid}.err").read_text()[-3000:]
    seen += [json.loads(x) for x in out.splitlines()]
    assert seen[-1]["link"]["playable"]

    # the journal: every operation asked of the pool confirmed exactly once, those before the kill included
    entries = link_entries(env, tid)
    asked = [(e.payload["op"], e.payload["ident"]) for e in entries if e.kind == "link-op"]
    confirmed = collections.Counter((e.payload["op"], e.payload["ident"]) for e in entries
                                    if e.kind == "link-confirm" and e.payload["confirmed"])
    assert len(asked) == len(set(asked)) and set(confirmed) == set(asked) and set(confirmed.values()) == {1}
    assert waiting <= set(confirmed)

    # the pool: each hand's drop once, no qualifying hand unverified; meter = seed + contributions
    records = journal_hands(env, tid)
    pool = env.admin.execute("SELECT hand_id, amount_cents FROM link.jackpot_contributions").fetchall()
    assert len(pool) == len(dict(pool))
    assert dict(pool) == {h: r["jackpot_drop"] for h, r in records.items() if r["jackpot_drop"] > 0}
    assert qualifiers_of(records), "no hand qualified"
    assert env.admin.execute("SELECT count(*) FROM link.qualifying_hands").fetchone()[0] == 0
    check = env.assert_books("room", {tid: cfg.outbox})
    assert check["meter_units"] == check["seed_units"] + check["contribution_units"] == \
        sum(a for _, a in pool) * 10_000
