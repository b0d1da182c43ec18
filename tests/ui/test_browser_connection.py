"""A page that loses its connection to the table says so at once, and comes back by itself.

The live table (controller/table.py on the emulated devices); its screens' server is
stopped and started again while the table plays on.
"""

from __future__ import annotations

from tests.ui.ui_helpers import wait_until


def test_page_says_at_once_that_the_connection_is_lost_and_reconnects(live, real_table, page_factory, screenshots):
    table = live(real_table("casino-war"))
    wait_until(table, lambda s: s["round"]["state"] == "wagers", "the first round taking wagers")
    dealer = page_factory(table.url)
    dealer.locator("[data-test=initial-1]").wait_for()
    assert dealer.locator("#conn-banner").is_hidden()
    assert dealer.is_enabled("[data-test=initial-1]")
    table.stop()
    dealer.locator("#conn-banner").wait_for(state="visible", timeout=3000)
    assert dealer.evaluate("document.body.dataset.connection") == "offline"
    # Nothing on a stale page can be pressed while the table cannot hear it.
    assert dealer.evaluate("getComputedStyle(document.querySelector('[data-test=initial-1]')).pointerEvents") == "none"
    dealer.screenshot(path=screenshots / "dealer-connection-lost.png", full_page=True)
    assert table.submit({"type": "wager", "seat": 4, "wager": "initial", "stake": 500})["ok"]
    table.start()
    dealer.locator("#conn-banner").wait_for(state="hidden", timeout=5000)
    # The state it missed while away is there on reconnecting.
    dealer.locator(".seat[data-seat='4'] .wagers").get_by_text("$5.00").wait_for()

