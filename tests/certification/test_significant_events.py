"""The significant events (5317.26; issue 28 item 6) and the entry log (5321.9; item 9), through the
installed command: an orderly stop (SIGTERM) and a kill (SIGKILL) of a live table, and what
`tablectl events` lists after."""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from tests.certification.cert_helpers import TABLECTL, WAIT, data_dir, events, first_round, screenless, tablectl


def _start(profile, data, out):
    with open(out, "w") as sink:
        return subprocess.Popen([TABLECTL, "run", "--config", str(profile), "--data-dir", str(data), "--emulate",
                                 "--autoplay", "--seed", "4"], stdout=sink, stderr=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def stopped_then_killed(tmp_path_factory):
    """A table stopped by SIGTERM, started again and killed by SIGKILL, then started for one round."""
    tmp = tmp_path_factory.mktemp("events")
    profile, data = screenless("casino-war", tmp), data_dir(tmp / "data")
    table = _start(profile, data, tmp / "1.out")
    try:
        first_round(tmp / "1.out", table, "first run")
        table.send_signal(signal.SIGTERM)
        assert table.wait(timeout=WAIT) == 0
    finally:
        if table.poll() is None:
            table.kill()
    table = _start(profile, data, tmp / "2.out")
    try:
        first_round(tmp / "2.out", table, "second run")
        os.kill(table.pid, signal.SIGKILL)
        table.wait(timeout=WAIT)
    finally:
        if table.poll() is None:
            table.kill()
    tablectl("run", "--config", profile, "--data-dir", data, "--emulate", "--autoplay", "--rounds", "1")
    return data


def test_an_orderly_stop_and_a_kill_are_told_apart(stopped_then_killed):
    found = events(stopped_then_killed)
    ups = [e for e in found if e["kind"] == "power-up"]
    downs = [e for e in found if e["kind"] == "power-down"]
    assert [e["unclean"] for e in ups] == [False, False, True]
    assert len(downs) == 2   # SIGTERM's, and the last run's at its rounds' end; none for the kill
    assert ups[0]["seq"] < downs[0]["seq"] < ups[1]["seq"] < ups[2]["seq"] < downs[1]["seq"]
    assert isinstance(ups[2]["gap_s"], int) and ups[2]["gap_s"] >= 0
    assert "unclean" in ups[2]["detail"]
    assert all(e["source"] and e["at"] for e in found)


def test_devices_and_the_clock_are_listed_per_start(stopped_then_killed):
    found = events(stopped_then_killed)
    connected = [e for e in found if e["kind"] == "device-connected"]
    assert {e["device"] for e in connected} == {"shoe"} and len(connected) == 3   # casino war's one device, three starts
    clocks = [e for e in found if e["kind"] == "clock"]
    assert len(clocks) == 3 and all(e["sync"] in ("synchronised", "unsynchronised", "unknown") for e in clocks)
    assert [e["kind"] for e in found if e["kind"] == "software-accepted"] == ["software-accepted"]


def test_kind_and_since_filter(stopped_then_killed):
    found = events(stopped_then_killed)
    only = events(stopped_then_killed, "--kind", "power-down")
    assert only == [e for e in found if e["kind"] == "power-down"]
    later = events(stopped_then_killed, "--since", found[-1]["at"])
    assert later and all(e["seq"] >= found[-1]["seq"] for e in later)
    bad = tablectl("events", "--data-dir", stopped_then_killed, "--kind", "coffee", check=False)
    assert bad.returncode == 2 and "power-up" in bad.stderr


def test_the_report_carries_the_same_list(stopped_then_killed):
    report = json.loads(tablectl("report", "--data-dir", stopped_then_killed, "--from", "2000-01-01", "--demo",
                                 "--json").stdout)
    assert report["significant_events"] == events(stopped_then_killed)


def test_an_entry_is_journaled_and_listed(stopped_then_killed):
    done = tablectl("entry", "add", "--data-dir", stopped_then_killed, "--who", "T-77", "--licence", "NY-4411",
                    "--reason", "replaced the shoe's reader head", "--place", "shoe")
    assert "T-77" in done.stdout
    entries = events(stopped_then_killed, "--kind", "entry")
    assert [(e["who"], e["licence"], e["place"], e["detail"]) for e in entries] == [
        ("T-77", "NY-4411", "shoe", "replaced the shoe's reader head")]
    missing = tablectl("entry", "add", "--data-dir", stopped_then_killed, "--who", "T-77", "--licence", " ",
                       "--reason", "x", check=False)
    assert missing.returncode == 2 and "licence" in missing.stderr
    assert len(events(stopped_then_killed, "--kind", "entry")) == 1
