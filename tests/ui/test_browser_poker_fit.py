"""Every step of a draw, a stud and an Omaha hand fits the kiosk (issue 30, 5), as hold'em's does
(test_browser_console_poker.py): five-card draw, seven-card stud and Omaha, each a live table of its
shipped profile on emulated devices, one hand dealt to its showdown by touches alone at 1280x800,
1024x600 and 800x480; between hands and at every step no vertical scroll and no button under 44 px
(tests/ui/fit_helpers.py). Screenshots of each step go to tests/ui/screenshots.
"""

from __future__ import annotations

import pytest

from tests.software_hashes import seed_software_hashes
from tests.ui.fit_helpers import SIZE_IDS, SIZES, Taps, fits
from tests.ui.poker_console import sit, step_by_touch, synced
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, wait_until

GAMES = ("five-card-draw", "omaha", "seven-card-stud", "triple-draw-2-7", "five-card-stud", "pineapple", "crazy-pineapple")
SEATS = (1, 3, 5)
# what each game's hand must have asked of the dealer, so the steps that crowd its screen were seen
STEPS = {"five-card-draw": "draw", "seven-card-stud": "hole+up", "omaha": "board", "triple-draw-2-7": "draw",
         "five-card-stud": "hole+up", "pineapple": "discard", "crazy-pineapple": "discard"}


@pytest.fixture(scope="module", params=GAMES)
def table(request, tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    game = request.param
    base = tmp_path_factory.mktemp(f"fit-{game}")
    seed_software_hashes(base / "data")
    profile = load_profile(PROFILES / f"{game}.toml")
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=3, screen=False), secrets_file)
    yield game, server
    server.close()


@pytest.mark.parametrize("width,height", SIZES, ids=SIZE_IDS)
def test_every_step_of_a_hand_fits_at_each_size(table, browser, screenshots, width, height):
    game, server = table
    size = f"{width}x{height}"
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        for _ in range(80):          # a hand the size before left unfinished is dealt to its end first
            if server.published()["round"]["state"] in ("none", "closed"):
                break
            step_by_touch(page, server)
        wait_until(server, lambda s: s["round"]["state"] in ("none", "closed"), "between hands")
        seating = server.published()["seating"]
        seated = {x["seat"] for x in seating["seats"]}
        for seat in SEATS:
            if seat not in seated:
                sit(page, seat, max(seating["buy_in_min"], 20 * seating["minimum_to_play"]))
        tap = Taps(page, screenshots, f"fit-{game}-{size}")
        tap.step("0-seats")
        tap("[data-test=panel-next_round]")
        wait_until(server, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the hand's deck counted")
        synced(page, server)
        tap.step("1-opening")
        done = []
        for k in range(80):
            if server.published()["round"]["state"] == "closed":
                break
            done.append(step_by_touch(page, server, tap))
            synced(page, server)
            tap.step(f"{k + 2:02d}-{done[-1]}")
        else:
            pytest.fail(f"the hand did not end in 80 steps: {done}")
        assert STEPS[game] in done, done
        page.locator("#showdown-box").wait_for(state="visible")
        fits(page, f"{game} {size} showdown")
        page.screenshot(path=screenshots / f"fit-{game}-{size}-99-showdown.png")
    finally:
        ctx.close()
