"""Test mode is never play (9 NYCRR 5319.58; issue 28 item 5), through the installed command.

A profile that leaves a device out is refused unless test mode is asked for; a test table's journal
says so from its first entry, its start logs the warning, and its rounds count in no live report.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from controller.journal.store import Journal
from tests.certification.cert_helpers import data_dir, screenless, tablectl


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One autoplayed stud table (autoplay implies --emulate), two rounds."""
    tmp = tmp_path_factory.mktemp("testmode")
    profile, data = screenless("caribbean-stud", tmp), data_dir(tmp / "data")
    done = tablectl("run", "--config", profile, "--data-dir", data, "--autoplay", "--rounds", "2", "--seed", "3")
    return tmp, profile, data, done


def test_a_profile_missing_a_device_is_refused_without_emulate(tmp_path):
    profile = screenless("casino-war", tmp_path)
    done = tablectl("run", "--config", profile, "--data-dir", tmp_path / "d", "--rounds", "1", check=False)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "shoe" in lines[0] and "--emulate" in lines[0], done.stderr
    assert not (tmp_path / "d" / "journal.db").exists()   # refused before anything was written


def test_an_autoplayed_journal_is_a_test_journal_from_its_first_entry(played):
    _, _, data, done = played
    conn = sqlite3.connect(f"file:{data / 'journal.db'}?mode=ro", uri=True)
    try:
        kind, payload = conn.execute("SELECT kind, payload FROM entries WHERE seq = 1").fetchone()
    finally:
        conn.close()
    assert kind == "journal-created" and json.loads(payload)["mode"] == "test"
    warnings = [json.loads(x) for x in done.stderr.splitlines() if x.startswith("{") and '"test_mode"' in x]
    assert warnings and warnings[0]["message"] == "emulated devices: not for play"
    ups = [e for e in json.loads(tablectl("events", "--json", "--data-dir", data, "--kind", "power-up").stdout)
           ["events"]]
    assert [e["mode"] for e in ups] == ["test"]


def test_a_test_journal_is_reported_only_with_demo_and_labelled(played):
    _, _, data, _ = played
    refused = tablectl("report", "--data-dir", data, "--from", "2000-01-01", check=False)
    assert refused.returncode == 2 and "test-mode journal" in refused.stderr and refused.stdout == ""
    text = tablectl("report", "--data-dir", data, "--from", "2000-01-01", "--demo").stdout
    assert text.startswith("TEST MODE")
    report = json.loads(tablectl("report", "--data-dir", data, "--from", "2000-01-01", "--demo", "--json").stdout)
    assert report["mode"] == "TEST MODE" and report["tables"][0]["rounds"] == 2


def test_a_live_journal_refuses_a_test_table(tmp_path):
    """A test table never writes into a live journal (and its rounds into a live meter)."""
    profile = screenless("caribbean-stud", tmp_path)
    Journal.open(data_dir(tmp_path / "live")).close()   # made by a live table: no mode in its first entry
    done = tablectl("run", "--config", profile, "--data-dir", tmp_path / "live", "--autoplay", "--rounds", "1",
                    check=False)
    assert done.returncode == 2 and "live journal" in done.stderr, done.stderr[-800:]
    assert [e.kind for e in Journal.open(tmp_path / "live", readonly=True).entries_since(0)] == ["journal-created"]


def test_the_published_view_says_test_mode(tmp_path):
    """Every screen reads the published view; an emulated table's carries the mark the banner shows."""
    import asyncio

    from tests.table.table_helpers import running, stud_profile

    async def scenario():
        async with running(stud_profile(), tmp_path / "d", emulate=True) as table:
            return table.published()
    view = asyncio.run(scenario())
    assert view["test_mode"] is True and view["mode"] == "TEST MODE"
