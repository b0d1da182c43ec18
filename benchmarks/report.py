"""`tablectl report` over a year of one busy table, beside a bare SQL aggregate of the same rows.

The journal: 500,000 rounds of Caribbean stud (a busy table: about 1,400 a
day for a year), each settled by the real rules (controller/games/caribbean_stud)
with the meter and its carry chained from round to round, and journaled through
controller/journal/store.py as the table journals it: a snapshot with the meters, the
round opened, EVENTS_PER_ROUND of the round's events (wagers, cards, buttons:
the table writes about thirty, smaller), the meter's entries, the round record
with its settlement. Times are spread evenly over 2025 (the journal's clock is
the generator's). The table's books are kept as a pit keeps them (issue 34): each
gaming day an opener and a closer counted by denomination, a fill and a credit
signed by a supervisor and their carrier, the count room's drop signed by two, and
a buy-in keyed for one round in ten (controller/pit/books.py `act`, journaled as
`pit` entries as the table journals them). The journal is built once into --dir
(keyed by its rounds and BOOKS_VERSION) and reused.

Each run, interleaved, REPEAT times, warm page cache:
- report: the installed `tablectl report --json --from 2025-01-01 --to 2026-01-01`
  (a process: start-up, reading the journal into facts, adding them up, JSON out);
- bare SQL: one SQLite query (sqlite3, read-only) summing stake and net per wager
  over json_each of every round record's seats and the meter's contributions and
  awards, and one over the books' entries (the first opener, the last closer, the
  sums of fills, credits, drops and buy-ins): the least any report must do to read
  the same rows.
The two must agree to the cent on handle, house win per wager, contributions and
every figure of the books (and so the count room's win), or the run fails. Each is timed on the clock and in CPU seconds (the report's process's, the
query's own): on a box shared with other work the clock says as much of the others as of
these two. Target (issue 33): the report within 1.5x the bare aggregate.

    .venv/bin/python benchmarks/report.py [--rounds 500000] [--dir DIR] [--repeat 3]

One run (2026-12-01, the shared 2-core machine at a load of about 4.6; journal
2.14 GB, built in 441 s): report 21.27 s median (23.33, 19.76, 21.27), bare SQL
10.43 s (10.43, 10.40, 11.10): 2.0x; the report's peak memory about 43 MB.
With the books (2026-12-04, the same machine busy with two other engineers' browser
tests; 51,830 acts of the books in the year): report 37.08 s median (41.11, 36.33,
37.08), bare SQL 14.03 s (14.03, 12.25, 15.32): 2.64x on the clock, 2.62x in CPU.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.cards import CARDS
from controller.games.caribbean_stud.record import settle
from controller.journal.store import Journal
from controller.pit.books import act

BOOKS_VERSION = "books-1"   # a journal built before the books were in it is built again
EVENTS_PER_ROUND = 4
TARGET = 1.5
YEAR_START = datetime(2025, 1, 1, tzinfo=timezone.utc)
RULES = {"bet_multiple": 2, "bet_payout_limit": 100500,
         "paytable": {"pair-or-less": 1, "two-pair": 2, "three-of-a-kind": 3, "straight": 4, "flush": 5,
                      "full-house": 7, "four-of-a-kind": 20, "straight-flush": 50, "royal-flush": 100},
         "progressive": {"wager": 100, "meter": 2_500_000, "reset": 1_000_000, "contribution_bp": 7000,
                         "flush": 5000, "full-house": 10000, "four-of-a-kind": 50000,
                         "straight-flush": {"percent_of_meter": 10}}}
FROM_METER = ("straight-flush", "royal-flush")


class Clock:
    def __init__(self, rounds: int) -> None:
        self.step = timedelta(days=365) / (rounds * (4 + EVENTS_PER_ROUND))
        self.now = YEAR_START

    def __call__(self) -> datetime:
        self.now += self.step
        return self.now


def one_round(n: int, rng: random.Random, meter: int, carry: int) -> tuple[list, int, int]:
    rid = f"CS-01-{n:06d}"
    deck = [str(c) for c in CARDS]
    rng.shuffle(deck)
    seats = []
    for i, s in enumerate(sorted(rng.sample(range(1, 8), rng.randint(2, 5)))):
        seats.append({"seat": s, "ante": rng.choice((500, 1000, 2500)), "progressive": rng.random() < 0.5,
                      "decision": rng.choice(("bet", "bet", "fold")), "cards": deck[5 * i:5 * i + 5]})
    record = {"game": "caribbean-stud", "rules": {**RULES, "progressive": {**RULES["progressive"], "meter": meter}},
              "dealer": deck[35:40], "seats": seats}
    result = settle(record, carry)
    out = result.output
    items: list = [("snapshot", {"game": "caribbean-stud", "meters": {"progressive": {"amount": meter, "carry": carry}},
                                 "round": rid}, None),
                   ("round-opened", {"game": "caribbean-stud", "round": rid, "meter": {"amount": meter}}, rid)]
    items += [("event", {"event": {"type": "ante", "seat": s["seat"], "amount": s["ante"]}, "source": "device",
                         "who": "acceptor"}, rid) for s in seats[:EVENTS_PER_ROUND]]
    items += [("event", {"event": {"type": "no_more_bets"}, "source": "panel", "who": "dealer"}, rid)] * \
        max(0, EVENTS_PER_ROUND - len(seats))
    prog = out.get("progressive")
    after = meter
    if prog is not None:
        wagered = sum(100 for s in seats if s["progressive"])
        after = meter + prog["contributions"]
        items.append(("meter", {"meter": "progressive", "reason": "contribution", "before": meter, "after": after,
                                "amount": prog["contributions"], "wagered": wagered, "rate_bp": 7000,
                                "carry_before": carry, "carry_after": result.carry}, rid))
        for a in prog["awards"]:
            from_meter = a["hand"] in FROM_METER
            seeded = RULES["progressive"]["reset"] if a["hand"] == "royal-flush" else 0
            before, after = after, (after - a["amount"] + seeded if from_meter else after)
            items.append(("meter", {"meter": "progressive", "reason": "award", "before": before, "after": after,
                                    "amount": a["amount"], "from_meter": from_meter, "seeded": seeded,
                                    "hand": a["hand"], "seat": a["seat"]}, rid))
    items.append(("round-record", {"game": "caribbean-stud", "round": rid, "record": record, "settlement": out,
                                   "meter_after": after, "carry_after": result.carry, "refused": {}}, rid))
    return items, after, result.carry


def books_of_a_day(day: int, rng: random.Random) -> tuple[list, list]:
    """The day's acts of the books before its first round and after its last, as the table journals them."""
    def chips() -> dict[str, int]:
        return {"500": rng.randint(100, 400), "2500": rng.randint(40, 160), "10000": rng.randint(5, 40)}
    opening = [("pit", act("opener", {"chips": chips()}, "S-1", source="screen"), None)]
    closing = [("pit", act("fill", {"chips": {"2500": rng.randint(10, 60)}, "carrier": "R-17", "slip": f"F-{day}"},
                           "S-1", source="screen"), None),
               ("pit", act("credit", {"chips": {"500": rng.randint(10, 60)}, "carrier": "C-3", "slip": f"C-{day}"},
                           "S-1", source="screen"), None),
               ("pit", act("closer", {"chips": chips()}, "S-1", source="screen"), None),
               ("pit", act("drop", {"amount": rng.randint(100_000, 2_000_000), "second": "S-2"}, "S-1",
                           source="screen"), None)]
    return opening, closing


def build(directory: Path, rounds: int) -> float:
    started = time.perf_counter()
    rng = random.Random(2025)
    clock = Clock(rounds)
    meter, carry = RULES["progressive"]["meter"], 0
    per_day = max(1, rounds // 365)
    with Journal.open(directory, clock=clock) as j:
        batch: list = []
        for n in range(1, rounds + 1):
            day, into = divmod(n - 1, per_day)
            if into == 0:
                opening, closing = books_of_a_day(day, rng)
                batch += opening
            items, meter, carry = one_round(n, rng, meter, carry)
            batch += items
            if n % 10 == 0:
                batch.append(("pit", act("buy-in", {"seat": rng.randint(1, 7), "amount": rng.choice((10_000, 20_000,
                                                                                                     50_000))},
                                         "D-900", source="panel"), None))
            if into == per_day - 1 or n == rounds:
                batch += closing
            if len(batch) >= 5000 or n == rounds:
                j.append_many(batch)
                batch = []
            if n % 50_000 == 0:
                print(f"  built {n:,} rounds ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    (directory / "rounds").write_text(f"{rounds} {BOOKS_VERSION}")
    return time.perf_counter() - started


BARE = """
SELECT w.key, sum(CASE WHEN json_extract(w.value, '$.outcome') IN ('void', 'push')
                        AND json_extract(w.value, '$.net') = 0 THEN 0
                   ELSE json_extract(w.value, '$.stake') END),
       -sum(json_extract(w.value, '$.net')), count(DISTINCT e.seq)
FROM entries e, json_each(e.payload, '$.settlement.seats') s, json_each(s.value) w
WHERE e.kind = 'round-record' AND e.at >= ? AND e.at < ? AND w.type = 'object'
GROUP BY w.key
"""
BARE_METER = """
SELECT json_extract(payload, '$.reason'), sum(json_extract(payload, '$.amount'))
FROM entries WHERE kind = 'meter' AND at >= ? AND at < ? GROUP BY 1
"""
BARE_BOOKS = """
SELECT json_extract(payload, '$.act'), sum(json_extract(payload, '$.amount')), min(seq), max(seq)
FROM entries WHERE kind = 'pit' AND at >= ? AND at < ? GROUP BY 1
"""
BARE_BOOKS_AT = "SELECT json_extract(payload, '$.amount') FROM entries WHERE seq = ?"
PERIOD = ("2025-01-01T00:00:00.000000Z", "2026-01-01T00:00:00.000000Z")


def bare(directory: Path) -> tuple[float, dict]:
    started = time.perf_counter()
    conn = sqlite3.connect(f"file:{directory / 'journal.db'}?mode=ro", uri=True)
    try:
        wagers = {k: {"handle": h, "house_win": w} for k, h, w, _ in conn.execute(BARE, PERIOD)}
        meter = dict(conn.execute(BARE_METER, PERIOD).fetchall())
        acts = {a: (total, first, last) for a, total, first, last in conn.execute(BARE_BOOKS, PERIOD)}
        opener = conn.execute(BARE_BOOKS_AT, (acts["opener"][1],)).fetchone()[0]   # the period's first
        closer = conn.execute(BARE_BOOKS_AT, (acts["closer"][2],)).fetchone()[0]   # and its last
    finally:
        conn.close()
    books = {"opener": opener, "closer": closer, "fills": acts["fill"][0], "credits": acts["credit"][0],
             "drop": acts["drop"][0], "estimated_drop": acts["buy-in"][0]}
    books["win"] = books["closer"] - books["opener"] + books["credits"] - books["fills"] + books["drop"]
    return time.perf_counter() - started, {"wagers": wagers, "contributions": meter.get("contribution", 0),
                                           "books": books}


def report(directory: Path) -> tuple[float, dict]:
    tablectl = Path(sys.executable).parent / "tablectl"
    started = time.perf_counter()
    done = subprocess.run([str(tablectl), "report", "--data-dir", str(directory), "--from", "2025-01-01",
                           "--to", "2026-01-01", "--json"], capture_output=True, text=True, check=True)
    return time.perf_counter() - started, json.loads(done.stdout)


def children_cpu() -> float:
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=500_000)
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    directory = args.dir or Path(tempfile.gettempdir()) / f"tablectl-report-bench-{args.rounds}"
    if not (directory / "rounds").exists() or (directory / "rounds").read_text() != f"{args.rounds} {BOOKS_VERSION}":
        if directory.exists() and any(p.name != "rounds" and not p.name.startswith("journal")
                                      for p in directory.iterdir()):
            raise SystemExit(f"{directory} holds something else; give another --dir")
        for old in directory.glob("journal*"):   # a journal of this benchmark built before the books
            old.unlink()
        directory.mkdir(parents=True, exist_ok=True)
        print(f"building a journal of {args.rounds:,} rounds in {directory} ...", file=sys.stderr)
        print(f"built in {build(directory, args.rounds):.0f} s", file=sys.stderr)
    size = sum(p.stat().st_size for p in directory.glob("journal.db*"))
    bare(directory), report(directory)   # warm the page cache for both
    times: dict[str, list[float]] = {"report": [], "bare": []}
    cpu: dict[str, list[float]] = {"report": [], "bare": []}
    for _ in range(args.repeat):
        c = children_cpu()
        t, rep = report(directory)
        times["report"].append(t)
        cpu["report"].append(children_cpu() - c)
        c = time.process_time()
        t, sums = bare(directory)
        times["bare"].append(t)
        cpu["bare"].append(time.process_time() - c)
    table = rep["tables"][0]
    for name, w in sums["wagers"].items():
        assert (table["wagers"][name]["handle"], table["wagers"][name]["house_win"]) == \
            (w["handle"], w["house_win"]), (name, table["wagers"][name], w)
    assert table["progressive"]["contributions"] == sums["contributions"]
    pit = table["pit"]
    assert {k: pit[k] for k in sums["books"]} == sums["books"], (pit, sums["books"])
    assert table["rounds"] == args.rounds, table["rounds"]
    r, b = statistics.median(times["report"]), statistics.median(times["bare"])
    print(f"journal: {args.rounds:,} rounds, {size / 1e9:.2f} GB; figures agree to the cent "
          f"(handle {table['handle']}, house win {table['house_win']}, contributions {sums['contributions']}; "
          f"the books' win {pit['win']} on a drop of {pit['drop']}, {pit['acts']} acts)")
    print(f"{'':<34}{'median s':>10}{'runs':>30}")
    print(f"{'tablectl report --json (a year)':<34}{r:>10.2f}{'  ' + ' '.join(f'{x:.2f}' for x in times['report']):>30}")
    print(f"{'bare SQL aggregate (baseline)':<34}{b:>10.2f}{'  ' + ' '.join(f'{x:.2f}' for x in times['bare']):>30}")
    rc, bc = statistics.median(cpu["report"]), statistics.median(cpu["bare"])
    print(f"{'CPU s: report, bare':<34}{rc:>10.2f}{bc:>10.2f}")
    print(f"report / bare: {r / b:.2f}x on the clock, {rc / bc:.2f}x in CPU (target <= {TARGET}x)")
    return 0 if r / b <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
