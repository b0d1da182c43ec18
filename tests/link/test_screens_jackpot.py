"""A live poker table on the room's pooled jackpot, seen on its screens (issue 10; 5324.42(r), 5321.18(c)).

The live runtime (controller/table.py) with a hold'em profile whose `[link]` joins a
jackpot pool in the test's PostgreSQL, its screens in headless Chromium. The dealer's
console names the pool and its qualifying period, and announces a closed period; when the database stops, it says
the jackpot pool is out of reach and that hands go on (there is no wager to refuse:
the drop and the qualifying hands wait at the table), not the progressive's wording;
when the database is back the banner goes.
"""

from __future__ import annotations

from tests.link.test_live_poker import poker_profile
from tests.ui.ui_helpers import wait_until


def test_the_poker_console_names_the_jackpot_pool_and_says_when_it_is_out_of_reach(env, live, page_factory,
                                                                                   screenshots):
    from controller.config import load_profile
    from controller.table import Table
    env.create_jackpot("room", seed=2_500)
    cfg = env.add_table("room", "PK-01")
    profile = load_profile(poker_profile(env, cfg, "PK-01"))
    server = live(lambda: Table(profile, data_dir=env.tmp / "data-PK-01", seed=5, screen=False))
    wait_until(server, lambda s: (s.get("progressive") or {}).get("available"), "the jackpot pool reached")
    assert server.published()["progressive"]["kind"] == "jackpot"

    dealer = page_factory(server.url)
    dealer.locator("#pending h2").wait_for()
    assert dealer.text_content("#pending h2") == "Jackpot pool room \u2014 period 1"
    assert dealer.locator("#pending [data-leading-none]").count() == 1
    assert dealer.locator("#progressive-banner .progressive-down").count() == 0
    assert dealer.text_content("#meter-name") == "Jackpot pool" and dealer.text_content("#meter-pool") == "Pool room"
    dealer.wait_for_function("() => document.getElementById('meter').textContent === '$25.00'")

    with env.database_down():
        dealer.locator("#progressive-banner .progressive-down").wait_for(timeout=5000)
        banner = dealer.inner_text("#progressive-banner")
        assert "Jackpot pool out of reach \u2014 link down (5321.18(c)); hands go on" in banner
        assert "Progressive" not in banner
        # the table raises a jackpot alarm (not a progressive one); the screen shows it once, as the banner
        assert [x["kind"] for x in server.published()["alarms"]] == ["jackpot_unavailable"]
        assert dealer.locator("#alarms [data-alarm]").count() == 0
        assert "wait at the table and are sent when the link is back" in banner
        assert dealer.locator("#progressive-banner [data-reason]").inner_text().strip()
        assert "as last heard from the pool" in dealer.text_content("#pending h2")
        dealer.screenshot(path=screenshots / "linked-poker-jackpot-unavailable.png", full_page=True)
    dealer.locator("#progressive-banner .progressive-down").wait_for(state="detached", timeout=15_000)
    assert dealer.text_content("#pending h2") == "Jackpot pool room \u2014 period 1"

    # the floor closes the period: no hand qualified, so it is announced as rolled over (5324.42(r)(5), (7))
    from controller.link import admin
    closed = admin.close_period(env.admin, "room", "Floor Fran")
    assert closed["rolled_over"] and closed["total_cents"] == 2_500
    dealer.locator("[data-announced-period='1']").wait_for(timeout=10_000)
    assert dealer.text_content("[data-announced-period='1']") == \
        "Period 1 closed: no qualifying hand, $25.00 rolled over to period 2"
    dealer.wait_for_function("() => document.querySelector('#pending h2').textContent.endsWith('period 2')")
    assert server.published()["progressive"]["last_period"]["status"] == "rolled"

    # another table of the room makes a qualifying hand: it leads on this table's console too (r)(4)
    import asyncio
    import threading

    from controller.link.jackpot import JackpotLink
    other = env.add_table("room", "PK-09")

    async def qualify():
        async with JackpotLink(other, other.outbox) as t:
            await t.qualify("PK-09-000031", 3, ["9h", "9d", "9c", "9s", "Ks", "2c", "3d"], "PK-09 seat 3")
    worker = threading.Thread(target=asyncio.run, args=(qualify(),))   # Playwright's loop runs in this thread
    worker.start()
    worker.join(30)
    dealer.locator("[data-leading-table='PK-09']").wait_for(timeout=10_000)
    assert dealer.text_content("[data-leading-table='PK-09']") == "Leading: Four of a kind 9h 9d 9c 9s Ks 2c 3d \u00b7 table PK-09, seat 3"
    closed = admin.close_period(env.admin, "room", "Floor Fran")
    assert not closed["rolled_over"] and closed["total_cents"] == 2_500
    dealer.locator("[data-announced-period='2']").wait_for(timeout=10_000)
    assert dealer.text_content("[data-announced-period='2']") == \
        "Period 2 closed: $25.00 paid \u2014 table PK-09, seat 3 (Four of a kind) $25.00"
    dealer.screenshot(path=screenshots / "linked-poker-jackpot-announced.png", full_page=True)
    env.assert_books("room")
