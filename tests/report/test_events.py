"""Significant events with who and when, the gaming day and its shifts, and the formats."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path

import pytest

from controller.journal.store import Entry
from controller.report.facts import facts_of
from controller.report.figures import table_report
from controller.report.period import PeriodError, resolve
from tests.report.report_helpers import tablectl
from tests.table.table_helpers import deck_ready, running, stud_profile, until


def test_a_supervisors_void_correction_and_a_refused_event_are_reported_with_who(tmp_path):
    """On the live table: a correction asked for mid-round (refused), the round voided, the meter
    corrected between rounds: each in the report with the supervisor and the time, the correction
    with its reason and amount, the void counted apart from the rounds played."""
    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded")
            await table.submit({"type": "correct_meter", "amount": 2_600_000, "reason": "audit"},
                               source="supervisor", who="S-3")
            await table.submit({"type": "void_round", "reason": "table closing"}, source="supervisor", who="S-3")
            fix = await table.submit({"type": "correct_meter", "amount": 2_600_000, "reason": "meter reading"},
                                     source="supervisor", who="S-4")   # asks; a correction takes two (issue 28)
            assert fix["ok"], fix
            second = await table.submit({"type": "correct_meter", "amount": 2_600_000, "reason": "meter reading"},
                                        source="supervisor", who="S-3")
            assert second["ok"], second
    asyncio.run(asyncio.wait_for(scenario(), 60))

    table = json.loads(tablectl("report", "--data-dir", str(tmp_path), "--from", "2000-01-01", "--json", "--demo").stdout
                       )["tables"][0]
    kinds = [(e["kind"], e["who"]) for e in table["events"]]
    assert ("refused", "S-3") in kinds
    assert ("supervisor:void_round", "S-3") in kinds and ("void", None) in kinds
    assert ("supervisor:correct_meter", "S-3") in kinds
    assert ("software-accepted", None) in kinds
    refused = next(e for e in table["events"] if e["kind"] == "refused")
    assert refused["detail"].startswith("correct_meter:") and "between rounds" in refused["detail"]
    assert all(e["at"].endswith("Z") for e in table["events"])
    assert (table["rounds"], table["voided"]) == (0, 1)
    p = table["progressive"]
    assert p["corrections"] == 100_000 and p["meter_close"] == 2_600_000 == p["meter_open"] + 100_000
    assert [(c["who"], c["why"], c["amount"]) for c in p["correction_list"]] == [("S-3", "meter reading", 100_000)]
    text = tablectl("report", "--data-dir", str(tmp_path), "--from", "2000-01-01", "--demo").stdout
    assert "correction $1,000.00 at " in text and "by S-3: meter reading" in text
    rows = list(csv.reader(io.StringIO(tablectl("report", "--data-dir", str(tmp_path), "--from", "2000-01-01",
                                                "--csv", "--demo").stdout)))
    assert rows[0] == ["table", "game", "section", "item", "value"]
    assert [r[4] for r in rows if r[2:4] == ["progressive", "corrections"]] == ["100000", "100000"]   # table, TOTAL


def entry(seq: int, kind: str, payload: dict, round_id: str | None = None, at: str | None = None) -> Entry:
    return Entry(seq, kind, round_id, at or f"2026-12-01T10:00:{seq:02d}.000000Z", payload, b"", b"")


def test_faults_alarms_devices_and_the_link_are_significant_events():
    entries = [
        entry(1, "software-accepted", {"by": "S-9", "digest": "ab" * 32}),
        entry(2, "device", {"device": "shoe", "state": "connected", "detail": "SIM"}),
        entry(3, "device", {"device": "shoe", "state": "disconnected", "detail": "cable"}),
        entry(4, "alarm", {"kind": "late_wager", "message": "seat 3 late"}),
        entry(5, "fault", {"source": "journal", "problems": [{"detail": "seal differs"}]}),
        entry(6, "fault-cleared", {"by": "S-9", "note": "restored from backup"}),
        entry(7, "link-status", {"playable": False, "reason": "pool unreachable"}),
        entry(8, "link-status", {"playable": True, "reason": None}),
        entry(9, "event", {"event": {"type": "ante", "seat": 1, "amount": 500}, "source": "panel", "who": "dealer"}),
    ]
    events = [(f["kind"], f["who"], f["detail"]) for f in facts_of(entries)]
    assert events == [("software-accepted", "S-9", "software " + "ab" * 8),
                      ("device", "shoe", "disconnected: cable"),
                      ("alarm", "device", "late_wager: seat 3 late"),
                      ("fault", "journal", "seal differs"),
                      ("fault-cleared", "S-9", "restored from backup"),
                      ("link-status", "link", "pool unreachable")]


def test_the_period_bounds_what_is_added_up_and_the_meter_at_open_comes_from_before_it():
    entries = [
        entry(1, "snapshot", {"meters": {"progressive": {"amount": 1000, "carry": 0}}}, at="2026-11-30T05:00:00.000000Z"),
        entry(2, "meter", {"meter": "progressive", "reason": "contribution", "before": 1000, "after": 1070,
                           "amount": 70}, "CS-01-000001", at="2026-11-30T05:59:59.999999Z"),
        entry(3, "meter", {"meter": "progressive", "reason": "contribution", "before": 1070, "after": 1140,
                           "amount": 70}, "CS-01-000002", at="2026-11-30T06:00:00.000000Z"),
        entry(4, "meter", {"meter": "progressive", "reason": "award", "before": 1140, "after": 1140, "amount": 5000,
                           "from_meter": False, "hand": "flush"}, "CS-01-000002", at="2026-11-30T06:00:00.000001Z"),
        # the round's record: its flush validated, so paid and a hit (issue 29: until then it is pending)
        entry(6, "round-record", {"game": "caribbean-stud", "round": "CS-01-000002",
                                  "record": {"game": "caribbean-stud"}, "settlement": {"seats": []},
                                  "validated": {"1": "S-9"}}, "CS-01-000002", at="2026-11-30T06:00:00.000002Z"),
        entry(5, "meter", {"meter": "progressive", "reason": "contribution", "before": 1140, "after": 1210,
                           "amount": 70}, "CS-01-000003", at="2026-12-01T06:00:00.000000Z"),
    ]
    period = resolve(day="2026-11-30", day_start="06:00", zone_name="UTC")
    assert period == ("2026-11-30T06:00:00.000000Z", "2026-12-01T06:00:00.000000Z")
    p = table_report(list(facts_of(entries)), "CS-01", "caribbean-stud", *period)["progressive"]
    assert (p["meter_open"], p["meter_close"], p["contributions"], p["awards_house"]) == (1070, 1140, 70, 5000)
    assert p["hits"] == {"flush": 1} and p["pending"] == []
    undecided = [e for e in entries if e.kind != "round-record"]
    p = table_report(list(facts_of(undecided)), "CS-01", "caribbean-stud", *period)["progressive"]
    assert (p["awards_house"], p["hits"]) == (0, {})   # waiting for a supervisor: not paid, not a hit
    assert p["pending"] == [{"round": "CS-01-000002", "seat": None, "hand": "flush", "amount": 5000}]


def test_a_gaming_day_starts_at_the_profiles_hour_on_the_casinos_clock():
    from datetime import datetime, timezone
    ny = dict(day_start="06:00", zone_name="America/New_York")
    assert resolve(day="2026-12-01", **ny) == ("2026-12-01T11:00:00.000000Z", "2026-12-02T11:00:00.000000Z")
    # 3 a.m. in New York is still the gaming day that began yesterday at 6
    early = datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc)
    assert resolve(now=early, **ny) == resolve(day="2026-12-01", **ny)
    assert resolve(day="2026-12-01", shift=2, **ny) == ("2026-12-01T19:00:00.000000Z", "2026-12-02T03:00:00.000000Z")
    # the day the clocks go back has 25 hours, its shifts 8 h 20 min
    assert resolve(day="2026-10-31", **ny) == ("2026-10-31T10:00:00.000000Z", "2026-11-01T11:00:00.000000Z")
    assert resolve(day="2026-10-31", shift=1, **ny)[1] == "2026-10-31T18:20:00.000000Z"
    assert resolve(start="2026-12-01T06:00", end="2026-12-01T07:00", **ny) == (
        "2026-12-01T11:00:00.000000Z", "2026-12-01T12:00:00.000000Z")
    for bad in ({"start": "2026-12-02", "end": "2026-12-01"}, {"day": "yesterday"}, {"day": "2026-12-01", "shift": 4},
                {"day": "2026-12-01", "start": "2026-12-01"}):
        with pytest.raises(PeriodError):
            resolve(**bad, **ny)
    with pytest.raises(PeriodError):
        resolve(day="2026-12-01", day_start="06:00", zone_name="Mars/Olympus")


def test_a_period_the_command_cannot_cover_is_refused_by_name(tmp_path):
    done = tablectl("report", "--data-dir", str(tmp_path), "--from", "2026-12-02", "--to", "2026-12-01", check=False)
    assert done.returncode == 2 and "--to must come after --from" in done.stderr


def test_a_floor_block_is_read_strictly_and_its_files_are_beside_the_profile(tmp_path):
    from controller.config import ConfigError, load_profile
    base = (Path(__file__).resolve().parents[2] / "config" / "casino-war.toml").read_text().split("[screen]")[0]
    good = tmp_path / "good.toml"
    good.write_text(base + '[floor]\nurl = "postgresql://floor_cw01@127.0.0.1/casino"\npassword_file = "cw.pass"\n')
    floor = load_profile(good).floor
    assert floor.password_file == tmp_path / "cw.pass" and floor.retry_ms == 2000 and floor.outbox is None
    assert load_profile(good).table.gaming_day_start == "06:00"
    bad = tmp_path / "bad.toml"
    bad.write_text(base.replace('name = "', 'gaming_day_start = "25:00"\nname = "', 1)
                   + '[floor]\nurl = "http://floor"\nretry = 5\n')
    with pytest.raises(ConfigError) as refused:
        load_profile(bad)
    text = str(refused.value)
    assert "floor.url" in text and "floor.retry: unknown key" in text and "gaming_day_start" in text


def test_a_misdeal_is_a_round_with_every_wager_returned_and_an_event():
    seats = [{"seat": 1, "ante": {"stake": 500, "outcome": "void", "net": 0},
              "progressive": {"stake": 100, "outcome": "void", "net": 0}}]
    entries = [entry(1, "round-record", {"game": "caribbean-stud", "misdeal": "a card flashed (5324.37(h))",
                                         "settlement": {"game": "caribbean-stud", "seats": seats}}, "CS-01-000001"),
               entry(2, "round-record", {"game": "caribbean-stud", "settlement": {"game": "caribbean-stud", "seats": [
                   {"seat": 2, "ante": {"stake": 1000, "outcome": "push", "net": 0},
                    "bet": {"stake": 2000, "outcome": "lose", "net": -2000}}]}}, "CS-01-000002")]
    t = table_report(list(facts_of(entries)), "CS-01", None, "2026-12-01T00:00:00.000000Z",
                     "2026-12-02T00:00:00.000000Z")
    assert (t["rounds"], t["voided"], t["handle"], t["house_win"]) == (2, 0, 2000, 2000)
    assert t["wagers"]["ante"] == {"handle": 0, "paid": 0, "house_win": 0, "hold_bp": None}
    assert t["wagers"]["bet"]["hold_bp"] == 10_000
    assert [(e["kind"], e["detail"]) for e in t["events"]] == [("misdeal", "a card flashed (5324.37(h))")]
