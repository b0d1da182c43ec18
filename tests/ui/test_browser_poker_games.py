"""Every poker profile's game dealt from the console by touches alone, on the live table.

For each profile in config/ (but the banked games): a live table as `tablectl run`
runs it on emulated devices, three players seated on the console's keypad, and a
hand dealt to its showdown with the first choice the console offers at each step
(the bring-in in stud, a one-card draw in the draw games, the pineapple discards);
the journaled record replays with the installed `tablectl poker replay` to the same
stacks. Two hands a table, one at each of the console's sizes.
"""

from __future__ import annotations

import pytest

from tests.software_hashes import seed_software_hashes
from tests.ui.poker_console import record_of, replayed, sit, step_by_touch
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, wait_until

GAMES = sorted(p.stem for p in PROFILES.glob("*.toml") if p.stem not in ("caribbean-stud", "casino-war"))
SIZES = ((1280, 800), (800, 480))
EXPECTED = {"seven-card-stud": "bring-in", "five-card-draw": "draw", "pineapple": "discard",
            "crazy-pineapple": "discard", "triple-draw-2-7": "draw", "five-card-stud": "bring-in"}


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_of_every_poker_profile_by_touches(game, browser, secrets_file, tmp_path, screenshots):
    from controller.config import load_profile
    from controller.table import Table
    profile = load_profile(PROFILES / f"{game}.toml")
    seed_software_hashes(tmp_path / "data")
    server = LiveServer(lambda: Table(profile, data_dir=tmp_path / "data", seed=3, screen=False), secrets_file)
    contexts = []
    try:
        for number, (width, height) in enumerate(SIZES):      # one hand at each of the console's sizes
            ctx = browser.new_context(viewport={"width": width, "height": height})
            contexts.append(ctx)
            page = ctx.new_page()
            page.set_default_timeout(10_000)
            page.goto(server.url)
            page.wait_for_function("document.body.dataset.connection === 'online'")
            if number == 0:
                seating = server.published()["seating"]
                stack = max(seating["buy_in_min"], 20 * seating["minimum_to_play"])
                for seat in (1, 3, 5):
                    sit(page, seat, stack)
            page.click("[data-test=panel-next_round]")
            wait_until(server, lambda s: s["round"]["state"] != "closed" and
                       ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the hand's deck counted")
            done = []
            while server.published()["round"]["state"] != "closed":
                done.append(step_by_touch(page, server))
                assert len(done) < 80, done
            page.locator("#showdown-box").wait_for(state="visible")
            page.screenshot(path=screenshots / f"poker-{game}-{width}x{height}.png", full_page=True)
            if game in EXPECTED:
                assert EXPECTED[game] in done, done
            record = record_of(server, server.published()["round"]["id"])
            assert replayed(record, tmp_path)["finishing_stacks"] == record["stacks_after"]
            seats = {x["seat"]: x["stack"] for x in server.published()["seating"]["seats"]}
            assert [seats[s] for s in record["seats"]] == record["stacks_after"]
    finally:
        for ctx in contexts:
            ctx.close()
        server.close()
