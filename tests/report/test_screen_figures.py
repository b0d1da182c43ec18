"""Today's figures on the supervisor's screen, in headless Chromium against the live table on
emulated devices: the same cents as `tablectl report`, and the charts drawn (screenshot kept)."""

from __future__ import annotations

import json
import time

from tests.report.report_helpers import ROOT, tablectl
from tests.software_hashes import seed_software_hashes
from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_PIN, http, money, sign_in

ROUNDS = 8


def test_the_supervisor_sees_todays_figures_with_charts(live, page_factory, screenshots, tmp_path):
    from controller.config import load_profile
    from controller.table import Table
    from controller.par import sheet
    profile = load_profile(ROOT / "config" / "caribbean-stud.toml")
    assert sheet.compute(profile)   # the screen shows the par once the sheet is counted (it never waits on a count)
    data = seed_software_hashes(tmp_path / "data")
    server = live(lambda: Table(profile, data_dir=data, autoplay=True, rounds=ROUNDS, seed=7, screen=False))
    deadline = time.monotonic() + 90
    while server.table.closed_rounds < ROUNDS:
        assert time.monotonic() < deadline, f"only {server.table.closed_rounds} rounds played"
        time.sleep(0.1)

    status, body = http(server.url + "/api/supervisor/report")
    assert status == 401 and not body["ok"]   # the count room's figures, not the players'

    page = page_factory(server.url + "/supervisor")
    sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
    page.wait_for_selector(f"#figures[data-rounds='{ROUNDS}']")
    shown = page.evaluate("fetch('/api/supervisor/report').then(r => r.json())")
    period = shown["period"]
    cli = json.loads(tablectl("report", "--config", str(ROOT / "config" / "caribbean-stud.toml"), "--data-dir",
                              str(data), "--from", period["from"], "--to", period["to"],
                              "--json", "--demo").stdout)["tables"][0]
    assert cli["par"] is not None and cli["dealers"][0]["par"] is not None   # the period beside its exact par
    screen_table = shown["tables"][0]
    readings = screen_table["progressive"].pop("readings")
    assert screen_table == cli
    assert len(readings) >= ROUNDS and readings[-1][1] == cli["progressive"]["meter_close"]

    assert page.inner_text("[data-test=fig-rounds]") == str(ROUNDS)
    assert page.inner_text("[data-test=fig-handle]") == money(cli["handle"])
    assert page.inner_text("[data-test=fig-house-win]") == money(cli["house_win"])
    ante = page.locator("#fig-wagers tr[data-wager=ante] td")
    assert [ante.nth(i).inner_text() for i in (1, 2, 3)] == [
        money(cli["wagers"]["ante"][k]) for k in ("handle", "paid", "house_win")]
    assert money(cli["progressive"]["meter_close"]) in page.inner_text("#fig-progressive")

    for chart in ("chart-meter", "chart-hold", "chart-rounds"):
        assert int(page.get_attribute(f"#{chart}", "data-points")) > 0, chart
        painted = page.evaluate("""id => {
            const c = document.querySelector('#' + id + ' canvas');
            const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
            return n;
        }""", chart)
        assert painted > 500, f"{chart}: only {painted} pixels drawn"
    page.locator("#figures").screenshot(path=str(screenshots / "supervisor-figures.png"))
    page.screenshot(path=str(screenshots / "supervisor-with-figures.png"), full_page=True)


def test_the_charts_of_a_casino_half_an_hour_off_utc_are_drawn_by_its_own_hours(live, page_factory, tmp_path):
    """Asia/Kolkata is UTC+05:30: the screen's hours start at half past on UTC's clock, and the hold
    and rounds charts still place and draw them (figures.js reads each hour as an instant)."""
    from controller.config import load_profile
    from controller.table import Table
    text = (ROOT / "config" / "caribbean-stud.toml").read_text()
    path = tmp_path / "kolkata.toml"
    path.write_text(text.replace('timezone = "America/New_York"', 'timezone = "Asia/Kolkata"', 1))
    profile = load_profile(path)
    assert profile.table.timezone == "Asia/Kolkata"
    data = seed_software_hashes(tmp_path / "data")
    server = live(lambda: Table(profile, data_dir=data, autoplay=True, rounds=4, seed=3, screen=False))
    deadline = time.monotonic() + 60
    while server.table.closed_rounds < 4:
        assert time.monotonic() < deadline, f"only {server.table.closed_rounds} rounds played"
        time.sleep(0.1)

    page = page_factory(server.url + "/supervisor")
    sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
    page.wait_for_selector("#figures[data-rounds='4']")
    shown = page.evaluate("fetch('/api/supervisor/report').then(r => r.json())")
    hours = shown["tables"][0]["by_hour"]
    assert hours and all(h["hour"].endswith(":30:00Z") for h in hours), hours
    assert sum(h["rounds"] for h in hours) == 4
    period = shown["period"]
    cli = json.loads(tablectl("report", "--data-dir", str(data), "--from", period["from"], "--to", period["to"],
                              "--tz", "Asia/Kolkata", "--json", "--demo").stdout)["tables"][0]
    assert cli["by_hour"] == hours
    # each bar (drawn at its hour's middle) within the gaming day the chart spans, which starts at
    # 06:00 in Kolkata: also half past on UTC's clock
    assert period["from"][13:19] == ":30:00"
    assert all(period["from"][:19] <= h["hour"][:19] < period["to"][:19] for h in hours)
    for chart in ("chart-hold", "chart-rounds"):
        assert int(page.get_attribute(f"#{chart}", "data-points")) == len(hours), chart
        painted = page.evaluate("""id => {
            const c = document.querySelector('#' + id + ' canvas');
            const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
            return n;
        }""", chart)
        assert painted > 500, f"{chart}: only {painted} pixels drawn"
