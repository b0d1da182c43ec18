"""Time charges at a seven-card stud table, live: the dealer is told what to collect, the
floorperson verifies the collection on the supervisor's screen (5324.42(o)(2)(iii)(d)-(e))."""

from __future__ import annotations

from tests.ui.poker_console import record_of, sit, step_by_touch, synced
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, SUPERVISOR_ID, SUPERVISOR_PIN, sign_in, wait_until


def test_time_charges_collected_at_the_hand_and_verified_by_the_floorperson(browser, secrets_file, tmp_path,
                                                                           screenshots):
    """5324.42(o)(2)(iii): per table, $30 an hour by 15 minutes, the first increment in advance, shared by
    the seated players; (d) collected by the dealer; (e) verified by a floorperson, then to the drop box.
    (f)(6)(iv): a deck that does not count 52 is replaced by the supervisor and counted again."""
    from controller.config import load_profile
    from controller.table import Table
    profile = load_profile(PROFILES / "seven-card-stud.toml")
    server = LiveServer(lambda: Table(profile, data_dir=tmp_path / "data", seed=4, screen=False), secrets_file)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        dealer, sup = (ctx.new_page() for ctx in contexts)
        for page, path in ((dealer, "/"), (sup, "/supervisor")):
            page.set_default_timeout(10_000)
            page.goto(server.url + path)
            page.wait_for_function("document.body.dataset.connection === 'online'")
        for seat in (1, 2, 3):
            sit(dealer, seat, 10_000)
        dealer.click("[data-test=panel-next_round]")
        wait_until(server, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the deck counted")
        synced(dealer, server)
        assert dealer.inner_text("[data-test=next-step]").startswith(
            "Collect the time charges (seat 1 $2.50, seat 2 $2.50, seat 3 $2.50) into the rake area.")
        while server.published()["round"]["state"] != "closed":
            step_by_touch(dealer, server)
        record = record_of(server, server.published()["round"]["id"])
        assert record["time_charges"] == 750 and record["stacks_before"] == [9_750] * 3

        sign_in(sup, SUPERVISOR_ID, SUPERVISOR_PIN)
        hand = record["round"]
        sup.locator(f"[data-test=verify-time-{hand}]").wait_for()
        sup.screenshot(path=screenshots / "poker-supervisor-time-charges.png", full_page=True)
        sup.click(f"[data-test=verify-time-{hand}]")
        wait_until(server, lambda s: not s["time_charges"]["pending"], "the time charges verified")
        assert [(v["hand"], v["total"], v["floorperson"]) for v in server.published()["time_charges"]["verified"]] \
            == [(hand, 750, SUPERVISOR_ID)]

        async def lines():
            return [e.payload for e in server.table.journal.entries_since(0) if e.kind == "time-charges"]
        assert [p["floorperson"] for p in server.call(lines())] == [SUPERVISOR_ID]

        # (f)(6)(iv): the next hand's deck counts 51 on the shuffler's reader; the supervisor replaces it.
        dealer.click("[data-test=panel-next_round]")
        wait_until(server, lambda s: s["round"]["state"] != "closed" and (s["poker"]["deck"] or {}).get("ok"),
                   "the next hand's deck counted")
        assert server.submit({"type": "deck_count", "total": 51, "anomalies": [], "truncated": False},
                             source="device")["ok"]
        dealer.locator("[data-test=next-step]:has-text('replace the deck')").wait_for()
        sup.click("[data-test=replace-deck]")
        wait_until(server, lambda s: (s["poker"]["deck"] or {}).get("ok") and not s["alarms"],
                   "a new deck shuffled and counted 52")
        sup.locator("#poker-deck").wait_for(state="hidden")
    finally:
        for ctx in contexts:
            ctx.close()
        server.close()
