"""Issue 34, item 1 on the supervisor's screen: the table's books entered by touch at the installed
`tablectl run --emulate` in headless Chromium at the kiosk's smallest size — an opener counted by
denomination, a fill signed by its carrier's own PIN and its slip, the count room's drop with a second
supervisor's PIN —
each journaled with its signers and listed by `tablectl events` beside the running table."""

from __future__ import annotations

import json

import pytest

from tests.security.security_helpers import LiveTable, supervisors, tablectl
from tests.ui.ui_helpers import sign_in

pytestmark = pytest.mark.browser
PINS = {"1042": "246810", "2077": "135791"}
CARRIER, CARRIER_PIN = "R-17", "975310"   # a runner in the table's roster of carriers ([pit] carriers)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    live = LiveTable(tmp_path_factory.mktemp("books"), game="casino-war")
    supervisors(live.secrets, PINS)
    carriers = live.profile.parent / "carriers.toml"
    added = tablectl("carrier", "add", CARRIER, "--name", "Sam Runner", "--roster", str(carriers), "--pin-stdin",
                     input=f"{CARRIER_PIN}\n")
    assert added.returncode == 0, added.stderr
    live.profile.write_text(live.profile.read_text() + f'\n[pit]\ncarriers = "{carriers}"\n')
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
        page.fill("[data-test=books-carrier]", "1042")            # the supervisor cannot carry their own fill:
        page.fill("[data-test=books-carrier-pin]", PINS["1042"])  # their PIN is no carrier's signature
        page.fill("[data-test=books-slip]", "F-0042")
        page.click("[data-test=books-journal]")
        page.locator("#toast").get_by_text("carrier:").wait_for()
        page.fill("[data-test=books-carrier]", CARRIER)
        page.fill("[data-test=books-carrier-pin]", "000000")    # not the runner's PIN: nothing journaled
        page.click("[data-test=books-journal]")
        # the answer came once the page let go of the PIN (a PIN is typed for one act, never kept)
        page.wait_for_function("document.querySelector('[data-test=books-carrier-pin]').value === ''")
        assert "carrier:" in page.inner_text("#toast")
        page.fill("[data-test=books-carrier-pin]", CARRIER_PIN)
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
    # nothing the refused signatures asked for was journaled, and no PIN is in the table's log
    log = table.log_path.read_text(errors="replace")
    assert CARRIER_PIN not in log and PINS["1042"] not in log


def test_the_dealer_keys_a_buy_in(browser, table):
    """The dealer's console: a seat and the cash on the one keypad; journaled as the estimated drop."""
    ctx = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url + "/")
        page.locator("#dealer-signin").wait_for(state="visible")   # nobody on duty: the console asks first
        for key in ("dealer-key-4", "dealer-key-2"):
            page.click(f"[data-test={key}]")
        page.click("[data-test=dealer-signin]")
        page.locator("#dealer-signin").wait_for(state="hidden")
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
    assert [(e["seat"], e["amount"], e["source"], e["who"]) for e in json.loads(done.stdout)["events"]] == [
        (3, 20_000, "panel", "42")]                                   # keyed by the dealer on duty


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


def test_a_fill_names_its_carrier_only_by_their_signature(table):
    """The server takes the carrier from their badge and PIN alone: an event naming one is refused, so is a
    fill without the carrier's signature; neither reaches the journal."""
    with table.client() as c:
        assert c.post("/api/supervisor/signin", json={"id": "1042", "pin": PINS["1042"]}).status_code == 200
        fill = {"type": "pit_fill", "chips": {"2500": 4}, "slip": "F-9"}
        named = c.post("/api/supervisor/action", json={"event": {**fill, "carrier": CARRIER}},
                       headers={"Referer": table.url + "/supervisor"})
        unsigned = c.post("/api/supervisor/action", json={"event": fill}, headers={"Referer": table.url + "/supervisor"})
        other = c.post("/api/supervisor/action", json={"event": {"type": "pit_drop", "amount": 100},
                                                       "carrier": {"id": CARRIER, "pin": CARRIER_PIN}},
                       headers={"Referer": table.url + "/supervisor"})
    assert named.status_code == 400 and "does not name one" in named.json()["error"]
    assert unsigned.status_code == 400 and "badge and PIN" in unsigned.json()["error"]
    assert other.status_code == 400 and "fill or a credit only" in other.json()["error"]
    done = tablectl("events", "--json", "--kind", "fill", "--data-dir", table.data)
    assert [e["detail"] for e in json.loads(done.stdout)["events"] if "F-9" in (e["detail"] or "")] == []
