"""Linked progressive: contributions per second and the p99 latency of a lock-out's contribution.

With 1, 4 and 16 tables on one pool, each table a separate process with its own
database role, all contributing at once to the one meter row (the row every
contribution must lock, so that the database orders the pool's operations).
The server is a fresh local PostgreSQL with its durable defaults (fsync on,
synchronous_commit on): every contribution is a committed, flushed transaction,
and so is the table's outbox write before it and its confirmation after it.

Three measurements at each size, in the same run:
  baseline   the floor: a bare `UPDATE meter SET units = units + x` of one shared
             row, autocommit, from each table (no function, no checks, no outbox)
  pool       link.contribute called directly (roles, idempotency, ordering,
             the meter's ledger), no outbox
  client     ProgressiveLink.contribute, what the table does at lock-out:
             outbox record (SQLite, synchronous FULL) + link.contribute +
             outbox confirmation
Each first closed-loop for --seconds (a table sends its next contribution as
soon as the last is answered: the pool's throughput; every contribution queues
for the one meter row, whose lock is held through a durable commit), then paced
at --pace lock-outs per second per table for --paced-seconds (Poisson arrivals,
default 2/s: 120 times a real table's one lock-out a minute): the latency a
table sees at a lock-out. Target: client p99 <= 20 ms at 16 tables (paced).

Then, at the largest size (issue 16): the paced clients for --hold-seconds (5 s)
while another table's role holds the meter row (it opens a transaction, switches
its own statement, lock and idle timeouts off, contributes, and sleeps for the
5 s), beside the same paced run without a holder, in the same run: the p99 of a
contribution, and how long the holder kept the row before the pool cut it off.

    .venv/bin/python benchmarks/link.py [--seconds 4] [--tables 1 4 16] [--pace 2] [--paced-seconds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_P99_MS = 20.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- one table (a worker process) -------------------------------------------------------------

async def worker(spec: dict) -> dict:
    import psycopg
    from controller.link.config import LinkConfig
    from controller.link.pool import ProgressiveLink

    link = {**spec["link"], "password_file": Path(spec["link"]["password_file"]),
            "outbox": Path(spec["link"]["outbox"])}
    if spec["mode"] == "pool":
        link["pool"] = "bench-pool"
    cfg = LinkConfig.model_validate(link)
    mode, pace = spec["mode"], spec["pace"]
    rng = random.Random(spec["seed"])
    lat: list[float] = []
    prefix = f"{mode}-{pace}-{spec['seed']}-"

    if mode == "client":
        client = ProgressiveLink(cfg, cfg.outbox)
        client.mode = "live"   # the benchmark's link is a live one: a table says its mode (issue 28)
        await client.start()
        if not await client.wait_playable(60):  # 16 processes starting at once on 2 CPUs may miss 1 s
            raise SystemExit(f"table never playable: {client.status.reason}")
        n = 0

        async def one() -> None:
            nonlocal n
            n += 1
            sent = await client.contribute(f"{prefix}{n}", sorted(rng.sample(range(1, 8), rng.randint(1, 7))))
            assert sent.confirmed, client.status.reason
    else:
        conn = await psycopg.AsyncConnection.connect(autocommit=True, **cfg.connect_kwargs())
        if mode == "pool":
            await conn.execute("SELECT link.open_table(%s, 'live')", (cfg.pool,))
            version = (await (await conn.execute("SELECT link.table_state(%s)", (cfg.pool,))).fetchone())[0]["version"]
        n = 0

        async def one() -> None:
            nonlocal n
            n += 1
            seats = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
            if mode == "pool":
                await conn.execute("SELECT link.contribute(%s, %s, %s, %s, %s)",
                                   (cfg.pool, f"{prefix}{n}", uuid.uuid4(), seats, version))
            else:
                await conn.execute("UPDATE bench.meter SET units = units + %s WHERE id = 1", (len(seats) * 700000,))

    for _ in range(20):  # warm up: connection, prepared statements, caches
        await one()
    Path(spec["ready"]).touch()  # noqa: ASYNC240  (a stat and a tiny file: no thread needed)
    go = Path(spec["go"])
    # The parent process writes the instant: a file is the only thing shared, so the wait is a poll.
    deadline = time.monotonic() + 120
    while not go.exists():  # noqa: ASYNC240
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {go} within 120 s")
        await asyncio.sleep(0.01)
    start_at = float(go.read_text())  # noqa: ASYNC240
    await asyncio.sleep(max(0.0, start_at - time.time()))
    end = start_at + spec["seconds"]
    next_at = time.perf_counter()
    while time.time() < end:
        if pace:  # Poisson arrivals: tables are not in step with each other
            next_at += rng.expovariate(pace)
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            if time.time() >= end:
                break
        t0 = time.perf_counter()
        await one()
        lat.append((time.perf_counter() - t0) * 1000)
    if mode == "client":
        await client.stop()
    else:
        await conn.close()
    return {"latencies_ms": lat}


# --- the run ---------------------------------------------------------------------------------

def setup(server, tmp: Path, tables: int) -> tuple[str, list[dict]]:
    from controller.link import admin
    db = "bench"
    with admin.connect(**server.admin_kwargs()) as conn:
        conn.execute(f"CREATE DATABASE {db}")
    specs = []
    with admin.connect(**server.admin_kwargs(db)) as conn:
        admin.install(conn)
        conn.execute("CREATE SCHEMA bench; CREATE TABLE bench.meter (id int PRIMARY KEY, units bigint NOT NULL);"
                     "INSERT INTO bench.meter VALUES (1, 0); GRANT USAGE ON SCHEMA bench TO link_table;"
                     "GRANT UPDATE, SELECT ON bench.meter TO link_table;")
        params, seed = admin.progressive_params({})
        for pool in ("bench-pool", "bench-client"):  # the pool mode keeps no outbox: its own pool
            admin.create_pool(conn, pool, "progressive", params, seed, "benchmark")
        for i in range(1, tables + 1):
            role = f"bench_t{i}"
            password = secrets.token_urlsafe(12)
            admin.create_table_role(conn, role, password)
            for pool in ("bench-pool", "bench-client"):
                admin.add_table(conn, pool, f"T{i}", role, "benchmark")
            pw = tmp / f"{role}.pass"
            pw.write_text(password)
            specs.append({"pool": "bench-client", "table": f"T{i}", "url": server.url(role, db), "password_file": str(pw),
                          "sslmode": "disable", "outbox": str(tmp / f"outbox-T{i}.sqlite")})
        # the table whose role holds the meter row (issue 16)
        password = secrets.token_urlsafe(12)
        admin.create_table_role(conn, "bench_holder", password)
        admin.add_table(conn, "bench-client", "HOLDER", "bench_holder", "benchmark")
        (tmp / "bench_holder.pass").write_text(password)
    return db, specs


def hold_row(server, tmp: Path, seconds: float, start_at: float, out: dict) -> None:
    """As the HOLDER table's role: timeouts off, a contribution left open, then `seconds` asleep."""
    import psycopg
    time.sleep(max(0.0, start_at - time.time()))
    conn = psycopg.connect(host="127.0.0.1", port=server.port, user="bench_holder", dbname="bench",
                           password=(tmp / "bench_holder.pass").read_text())
    t0 = time.perf_counter()
    try:
        conn.execute("SET statement_timeout = 0; SET lock_timeout = 0; SET idle_in_transaction_session_timeout = 0")
        conn.execute("SELECT link.open_table('bench-client', 'live')")
        conn.execute("SELECT link.contribute('bench-client', %s, %s, ARRAY[1], 1)", (f"hold-{uuid.uuid4().hex[:8]}",
                                                                                  uuid.uuid4()))
        out["took_row_s"] = time.perf_counter() - t0
        conn.execute("SELECT pg_sleep(%s)", (seconds,))
        out["outcome"] = "held the row to the end"
    except psycopg.Error as exc:
        out["outcome"] = f"cut off: {str(exc).strip().splitlines()[0]}"
    out["held_s"] = time.perf_counter() - t0 - out.get("took_row_s", 0.0)
    with contextlib.suppress(Exception):
        conn.close()


def run_size(links: list[dict], n: int, mode: str, seconds: float, pace: float, tmp: Path,
             on_go: Callable[[float], None] | None = None, tag: str = "") -> dict:
    procs, outs, ready = [], [], []
    go = tmp / f"go-{mode}-{n}-{pace}{tag}"
    for i in range(n):
        ready.append(tmp / f"ready-{mode}-{n}-{pace}{tag}-{i}")
        spec = {"link": links[i], "mode": mode, "seconds": seconds, "pace": pace, "ready": str(ready[-1]),
                "go": str(go), "seed": int(time.time() * 1000) % 100000 * 100 + i}
        spec_path = tmp / f"spec-{mode}-{n}{tag}-{i}.json"
        spec_path.write_text(json.dumps(spec))
        out = tmp / f"out-{mode}-{n}{tag}-{i}.json"
        outs.append(out)
        procs.append(subprocess.Popen([sys.executable, __file__, "--worker", str(spec_path), str(out)], cwd=ROOT))
    deadline = time.monotonic() + 120
    while not all(r.exists() for r in ready):
        if time.monotonic() > deadline or any(p.poll() not in (None, 0) for p in procs):
            raise SystemExit(f"{mode} workers did not get ready")
        time.sleep(0.02)
    tmp_go = go.with_suffix(".tmp")
    start_at = time.time() + 0.2
    tmp_go.write_text(str(start_at))
    tmp_go.rename(go)  # atomically: a worker never reads it half written
    if on_go is not None:
        on_go(start_at)
    for p in procs:
        if p.wait(seconds + 120) != 0:
            raise SystemExit(f"a {mode} worker failed")
    lat = [x for o in outs for x in json.loads(o.read_text())["latencies_ms"]]
    return {"n": len(lat), "per_s": len(lat) / seconds, "p50": percentile(lat, 0.50), "p99": percentile(lat, 0.99),
            "max": max(lat) if lat else float("nan")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="closed-loop runs")
    ap.add_argument("--paced-seconds", type=float, default=15.0, help="paced runs")
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--pace", type=float, default=2.0, help="paced runs: lock-outs/s per table")
    ap.add_argument("--hold-seconds", type=float, default=5.0, help="how long the holder asks to hold the row")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    import logging
    import structlog
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    if args.worker:
        spec = json.loads(Path(args.worker[0]).read_text())
        Path(args.worker[1]).write_text(json.dumps(asyncio.run(worker(spec))))
        return

    from testsupport.pgserver import PgServer
    tmp = Path(tempfile.mkdtemp(prefix="tablectl-bench-link-"))
    server = PgServer(settings={"max_connections": "100"}).start()
    try:
        server.wait_ready()
        _, links = setup(server, tmp, max(args.tables))
        load = os.getloadavg()[0]
        print(f"PostgreSQL {server.bin.parent.name} on 127.0.0.1, fsync on, synchronous_commit on; "
              f"{os.cpu_count()} CPUs, load average {load:.1f} at the start")
        for pace_label, pace, seconds in (("closed loop", 0.0, args.seconds),
                                          (f"paced {args.pace:g}/s per table", args.pace, args.paced_seconds)):
            print(f"\n{pace_label}, {seconds:g} s each")
            print(f"{'tables':>6} | {'baseline: bare UPDATE':>30} | {'pool: link.contribute':>30} | "
                  f"{'client: outbox + pool':>30}")
            print(f"{'':>6} | {'/s    p50    p99 ms':>30} | {'/s    p50    p99 ms':>30} | {'/s    p50    p99 ms':>30}")
            for n in args.tables:
                cells = []
                for mode in ("baseline", "pool", "client"):
                    r = run_size(links, n, mode, seconds, pace, tmp)
                    cells.append(f"{r['per_s']:>8.0f} {r['p50']:>6.2f} {r['p99']:>6.2f}")
                    if mode == "client":
                        client_p99 = r["p99"]
                target = n == max(args.tables) and pace
                print(f"{n:>6} | {cells[0]:>30} | {cells[1]:>30} | {cells[2]:>30}"
                      + (f"   target p99 <= {TARGET_P99_MS:g} ms: {'met' if client_p99 <= TARGET_P99_MS else 'MISSED'}"
                         if target else ""))
        n = max(args.tables)
        print(f"\npaced {args.pace:g}/s per table, {n} tables, {args.hold_seconds:g} s: another table's role "
              "holding the meter row (issue 16)")
        print(f"{'':>22} | {'client: outbox + pool':>30}")
        print(f"{'':>22} | {'/s    p50    p99    max ms':>30}")
        quiet = run_size(links, n, "client", args.hold_seconds, args.pace, tmp, tag="-quiet")
        print(f"{'baseline: no holder':>22} | {quiet['per_s']:>8.0f} {quiet['p50']:>6.2f} {quiet['p99']:>6.2f} "
              f"{quiet['max']:>6.1f}")
        held: dict = {}
        threads: list[threading.Thread] = []

        def start_holder(start_at: float) -> None:
            t = threading.Thread(target=hold_row, args=(server, tmp, args.hold_seconds, start_at, held))
            t.start()
            threads.append(t)
        loud = run_size(links, n, "client", args.hold_seconds, args.pace, tmp, on_go=start_holder, tag="-held")
        for t in threads:
            t.join(args.hold_seconds + 30)
        print(f"{'row held by a table':>22} | {loud['per_s']:>8.0f} {loud['p50']:>6.2f} {loud['p99']:>6.2f} "
              f"{loud['max']:>6.1f}   holder: {held.get('outcome')} after {held.get('held_s', 0.0):.3f} s "
              f"of the {args.hold_seconds:g} s it asked")
        from controller.link import admin
        print()
        with admin.connect(**server.admin_kwargs("bench")) as conn:
            for pool in ("bench-pool", "bench-client"):
                check = admin.check_pool(conn, pool)
                agreed = (all(t["agreed"] for t in check["tables"] if t["table"] != "HOLDER")
                          if pool == "bench-client" else True)
                print(f"{pool}: books {'balanced' if check['balanced'] else 'NOT BALANCED'} "
                      f"({check['contribution_units'] // 10_000:,} cents contributed)"
                      + ("; every table's outbox agreed at its last reconcile" if pool == "bench-client" and agreed
                         else ("; TABLES DISAGREE" if not agreed else "")))
    finally:
        server.cleanup()


if __name__ == "__main__":
    main()
