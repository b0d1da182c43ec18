"""TEST MODE on every screen (9 NYCRR 5319.58; issue 28 item 5): the installed `tablectl run --emulate`
(tests/security/security_helpers.LiveTable) and its dealer's and supervisor's pages in headless Chromium."""

from __future__ import annotations

import pytest

from tests.security.security_helpers import LiveTable, supervisors

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    live = LiveTable(tmp_path_factory.mktemp("testmode"), game="casino-war")
    supervisors(live.secrets, {"1042": "246810"})
    live.start()
    yield live
    live.stop()


@pytest.mark.parametrize("path", ["/", "/supervisor"])
def test_every_screen_says_test_mode(browser, table, path):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url + path)
        banner = page.locator("#test-mode")
        banner.wait_for(state="visible")
        assert "TEST MODE" in banner.inner_text()
        assert page.evaluate("document.body.classList.contains('test-mode')")
    finally:
        ctx.close()


def test_the_supervisors_screen_journals_an_entry(browser, table):
    """The entry log's small form (9 NYCRR 5321.9(e)-(f)): journaled with the signed-in supervisor, listed by
    `tablectl events --kind entry` (read-only, beside the running table)."""
    import json

    from tests.security.security_helpers import tablectl
    from tests.ui.ui_helpers import sign_in
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url + "/supervisor")
        sign_in(page, "1042", "246810")
        page.locator("[data-test=entry-log]").wait_for(state="visible")
        page.fill("[data-test=entry-person]", "T-31")
        page.fill("[data-test=entry-licence]", "NY-5521")
        page.select_option("[data-test=entry-place]", "shuffler")
        page.fill("[data-test=entry-reason]", "cleaned the shuffler's rollers")
        page.click("[data-test=log-entry]")
        page.locator("#toast").get_by_text("journaled").wait_for()
    finally:
        ctx.close()
    done = tablectl("events", "--json", "--kind", "entry", "--data-dir", table.data)
    assert done.returncode == 0, done.stderr
    entries = json.loads(done.stdout)["events"]
    assert [(e["who"], e["licence"], e["place"], e["detail"], e["source"]) for e in entries] == [
        ("T-31", "NY-5521", "shuffler", "cleaned the shuffler's rollers", "screen")]
