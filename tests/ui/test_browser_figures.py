"""Charts that tell the truth (issue 30, 6): today's charts on the supervisor's screen, in headless
Chromium against the live table on emulated devices (autoplay), at the three kiosk sizes; each chart's
values are written out beside it (a touch screen has no hover) and read from the page equal
`tablectl report --json`'s: the meter's readings (drawn as steps, each movement at its instant), the
hold by hour (signed), the rounds by hour (whole numbers). The progressive line names every component,
seeded included, so it adds up to the meter.
"""

from __future__ import annotations

import json
import time

import pytest

from controller.report.figures import hold_bp
from tests.report.report_helpers import tablectl
from tests.software_hashes import seed_software_hashes
from tests.ui.fit_helpers import SIZE_IDS, SIZES
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, SUPERVISOR_ID, SUPERVISOR_PIN, money, sign_in

ROUNDS = 6


@pytest.fixture(scope="module")
def played(tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    profile = load_profile(PROFILES / "caribbean-stud.toml")
    data = seed_software_hashes(tmp_path_factory.mktemp("figures") / "data")
    server = LiveServer(lambda: Table(profile, data_dir=data, autoplay=True, rounds=ROUNDS, seed=7, screen=False),
                        secrets_file)
    deadline = time.monotonic() + 120
    while server.table.closed_rounds < ROUNDS:
        assert time.monotonic() < deadline, f"only {server.table.closed_rounds} rounds played"
        time.sleep(0.1)
    yield server, data
    server.close()


def values(page, chart: str) -> list[tuple[str, int]]:
    rows = page.locator(f"#{chart} .chart-values li")
    out = []
    for i in range(rows.count()):
        li = rows.nth(i)
        assert li.is_visible()                                  # readable without a hover
        out.append((li.get_attribute("data-x"), int(li.get_attribute("data-value"))))
    return out


@pytest.mark.parametrize("width,height", SIZES, ids=SIZE_IDS)
def test_the_charts_values_are_the_reports(played, browser, screenshots, width, height):
    server, data = played
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url + "/supervisor")
        page.wait_for_function("document.body.dataset.connection === 'online'")
        sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
        page.wait_for_selector(f"#figures[data-rounds='{ROUNDS}']")
        period = page.evaluate("fetch('/api/supervisor/report').then(r => r.json())")["period"]
        cli = json.loads(tablectl("report", "--demo", "--data-dir", str(data), "--from", period["from"], "--to", period["to"],
                                  "--json").stdout)["tables"][0]

        hours = cli["by_hour"]
        assert values(page, "chart-rounds") == [(h["hour"], h["rounds"]) for h in hours]
        assert values(page, "chart-hold") == [(h["hour"], hold_bp(h["house_win"], h["handle"]))
                                              for h in hours if h["handle"]]
        readings = page.evaluate("fetch('/api/supervisor/report').then(r => r.json())")["tables"][0]["progressive"]["readings"]
        shown = values(page, "chart-meter")
        assert shown == [(at, cents) for at, cents in readings]
        assert shown[-1][1] == cli["progressive"]["meter_close"]
        for chart, each in (("chart-rounds", str), ("chart-meter", money)):
            texts = page.locator(f"#{chart} .chart-values li b").all_inner_texts()
            assert texts == [each(v) for _, v in values(page, chart)]

        # The progressive line adds up: open + contributions - awards from the meter + seeded + corrections = now.
        p = cli["progressive"]
        assert p["meter_open"] + p["contributions"] - p["awards_meter"] + p["seeded"] + p["corrections"] == p["meter_close"]
        line = page.inner_text("#fig-progressive")
        for word, cents in (("contributions", p["contributions"]), ("seeded", p["seeded"]),
                            ("corrections", p["corrections"]), ("now", p["meter_close"])):
            assert word in line and money(cents) in line, (word, line)
        page.locator("#figures").screenshot(path=str(screenshots / f"figures-{width}x{height}.png"))
    finally:
        ctx.close()
