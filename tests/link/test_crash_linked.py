"""Caribbean stud tables on a linked progressive, killed (SIGKILL) at random points (issue 10).

"A power cut loses nothing" and "nothing is counted twice or lost" (9 NYCRR
5321.18(c)), asked of live linked tables: `tablectl run --autoplay` with the stud
profile and a `[link]` to one pool in the test's PostgreSQL, killed after a delay
drawn from a seeded RNG, restarted at once, again and again, then run to the end
of a round (tests/crash/crash_lab.py, the lane of the unlinked crash tests). Three
tables share the pool, so it sees their operations interleaved:
- CS-K, killed KILLS times, deals random decks as a table does. Progressive hits
  (flush or better) come once in about 270 hands, so it claims from the pool
  rarely, if at all: its lane is the contributions' at the lock-out;
- CS-L, killed LOADED_KILLS times, deals from a loaded emulated shuffler
  (tests/link/loaded_shuffler.py: a flush placed in one of the first two stacks of
  most decks), so kills also fall between a claim and the pool's award, between
  the award and the round taking it, and between a supervisor's validation and
  the pool's settlement of it;
- CS-N plays on normally the whole time (then is stopped and finishes its round).

Then, from the journals and the pool alone:
- everything crash_lab checks of a lane (chain, seal, faults, every round
  recorded once, the ledger re-settled to the cent with the pool's awards, the
  shoe's cards the journal's, each restart resumed or voided as 5324.37(h) says);
- every operation a journal asked of the pool (`link-op`) was confirmed
  (`link-confirm`) in the end, those cut off by a kill too, all under one key, and
  within one run asked and confirmed once (across a restart, see check_table);
- `compare_journal` finds no difference and nothing unconfirmed, and the books
  balance (meter = seed + contributions - awards, the replay audit, each outbox
  confirmed and equal to the pool's records);
- the pool's contributions are exactly the journal's rounds with progressive
  wagers past their lock-out, seat for seat: none twice, none lost; every award
  the pool made was settled at the pool.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from controller.journal.store import Journal
from controller.link.journalcheck import compare_journal
from tests.crash.crash_lab import Execer, Lane, freeze
from tests.link.link_helpers import profile

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.crash   # the kill-and-restart lanes of tests/crash, linked (tests/conftest.py marks those)

KILLS = 60           # kill points of the linked lane on random decks
LOADED_KILLS = 40    # kill points of the linked lane on the loaded shuffler
MAX_DELAY = 1.3      # seconds a table lives before its kill: start-up (the software check included), recovery, the link, a round or two
SEED = 20260601
POOL = "cs"
PRELOAD = ("psycopg", "controller.link.pool", "controller.link.outbox", "controller.runtime.linked")


def journal_entries(data_dir: Path) -> list:
    with Journal.open(data_dir, readonly=True) as j:
        return list(j.entries_since(0))


def link_ops(entries: list, pool: str) -> dict:
    """Each operation the journal asked of the pool: in which runs asked, confirmed, with which keys.

    A run is the life between two power-ups; the journal is read from the first entry on.
    """
    asked: dict = {}        # (op, ident) -> [run of each link-op]
    confirmed: dict = {}    # (op, ident) -> [run of each confirmed link-confirm]
    keys: dict = {}         # (op, ident) -> {keys confirmed}
    run = 0
    for e in entries:
        p = e.payload
        if e.kind == "power-up":
            run += 1
        if not isinstance(p, dict) or "ident" not in p:
            continue
        key = (p.get("op"), p["ident"])
        if e.kind == "link-op" and p.get("pool") == pool:
            asked.setdefault(key, []).append(run)
        elif e.kind == "link-confirm" and p.get("confirmed"):
            confirmed.setdefault(key, []).append(run)
            keys.setdefault(key, set()).add(p["key"])
    # asked, then the table killed before the pool's confirmation was journaled: made whole by a later run
    carried = {k for k, runs in confirmed.items() if k in asked and runs[0] != asked[k][0]}
    return {"asked": asked, "confirmed": confirmed, "keys": keys, "carried": carried}


def progressive_rounds(entries: list, pool: str) -> dict[str, list[int]]:
    """The journal's rounds on the pool with progressive wagers past their lock-out: round -> seats.

    A settled round's seats are its settlement's; a voided one's, its returned wagers' when
    the round was voided after its lock-out (the contribution went to the pool then).
    """
    linked, locked_out, out = set(), set(), {}
    for e in entries:
        p = e.payload
        if not isinstance(p, dict):
            continue
        if e.kind == "round-opened" and (p.get("link") or {}).get("pool") == pool:
            linked.add(e.round_id)
        elif e.kind == "event" and p["event"].get("type") == "no_more_bets":
            locked_out.add(e.round_id)
        elif e.kind == "round-record" and e.round_id in linked:
            if p.get("void"):
                seats = sorted(w["seat"] for w in p["void"]["wagers"] if "progressive" in w)
                seats = seats if e.round_id in locked_out else []
            else:
                seats = sorted(s["seat"] for s in (p.get("settlement") or {}).get("seats", [])
                               if "progressive" in s)
            if seats:
                out[e.round_id] = seats
    return out


def pool_contributions(env, table: str) -> list[tuple[str, list[int]]]:
    return [(r, sorted(s)) for r, s in env.admin.execute(
        "SELECT round_id, seats FROM link.contributions c JOIN link.pools p USING (pool_id) "
        "WHERE p.name = %s AND c.table_name = %s", (POOL, table)).fetchall()]


def check_table(env, table: str, data_dir: Path, outbox: Path) -> dict:
    """The link's checks of one table's journal against the pool; returns its counts."""
    entries = journal_entries(data_dir)
    ops = link_ops(entries, POOL)
    asked, confirmed = ops["asked"], ops["confirmed"]
    never = sorted(k for k in asked if k not in confirmed)
    assert not never, f"{table}: operations asked of the pool and never confirmed: {never}"
    stray = sorted(k for k in confirmed if k not in asked)
    assert not stray, f"{table}: confirmations of operations never asked: {stray}"
    # one operation, one key: however often it was asked, the pool saw one operation
    split = {k: v for k, v in ops["keys"].items() if len(v) != 1}
    assert not split, f"{table}: operations confirmed under more than one key: {split}"
    # within one run an operation is asked once and confirmed once
    in_one_run = {k: runs for k, runs in asked.items() if len(set(runs)) != len(runs)}
    assert not in_one_run, f"{table}: operations asked twice in one run: {in_one_run}"
    confirmed_in_one_run = {k: runs for k, runs in confirmed.items() if len(set(runs)) != len(runs)}
    assert not confirmed_in_one_run, f"{table}: operations confirmed twice in one run: {confirmed_in_one_run}"
    # across runs too: an operation the journal holds as asked is not asked again when its round resumes
    # after a restart (the resend marks it asked), and the pool's awards reach the round once
    re_asked = {k: len(runs) for k, runs in asked.items() if len(runs) > 1}
    assert not re_asked, f"{table}: operations asked again after a restart: {re_asked}"
    handed_again = sum(1 for e in entries if e.kind == "refused" and e.payload["event"].get("type") == "pool_awards")
    assert handed_again == 0, f"{table}: the pool's awards handed to a round {handed_again} times more than once"

    with Journal.open(data_dir, readonly=True) as j:
        found = compare_journal(env.admin, POOL, table, j)
    assert found["differences"] == [] and found["unconfirmed"] == [], found

    # the pool's contributions are the journal's rounds with progressive wagers, seat for seat
    held = pool_contributions(env, table)
    doubled = [r for r, n in Counter(r for r, _ in held).items() if n > 1]
    assert not doubled, f"{table}: rounds contributed more than once: {doubled}"
    journaled = progressive_rounds(entries, POOL)
    pool = dict(held)
    lost = sorted(set(journaled) - set(pool))
    extra = sorted(set(pool) - set(journaled))
    assert not lost, f"{table}: rounds with progressive wagers the pool has no contribution for: {lost}"
    assert not extra, f"{table}: contributions in the pool for rounds the journal has no such wager in: {extra}"
    assert pool == journaled
    kinds = Counter(k for k, _ in asked)
    return {"re_asked_after_a_restart": dict(Counter(k for k, _ in re_asked)), "awards_handed_again": handed_again,
            "rounds_recorded": sum(1 for e in entries if e.kind == "round-record"),
            "link_ops": dict(kinds), "carried_across_a_kill": dict(Counter(k for k, _ in ops["carried"])),
            "contributions": len(held), "progressive_wagers": sum(len(s) for s in pool.values()),
            "entries": len(entries)}


def lane_checks(lane: Lane) -> None:
    """What crash_lab checks of every lane: kills, chain, seal, ledger, recoveries, the shoe's cards."""
    assert len(lane.delays) == lane.kills and sum(lane.phases.values()) == lane.kills, lane.problems
    assert lane.final_rc == 0
    assert lane.problems == []
    assert len(lane.phases) >= 5, lane.phases          # the kills fell all over the round
    led = lane.stats["ledger"]
    assert led["settled"] > 10, led
    # a linked round's progressive is the pool's: the table's own meter never moved
    assert led["meter"]["contributions"] == 0 and led["meter"]["final"] == led["meter"]["initial"], led["meter"]
    assert lane.stats.get("resumed", 0) > 0, lane.stats


def test_linked_tables_killed_at_random_points_lose_nothing_and_count_nothing_twice(env):
    started = time.monotonic()
    env.create_pool(POOL)
    frozen = freeze(env.tmp / "software")
    cfgs = {t: env.add_table(POOL, t) for t in ("CS-K", "CS-L", "CS-N")}
    # CS-K: random decks, as a table plays; CS-L: the loaded shuffler, so hits are claimed often enough
    # for kills to fall between a claim and the pool's award (tests/link/loaded_shuffler.py)
    lanes = {"CS-K": Lane("caribbean-stud", env.tmp / "data-CS-K", SEED, KILLS, max_delay=MAX_DELAY,
                          frozen=frozen, profile=profile(env, cfgs["CS-K"], "CS-K"), preload=PRELOAD),
             "CS-L": Lane("caribbean-stud", env.tmp / "data-CS-L", SEED + 2, LOADED_KILLS, max_delay=MAX_DELAY,
                          frozen=frozen, profile=profile(env, cfgs["CS-L"], "CS-L"),
                          preload=PRELOAD + ("loaded_shuffler",), preload_path=(str(HERE),))}

    # CS-N, on the same pool, plays normally the whole time (the frozen software too)
    other_dir = env.tmp / "data-CS-N"
    other_dir.mkdir()
    runner = Execer(frozen=frozen)
    argv = ["run", "--config", str(profile(env, cfgs["CS-N"], "CS-N")), "--data-dir", str(other_dir),
            "--autoplay", "--seed", str(SEED + 1)]
    other = runner.start(argv, env.tmp / "CS-N.out", env.tmp / "CS-N.log")
    errors: list[BaseException] = []

    def run(lane: Lane) -> None:
        try:
            lane.run()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(lane,)) for lane in lanes.values()]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        # the table is stopped (its queue to the pool drained, the journal sealed), then started
        # again to finish the round it stopped in, as the lanes' tables are
        os.kill(other, signal.SIGTERM)
        other_rc = _wait(runner, other)
    if errors:
        raise errors[0]
    assert other_rc == 0, (env.tmp / "CS-N.log").read_text()[-3000:]
    other = runner.start(argv + ["--rounds", "1"], env.tmp / "CS-N.out2", env.tmp / "CS-N.log2")
    other_rc = _wait(runner, other)
    assert other_rc == 0, (env.tmp / "CS-N.log2").read_text()[-3000:]

    for lane in lanes.values():
        lane_checks(lane)
    dirs = {"CS-N": other_dir, **{t: lane.data_dir for t, lane in lanes.items()}}
    counts = {t: check_table(env, t, d, cfgs[t].outbox) for t, d in dirs.items()}
    check = env.assert_books(POOL, {t: cfg.outbox for t, cfg in cfgs.items()})
    assert check["contribution_units"] > 0

    for t in lanes:
        assert counts[t]["link_ops"].get("contribution", 0) > 10, counts[t]
    # the kills cut the link's operations off between asking and the pool's confirmation, and the
    # restarts made them whole from the journal: the point of the lanes (5321.18(c))
    assert any(counts[t]["carried_across_a_kill"] for t in lanes), counts
    # the loaded shuffler's hits were claimed from the pool and paid (validated, settled there)
    awards = dict(env.admin.execute(
        "SELECT table_name, count(*) FROM link.awards a JOIN link.pools p USING (pool_id) "
        "WHERE p.name = %s GROUP BY table_name", (POOL,)).fetchall())
    assert awards.get("CS-L", 0) >= 3, awards
    unsettled = env.admin.execute("SELECT table_name, round_id, seat FROM link.awards WHERE status = 'pending'"
                                  ).fetchall()
    assert unsettled == [], unsettled
    summary = {"seconds": round(time.monotonic() - started, 1),
               "lanes": {t: {"seconds": round(lane.seconds, 1), "kills": len(lane.delays),
                             "phases": dict(lane.phases),
                             "recoveries": {x: n for x, n in lane.stats.items() if x != "ledger"},
                             "ledger": {x: lane.stats["ledger"][x] for x in ("rounds_opened", "settled", "voided")}}
                         for t, lane in lanes.items()},
               "tables": counts, "awards": awards}
    print("\nlinked crash lanes:", summary)
    (env.tmp / "summary.txt").write_text(repr(summary))


def _wait(runner: Execer, pid: int, patience: float = 60.0) -> int:
    guard = threading.Timer(patience, _kill, (pid,))
    guard.start()
    try:
        return runner.wait(pid)
    finally:
        guard.cancel()


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
