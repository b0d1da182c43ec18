"""Issue 34, item 3 on the supervisor's screen: the table's result against the exact par's band, flagged
beyond three standard deviations. The two journals of tests/report/test_hold_live.py (a one-seat Caribbean
stud table autoplayed on emulated devices from a fair shuffle, and the same number of rounds from a shoe
stacked in the player's favour) are each served by a live table, and in headless Chromium the supervisor's
figures hold the stacked table's day flagged (the alarm, and the words) and the fair one's not, with the
theoretical win, the standard deviation, the measured win and the deviations of `tablectl report --json`.
"""

from __future__ import annotations

import json

import pytest

from controller.config import load_profile
from tests.report.test_hold_live import ROUNDS, fair_and_stacked, tablectl
from tests.software_hashes import seed_software_hashes
from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_PIN, money, sign_in

BEYOND = "beyond 3 standard deviations: more than chance allows"


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    profile, fair, stacked = fair_and_stacked(tmp_path_factory.mktemp("hold-screen"))
    tablectl("par", "--config", str(profile), "--json")   # the par sheet in the cache: the screen never counts
    return profile, {"fair": fair, "stacked": stacked}


def deviations(hundredths: int) -> str:
    return f"{'-' if hundredths < 0 else '+'}{abs(hundredths) // 100}.{abs(hundredths) % 100:02d}"


@pytest.mark.parametrize("run", ["fair", "stacked"])
def test_the_supervisor_sees_the_day_against_par(journals, run, live, page_factory, screenshots):
    from controller.table import Table
    profile, data = journals[0], journals[1][run]
    seed_software_hashes(data)
    server = live(lambda: Table(load_profile(profile), data_dir=data, screen=False))
    page = page_factory(server.url + "/supervisor")
    sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
    page.wait_for_selector(f"#figures[data-rounds='{ROUNDS}']")
    period = page.evaluate("fetch('/api/supervisor/report').then(r => r.json())")["period"]
    # the report's own par block, for the period the screen shows
    par = json.loads(tablectl("report", "--config", str(profile), "--data-dir", str(data), "--demo", "--from",
                              period["from"], "--to", period["to"], "--json"))["tables"][0]["par"]
    assert par["beyond_band"] is (run == "stacked") and par["band_sigmas"] == 3
    line = page.locator("[data-test=fig-par]")
    line.wait_for(state="visible")
    text = line.inner_text()
    assert (f"Against par: theoretical {money(par['theoretical_win'])} \u00b1 {money(par['sigma'])}, measured "
            f"{money(par['measured_win'])} ({deviations(par['sigmas_hundredths'])} standard deviations)") in text
    flagged = run == "stacked"
    assert (BEYOND in text) is flagged
    assert ("alarm" in (line.get_attribute("class") or "").split()) is flagged
    assert line.get_attribute("data-beyond") == ("yes" if flagged else "no")
    line.screenshot(path=str(screenshots / f"hold-against-par-{run}.png"))
    if flagged:
        assert par["measured_win"] < 0 and par["sigmas_hundredths"] < -300   # the house lost beyond chance
