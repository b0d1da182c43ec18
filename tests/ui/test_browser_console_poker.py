"""The hold'em console at every kiosk size (issue 30), by taps alone, against the live runtime
(controller/table.py) on its emulated devices, in headless Chromium at 1280x800, 1024x600 and 800x480.
One live table for the module (the shipped no-limit profile: $1 chips, $1-$2 blinds).

The one keypad: "1 5" is $15 here as at the banked tables, and an amount the table's $1 chips cannot
make ($15.50) is refused by name, the buy-in's button staying off. Between hands and at every step of a
hand dealt to its showdown the whole step is on screen without a vertical scroll and no button is under
44 px (fit_helpers); the header names the game, not its profile key, and shows no empty badge; the showdown
names seats. The taps of the hand are counted (the closing note of issue 30 had 38). Screenshots go to
tests/ui/screenshots.
"""

from __future__ import annotations

import json

import pytest

from tests.ui.fit_helpers import SIZE_IDS, SIZES, Taps
from tests.ui.poker_console import poker, step_by_touch, synced
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, wait_until

TODAY_TAPS = 38      # a hold'em hand before issue 30
STACKS = {1: "100", 2: "150", 3: "200"}     # dollars, typed on the keypad


@pytest.fixture(scope="module")
def holdem(tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    data = tmp_path_factory.mktemp("console-holdem")
    profile = load_profile(PROFILES / "texas-holdem.toml")
    server = LiveServer(lambda: Table(profile, data_dir=data / "data", seed=7, screen=False), secrets_file)
    yield server
    server.close()


@pytest.mark.parametrize("width,height", SIZES, ids=SIZE_IDS)
def test_a_holdem_hand_by_taps_fits_at_each_size(holdem, browser, screenshots, width, height):
    size = f"{width}x{height}"
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(holdem.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        for _ in range(60):          # a hand the size before left unfinished is dealt to its end first
            if holdem.published()["round"]["state"] in ("none", "closed"):
                break
            step_by_touch(page, holdem)
        wait_until(holdem, lambda s: s["round"]["state"] in ("none", "closed"), "between hands")
        tap = Taps(page, screenshots, f"console-holdem-{size}")
        assert page.inner_text("#game") == "Texas hold'em"
        assert page.locator("#state:visible").count() == 0 or page.inner_text("#state").strip() not in ("", "NONE")

        # The one keypad: dollars; the cents key for cents, which no $1 chip makes.
        page.click("[data-test=key-clear]")
        for key in "15":
            page.click(f"[data-test=key-{key}]")
        assert page.inner_text("[data-test=keyed]") == "Amount $15"
        for key in ("cents", "5", "0"):
            page.click(f"[data-test=key-{key}]")
        assert page.inner_text("[data-test=keyed]") == "Amount $15.50"
        assert "cannot be made with the table's chips" in page.inner_text("[data-test=keyed-refusal]")
        empty = [x["seat"] for x in range_of_empty(holdem)]
        assert page.is_disabled(f"[data-test=sit-{empty[0]}]")
        page.click("[data-test=key-clear]")

        seated = {x["seat"] for x in holdem.published()["seating"]["seats"]}
        for seat, dollars in STACKS.items():
            if seat in seated:
                continue
            for key in dollars:
                page.click(f"[data-test=key-{key}]")
            page.click(f"[data-test=sit-{seat}]")
            page.locator(f"[data-test=stack-{seat}]").wait_for()
        tap.step("0-seats")
        tap.count = 0                      # the hand's taps, from "Next hand" to the pots pushed
        tap("[data-test=panel-next_round]")
        wait_until(holdem, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the deck counted")
        synced(page, holdem)
        for k in range(60):
            if holdem.published()["round"]["state"] == "closed":
                break
            done = step_by_touch(page, holdem, tap)
            synced(page, holdem)
            tap.step(f"{k + 1:02d}-{done}")
        else:
            pytest.fail("the hand did not end in 60 steps")
        page.locator("#showdown-box").wait_for(state="visible")
        assert "Seat " in page.inner_text("#showdown") and "seat " not in page.inner_text("#showdown")
        tap.step("99-showdown")
        (screenshots / f"taps-holdem-{size}.json").write_text(json.dumps({"taps": tap.count, "before": TODAY_TAPS}))
        assert tap.count <= TODAY_TAPS, tap.count
        assert len(poker(holdem)["players"]) == len(STACKS)
    finally:
        ctx.close()


def range_of_empty(server) -> list[dict]:
    taken = {x["seat"] for x in server.published()["seating"]["seats"]}
    return [{"seat": n} for n in range(1, server.published()["table"]["seats"] + 1) if n not in taken]


def test_the_supervisor_sees_no_chart_the_game_has_not(holdem, browser):
    """A poker table has no progressive meter and holds no wagers of its own: no meter chart, no
    progressive line and no hold chart on its supervisor's screen (issue 30, 6)."""
    from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_PIN, sign_in
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(holdem.url + "/supervisor")
        page.wait_for_function("document.body.dataset.connection === 'online'")
        sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
        page.wait_for_selector("#figures[data-state='shown']")
        assert page.locator("#chart-meter").is_hidden() and page.locator("#chart-hold").is_hidden()
        assert page.locator("#fig-progressive").count() == 0
        assert page.locator("#chart-rounds").is_visible()
    finally:
        ctx.close()
