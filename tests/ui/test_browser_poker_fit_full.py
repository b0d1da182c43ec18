"""A fully seated poker table fits the kiosk at every step (issue 30, 5), as the three-seat tables of
test_browser_poker_fit.py do: hold'em with its ten seats taken (the seat after the big blind straddling),
pineapple with its eleven, seven-card stud with its eight (up to seven cards a seat, the river's card dealt
to the board when the deck is short) and five-card draw with its six (every seat drawing), each a live
table of its shipped profile on emulated devices, one hand dealt to its showdown by touches alone with
every player in it to the end (each calls or checks: the most seats deciding, the most tiles with
cards, and the board picker at every street). Between hands and at every step the page is looked at
at 1280x800, 1024x600 and 800x480 in turn (the one page, its viewport changed): no vertical scroll, no
button under 44 px (tests/ui/fit_helpers.py), the blind and button markers whole on screen and the
step's buttons on screen; at each street's first decision of hold'em and pineapple also with the raise's keypad
open (stud and draw are fixed limit: no keypad). At 800x480
the players' tiles wait under the card picker while the dealer touches in cards (the pots too while five
seats or more are owed an up card at stud) and under the raise's
keypad while the dealer keys an amount, and after the showdown
of the eleven-seat table the keypad waits behind "Keypad…" (dealer.css). Screenshots of each step at
each size, and the content's height at each (fit-full-<game>.json), go to tests/ui/screenshots.
"""

from __future__ import annotations

import json

import pytest

from tests.software_hashes import seed_software_hashes
from tests.ui.fit_helpers import SIZES, misfits
from tests.ui.poker_console import key_in, sit, step_by_touch, synced
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, wait_until

GAMES = {"texas-holdem": 10, "pineapple": 11, "seven-card-stud": 8, "five-card-draw": 6}   # the shipped profiles' seats, every one taken
# what each hand asks of the dealer: the cards dealt to the board, the streets (each deal of cards, and the
# draw) whose first decision is looked at with the raise's keypad open, the markers at least on the tiles
# (hold'em: the button, the blinds and the straddle; stud has none: the up cards force the bring-in)
BOARDS = {"texas-holdem": 3, "pineapple": 3, "seven-card-stud": 1, "five-card-draw": 0}
STREETS = {"texas-holdem": {1, 2, 3, 4}, "pineapple": {1, 2, 3, 4},
           "seven-card-stud": set(), "five-card-draw": set()}    # fixed limit: a raise is one bet, no keypad
MARKERS = {"texas-holdem": 4, "pineapple": 2, "seven-card-stud": 0, "five-card-draw": 2}

# On screen (inside the viewport, not only in the page): the markers of the blinds and the button, each
# whole inside its seat's name line (not cut off by it), and the step's buttons (the seat deciding now,
# the picker's cards, the deal).
_ON_SCREEN = """() => {
  const within = (r, box) => r.width > 0 && r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1
    && r.left >= box.left - 1 && r.right <= box.right + 1;
  const screen = { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth };
  const off = (sel, clip) => [...document.querySelectorAll(sel)].filter((el) => el.offsetParent !== null)
    .filter((el) => { const r = el.getBoundingClientRect();
      return !within(r, screen) || (clip && !within(r, el.closest(clip).getBoundingClientRect())); })
    .map((el) => el.textContent.trim().slice(0, 30) || el.outerHTML.slice(0, 60));
  return { markers: [...document.querySelectorAll("#players .marker")].filter((m) => m.offsetParent !== null).length,
           markersOff: off("#players .marker", ".name"),
           actionsOff: off("#poker-actions button, #step-bar button", null),
           picking: !!document.querySelector("#poker-actions > .picker, #poker-actions > .poker-keypad") };
}"""


@pytest.fixture(scope="module", params=list(GAMES))
def full_table(request, tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    game = request.param
    base = tmp_path_factory.mktemp(f"fit-full-{game}")
    seed_software_hashes(base / "data")
    profile = load_profile(PROFILES / f"{game}.toml")
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=5, screen=False), secrets_file)
    yield game, server
    server.close()


def test_a_full_table_fits_at_every_step_at_each_size(full_table, browser, screenshots):
    game, server = full_table
    ctx = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    heights: dict[str, dict[str, int]] = {}
    wrong: list[str] = []

    def look(label: str, hand: bool) -> None:
        """The page as it is now, at each size in turn (the last size left in place)."""
        heights[label] = {}
        for width, height in SIZES:
            size = f"{width}x{height}"
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[width, height])
            page.screenshot(path=screenshots / f"fit-full-{game}-{size}-{label}.png")
            where = f"{game} {size} {label}"
            _, bad = misfits(page, where)
            heights[label][size] = page.evaluate("Math.ceil(document.body.getBoundingClientRect().bottom)")
            wrong.extend(bad)
            if hand:
                seen = page.evaluate(_ON_SCREEN)
                # at 800x480 the picker is the step while the dealer touches in cards, the keypad while
                # the dealer keys a raise: the players' tiles wait under it (dealer.css), their markers too
                tiles_wait = seen["picking"] and height <= 520
                if not tiles_wait and (seen["markers"] < MARKERS[game] or seen["markersOff"]):
                    wrong.append(f"{where}: the blind and button markers not all on screen "
                                 f"({seen['markers']} shown; off: {seen['markersOff']})")
                if seen["actionsOff"]:
                    wrong.append(f"{where}: the step's buttons off the screen: {seen['actionsOff']}")

    try:
        page = ctx.new_page()
        page.set_default_timeout(30_000)   # a full table's step on a busy 2-core box: a bound, not a pace
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        wait_until(server, lambda s: s["round"]["state"] in ("none", "closed"), "between hands")
        seating = server.published()["seating"]
        assert server.published()["table"]["seats"] == GAMES[game]
        for seat in range(1, GAMES[game] + 1):
            sit(page, seat, max(seating["buy_in_min"], 20 * seating["minimum_to_play"]))
        look("00-seats", hand=False)
        page.click("[data-test=panel-next_round]")
        if game == "texas-holdem":        # the seat after the big blind straddles (the profile's straddle)
            page.click("[data-test=straddle]")
            page.locator("#players .marker:has-text('STRADDLE')").wait_for()
        wait_until(server, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the hand's deck counted")
        synced(page, server)
        look("01-opening", hand=True)
        done: list[str] = []
        streets: set[int] = set()    # the streets whose first decision was looked at with the raise's keypad open
        for k in range(200):
            if server.published()["round"]["state"] == "closed":
                break
            done.append(step_by_touch(page, server))
            s = synced(page, server)
            if s["round"]["state"] != "closed":
                look(f"{k + 2:03d}-{done[-1]}", hand=True)
                street = sum(d.startswith("hole") or d == "board" for d in done) + ("draw" in done)
                if s["poker"]["turn"] == "bet" and street not in streets and page.locator("[data-test=other-amount]").is_visible():
                    streets.add(street)          # any other amount: the keypad under the step's buttons
                    page.click("[data-test=other-amount]")
                    page.locator("[data-test=legal-range]").wait_for()
                    look(f"{k + 2:03d}-{done[-1]}-other-amount", hand=True)
        else:
            pytest.fail(f"the hand did not end in 200 steps: {done}")
        # every player stayed in to the showdown: every seat decided at every street and showed
        assert done.count("show") == GAMES[game], done
        assert done.count("board") == BOARDS[game], done
        assert streets == STREETS[game], streets
        page.locator("#showdown-box").wait_for(state="visible")
        look("999-showdown", hand=False)
        # the pots pushed, the dealer keys a buy-in (at 800x480 the keypad is behind "Keypad…" there)
        key_in(page, seating["buy_in_min"])
        page.wait_for_function("t => document.querySelector('[data-test=keyed]').textContent.includes(t)",
                               arg=f"${seating['buy_in_min'] // 100}")
        look("999-showdown-keyed", hand=False)
    finally:
        (screenshots / f"fit-full-{game}.json").write_text(json.dumps(heights, indent=1))
        ctx.close()
    assert not wrong, "\n".join(wrong)
