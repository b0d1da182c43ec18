"""The par sheet on the supervisor's screen of a live table, in headless Chromium.

The table (controller/table.py on emulated devices, as `tablectl run` runs it) starts
with rules whose sheet is not cached, as after a rules change: its screens start
the background job, the dealer takes antes while it runs, and the supervisor's
screen shows the sheet once the job has cached it.
"""

from __future__ import annotations

import os
import time
from fractions import Fraction
from pathlib import Path

import pytest

from tests.par.par_helpers import profile_with
from tests.ui.ui_helpers import http, wait_until


@pytest.fixture
def par_on(monkeypatch, counted_cache):
    monkeypatch.setenv("TABLECTL_PAR_CACHE", str(counted_cache))
    monkeypatch.setenv("TABLECTL_PAR_BACKGROUND", "1")
    return counted_cache


def table_of(path: Path, data: Path):
    def make():
        from controller.config import load_profile
        from controller.table import Table
        return Table(load_profile(path), data_dir=data, seed=7, screen=False)
    return make


def wait_for(what: str, check, timeout: float = 240.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")


def test_a_rules_change_is_computed_beside_the_table_and_shown_to_the_supervisor(par_on, live, page_factory,
                                                                                tmp_path, screenshots):
    from controller.games.caribbean_stud.par import paytable as stud
    from controller.games.caribbean_stud.par import shipped

    profile = profile_with(tmp_path, "changed", "caribbean-stud", {"flush = 5\n": "flush = 6\n"})
    server = live(table_of(profile, tmp_path / "data"))
    status, first = http(f"{server.url}/api/par")
    assert status == 200 and first["state"] in ("computing", "ready")
    if first["state"] == "computing":     # a separate process, at the lowest priority
        pid = first["pid"]
        assert pid != os.getpid()
        nice = wait_for("the job to lower its priority or end", lambda: _nice(pid))
        assert nice in (19, "ended")

    # the round goes on meanwhile: the dealer takes an ante
    wait_until(server, lambda s: s["round"]["state"] == "open", "the first round open")
    dealer = page_factory(server.url)
    dealer.click("[data-test=ante-1]")
    dealer.locator(".seat[data-seat='1'] .wagers").get_by_text("$5.00").wait_for()

    supervisor = page_factory(f"{server.url}/supervisor")
    shown = supervisor.locator("[data-test=par-optimal-house-edge]")
    shown.wait_for(timeout=240_000)
    paytable = dict(zip(stud.PAY_LINES, (1, 2, 3, 4, 6, 7, 20, 50, 100), strict=True))
    expected = stud.strategies(shipped.load()[0], paytable, 2)["optimal"].house_edge
    assert shown.get_attribute("title") == f"{expected.numerator}/{expected.denominator}"
    assert shown.inner_text() == f"{float(expected * 100):.4f}%"
    assert expected < Fraction(1_041_372_912_372, 19_933_230_517_200)
    assert supervisor.inner_text("[data-test=par-floor-house-edge]") == "5.2243%"
    assert "breaks even at a meter of $" in supervisor.inner_text("[data-test=par-break-even]")
    supervisor.screenshot(path=screenshots / "par-supervisor-stud.png", full_page=True)


def test_casino_war_table_shows_its_edges(par_on, live, page_factory, tmp_path):
    profile = profile_with(tmp_path, "war7", "casino-war", {"decks = 6 ": "decks = 7 "})
    server = live(table_of(profile, tmp_path / "data"))
    supervisor = page_factory(f"{server.url}/supervisor")
    supervisor.locator("[data-test=par-war-house-edge]").wait_for(timeout=120_000)
    assert supervisor.inner_text("[data-test=par-war-house-edge]") == "1.7823%"
    assert supervisor.inner_text("[data-test=par-tie-house-edge]") == "18.1818%"


def test_without_the_job_the_screen_says_how_to_make_the_sheet(monkeypatch, tmp_path, live, page_factory):
    monkeypatch.setenv("TABLECTL_PAR_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("TABLECTL_PAR_BACKGROUND", "0")
    server = live(table_of(profile_with(tmp_path, "war", "casino-war", {}), tmp_path / "data"))
    assert http(f"{server.url}/api/par")[1]["state"] == "off"
    supervisor = page_factory(f"{server.url}/supervisor")
    supervisor.wait_for_function("document.getElementById('par-body').dataset.state === 'off'")
    assert "tablectl par --config" in supervisor.inner_text("#par-body")


def _nice(pid: int):
    try:
        return os.getpriority(os.PRIO_PROCESS, pid) == 19 and 19
    except ProcessLookupError:
        return "ended"
