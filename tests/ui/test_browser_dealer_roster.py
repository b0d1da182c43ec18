"""Issue 30, item 9: a dealer signs in from the roster with their PIN, where the profile asks for one.

`tablectl dealer add` (the installed command) writes the roster; the installed `tablectl run --emulate`
with `[dealers] pin = "required"` asks the dealer's badge and then their PIN on the console in headless
Chromium at 800x480; a wrong PIN and a badge off the roster are refused; the journal keeps the
dealer's name and that the PIN was checked, never the PIN; the report names the dealer."""

from __future__ import annotations

import json
import sqlite3
import stat
import subprocess

import pytest

from controller.games.base import EventRefused
from controller.runtime.dealers import DealerOnDuty
from tests.security.security_helpers import TABLECTL, LiveTable, supervisors, tablectl

PIN = "246813"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("roster")
    live = LiveTable(tmp, game="casino-war")
    supervisors(live.secrets, {"1042": "246810"})
    roster = tmp / "dealers.toml"
    done = subprocess.run([str(TABLECTL), "dealer", "add", "42", "--name", "Dana Reyes", "--roster", str(roster),
                           "--pin-stdin"], input=f"{PIN}\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    live.profile.write_text(live.profile.read_text() + f'\n[dealers]\nroster = "{roster}"\npin = "required"\n')
    live.roster = roster
    live.start()
    yield live
    live.stop()


pytestmark = pytest.mark.browser


def key(page, digits: str) -> None:
    for d in digits:
        page.click(f"[data-test=dealer-key-{d}]")


def test_the_roster_is_the_owners_alone_and_a_pin_needs_a_roster(table, tmp_path):
    assert stat.S_IMODE(table.roster.stat().st_mode) & 0o077 in (0, 0o040) and PIN not in table.roster.read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(table.profile.read_text().replace(f'roster = "{table.roster}"\n', ""))
    done = tablectl("config", "check", str(bad))
    assert done.returncode != 0 and "dealers.pin" in (done.stdout + done.stderr)


def test_a_dealer_signs_in_with_badge_and_pin(browser, table):
    ctx = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url + "/")
        page.locator("#dealer-signin").wait_for(state="visible")
        key(page, "77")                                          # a badge off the roster
        page.click("[data-test=dealer-signin]")                  # "Next: PIN"
        key(page, PIN)
        page.click("[data-test=dealer-signin]")
        # refused like a wrong PIN: the console does not tell which badges the roster holds
        page.locator("#dealer-signin-error").get_by_text("dealer sign-in").wait_for()
        page.evaluate("document.getElementById('dealer-signin-error').textContent = ''")
        key(page, "42")
        assert page.inner_text("[data-test=dealer-signin]") == "Next: PIN"
        page.click("[data-test=dealer-signin]")
        key(page, "111111")                                      # a wrong PIN
        page.click("[data-test=dealer-signin]")
        page.locator("#dealer-signin-error").get_by_text("dealer sign-in").wait_for()
        key(page, "42")
        page.click("[data-test=dealer-signin]")
        key(page, PIN)
        ok = page.locator("[data-test=dealer-signin]")
        box = ok.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 480
        ok.click()
        page.locator("#dealer-signin").wait_for(state="hidden")
        assert page.inner_text("[data-test=dealer-on-duty]") == "Dealer 42"
    finally:
        ctx.close()
    with sqlite3.connect(f"file:{table.data}/journal.db?mode=ro", uri=True) as db:
        rows = [json.loads(p) for (p,) in db.execute("SELECT payload FROM entries WHERE kind = 'dealer'")]
        everything = b"".join(bytes(str(r), "utf-8") for r in db.execute("SELECT * FROM entries"))
    assert rows == [{"dealer": "42", "relieves": None, "source": "panel", "name": "Dana Reyes", "pin": "checked"}]
    assert PIN.encode() not in everything and PIN not in table.log_path.read_text()
    report = tablectl("report", "--json", "--demo", "--data-dir", table.data)
    assert report.returncode == 0, report.stderr
    dealers = json.loads(report.stdout)["tables"][0]["dealers"]
    assert [(d["dealer"], d.get("name")) for d in dealers] == [("42", "Dana Reyes")]


def test_the_table_refuses_a_sign_in_the_screens_did_not_check():
    """The table's own rule, whatever reaches it: with a PIN required, a sign-in not checked is refused."""
    from controller.boundary import TABLE_OWN, PANEL
    model = TABLE_OWN[PANEL]["dealer_on_duty"]
    on_duty = DealerOnDuty(pin_required=True)
    with pytest.raises(EventRefused, match="PIN"):
        on_duty.sign_in(model.model_validate({"type": "dealer_on_duty", "badge": "42"}), "panel")
    rows = on_duty.sign_in(model.model_validate({"type": "dealer_on_duty", "badge": "42", "name": "Dana",
                                                 "pin_checked": True}), "panel")
    assert rows[0][1]["name"] == "Dana" and on_duty.badge == "42"
