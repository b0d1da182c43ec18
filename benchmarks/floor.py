"""A floor of 100 tables for a simulated gaming day: a fact's way to the floor view, and the day's report.

The tables' facts are made the way a table makes them: each round settled by the real Caribbean stud
rules, journaled as the table journals it (benchmarks/report.py `one_round`), with the books a pit keeps
(an opener, a fill, a credit, a closer and a drop each day, a buy-in a round in ten), and read into
facts by controller/report/facts.py `facts_of`, the sender's own reading. 60 rounds an hour each, a
busy table's rate, over the gaming day (its times spread over today's gaming day, so the floor view,
which shows today, shows them). The server is a fresh local PostgreSQL with its durable defaults
(testsupport/pgserver.py, fsync and synchronous_commit on).

In one run:
1. The day so far: every table's facts but the last --live-rounds rounds of each, stored by
   `floor.put` under each table's own role, a batch of BATCH facts at a time, as an outbox catching
   up sends them; beside the same rows by a bare INSERT into a table with the same key (no function,
   no role check, no comparison of a fact sent again): the rows a second.
2. Live: each table sends its last rounds at the busy rate (a round a minute each, a hundred tables:
   a round every 0.6 s on the floor; --speed compresses time for a quick look), each round's facts
   one `floor.put` and the table's status
   (`floor.put_status`) beside it, as controller/floor/intable.py does at each attempt; meanwhile a
   pit tablet polls the floor view (controller/floor/serve.py `FloorReader`, its cache, every
   POLL_SECONDS as floor.js asks): the time from a round's commit to the view first counting it,
   p50 and p99. Beside it the bare INSERT of the same rounds polled by a bare count of them: the
   least any view can take.
3. The day's report: `floor_report` (what `tablectl floor report` and the view both run) for the
   gaming day, beside a bare SQL aggregate of the same rows (the handle and house win per table from
   the round facts' wagers): they must agree to the cent, or the run fails.

    .venv/bin/python benchmarks/floor.py [--tables 100] [--rounds-per-hour 60] [--speed 1] [--live-rounds 2]

One run (2026-12-04, the shared 2-core machine at a load of about 3.6 with other engineers' tests):
100 tables x 1,440 rounds, 430,709 facts. The day so far: floor.put 23,592 facts a second, the bare
INSERT 35,271 (1.50x). Live, 200 rounds: floor.put with the status p50 8.7 ms, p99 50.5 ms (bare
INSERT 2.4, 16.9); a round's commit to the floor view counting it p50 1,418 ms, p99 2,674 ms (a bare
count polled alike: 1,246, 2,339; the view's read 262 ms median, its first read of the day so far
11.3 s). The day's floor report 11.04 s median, the bare aggregate 0.52 s (21.4x).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

BATCH = 1000


class Entry(NamedTuple):
    """A journal entry as controller/report/facts.py reads one."""
    seq: int
    kind: str
    round_id: str | None
    at: str
    payload: Any


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table_facts(table: str, rounds: int, start: datetime, day: timedelta, seed: int) -> list[list[dict]]:
    """One table's day as lists of facts, one list a round (the books of the day ride with the first
    and last rounds), read by the sender's own reading from entries journaled as the table does."""
    from report import one_round

    from controller.floor.outbox import one_an_entry
    from controller.pit.books import act
    from controller.report.facts import facts_of
    rng = random.Random(seed)
    meter, carry = 2_500_000, 0
    seq = 0
    now = start
    made: list[list] = []

    def journaled(items: list, step: timedelta) -> list[dict]:
        nonlocal seq, now
        entries = []
        for kind, payload, rid in items:
            seq += 1
            now += step
            if rid is not None:
                rid = rid.replace("CS-01", table)
                payload = {**payload, "round": rid} if "round" in payload else payload
            entries.append(Entry(seq, kind, rid, now.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), payload))
        return one_an_entry(list(facts_of(entries)))

    def chips() -> dict[str, int]:
        return {"500": rng.randint(100, 400), "2500": rng.randint(40, 160)}
    for n in range(1, rounds + 1):
        items: list = []
        if n == 1:
            items.append(("pit", act("opener", {"chips": chips()}, "S-1", source="screen"), None))
        round_items, meter, carry = one_round(n, rng, meter, carry)
        items += round_items
        if n % 10 == 0:
            items.append(("pit", act("buy-in", {"seat": rng.randint(1, 7), "amount": 20_000}, "D-900",
                                     source="panel"), None))
        if n == rounds:
            items += [("pit", act("fill", {"chips": {"2500": 20}, "carrier": "R-17", "slip": "F-1"}, "S-1",
                                  source="screen"), None),
                      ("pit", act("credit", {"chips": {"500": 20}, "carrier": "C-3", "slip": "C-1"}, "S-1",
                                  source="screen"), None),
                      ("pit", act("closer", {"chips": chips()}, "S-1", source="screen"), None),
                      ("pit", act("drop", {"amount": rng.randint(100_000, 900_000), "second": "S-2"}, "S-1",
                                  source="screen"), None)]
        made.append(items)
    step = day / (sum(len(items) for items in made) + 1)   # the day's entries spread evenly over it
    return [journaled(items, step) for items in made]


def setup(server, tables: list[str], tmp: Path) -> dict[str, str]:
    """The floor's database (live), each table's role; the bare table beside it. Table -> password."""
    import secrets

    import psycopg

    from controller.floor import admin
    with psycopg.connect(**server.admin_kwargs(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE floor")
    passwords = {}
    with psycopg.connect(**server.admin_kwargs("floor"), autocommit=True) as conn:
        admin.install(conn)
        conn.execute("CREATE TABLE bare (table_id text, seq bigint, fact text, at text, body jsonb, "
                     "PRIMARY KEY (table_id, seq))")
        conn.execute("CREATE INDEX bare_at ON bare (table_id, at)")
        for t in tables:
            passwords[t] = secrets.token_urlsafe(12)
            admin.add_table(conn, t, f"bench_{t.lower().replace('-', '_')}", passwords[t])
    return passwords


def connect_as(server, table: str, password: str):
    import psycopg
    return psycopg.connect(host="127.0.0.1", port=server.port, dbname="floor", autocommit=True, password=password,
                           user=f"bench_{table.lower().replace('-', '_')}")


def put(conn, facts: list[dict]) -> None:
    from psycopg.types.json import Jsonb
    conn.execute("SELECT floor.put(%s, %s, %s)", ("caribbean-stud", Jsonb(facts), "live"))


def put_bare(conn, table: str, facts: list[dict]) -> None:
    """The same rows by one bare INSERT of the batch (floor.put's own statement without its function, its
    role's check and its comparison of a fact sent again): the least a store of them can cost."""
    from psycopg.types.json import Jsonb
    conn.execute("INSERT INTO bare (table_id, seq, fact, at, body) SELECT %s, (f->>'seq')::bigint, f->>'fact', "
                 "f->>'at', f FROM jsonb_array_elements(%s) AS f", (table, Jsonb(facts)))


def status(table: str, rounds: int) -> dict:
    return {"state": "open", "round": f"{table}-{rounds + 1:06d}", "dealer": "D-900", "dealer_name": None,
            "meter": 2_500_000, "validations": [], "fault": None, "alarms": [], "test_mode": False, "par": None}


def day_so_far(server, days: dict[str, list[list[dict]]], passwords: dict[str, str], live: int) -> dict:
    """The day but each table's last `live` rounds: by floor.put, then by the bare INSERT; rows a second."""
    import psycopg
    out = {}
    for how in ("floor.put", "bare INSERT"):
        rows, started = 0, time.perf_counter()
        admin_conn = psycopg.connect(**server.admin_kwargs("floor"), autocommit=True)
        for table, rounds in days.items():
            facts = [f for r in rounds[:-live] for f in r]
            rows += len(facts)
            with (connect_as(server, table, passwords[table]) if how == "floor.put" else
                  psycopg.connect(**server.admin_kwargs("floor"), autocommit=True)) as conn:
                for i in range(0, len(facts), BATCH):
                    (put(conn, facts[i:i + BATCH]) if how == "floor.put" else
                     put_bare(conn, table, facts[i:i + BATCH]))
        admin_conn.close()
        elapsed = time.perf_counter() - started
        out[how] = (rows, elapsed)
    return out


def live_phase(server, days: dict[str, list[list[dict]]], passwords: dict[str, str], live: int, speed: float,
               rounds_per_hour: int, period) -> dict:
    """Each table's last rounds at the busy rate (compressed by `speed`), with a pit tablet polling the view;
    then the same rounds by the bare INSERT polled by a bare count. The latencies, commit to seen."""
    interval = 3600 / rounds_per_hour / speed   # real seconds between one table's rounds
    return {how: live_run(how, server, days, passwords, live, interval, period) for how in ("floor", "bare")}


def live_run(how: str, server, days: dict[str, list[list[dict]]], passwords: dict[str, str], live: int,
             interval: float, period) -> dict:
    import psycopg
    from psycopg.types.json import Jsonb

    from controller.floor.serve import POLL_SECONDS, FloorReader
    committed: dict[str, list[tuple[int, float]]] = {t: [] for t in days}   # (rounds so far, when)
    lock = threading.Lock()
    stop = threading.Event()
    puts: list[float] = []
    latencies: list[float] = []
    reads: list[float] = []
    warm: list[float] = []
    ready = threading.Event()

    def sender(table: str, offset: float) -> None:
        rounds = days[table]
        done = len(rounds) - live
        with (connect_as(server, table, passwords[table]) if how == "floor" else
              psycopg.connect(**server.admin_kwargs("floor"), autocommit=True)) as conn:
            next_at = time.monotonic() + offset
            for facts in rounds[-live:]:
                time.sleep(max(0.0, next_at - time.monotonic()))
                t0 = time.perf_counter()
                if how == "floor":
                    put(conn, facts)
                    conn.execute("SELECT floor.put_status(%s, %s)", (Jsonb(status(table, done + 1)), "live"))
                else:
                    put_bare(conn, table, facts)
                t1 = time.perf_counter()
                done += 1
                with lock:
                    puts.append((t1 - t0) * 1000)
                    committed[table].append((done, time.monotonic()))
                next_at += interval

    def viewer() -> None:
        conn = psycopg.connect(**server.admin_kwargs("floor"), autocommit=True)
        reader = FloorReader(lambda: conn, lambda: period)

        def counts() -> dict[str, int]:
            if how == "floor":   # the page's figures, as floor serve reads them for a tablet
                return {t["table"]: t["rounds"] for t in reader.read()["tables"]}
            return dict(conn.execute("SELECT table_id, count(*) FROM bare WHERE fact = 'round' "
                                     "AND at >= %s AND at < %s GROUP BY 1", tuple(period)).fetchall())
        try:
            t0 = time.perf_counter()
            counts()   # as floor serve warms at its start: the day so far folded in before any round is sent
            warm.append(time.perf_counter() - t0)
            ready.set()
            while True:
                t0 = time.perf_counter()
                got = counts()
                now = time.monotonic()
                reads.append(time.perf_counter() - t0)
                with lock:
                    for table, marks in committed.items():
                        have = got.get(table, 0)
                        while marks and marks[0][0] <= have:
                            latencies.append((now - marks.pop(0)[1]) * 1000)
                    left = sum(len(m) for m in committed.values())
                if stop.is_set() and left == 0:
                    return
                time.sleep(POLL_SECONDS)
        finally:
            conn.close()

    rng = random.Random(7)
    threads = [threading.Thread(target=sender, args=(t, rng.uniform(0, interval))) for t in days]
    watcher = threading.Thread(target=viewer)
    watcher.start()
    ready.wait(900)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    watcher.join(600)
    return {"latencies": latencies, "puts": puts, "reads": reads, "warm": warm[0] if warm else float("nan")}


def day_report(server, period, tables: int, repeat: int) -> dict:
    """floor_report of the day beside the bare aggregate: times, and the figures, which must agree."""
    import psycopg

    from controller.floor.cli import floor_report
    bare_sql = """
        SELECT table_id, sum((w.value->>'handle')::bigint), sum((w.value->>'house_win')::bigint)
        FROM floor.facts f, jsonb_each(f.body->'wagers') w
        WHERE f.fact = 'round' AND f.at >= %s AND f.at < %s AND NOT coalesce((f.body->>'void')::boolean, false)
        GROUP BY 1"""
    times: dict[str, list[float]] = {"report": [], "bare": []}
    with psycopg.connect(**server.admin_kwargs("floor"), autocommit=True) as conn:
        for _ in range(repeat):
            t0 = time.perf_counter()
            report = floor_report(conn, period)
            times["report"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            bare = {t: (h, w) for t, h, w in conn.execute(bare_sql, tuple(period)).fetchall()}
            times["bare"].append(time.perf_counter() - t0)
    mine = {t["table"]: (t["handle"], t["house_win"]) for t in report["tables"]}
    assert mine == bare, "the floor report and the bare aggregate disagree"
    assert len(mine) == tables
    return {"times": times, "total": report["total"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--rounds-per-hour", type=int, default=60)
    ap.add_argument("--speed", type=float, default=1.0, help="simulated seconds a real second, in the live part")
    ap.add_argument("--live-rounds", type=int, default=2, help="each table's last rounds sent live")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    import logging

    import structlog
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    from controller.report.period import resolve
    from testsupport.pgserver import PgServer
    period = resolve(day=None, shift=None, start=None, end=None, day_start="06:00", zone_name="UTC")
    start = datetime.strptime(period[0], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    rounds = args.rounds_per_hour * 24
    tables = [f"T-{i:03d}" for i in range(1, args.tables + 1)]
    t0 = time.perf_counter()
    days = {t: table_facts(t, rounds, start, timedelta(hours=24) - timedelta(minutes=1), seed=i)
            for i, t in enumerate(tables)}
    facts = sum(len(r) for d in days.values() for r in d)
    print(f"{args.tables} tables x {rounds} rounds (a gaming day at {args.rounds_per_hour} an hour, with their books): "
          f"{facts:,} facts, made in {time.perf_counter() - t0:.0f} s")
    server = PgServer(settings={"max_connections": str(args.tables + 40)}).start()
    try:
        server.wait_ready()
        passwords = setup(server, tables, Path(server.dir))
        print(f"PostgreSQL {server.bin.parent.name} on 127.0.0.1, fsync on, synchronous_commit on; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
        loaded = day_so_far(server, days, passwords, args.live_rounds)
        print("\nthe day so far, in batches of", BATCH)
        for how, (rows, s) in loaded.items():
            print(f"  {how:<12} {rows:>9,} facts in {s:6.1f} s: {rows / s:>8,.0f} a second")
        print(f"  floor.put / bare INSERT: {loaded['floor.put'][1] / loaded['bare INSERT'][1]:.2f}x")
        live = live_phase(server, days, passwords, args.live_rounds, args.speed, args.rounds_per_hour, period)
        sent = args.tables * args.live_rounds
        print(f"\nlive: {sent:,} rounds, {args.tables} tables each a round every "
              f"{3600 / args.rounds_per_hour / args.speed:.2f} s (x{args.speed:g}), the view polled every 2 s")
        print(f"  {'':<34}{'p50 ms':>10}{'p99 ms':>10}")
        for how, label in (("floor", "floor.put + put_status (a round)"), ("bare", "bare INSERT (a round)")):
            p = live[how]["puts"]
            print(f"  {label:<34}{percentile(p, .5):>10.1f}{percentile(p, .99):>10.1f}")
        for how, label in (("floor", "fact to the floor view"), ("bare", "fact to a bare count (baseline)")):
            lat = live[how]["latencies"]
            assert len(lat) == sent, (how, len(lat), sent)
            print(f"  {label:<34}{percentile(lat, .5):>10.0f}{percentile(lat, .99):>10.0f}"
                  f"   (a read: median {statistics.median(live[how]['reads']) * 1000:.0f} ms; the first, "
                  f"the day so far: {live[how]['warm']:.1f} s)")
        rep = day_report(server, period, args.tables, args.repeat)
        r, b = statistics.median(rep["times"]["report"]), statistics.median(rep["times"]["bare"])
        total = rep["total"]
        print(f"\nthe day's floor report: {total['rounds']:,} rounds, handle {total['handle']:,}, "
              f"house win {total['house_win']:,} cents (agreeing with the bare aggregate to the cent)")
        print(f"  {'floor_report (tablectl floor report)':<40}{r:>8.2f} s  runs "
              + " ".join(f"{x:.2f}" for x in rep["times"]["report"]))
        print(f"  {'bare SQL aggregate (baseline)':<40}{b:>8.2f} s  runs "
              + " ".join(f"{x:.2f}" for x in rep["times"]["bare"]))
        print(f"  report / bare: {r / b:.1f}x")
    finally:
        server.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
