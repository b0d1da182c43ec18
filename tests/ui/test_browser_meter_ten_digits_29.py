"""A meter past ten digits of cents (issue 29 item 1: "meters that could exceed 10 digits in cents are
flagged, never silently capped"), on the supervisor's screen in headless Chromium on a live table and in
the installed `tablectl meters`: the whole amount shown, and the flag beside it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from controller.config import parse_profile
from controller.progressive import TEN_DIGITS
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_PIN, money, sign_in, wait_until

TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")
INITIAL = TEN_DIGITS + 4321   # $100,000,043.21: eleven digits of cents


def test_a_meter_of_eleven_digits_is_shown_whole_and_flagged(tmp_path, secrets_file, page_factory, screenshots):
    from controller.table import Table
    text = (Path(__file__).resolve().parents[2] / "config" / "caribbean-stud.toml").read_text()
    profile = parse_profile(text.replace("initial = 2500000", f"initial = {INITIAL}"))
    server = LiveServer(lambda: Table(profile, data_dir=tmp_path / "data", seed=3, screen=False), secrets_file)
    try:
        wait_until(server, lambda s: (s.get("meter") or {}).get("amount") == INITIAL, "the meter at its initial")
        page = page_factory(server.url + "/supervisor")
        sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
        flag = page.locator("[data-meter='progressive'] [data-ten-digits='current']")
        flag.wait_for()
        assert flag.inner_text() == "more than 10 digits"
        current = page.locator(f"[data-meter='progressive'] [data-meter-current='{INITIAL}']")
        assert money(INITIAL) in current.inner_text()   # the whole amount, not capped
        page.screenshot(path=screenshots / "meters-29-ten-digits.png")
    finally:
        server.close()
    shown = subprocess.run([TABLECTL, "meters", "--data-dir", str(tmp_path / "data")], capture_output=True,
                           text=True, timeout=120)
    assert shown.returncode == 0 and "[MORE THAN 10 DIGITS]" in shown.stdout, shown.stdout + shown.stderr
    (m,) = json.loads(subprocess.run([TABLECTL, "meters", "--json", "--data-dir", str(tmp_path / "data")],
                                     capture_output=True, text=True, timeout=120, check=True).stdout)["meters"]
    assert m["current"] == INITIAL and "current" in m["exceeds_ten_digits"]
