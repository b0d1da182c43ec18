"""The rake taken round by round on the live hold'em table's console (issue 31, item 2):
5324.42(o)(2)(i)(b): after the betting round the console shows "Rake $X into the rake area" and waits
for the dealer's touch; the pots box shows the rake taken so far."""

from __future__ import annotations

from tests.ui.poker_console import poker, sit, synced
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, money, wait_until


def test_o2ib_the_rounds_rake_into_the_rake_area_by_one_touch(browser, secrets_file, tmp_path, screenshots):
    from controller.config import load_profile
    from controller.table import Table
    profile = load_profile(PROFILES / "texas-holdem.toml")
    server = LiveServer(lambda: Table(profile, data_dir=tmp_path / "data", seed=8, screen=False), secrets_file)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        for seat in (1, 2, 3, 4):
            sit(page, seat, 20_000)
        page.click("[data-test=panel-next_round]")
        wait_until(server, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the deck counted")
        page.locator("[data-test=deal-hole]:enabled").click()
        wait_until(server, lambda s: s["poker"]["turn"] == "bet", "the betting open")
        first = poker(server)["to_act"]
        assert server.submit({"type": "bet_raise", "seat": first, "amount": 1000}, source="panel")["ok"]
        for _ in range(3):
            seat = poker(server)["to_act"]
            assert server.submit({"type": "check_call", "seat": seat}, source="panel")["ok"]
        wait_until(server, lambda s: s["poker"]["rake_due"], "the round's rake due")
        synced(page, server)
        assert page.inner_text("[data-test=next-step]").startswith("Rake $4.00 into the rake area")
        assert page.locator("[data-test=deal-board]").count() == 0            # no card before the touch
        assert f"Rake {money(400)} taken" in page.inner_text("#pots")
        page.screenshot(path=screenshots / "poker-holdem-rake-by-round.png", full_page=True)
        page.click("[data-test=rake-taken]")
        wait_until(server, lambda s: not s["poker"]["rake_due"], "the rake taken")
        page.locator("[data-test=deal-board]").wait_for()

        async def touched():
            return [e.payload["event"]["type"] for e in server.table.journal.entries_since(0) if e.kind == "event"]
        assert "rake_taken" in server.call(touched())                    # journaled as the dealer's touch
    finally:
        ctx.close()
        server.close()
