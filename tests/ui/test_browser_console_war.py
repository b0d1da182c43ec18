"""The casino war console at every kiosk size (issue 30), by taps alone, against the live runtime
(controller/table.py) on its emulated devices, in headless Chromium at 1280x800, 1024x600 and 800x480.
One live table for the module; the manual dealing shoe is stacked once (ui_helpers.stacked) and each
card is drawn by the emulated dealer's hand when the console's next step names where it goes.

A round with a war at each size: two tie hands, one to war and one surrendered. The pay list comes in
the two settlements of 5324.22(i)(1): at the first Settle the original deal's wagers, listed to collect
and pay before the war; at the second the war's, the first part marked as done. At every step the whole
step is on screen without a vertical scroll and no button is under 44 px (fit_helpers); the taps the
round took are counted (the closing note of issue 30 had 15). Screenshots go to tests/ui/screenshots.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.fit_helpers import SIZE_IDS, SIZES, Taps
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import draw_by_hand, money, settlement_on_screen, stacked, state_is, wait_until

TODAY_TAPS = 15      # a war round with a war before issue 30
# [burn on the fresh shoe], then per size: seat 1, seat 2, seat 3, the dealer; the war's three burns,
# seat 1's war card, the dealer's. Seats 1 and 2 tie the dealer's queen; seat 3's nine loses.
ROUND = "Qs Qc 9c Qh  2c 3c 4c  Kd 5c".split()


@pytest.fixture(scope="module")
def war(tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    base = tmp_path_factory.mktemp("console-war")
    profile = load_profile(Path(__file__).resolve().parents[2] / "config" / "casino-war.toml")
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=7, screen=False), secrets_file)
    wait_until(server, lambda s: s["round"]["state"] == "wagers" and s["shoe"]["dispensed"] == 0
               and s["shoe"]["burn"] == 1, "the first round open on a fresh shoe")
    server.table.devices.world.shoe.load(stacked(["2d"] + ROUND * len(SIZES), decks=6), cover_at=200)
    yield server
    server.close()


@pytest.mark.parametrize("width,height", SIZES, ids=SIZE_IDS)
def test_a_war_round_settles_in_two_steps_and_fits_at_each_size(war, browser, screenshots, width, height):
    size = f"{width}x{height}"
    wait_until(war, lambda s: s["round"]["state"] in ("wagers", "closed"), "between rounds")
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(war.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        tap = Taps(page, screenshots, f"console-war-{size}")
        if war.published()["round"]["state"] == "closed":
            tap("[data-test=panel-next_round]")
        state_is(page, "wagers")
        burn = war.published()["shoe"]["burn"]
        tap.step("1-wagers")
        for test, seat in (("initial-1", 1), ("tie-1", 1), ("initial-2", 2), ("initial-3", 3)):
            tap(f"[data-test={test}]")
            page.locator(f".seat[data-seat='{seat}'] .wagers").get_by_text("$5.00").first.wait_for()
        tap.step("2-wagered")
        tap("[data-test=panel-no_more_bets]")
        state_is(page, "first_deal")
        tap.step("3-no-more-bets")
        tap("[data-test=panel-deal]")
        draw_by_hand(war, page, ["the burn card"] * burn + ["seat 1's card", "seat 2's card", "seat 3's card",
                                                            "the dealer's card"])
        state_is(page, "first_settle")
        tap.step("4-dealt")
        tap("[data-test=panel-settle]")
        state_is(page, "decisions")

        # The first Settle: the original deal's wagers, to collect and pay now, before the war.
        part = page.locator("[data-settle-part=first]")
        assert "collect and pay these now" in part.inner_text()
        published = war.published()
        shown = settlement_on_screen(page)
        assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in published["settlement"]]
        assert all(s["deal"] == "first" for s in published["settlement"])
        assert ("collect", 3, money(500)) in shown            # seat 3's nine under the queen, (i)(1)
        assert ("pay", 1, money(500 * 10)) in shown           # seat 1's tie wager at 10:1, (j)(2)
        assert not [x for x in shown if x[1] in (1, 2) and x[0] == "collect"]   # the tie hands' wait for their choice
        tap.step("5-first-settled")
        tap("[data-test=step-war]")
        page.locator(".seat[data-seat='1'] .decision.war").wait_for()
        tap.step("6-war-chosen")
        tap("[data-test=step-surrender]")
        state_is(page, "war_deal")
        tap.step("7-war-deal")
        tap("[data-test=panel-war]")
        draw_by_hand(war, page, ["war burn card 1 of 3", "war burn card 2 of 3", "war burn card 3 of 3",
                                 "seat 1's war card", "the dealer's war card"])
        state_is(page, "war_settle")
        tap.step("8-war-dealt")
        tap("[data-test=panel-settle]")
        state_is(page, "closed")

        # The second Settle: the war's wagers to collect and pay now; the original deal's marked done.
        published = war.published()
        shown = settlement_on_screen(page)
        assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in published["settlement"]]
        assert "collected and paid at the first Settle" in page.inner_text("[data-settle-part=first]")
        assert "collect and pay these now" in page.inner_text("[data-settle-part=war]")
        war_part = [(s["step"], s["seat"]) for s in published["settlement"] if s["deal"] == "war"]
        assert ("collect", 2) in war_part and any(seat == 1 for _, seat in war_part)   # the surrender, the war
        first_part = [s for s in published["settlement"] if s["deal"] == "first"]
        assert [s for s in first_part if s["seat"] == 3] and all(s["seat"] != 2 for s in first_part)
        tap.step("9-war-settled")
        tap("[data-test=panel-next_round]")
        state_is(page, "wagers")
        (screenshots / f"taps-war-{size}.json").write_text(json.dumps({"taps": tap.count, "before": TODAY_TAPS}))
        assert tap.count <= TODAY_TAPS, tap.count
    finally:
        ctx.close()
