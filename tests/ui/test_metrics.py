"""Monitoring reads a running table (issue 32, 7): `/metrics` and `/healthz` on the screens' port.

The installed `tablectl run --emulate` (tests/security/security_helpers.LiveTable) after two autoplayed
rounds, scraped as Prometheus scrapes it and parsed with prometheus_client's own parsers (OpenMetrics,
and the older text format for a scraper that does not ask for it); every family is held against what
the table and its journal say. Then the emulated progressive controller loses its memory, the table
comes up in a fault, and /healthz says 503 with the fault's reason in one line.
"""

from __future__ import annotations

import json
from collections import Counter
import math

import httpx
import pytest
from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import text_string_to_metric_families as text_families

from controller.journal.store import Journal
from tests.security.security_helpers import WAIT, LiveTable, supervisors, tablectl

PINS = {"S7001": "735102", "S7002": "881204"}
OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8"
FAMILIES = {"tablectl_rounds", "tablectl_faults", "tablectl_in_play", "tablectl_fault_open", "tablectl_alarms",
            "tablectl_device", "tablectl_link_linked", "tablectl_link_available", "tablectl_link_unconfirmed",
            "tablectl_meter_cents", "tablectl_journal_bytes", "tablectl_journal_entries",
            "tablectl_journal_anchor_seq", "tablectl_journal_anchor_timestamp_seconds", "tablectl_software",
            "tablectl_test_mode"}
ROUNDS = 2


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    live = LiveTable(tmp_path_factory.mktemp("metrics"))
    supervisors(live.secrets, PINS)
    played = tablectl("run", "--config", live.profile, "--data-dir", live.data, "--autoplay", "--rounds", ROUNDS,
                      timeout=300)
    assert played.returncode == 0, played.stderr[-2000:]
    live.start()
    yield live
    live.stop()


def _scrape(live: LiveTable, accept: str | None = OPENMETRICS) -> httpx.Response:
    headers = {"Accept": accept} if accept else {}
    return httpx.get(f"{live.url}/metrics", headers=headers, timeout=WAIT)


def _families(text: str, parse=openmetrics_families) -> dict:
    return {f.name: f for f in parse(text)}


def _samples(family) -> dict:
    return {tuple(sorted(s.labels.items())): s.value for s in family.samples}


def test_every_family_parses_and_says_what_the_table_and_its_journal_say(table):
    got = _scrape(table)
    assert got.status_code == 200
    assert got.headers["content-type"].startswith("application/openmetrics-text")
    assert got.text.endswith("# EOF\n")
    families = _families(got.text)
    assert set(families) == FAMILIES
    state = table.state()
    with Journal.open(table.data, readonly=True) as journal:   # read beside the running table, as a reader may
        records = [e for e in journal.entries_of(("round-record",))]
        digest = journal.latest("power-up").payload["software"]
        anchored = journal.latest("anchor-written").payload

    rounds = families["tablectl_rounds"]
    assert rounds.type == "counter"
    assert _samples(rounds) == {(("game", "caribbean-stud"), ("outcome", "settled")): ROUNDS} == \
        {(("game", "caribbean-stud"), ("outcome", "settled")): len(records)}
    assert _samples(families["tablectl_faults"]) == {}
    assert _samples(families["tablectl_in_play"]) == {(): 1}
    assert _samples(families["tablectl_fault_open"]) == {}
    assert _samples(families["tablectl_alarms"]) == {
        (("kind", k),): n for k, n in Counter(a["kind"] for a in state["alarms"]).items()}

    devices = families["tablectl_device"]
    assert devices.type == "stateset"
    on = {s.labels["device"]: s.labels["tablectl_device"] for s in devices.samples if s.value == 1}
    assert on == {d["name"]: d["status"] for d in state["devices"]} and set(on.values()) == {"emulated"}

    assert _samples(families["tablectl_link_linked"]) == {(): 0}
    assert _samples(families["tablectl_link_available"]) == {}
    meter = _samples(families["tablectl_meter_cents"])
    assert meter == {(("game", "caribbean-stud"),): state["meter"]["amount"]}
    assert isinstance(state["meter"]["amount"], int) and meter[(("game", "caribbean-stud"),)] > 0

    files = [table.data / n for n in ("journal.db", "journal.db-wal")]
    size = _samples(families["tablectl_journal_bytes"])[()]
    assert 0 < size and size <= sum(f.stat().st_size for f in files if f.exists()) * 2
    assert _samples(families["tablectl_journal_entries"])[()] >= anchored["seq"]
    assert _samples(families["tablectl_journal_anchor_seq"]) == {(("sink", anchored["sink"]),): anchored["seq"]}
    at = _samples(families["tablectl_journal_anchor_timestamp_seconds"])[(("sink", anchored["sink"]),)]
    assert math.isfinite(at) and at > 1.7e9
    software = families["tablectl_software"]
    assert software.type == "info"
    [sample] = software.samples
    assert sample.labels["digest"] == digest[:16] and len(digest) == 64
    assert _samples(families["tablectl_test_mode"]) == {(): 1}


def test_a_scraper_that_asks_for_nothing_gets_the_text_format(table):
    got = _scrape(table, accept=None)
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/plain")
    families = _families(got.text, text_families)
    # the older format has no info type: the digest is a gauge named with its _info
    assert {"tablectl_rounds", "tablectl_meter_cents", "tablectl_software_info", "tablectl_in_play"} <= set(families)
    assert _samples(families["tablectl_rounds"]) == {(("game", "caribbean-stud"), ("outcome", "settled")): ROUNDS}


def test_read_only_without_secrets_and_behind_the_screens_gate(table):
    for path in ("/metrics", "/healthz"):
        assert httpx.post(f"{table.url}{path}", headers={"X-Tablectl": "1"}, timeout=WAIT).status_code == 405
        foreign = httpx.get(f"{table.url}{path}", headers={"Host": f"rebound.example:{table.port}"}, timeout=WAIT)
        assert foreign.status_code == 421
    body = _scrape(table).text
    secrets = table.secrets.read_text()
    for who, pin in PINS.items():
        assert who not in body and pin not in body
    assert all(line.strip() not in body for line in secrets.splitlines() if "$" in line or "pin" in line.lower())
    assert "Supervisor" not in body and "dealer_on_duty" not in body


def test_healthz_says_in_play(table):
    got = httpx.get(f"{table.url}/healthz", timeout=WAIT)
    assert (got.status_code, got.text) == (200, "in play\n")
    assert got.headers["cache-control"] == "no-store"


def test_a_faulted_table_is_503_with_its_reason_in_one_line(table):
    """The controller swapped for one that holds nothing (tests/security/test_controller_into_service.py):
    the start finds the journal anchored where the controller has no anchor, an integrity fault."""
    table.stop()
    (table.data / "sim" / "progressive-nvram.json").unlink()
    table.start()
    fault = table.wait_until(lambda s: s["fault"] is not None, "the fault")["fault"]
    got = httpx.get(f"{table.url}/healthz", timeout=WAIT)
    assert got.status_code == 503
    assert got.text.startswith("fault: ") and got.text.count("\n") == 1
    assert "holds no anchor" in got.text and got.text == "fault: " + " ".join(fault["reason"].split())[:200] + "\n"
    families = _families(_scrape(table).text)
    assert _samples(families["tablectl_in_play"]) == {(): 0}
    codes = _samples(families["tablectl_fault_open"])
    assert codes and all(n >= 1 for n in codes.values())
    assert {dict(k)["code"] for k in codes} == {p["code"] for p in fault["problems"]}
    faults = _samples(families["tablectl_faults"])
    assert faults == {(("source", "anchor"),): 1}, json.dumps(fault)[:500]
