"""The report's hours are the casino's (the profile's `timezone`): a zone half an hour off UTC has
its own hours, and a day whose clock goes back has two hours that read 01:00, each its own."""

from __future__ import annotations

from controller.journal.store import Entry
from controller.report.facts import facts_of
from controller.report.figures import hour_of, table_report
from controller.report.period import resolve


def a_round(seq: int, at: str) -> Entry:
    settlement = {"game": "casino-war", "seats": [{"seat": 1, "initial": {"stake": 1000, "outcome": "lose",
                                                                           "net": -1000}}]}
    return Entry(seq, "round-record", f"CW-01-{seq:06d}", at, {"game": "casino-war", "settlement": settlement},
                 b"", b"")


def test_an_hour_is_the_start_of_the_casinos_hour_as_an_instant():
    # Kolkata is UTC+05:30: 21:10 there is 15:40Z, in the hour that started at 21:00 = 15:30Z
    assert hour_of("2026-12-01T15:40:00.000001Z", "Asia/Kolkata") == "2026-12-01T15:30:00Z"
    assert hour_of("2026-12-01T15:29:59.999999Z", "Asia/Kolkata") == "2026-12-01T14:30:00Z"
    assert hour_of("2026-12-01T15:30:00.000000Z", "Asia/Kolkata") == "2026-12-01T15:30:00Z"
    assert hour_of("2026-12-01T15:40:00.000001Z", "UTC") == "2026-12-01T15:00:00Z"
    assert hour_of("2026-12-01T15:40:00.000001Z") == "2026-12-01T15:00:00Z"   # UTC when no zone is given
    # Chatham is UTC+13:45 in its summer: its hours start at :15 UTC
    assert hour_of("2026-12-01T15:10:00.000000Z", "Pacific/Chatham") == "2026-12-01T14:15:00Z"


def test_hours_across_a_half_hour_zone_and_a_clock_going_back():
    # New York goes back on 2026-11-01 at 02:00 EDT (06:00Z) to 01:00 EST: 01:00-02:00 happens twice
    times = ["2026-11-01T05:10:00.000000Z",   # 01:10 EDT
             "2026-11-01T05:50:00.000000Z",   # 01:50 EDT
             "2026-11-01T06:10:00.000000Z",   # 01:10 EST: the second 01:00 hour
             "2026-11-01T07:05:00.000000Z"]   # 02:05 EST
    facts = list(facts_of(a_round(i + 1, at) for i, at in enumerate(times)))
    period = resolve(day="2026-10-31", day_start="06:00", zone_name="America/New_York")
    assert period.zone == "America/New_York"
    t = table_report(facts, "CW-01", None, *period, zone=period.zone)
    assert [(h["hour"], h["rounds"]) for h in t["by_hour"]] == [
        ("2026-11-01T05:00:00Z", 2), ("2026-11-01T06:00:00Z", 1), ("2026-11-01T07:00:00Z", 1)]
    assert sum(h["handle"] for h in t["by_hour"]) == t["handle"] == 4000

    # the same rounds on Kolkata's clock fall in its hours, which start at half past (05:10Z is 10:40 there,
    # 05:50Z and 06:10Z are 11:20 and 11:40, 07:05Z is 12:35)
    t = table_report(facts, "CW-01", None, "2026-11-01T00:00:00.000000Z", "2026-11-02T00:00:00.000000Z",
                     zone="Asia/Kolkata")
    assert [(h["hour"], h["rounds"]) for h in t["by_hour"]] == [
        ("2026-11-01T04:30:00Z", 1), ("2026-11-01T05:30:00Z", 2), ("2026-11-01T06:30:00Z", 1)]


def test_hours_across_a_clock_going_forward():
    # New York goes forward on 2026-03-08 at 02:00 EST (07:00Z) to 03:00 EDT: no 02:00 hour that day
    times = ["2026-03-08T06:59:59.000000Z", "2026-03-08T07:00:00.000000Z", "2026-03-08T07:59:00.000000Z"]
    facts = list(facts_of(a_round(i + 1, at) for i, at in enumerate(times)))
    t = table_report(facts, "CW-01", None, "2026-03-08T00:00:00.000000Z", "2026-03-09T00:00:00.000000Z",
                     zone="America/New_York")
    assert [(h["hour"], h["rounds"]) for h in t["by_hour"]] == [("2026-03-08T06:00:00Z", 1),   # 01:00 EST
                                                                ("2026-03-08T07:00:00Z", 2)]   # 03:00 EDT
