"""Issue 34, item 1 on the supervisor's screen: the table's books entered by touch at the installed
`tablectl run --emulate` in headless Chromium at the kiosk's smallest size — an opener counted by
denomination, a fill with its carrier and slip, the count room's drop with a second supervisor's PIN —
each journaled with its signers and listed by `tablectl events` beside the running table."""

from __future__ import annotations

import json

import pytest

from tests.security.security_helpers import LiveTable, supervisors, tablectl
from tests.ui.ui_helpers import sign_in

pytestmark = pytest.mark.browser
PINS = {"1042": "246810", "2077": "135791"}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    live = LiveTable(tmp_path_factory.mktemp("books"), game="casino-war")
    supervisors(live.secrets, PINS)
    live.start()
    yield live
    live.stop()


def journaled(page, what: str) -> None:
    page.click("[data-test=books-journal]")
    page.locator("#toast").get_by_text(f"the {what} journaled").wait_for()


def test_the_books_by_touch(browser, table):
    ctx = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url + "/supervisor")
        sign_in(page, "1042", PINS["1042"])
        page.locator("[data-test=books]").wait_for(state="visible")
        page.click("[data-test=books-opener]")
        for key in ("add-500-20", "add-500-20", "add-2500-5", "add-2500-1"):   # 40 x $5, 6 x $25
            page.click(f"[data-test={key}]")
        assert page.inner_text("[data-test=books-total]") == "Total $350"
        journaled(page, "opener")
        page.click("[data-test=books-fill]")
        page.click("[data-test=add-10000-5]")
        page.fill("[data-test=books-carrier]", "1042")            # the supervisor cannot carry their own fill
        page.fill("[data-test=books-slip]", "F-0042")
        page.click("[data-test=books-journal]")
        page.locator("#toast").get_by_text("signed by two people").wait_for()
        page.fill("[data-test=books-carrier]", "R-17")
        journaled(page, "fill")
        page.click("[data-test=books-drop]")
        for key in ("drop-key-1", "drop-key-2", "drop-key-0"):
            page.click(f"[data-test={key}]")
        page.fill("[data-test=books-second]", "2077")
        page.fill("[data-test=books-second-pin]", "000000")     # a wrong PIN: nothing journaled
        page.click("[data-test=books-journal]")
        page.locator("#toast").get_by_text("second signer").wait_for()
        page.fill("[data-test=books-second]", "2077")
        page.fill("[data-test=books-second-pin]", PINS["2077"])
        journaled(page, "drop")
    finally:
        ctx.close()
    done = tablectl("events", "--json", "--data-dir", table.data)
    assert done.returncode == 0, done.stderr
    books = [(e["kind"], e["who"], e["amount"]) for e in json.loads(done.stdout)["events"]
             if e["kind"] in ("opener", "fill", "drop")]
    assert books == [("opener", "1042", 35_000), ("fill", "1042, R-17", 50_000), ("drop", "1042, 2077", 12_000)]


def test_the_dealer_keys_a_buy_in(browser, table):
    """The dealer's console: a seat and the cash on the one keypad; journaled as the estimated drop."""
    ctx = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url + "/")
        page.click("[data-test=buyin-open]")
        page.click("[data-test=buyin-seat-3]")
        for key in ("buyin-key-2", "buyin-key-0", "buyin-key-0"):
            page.click(f"[data-test={key}]")
        assert page.inner_text("[data-test=buyin-amount]") == "$200"
        ok = page.locator("[data-test=buyin-ok]")
        ok.scroll_into_view_if_needed()
        box = ok.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 480   # the confirm is on screen at 800x480
        ok.click()
        page.locator("#toast").get_by_text("Buy-in journaled").wait_for()
    finally:
        ctx.close()
    done = tablectl("events", "--json", "--kind", "buy-in", "--data-dir", table.data)
    assert done.returncode == 0, done.stderr
    assert [(e["seat"], e["amount"], e["source"]) for e in json.loads(done.stdout)["events"]] == [(3, 20_000, "panel")]


def test_the_supervisor_sees_the_day_against_par_and_the_books(browser, table):
    """Item 3 on the screen: the day's result against the exact par, and the books' win (the opener, fill
    and drop above, no closer yet: no win from the books), as `tablectl report --json --config` gives them."""
    done = tablectl("report", "--json", "--demo", "--data-dir", table.data, "--config", str(table.profile))
    assert done.returncode == 0, done.stderr
    par = json.loads(done.stdout)["tables"][0]["par"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url + "/supervisor")
        sign_in(page, "1042", PINS["1042"])
        line = page.locator("[data-test=fig-par]")
        line.wait_for(state="visible")
        text = line.inner_text()
    finally:
        ctx.close()
    def money(c: int) -> str:
        return f"{'-' if c < 0 else ''}${abs(c) // 100:,}.{abs(c) % 100:02d}"
    assert f"theoretical {money(par['theoretical_win'])}" in text and f"measured {money(par['measured_win'])}" in text
    assert "Books:" not in text
