"""The report of a table on a linked progressive: its share of the pool's books, read from its journal.

Two live Caribbean stud tables (`tablectl run --autoplay`, then the same table dealt stacked hands
in-process) play on one pool in the PostgreSQL the tests start. The report of each says what the
pool says of that table: its contributions to the unit, the awards it paid (a refused one not),
the pool's meter as its journal last knew it. The floor's report of the tables says the same.
"""

from __future__ import annotations

import json
import os
import subprocess

from controller.journal.store import Entry
from controller.report.facts import facts_of
from controller.report.figures import table_report
from tests.link.link_helpers import ROYAL_AT_SEAT_1, close, deal_royal, profile, run
from tests.report.report_helpers import TABLECTL, report_json, tablectl
from tests.ui.ui_helpers import fill_in_hand_pay, wait_until

FLUSH_AT_SEAT_1 = "2h 5h 8h Jh Kh As Kd 7c 4c 2s".split()        # a flush: a fixed award, the house's
ROYAL_AT_SEAT_1_CLUBS = "Ac Kc Qc Jc Tc As Kd 7h 4c 2s".split()


def hand(server, deck: list[str], decision: dict, hand_pay: bool = False) -> str:
    """A stacked round with a progressive hit at seat 1, settled, the pool's award taken, and the
    supervisor's decision on it; returns when the round is closed and settled at the pool."""
    if server.published()["round"]["state"] == "closed":
        server.table.devices.world.progressive.remove_wager(1)   # the last round's chip collected
        assert server.submit({"type": "next_round"})["ok"]
    rid = deal_royal(server, deck)
    assert server.submit({"type": "settle"})["ok"]
    wait_until(server, lambda s: s["validations"] and s["validations"][0]["award"] is not None,
               "the pool's award in the round", timeout=30)
    assert server.submit(decision, source="supervisor", who="Pat Jones")["ok"]
    if hand_pay:   # a validated win past the hand-pay threshold (issue 29 item 6): its tax form
        fill_in_hand_pay(server, 1, "Pat Jones")
    wait_until(server, lambda s: s["round"]["state"] == "closed" and not s["progressive"]["asked"]
               and not s["progressive"]["pending"], "the round closed and its award settled at the pool", timeout=30)
    return rid


def link_show(env) -> dict:
    done = subprocess.run([TABLECTL, "link", "show", "cs", "--json"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PGPASSWORD": env.pg.password,
                               "TABLECTL_LINK_DSN": f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_linked_tables_report_is_its_share_of_the_pools_books_and_the_floor_agrees(env, floor, tmp_path):
    from controller.config import load_profile
    from controller.table import Table
    from tests.ui.screens_fixtures import LiveServer
    env.create_pool("cs")
    cfgs = {tid: env.add_table("cs", tid) for tid in ("CS-L1", "CS-L2")}
    procs = {tid: run(env, profile(env, cfg, tid), tid, 6, 31 + i) for i, (tid, cfg) in enumerate(cfgs.items())}
    for tid, proc in procs.items():
        proc.communicate(timeout=80)
        assert proc.returncode == 0, (env.tmp / f"table-{tid}.err").read_text()[-3000:]

    # CS-L1 again, in-process: a royal validated (from the meter), a flush validated (the house's),
    # a royal refused (not paid: the pool voids it)
    data = env.tmp / "data-CS-L1"
    prof = load_profile(profile(env, cfgs["CS-L1"], "CS-L1"))
    server = LiveServer(lambda: Table(prof, data_dir=data, seed=5, screen=False), None)
    try:
        hand(server, ROYAL_AT_SEAT_1, {"type": "validate", "seat": 1}, hand_pay=True)
        hand(server, FLUSH_AT_SEAT_1, {"type": "validate", "seat": 1})
        hand(server, ROYAL_AT_SEAT_1_CLUBS, {"type": "refuse", "seat": 1, "reason": "a card exposed"})
    finally:
        close(server)

    shown = link_show(env)
    pool_contrib = {c["table"]: c for c in shown["contributions_per_table"]}
    reports = {tid: report_json(env.tmp / f"data-{tid}")["tables"][0] for tid in cfgs}
    for tid, t in reports.items():
        p = t["progressive"]
        assert p["pool"] == "cs"
        # contributions: to the unit what the pool holds from this table, in whole cents
        assert p["unconfirmed"] == 0
        assert p["contribution_units"] == pool_contrib[tid]["units"] > 0
        assert p["contributions"] == pool_contrib[tid]["units"] // 10_000
        assert t["wagers"]["progressive"]["handle"] == pool_contrib[tid]["stake_cents"]
        assert (p["seeded"], p["corrections"], p["correction_list"]) == (0, 0, [])

    # awards: what the pool paid this table, from its meter or the house's, the refused one not
    awards = env.admin.execute("SELECT table_name, hand, amount_cents, from_meter, status, meter_after_cents "
                               "FROM link.awards ORDER BY seq").fetchall()
    mine = [a for a in awards if a[0] == "CS-L1"]
    assert [(a[1], a[4]) for a in mine] == [("royal-flush", "paid"), ("flush", "paid"), ("royal-flush", "voided")]
    p1, p2 = reports["CS-L1"]["progressive"], reports["CS-L2"]["progressive"]
    assert p1["awards_meter"] == sum(a[2] for a in mine if a[4] == "paid" and a[3]) > 0
    assert p1["awards_house"] == sum(a[2] for a in mine if a[4] == "paid" and not a[3]) > 0
    assert p1["hits"] == {"flush": 1, "royal-flush": 1}
    assert (p2["awards_meter"], p2["awards_house"], p2["hits"]) == (0, 0, {})
    # the meter: none known before the journal's first answer; at close, the last the journal heard
    # (the refused royal's claim: the pool put the award back after, which no answer told the table)
    assert p1["meter_open"] is None and p1["meter_close"] == mine[-1][5]
    assert shown["meter_cents"] == mine[-1][5] + mine[-1][2]
    # the pool's books are the tables' contributions added up
    check = env.assert_books("cs")
    assert p1["contribution_units"] + p2["contribution_units"] == check["contribution_units"]

    # the same figures on the floor, from the facts each table sent (`floor init` again: safe)
    tablectl("floor", "init", "--url", floor.admin_url, "--password-file", str(floor.admin_pw), "--test")
    for tid in cfgs:
        url, pw = floor.add(tid)
        tablectl("floor", "send", "--data-dir", str(env.tmp / f"data-{tid}"), "--outbox",
                 str(tmp_path / f"{tid}.outbox"), "--url", url, "--password-file", str(pw))
    on_floor = floor.report()
    tables = {t["table"]: t for t in on_floor["tables"]}
    for tid in cfgs:
        assert tables[tid] == reports[tid]
    total = on_floor["total"]["progressive"]
    linked = [r["progressive"] for r in reports.values()]
    own = [t["progressive"] for t in on_floor["tables"] if t["table"] not in cfgs and t["progressive"]]
    assert total["contributions"] == sum(p["contributions"] for p in linked + own)
    assert total["awards_meter"] == sum(p["awards_meter"] for p in linked + own)
    # a pool's meter is not a sum of its tables: only the tables' own meters are added up
    assert total["meter_close"] == sum(p["meter_close"] or 0 for p in own)


def entry(seq: int, kind: str, payload: dict, round_id: str | None, at: str) -> Entry:
    return Entry(seq, kind, round_id, at, payload, b"", b"")


def op(seq: int, rid: str, seats: list[int], at: str) -> Entry:
    return entry(seq, "link-op", {"op": "contribution", "pool": "cs", "table": "CS-01", "ident": rid, "round": rid,
                                  "seats": seats}, rid, at)


def confirm(seq: int, rid: str, units: int, meter_units: int, at: str) -> Entry:
    return entry(seq, "link-confirm", {"op": "contribution", "ident": rid, "round": rid, "key": "k", "confirmed": True,
                                       "result": {"units": units, "stake_cents": units // 7000,
                                                  "meter_units_after": meter_units}}, rid, at)


def test_an_unconfirmed_contribution_counts_at_the_pools_last_rate_and_a_period_takes_what_it_asked():
    day = ("2026-12-01T06:00:00.000000Z", "2026-12-02T06:00:00.000000Z")
    entries = [
        entry(1, "snapshot", {"link": {"pool": "cs", "unconfirmed": []},
                              "meters": {"progressive": {"amount": 2_500_000}}}, None, "2026-12-01T05:00:00.000000Z"),
        op(2, "CS-01-000001", [1, 2], "2026-12-01T05:59:59.000000Z"),               # asked the day before ...
        confirm(3, "CS-01-000001", 1_400_000, 10_001_400_000, "2026-12-01T06:00:01.000000Z"),   # ... confirmed today
        op(4, "CS-01-000002", [3], "2026-12-01T07:00:00.000000Z"),
        entry(5, "link-confirm", {"op": "contribution", "ident": "CS-01-000002", "round": "CS-01-000002",
                                  "key": "k", "confirmed": False, "queued": "kept in the outbox"},
              "CS-01-000002", "2026-12-01T07:00:01.000000Z"),                       # the pool out of reach
        op(6, "CS-01-000003", [1, 4, 5], "2026-12-01T08:00:00.000000Z"),              # never answered
        confirm(7, "CS-01-000002", 700_000, 10_002_100_000, "2026-12-02T06:00:00.000000Z"),  # tomorrow
    ]
    facts = list(facts_of(entries))
    p = table_report(facts, "CS-01", "caribbean-stud", *day)["progressive"]
    # the day asked for two contributions, neither confirmed by its end: each at 700000 units a wager
    # (the last the pool confirmed); the one asked the day before is the day before's
    assert p["pool"] == "cs" and p["unconfirmed"] == 2
    assert p["contribution_units"] == 4 * 700_000 and p["contributions"] == 280
    # the table's own (standing) meter is not the pool's: the only reading is the pool's answer today
    assert (p["meter_open"], p["meter_close"]) == (None, 1_000_140)
    # the day before: its contribution, confirmed the next day, is counted as asked, at no known rate
    before = table_report(facts, "CS-01", "caribbean-stud", "2026-11-30T06:00:00.000000Z", day[0])["progressive"]
    assert (before["unconfirmed"], before["contribution_units"], before["meter_close"]) == (1, 0, None)
    # the next day: CS-01-000002's confirmation is no contribution of its own; the meter opens as last known
    after = table_report(facts, "CS-01", "caribbean-stud", day[1], "2026-12-03T06:00:00.000000Z")["progressive"]
    assert (after["contribution_units"], after["unconfirmed"], after["meter_open"]) == (0, 0, 1_000_140)
    assert after["meter_close"] == 1_000_210
