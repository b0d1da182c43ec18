"""A page that loses its connection to the table says so at once, and comes back by itself."""

from __future__ import annotations

from fake_table import FakeTable


def test_page_says_at_once_that_the_connection_is_lost_and_reconnects(live, page_factory, screenshots):
    table = live(lambda: FakeTable("casino-war"))
    dealer = page_factory(table.url)
    assert dealer.locator("#conn-banner").is_hidden()
    assert dealer.is_enabled("[data-test=initial-1]")
    table.stop()
    dealer.locator("#conn-banner").wait_for(state="visible", timeout=3000)
    assert dealer.evaluate("document.body.dataset.connection") == "offline"
    # Nothing on a stale page can be pressed while the table cannot hear it.
    assert dealer.evaluate("getComputedStyle(document.querySelector('[data-test=initial-1]')).pointerEvents") == "none"
    dealer.screenshot(path=screenshots / "dealer-connection-lost.png", full_page=True)
    table.submit({"type": "wager", "seat": 4, "wager": "initial", "stake": 500})
    table.start()
    dealer.locator("#conn-banner").wait_for(state="hidden", timeout=5000)
    # The state it missed while away is there on reconnecting.
    dealer.locator(".seat[data-seat='4'] .wagers").get_by_text("$5.00").wait_for()

