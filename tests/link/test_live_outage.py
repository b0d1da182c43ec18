"""A live Caribbean stud table whose pool's database crashes mid-rounds (issue 10, 9 NYCRR 5321.18(c)).

The database is stopped with an immediate shutdown (a crash: no goodbye to the
clients) while `tablectl run --autoplay` plays; the base game must go on, the
progressive wager must not be played while the link is down, and once the
database is back the table plays the progressive again and the books agree:
the pool's meter is its seed plus every contribution minus every award, to the cent.
"""

from __future__ import annotations

import json
import queue
import signal
import threading
import time

from controller.journal.store import Journal
from tests.link.link_helpers import profile, run


def _lines(proc) -> queue.Queue:
    """The table's round lines, read in a thread so the test can wait with a deadline."""
    q: queue.Queue = queue.Queue()

    def read() -> None:
        for line in proc.stdout:
            q.put(json.loads(line))
        q.put(None)

    threading.Thread(target=read, daemon=True).start()
    return q


def _until(q: queue.Queue, seen: list, done, patience: float, what: str) -> None:
    deadline = time.monotonic() + patience
    while not done(seen):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out waiting for {what}; rounds so far: {seen}"
        try:
            line = q.get(timeout=left)
        except queue.Empty:
            continue
        assert line is not None, f"the table stopped before {what}"
        seen.append(line)


def _drain(q: queue.Queue, seen: list, patience: float) -> None:
    """The rounds the table settled while it closed, up to the end of its output."""
    deadline = time.monotonic() + patience
    while (line := q.get(timeout=max(0.1, deadline - time.monotonic()))) is not None:
        seen.append(line)


def _progressive_seats(line: dict) -> list[int]:
    return sorted(s["seat"] for s in (line["settlement"] or {"seats": []})["seats"] if "progressive" in s)


def test_database_crash_mid_rounds_the_base_game_goes_on_and_the_books_agree(env):
    env.create_pool("cs")
    tid = "CS-01"
    cfg = env.add_table("cs", tid)
    proc = run(env, profile(env, cfg, tid), tid, 200, 23)
    q, seen = _lines(proc), []
    _until(q, seen, lambda s: len(s) >= 3, 30, "three rounds before the crash")
    assert all(x["link"]["playable"] for x in seen)
    with env.database_down():
        crash_at = len(seen)
        # the base game keeps settling while the pool cannot be reached (5321.18(c))
        _until(q, seen, lambda s: sum(1 for x in s[crash_at:] if not x["link"]["playable"]) >= 3, 20,
               "three rounds settled with the link down")
    back_at = len(seen)
    # the link comes back by itself and the progressive is played again
    _until(q, seen, lambda s: sum(1 for x in s[back_at:] if x["link"]["playable"] and _progressive_seats(x)) >= 2,
           20, "two rounds with progressive wagers after the database is back")
    proc.send_signal(signal.SIGTERM)
    _drain(q, seen, 30)
    proc.wait(timeout=30)
    assert proc.returncode == 0, (env.tmp / f"table-{tid}.err").read_text()[-3000:]

    # the journal: unplayable then playable again; no progressive wager recognized in between
    with Journal.open(env.tmp / f"data-{tid}", readonly=True) as j:
        entries = list(j.entries_since(0))
    statuses = [(e.seq, e.payload["playable"]) for e in entries if e.kind == "link-status"]
    # playable at the start, unplayable at the crash, playable again (the last one may be the close)
    assert [p for _, p in statuses][:3] == [True, False, True], statuses
    down, up = statuses[1][0], statuses[2][0]
    during = [e for e in entries if down < e.seq < up]
    wagers = [e for e in during if e.kind == "event" and e.payload["event"]["type"] == "progressive"]
    assert wagers == []
    opened = {e.round_id for e in during if e.kind == "round-opened"}
    closed_before_up = {x["round"] for x in seen if x["round"] in opened and not x["link"]["playable"]}
    assert closed_before_up, "no round was both opened and settled while the link was down"
    assert all(_progressive_seats(x) == [] for x in seen if x["round"] in closed_before_up)
    assert all(x["settlement"] for x in seen if x["round"] in closed_before_up)   # the base game settled

    # the books agree: every contribution once, meter = seed + contributions - awards
    check = env.assert_books("cs", {tid: cfg.outbox})
    assert env.assert_journals("cs", {tid: env.tmp / f"data-{tid}"})[tid]["records"] > 0
    pool = dict(env.admin.execute("SELECT round_id, seats FROM link.contributions WHERE table_name = %s",
                                  (tid,)).fetchall())
    played = {x["round"]: _progressive_seats(x) for x in seen if x["settlement"]}
    assert pool == {r: seats for r, seats in played.items() if seats}
    meter = env.admin.execute("SELECT meter_units FROM link.pools WHERE name = 'cs'").fetchone()[0]
    assert meter == check["meter_units"] == check["seed_units"] + check["contribution_units"] - check["award_units"]
    assert seen[-1]["link"]["meter"] is not None
