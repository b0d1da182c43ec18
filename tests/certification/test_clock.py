"""The clock watched (issue 28 item 7), with an injectable clock: a jump of the wall clock against the
monotonic one is journaled with both readings and shown as an alarm; a gaming day does not open on an
unsynchronised clock until a supervisor acknowledges it. And the screen's entry log (item 9)."""

from __future__ import annotations

import asyncio

from controller.clock import Clock, gaming_day, system_sync
from controller.journal import events as significant
from tests.table.table_helpers import running, stud_profile, until


class FakeClock:
    """A wall clock a test moves; the monotonic clock runs as it does."""

    def __init__(self) -> None:
        import time
        self.offset = 0.0
        self._time = time

    def wall(self) -> float:
        return self._time.time() + self.offset

    def monotonic(self) -> float:
        return self._time.monotonic()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_a_jump_is_journaled_with_both_readings_and_alarmed(tmp_path):
    fake = FakeClock()
    clock = Clock(wall=fake.wall, monotonic=fake.monotonic, check_s=0.02,
                  sync=lambda: {"sync": "synchronised", "source": "test", "detail": "NTPSynchronized=yes"})

    async def scenario():
        async with running(stud_profile(), tmp_path, emulate=True, clock=clock) as table:
            await until(lambda: table.published()["round"] is not None, "the table up")
            assert not [a for a in table.published()["alarms"] if a.get("kind") == "clock_jump"]
            fake.offset = -7.5   # the wall clock set back by hand
            await until(lambda: any(a.get("kind") == "clock_jump" for a in table.published()["alarms"]),
                        "the jump's alarm")
            done = await table.submit({"type": "acknowledge_clock", "reason": "set by the technician"},
                                      source="supervisor", who="S-1")
            assert done["ok"], done
            await until(lambda: not any(a.get("kind") == "clock_jump" for a in table.published()["alarms"]),
                        "the alarm cleared")
            return list(significant.of_journal(table.journal))
    found = run(scenario())
    jumps = [e for e in found if e["kind"] == "clock" and "jump" in e]
    assert len(jumps) == 1
    j = jumps[0]["jump"]
    assert -8000 < j["jump_ms"] < -7000
    assert {"wall_before", "wall_after", "monotonic_before_ms", "monotonic_after_ms"} <= set(j)
    assert any(e["kind"] == "alarm" and "clock_jump" in e["detail"] for e in found)
    assert [e["sync"] for e in found if e["kind"] == "clock"][0] == "synchronised"   # the start's reading


def test_a_gaming_day_waits_for_a_supervisor_on_an_unsynchronised_clock(tmp_path):
    clock = Clock(sync=lambda: {"sync": "unsynchronised", "source": "test", "detail": "NTPSynchronized=no"})

    async def scenario():
        async with running(stud_profile(), tmp_path, emulate=True, clock=clock) as table:
            await until(lambda: table.published()["round"] is not None, "the table up")
            refused = await table.submit({"type": "next_round"}, source="panel")
            assert not refused["ok"] and "not synchronised" in refused["error"], refused
            assert table.published()["round"]["id"] is None   # no round opened by itself either
            by_dealer = await table.submit({"type": "acknowledge_clock"}, source="panel")
            assert not by_dealer["ok"]   # a supervisor's, never the panel's
            ok = await table.submit({"type": "acknowledge_clock", "reason": "NTP server down, checked by phone"},
                                    source="supervisor", who="S-9")
            assert ok["ok"], ok
            await until(lambda: table.published()["round"]["id"] is not None, "the gaming day opened")
            return list(significant.of_journal(table.journal, kind="clock"))
    clocks = run(scenario())
    assert clocks[0]["sync"] == "unsynchronised"
    acknowledged = [e for e in clocks if "acknowledged" in (e["detail"] or "")]
    assert len(acknowledged) == 1 and "S-9" in acknowledged[0]["detail"]


def test_the_supervisors_screen_journals_an_entry(tmp_path):
    async def scenario():
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: table.published()["round"] is not None, "the table up")
            refused = await table.submit({"type": "log_entry", "person": "T-2", "licence": "", "reason": "x"},
                                         source="supervisor", who="S-1")
            ok = await table.submit({"type": "log_entry", "person": "T-2", "licence": "NY-1", "reason": "fan",
                                     "place": "box"}, source="supervisor", who="S-1")
            by_dealer = await table.submit({"type": "log_entry", "person": "T-2", "licence": "NY-1", "reason": "x"},
                                           source="panel")
            return refused, ok, by_dealer, list(significant.of_journal(table.journal, kind="entry"))
    refused, ok, by_dealer, entries = run(scenario())
    assert not refused["ok"] and "licence" in refused["error"]
    assert ok["ok"] and not by_dealer["ok"]
    assert [(e["who"], e["licence"], e["source"]) for e in entries] == [("T-2", "NY-1", "screen")]


def test_the_systems_word_and_the_gaming_day():
    said = system_sync()
    assert said["sync"] in ("synchronised", "unsynchronised", "unknown")
    if said["sync"] == "unknown":
        assert "unknown" in said["detail"]   # said as such
    # 05:59 UTC on the 3rd is still the 2nd's gaming day when it starts at 06:00
    assert gaming_day(1764741540.0, "06:00", "UTC") == "2025-12-02"
    assert gaming_day(1764741660.0, "06:00", "UTC") == "2025-12-03"
