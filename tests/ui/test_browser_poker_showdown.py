"""The winning hand named at the showdown (issue 30, 8): "Seat 1 wins $X with a flush, ace high", and at a
high-low game each half, read by the table's engine (the published `showdown.pots[].winners`), not by
the page. A live table of the shipped profile on emulated devices, one per game (hold'em, Omaha high-low
eight or better); the hand's cards are the dealer's touches (the board, the hands shown), so the winner
is known; the showdown is read in headless Chromium at 1280x800, 1024x600 and 800x480, on screen and
with no button under 44 px.
"""

from __future__ import annotations

import pytest

from tests.software_hashes import seed_software_hashes
from tests.ui.fit_helpers import SIZE_IDS, SIZES, fits
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, money, visible, wait_until

# game -> (the board, each seat's hand shown, what each winner is read to hold)
HANDS = {
    "texas-holdem": (["Ah", "Kh", "7h", "2c", "3d"], {1: ["Qh", "4h"], 3: ["As", "Ac"]},
                     {1: [(None, "a flush, ace high")]}),
    "omaha-hi-lo-8": (["Ah", "2c", "7d", "Kh", "9h"], {1: ["Qh", "Jh", "Ts", "Td"], 3: ["3c", "4d", "Ks", "Kd"]},
                      {1: [("high", "a flush, ace high")], 3: [("low", "7-4-3-2-A low")]}),
}


def submit(server, event: dict) -> None:
    done = server.submit(event)
    assert done["ok"], (event, done)


@pytest.fixture(scope="module", params=sorted(HANDS))
def shown_down(request, tmp_path_factory, secrets_file):
    """A hand dealt to its showdown on the table's own events (the dealer's, as the console sends them)."""
    from controller.config import load_profile
    from controller.table import Table
    game = request.param
    board, holes, _ = HANDS[game]
    base = tmp_path_factory.mktemp(f"showdown-{game}")
    seed_software_hashes(base / "data")
    profile = load_profile(PROFILES / f"{game}.toml")
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=3, screen=False), secrets_file)
    try:
        stack = max(server.published()["seating"]["buy_in_min"], 20 * server.published()["seating"]["minimum_to_play"])
        for seat in holes:
            submit(server, {"type": "sit", "seat": seat, "stack": stack})
        submit(server, {"type": "next_round"})
        wait_until(server, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the hand's deck counted")
        dealt = 0
        for _ in range(40):
            p = server.published()["poker"]
            if p["phase"] == "complete":
                break
            if p["owed"]["hole"]:
                submit(server, {"type": "deal_hole", "up": {}})
            elif p["owed"]["board"]:
                n = p["owed"]["board"]
                submit(server, {"type": "deal_board", "cards": board[dealt:dealt + n]})
                dealt += n
            elif p["turn"] == "show":
                submit(server, {"type": "show", "seat": p["to_act"], "cards": holes[p["to_act"]]})
            else:
                submit(server, {"type": "check_call", "seat": p["to_act"]})
        wait_until(server, lambda s: s["round"]["state"] == "closed", "the pots awarded")
        yield game, server
    finally:
        server.close()


def test_the_engine_names_the_winners(shown_down):
    game, server = shown_down
    _, _, named = HANDS[game]
    pots = server.published()["poker"]["showdown"]["pots"]
    winners = {}
    for w in pots[0]["winners"]:
        winners.setdefault(w["seat"], []).append((w["half"], w["hand"]))
    assert winners == named
    assert set(pots[0]["awards"]) == {str(seat) for seat in named}


@pytest.mark.parametrize("width,height", SIZES, ids=SIZE_IDS)
def test_the_showdown_names_the_winning_hand_at_each_size(shown_down, browser, screenshots, width, height):
    game, server = shown_down
    _, _, named = HANDS[game]
    pot = server.published()["poker"]["showdown"]["pots"][0]
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        page.locator("#showdown-box").wait_for(state="visible")
        for seat, halves in named.items():
            line = page.locator(f"#showdown [data-award='0'] [data-winner='{seat}']")
            words = " and ".join(f"{'the ' + half + ' ' if half else ''}with {hand}" for half, hand in halves)
            assert line.inner_text() == f"Seat {seat} wins {money(pot['awards'][str(seat)])} {words}"
            visible(page, f"#showdown [data-award='0'] [data-winner='{seat}']")
        page.screenshot(path=screenshots / f"showdown-{game}-{width}x{height}.png")
        fits(page, f"{game} showdown {width}x{height}")
    finally:
        ctx.close()
