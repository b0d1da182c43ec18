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
