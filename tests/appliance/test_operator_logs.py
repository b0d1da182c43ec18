"""Logs for operators: a jammed shoe is one line, then a count now and then, then its end;
every line of a round names it, even from the tasks that ask the devices."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time

import pytest

from controller import logs
from tests.table.table_helpers import running, stud_profile, until


@pytest.fixture(autouse=True)
def fresh_logging():
    logs.reset()
    yield
    logs.reset()
    for handler in [h for h in logging.getLogger().handlers if getattr(h, "_tablectl", False)]:
        logging.getLogger().removeHandler(handler)


class Recorder:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str, dict]] = []

    def warning(self, event, **kw):
        self.lines.append(("warning", event, kw))

    def info(self, event, **kw):
        self.lines.append(("info", event, kw))


def test_a_repeating_failure_is_logged_once_then_with_a_count_at_a_slow_rate():
    now = [0.0]
    rec = Recorder()
    r = logs.Repeating(rec, "dispense_failed", every=60, clock=lambda: now[0])
    for _ in range(480):           # two minutes of a jam, retried every 250 ms
        r.failed(error="jammed")
        now[0] += 0.25
    # the first failure, then one line with the count once a minute had passed: not 480 lines
    assert rec.lines == [("warning", "dispense_failed", {"error": "jammed"}),
                         ("warning", "dispense_failed", {"error": "jammed", "repeated": 240, "failures": 241})]
    r.succeeded()
    assert rec.lines[-1][:2] == ("info", "dispense_failed_ended") and rec.lines[-1][2]["failures"] == 480
    r.failed(error="again")        # a new run of failures starts with its own first line
    assert rec.lines[-1] == ("warning", "dispense_failed", {"error": "again"})
    r.succeeded()
    assert rec.lines[-1] == ("warning", "dispense_failed", {"error": "again"})   # one failure: no "ended"


def test_a_jammed_shoe_on_a_live_table(tmp_path, monkeypatch):
    monkeypatch.setattr(logs, "REPEAT_EVERY", 0.5)
    out = io.StringIO()
    logs.configure("info", "json", stream=out, table="CS-CRASH", force=True)

    def lines():
        return [json.loads(x) for x in out.getvalue().splitlines() if x.startswith("{")]

    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            world = table.devices.world
            await until(lambda: (table.published()["round"] or {}).get("state") == "open"
                        and (table.published().get("deck") or {}).get("loaded"), "the first round, deck counted")
            rid = table.published()["round"]["id"]
            await asyncio.to_thread(world.shoe.jam)
            assert (await table.submit({"type": "ante", "seat": 2, "amount": 1000}, source="panel"))["ok"]
            await asyncio.to_thread(world.progressive.press_and_release_lockout)
            await until(lambda: table.published()["round"]["state"] == "no_more_bets", "no more bets")
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: any("repeated" in x for x in lines() if x["event"] == "dispense_failed"),
                        "a dispense_failed line with a count", timeout=15)
            started = time.monotonic()
            await asyncio.to_thread(world.shoe.clear_jam)
            await until(lambda: any(x["event"] == "dispense_failed_ended" for x in lines()),
                        "the jam's end logged", timeout=15)
            return rid, time.monotonic() - started
    rid, _ = asyncio.run(asyncio.wait_for(scenario(), 60))
    failed = [x for x in lines() if x["event"] == "dispense_failed"]
    ended = next(x for x in lines() if x["event"] == "dispense_failed_ended")
    # retried every 300 ms, but not a line each time
    assert ended["failures"] > len(failed) and "repeated" not in failed[0]
    assert all(x["round"] == rid for x in failed + [ended])


def test_the_installed_table_under_journald_gives_each_line_its_priority(tmp_path):
    """`tablectl run` with stdout and stderr on the journal's stream (as systemd starts it: $JOURNAL_STREAM
    names the stream's device and inode) leads each JSON line with its syslog priority, so `journalctl -p warning`
    finds the warnings; a round's lines are info."""
    import os
    import subprocess
    import sys

    tablectl = os.path.join(os.path.dirname(sys.executable), "tablectl")
    path = tmp_path / "journal-stream"
    with open(path, "w", encoding="utf-8") as stream:
        st = os.fstat(stream.fileno())
        env = {**os.environ, "JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}", "TABLECTL_PAR_BACKGROUND": "0"}
        done = subprocess.run([tablectl, "run", "--config", "caribbean-stud", "--data-dir", str(tmp_path / "data"),
                               "--autoplay", "--rounds", "1", "--seed", "3"],
                              stdout=stream, stderr=stream, text=True, env=env, timeout=120)
    assert done.returncode == 0, path.read_text()[-2000:]
    logged = [line for line in path.read_text().splitlines() if line.startswith("<")]
    assert logged, path.read_text()[:500]
    by_priority: dict[str, list[dict]] = {}
    for line in logged:
        by_priority.setdefault(line[1], []).append(json.loads(line[3:]))
    assert {e["level"] for e in by_priority.get("6", [])} == {"info"}
    assert all(e["level"] == "warning" for e in by_priority.get("4", []))
    assert by_priority.get("6"), "no info line"
