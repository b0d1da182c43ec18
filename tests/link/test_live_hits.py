"""Hits at live tables paid from the one pool (issue 10; 9 NYCRR 5321.18(b)(3)(iii), 5324.37(f)-(g)).

Two live Caribbean stud tables (controller/table.py, emulated devices, each with
its `[link]`) are dealt a royal flush each from stacked decks, and both settle in
the same instant. The database orders the two claims: the first takes the whole
meter, the meter reseeds at once, the second takes the meter as it stood at its
turn. Each round then waits for the pool's award, and its record pays exactly
what the pool paid; one win is validated (paid at the pool), the other refused
(voided at the pool, which puts the award back in its meter). Afterwards each
table's journal agrees with the pool (`tablectl link check --journal`), each
journal's ledger balances, and the pool's meter = seed + contributions - awards.

A second test stops a table while its claim cannot reach the pool and starts it
again: the claim is found in the journal (from the round's snapshot on, not the
whole journal), sent, and the round gets the pool's award.
"""

from __future__ import annotations

import argparse
import sys
import threading

from tests.link.link_helpers import ROYAL_AT_SEAT_1, ROYAL_AT_SEAT_1_CLUBS, close, deal_royal
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import fill_in_hand_pay, wait_until


def record_of(server: LiveServer, rid: str) -> dict:
    async def read():
        return server.table.journal.round_record(rid).payload
    return server.call(read())


def journal_check(env, server: LiveServer, table_id: str) -> dict:
    from controller.link.journalcheck import compare_journal

    async def read():
        return compare_journal(env.admin, "cs", table_id, server.table.journal)
    return server.call(read())


def ledger(server: LiveServer):
    from controller.runtime.ledger import of_journal

    async def read():
        return of_journal(server.table.journal)
    return server.call(read())


def test_two_royals_at_two_live_tables_in_the_same_instant_are_paid_in_the_pools_order(env, tables, capsys,
                                                                                       monkeypatch):
    env.create_pool("cs")
    seed = env.admin.execute("SELECT meter_units / 10000 FROM link.pools WHERE name = 'cs'").fetchone()[0]
    a, b = tables("CS-A", 41), tables("CS-B", 42)
    rounds = {"CS-A": deal_royal(a, ROYAL_AT_SEAT_1), "CS-B": deal_royal(b, ROYAL_AT_SEAT_1_CLUBS)}

    barrier = threading.Barrier(2)
    answers: dict[str, dict] = {}

    def settle(name: str, server: LiveServer) -> None:
        barrier.wait()
        answers[name] = server.submit({"type": "settle"})

    threads = [threading.Thread(target=settle, args=(n, s)) for n, s in (("CS-A", a), ("CS-B", b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(answers[n]["ok"] for n in answers), answers
    for server in (a, b):
        state = wait_until(server, lambda s: s["validations"] and s["validations"][0]["award"] is not None,
                           "the pool's award in the round")
        assert state["round"]["state"] == "validation"

    awards = env.admin.execute("SELECT seq, table_name, round_id, seat, hand, amount_cents, meter_before_cents, "
                               "meter_after_cents FROM link.awards ORDER BY seq").fetchall()
    assert [r[1:5] for r in sorted(awards, key=lambda r: r[1])] == [
        ("CS-A", rounds["CS-A"], 1, "royal-flush"), ("CS-B", rounds["CS-B"], 1, "royal-flush")]
    first, second = awards
    units = env.admin.execute("SELECT sum(units)::bigint FROM link.contributions").fetchone()[0]
    reset = env.admin.execute("SELECT (params ->> 'reset')::bigint FROM link.pools WHERE name = 'cs'").fetchone()[0]
    # the first in commit order takes the whole meter: seed and both tables' contributions; the meter
    # reseeds at once and the second royal takes the meter as it stood at its turn: the reset
    assert first[5] == first[6] == seed + units // 10000 and first[7] == reset
    assert second[5] == second[6] == reset

    for (_, table, _rid, _seat, _, amount, before, _) in awards:
        server = a if table == "CS-A" else b
        v = server.published()["validations"][0]
        assert (v["seat"], v["award"], v["meter"], v["pool"]) == (1, amount, before, "cs")

    # A's supervisor validates; B's refuses (the pool voids it, its meter gets the award back)
    assert a.submit({"type": "validate", "seat": 1}, source="supervisor", who="Pat Jones")["ok"]
    fill_in_hand_pay(a, 1, "Pat Jones")   # the royal is a hand-pay (issue 29 item 6): its form
    assert b.submit({"type": "refuse", "seat": 1, "reason": "acceptor light not lit"}, source="supervisor",
                    who="Sam Lee")["ok"]
    for server in (a, b):
        wait_until(server, lambda s: s["round"]["state"] == "closed" and not s["progressive"]["asked"]
                   and not s["progressive"]["pending"], "the round closed and its award settled at the pool")
    status = dict(env.admin.execute("SELECT table_name, status FROM link.awards").fetchall())
    assert status == {"CS-A": "paid", "CS-B": "voided"}
    amount = {r[1]: r[5] for r in awards}

    rec_a, rec_b = record_of(a, rounds["CS-A"]), record_of(b, rounds["CS-B"])
    seat_a = next(s for s in rec_a["settlement"]["seats"] if s["seat"] == 1)
    assert seat_a["progressive"] == {"stake": 100, "outcome": "win", "net": amount["CS-A"] - 100,
                                     "award": amount["CS-A"]}
    assert rec_a["validated"] == {"1": "Pat Jones"} and rec_a["pool"] == "cs"
    assert rec_b["refused"]["1"]["supervisor"] == "Sam Lee" and rec_b["refused"]["1"]["award"] == amount["CS-B"]
    # the table's own meter did not move: the pool's paid (no meter entries in either round)
    for server in (a, b):
        led = ledger(server)
        assert led.problems == []
        assert led.meter["contributions"] == 0 and led.meter["final"] == led.meter["initial"]
    assert ledger(a).nets["progressive"] == amount["CS-A"] - 100
    assert ledger(b).nets["progressive"] == -100          # refused: the award was never paid

    # the books: meter = seed + contributions - awards paid (a voided award went back)
    check = env.assert_books("cs")
    meter = env.admin.execute("SELECT meter_units FROM link.pools WHERE name = 'cs'").fetchone()[0]
    assert meter == reset * 10000 + amount["CS-B"] * 10000 - 0 or meter == check["meter_units"]
    assert meter == check["meter_units"]
    for server, tid in ((a, "CS-A"), (b, "CS-B")):
        j = journal_check(env, server, tid)
        assert j["differences"] == [] and j["unconfirmed"] == [] and j["rounds"] == 1, j

    # and through the command line, as the regulator runs it
    from controller.link.cli import main
    monkeypatch.setenv("PGPASSWORD", env.pg.password)
    monkeypatch.setenv("TABLECTL_LINK_DSN", f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}")
    for server in (a, b):
        close(server)
    capsys.readouterr()
    code = main(argparse.Namespace(rest=["check", "cs", "--journal", f"CS-A={env.tmp / 'data-CS-A'}",
                                         "--journal", f"CS-B={env.tmp / 'data-CS-B'}"]))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "CS-A: journal agrees" in out and "CS-B: journal agrees" in out
    # `tablectl meters` on a linked table names the pool's meter rather than a stale one of its own
    import subprocess
    shown = subprocess.run([sys.executable, "-m", "controller.cli", "meters", "--data-dir",
                            str(env.tmp / "data-CS-A")], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    # ... as the pool last confirmed it (issue 29), and no meter of the table's own beside it
    assert "linked: the meter is the pool 'cs'" in shown.stdout and "last confirmed $" in shown.stdout
    assert len(shown.stdout.strip().splitlines()) == 1, shown.stdout


def test_the_journal_check_finds_a_round_record_that_pays_other_than_the_pool(env, tables):
    env.create_pool("cs")
    a = tables("CS-A", 43)
    rid = deal_royal(a, ROYAL_AT_SEAT_1)
    assert a.submit({"type": "settle"})["ok"]
    wait_until(a, lambda s: s["validations"] and s["validations"][0]["award"] is not None, "the pool's award")
    assert a.submit({"type": "validate", "seat": 1}, source="supervisor", who="Pat Jones")["ok"]
    fill_in_hand_pay(a, 1, "Pat Jones")   # the royal is a hand-pay (issue 29 item 6): its form
    wait_until(a, lambda s: s["round"]["state"] == "closed" and not s["progressive"]["asked"], "closed")
    assert journal_check(env, a, "CS-A")["differences"] == []
    # the pool's record altered behind the table's back (as a superuser could): the check names it
    env.admin.execute("UPDATE link.awards SET amount_cents = amount_cents + 1 WHERE round_id = %s", (rid,))
    found = journal_check(env, a, "CS-A")["differences"]
    assert any(f"round {rid} seat 1: the pool awarded" in d for d in found), found


def test_a_claim_that_cannot_reach_the_pool_is_sent_after_a_restart_and_its_award_paid(env, tables, monkeypatch):
    import controller.runtime.linked as linked
    monkeypatch.setattr(linked, "DRAIN_PATIENCE", 0.5)   # the close does not wait for a pool that is down
    env.create_pool("cs")
    a = tables("CS-A", 44)
    rid = deal_royal(a, ROYAL_AT_SEAT_1)
    with env.database_down():
        assert a.submit({"type": "settle"})["ok"]
        state = wait_until(a, lambda s: s["round"]["state"] == "validation" and not s["progressive"]["available"],
                           "the round waiting for the pool, the link down")
        assert state["validations"][0]["award"] is None and "waiting for the pool" in state["validations"][0]["waiting"]
        # the dealer is told why the table waits: the win is paid before the cards are collected
        assert "5324.37(f)(1)" in state["round"]["next_step"] and "pool cs" in state["round"]["next_step"]
        assert not [b for b in state["round"]["buttons"] if b["event"] == "next_round" and b["enabled"]]
        refused = a.submit({"type": "validate", "seat": 1}, source="supervisor", who="Pat Jones")
        assert not refused["ok"] and "has not answered the round's claim" in refused["error"]
        close(a)
    again = tables("CS-A", 44, data=env.tmp / "data-CS-A")
    state = wait_until(again, lambda s: s["round"]["id"] == rid and s["validations"]
                       and s["validations"][0]["award"] is not None, "the pool's award after the restart", 30)
    (amount,) = env.admin.execute("SELECT amount_cents FROM link.awards WHERE round_id = %s", (rid,)).fetchone()
    assert state["validations"][0]["award"] == amount
    assert again.submit({"type": "validate", "seat": 1}, source="supervisor", who="Pat Jones")["ok"]
    fill_in_hand_pay(again, 1, "Pat Jones")   # the royal is a hand-pay (issue 29 item 6): its form
    wait_until(again, lambda s: s["round"]["state"] == "closed" and not s["progressive"]["asked"], "closed")
    j = journal_check(env, again, "CS-A")
    assert j["differences"] == [] and j["unconfirmed"] == [], j
    assert ledger(again).problems == []
    env.assert_books("cs")


def test_a_table_started_while_its_pool_is_down_plays_the_base_game_with_its_meter_display_blank(env, tables):
    """5321.18(c) from the first moment: no meter is shown that the pool did not give, no
    progressive wager is recognized, antes are taken; the pool reached, all of it comes back."""
    from drivers.progressive import protocol as pp
    env.create_pool("cs")
    env.link_configs["CS-A"] = env.add_table("cs", "CS-A")   # the table's role, while the pool is up
    with env.database_down():
        a = tables("CS-A", 45)
        state = wait_until(a, lambda s: s["round"]["state"] == "open" and s["progressive"]["available"] is False,
                           "the first round open with the pool out of reach")
        assert state["progressive"]["meter"] is None and "no progressive wager" in state["round"]["next_step"]
        world = a.table.devices.world
        wait_until(a, lambda s: world.progressive.meter is not None, "the meter display set")
        assert world.progressive.meter.mode == pp.MeterMode.BLANK
        assert a.submit({"type": "ante", "seat": 1, "amount": 500})["ok"]
        refused = a.submit({"type": "progressive", "seat": 1}, source="device")
        assert not refused["ok"] and "5321.18(c)" in refused["error"]
    state = wait_until(a, lambda s: s["progressive"]["available"], "the pool reached", 20)
    assert state["progressive"]["meter"] == env.admin.execute(
        "SELECT meter_units / 10000 FROM link.pools WHERE name = 'cs'").fetchone()[0]
    wait_until(a, lambda s: world.progressive.meter.mode == pp.MeterMode.SHOW
               and world.progressive.meter.cents == state["progressive"]["meter"], "the pool's meter on the display")
