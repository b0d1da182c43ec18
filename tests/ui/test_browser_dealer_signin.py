"""The dealer signs in at the table by badge on the console's keypad, at the start and at a rotation
(issue 30): headless Chromium on a live casino war table, at the kiosk's smallest size; with nobody on
duty the console asks by itself when it opens; each wager keyed on the console is journaled with the
dealer on duty.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.fit_helpers import fits
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import wait_until


@pytest.fixture(scope="module")
def war(tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    base = tmp_path_factory.mktemp("dealer-signin")
    profile = load_profile(Path(__file__).resolve().parents[1] / "crash" / "war.toml")
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=7, screen=False), secrets_file, dealer=None)
    wait_until(server, lambda s: s["round"]["state"] == "wagers" and s["round"]["id"], "the first round open")
    yield server
    server.close()


def key_badge(page, badge: str) -> None:
    for digit in badge:
        page.click(f"[data-test=dealer-key-{digit}]")
    page.click("[data-test=dealer-signin]")


def test_a_dealer_signs_in_then_a_new_dealer_is_asked_who_and_the_journal_names_each(war, browser):
    ctx = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(war.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        chip = page.locator("[data-test=dealer-on-duty]")
        chip.get_by_text("Dealer: sign in").wait_for()
        # nobody deals yet: the console asks by itself, before any touch (issue 30)
        page.locator("#dealer-signin[open]").get_by_text("Nobody is signed in as the dealer.").wait_for()
        assert page.is_disabled("[data-test=dealer-signin]")   # no badge keyed yet
        fits(page, "the dealer asked at the start, 800x480")
        key_badge(page, "4102")
        wait_until(war, lambda s: s.get("dealer_on_duty") == "4102", "dealer 4102 on duty")
        chip.get_by_text("Dealer 4102").wait_for()
        page.click("[data-chip='1000']")
        page.click("[data-test=initial-1]")
        wait_until(war, lambda s: "initial" in s["seats"][0]["wagers"], "seat 1's wager")
        chip.click()   # the rotation ("New dealer" asks the same: tests/ui/test_browser_shift_war.py)
        page.locator("#dealer-signin").get_by_text("On duty now: 4102").wait_for()
        ok = page.locator("[data-test=dealer-signin]").bounding_box()
        assert ok is not None and ok["y"] + ok["height"] <= 480 and ok["height"] >= 44
        key_badge(page, "5203")
        wait_until(war, lambda s: s.get("dealer_on_duty") == "5203", "dealer 5203 on duty")
        page.click("[data-chip='500']")
        page.click("[data-test=initial-2]")
        wait_until(war, lambda s: "initial" in s["seats"][1]["wagers"], "seat 2's wager")
    finally:
        ctx.close()

    async def read():
        return list(war.table.journal.entries_since(0))
    entries = war.call(read())
    signed = [(e.payload["dealer"], e.payload["relieves"]) for e in entries if e.kind == "dealer"]
    assert signed == [("4102", None), ("5203", "4102")]
    by = [(e.payload["event"]["type"], e.payload["who"]) for e in entries
          if e.kind == "event" and e.payload["source"] == "panel"]
    assert ("wager", "4102") in by and ("wager", "5203") in by
