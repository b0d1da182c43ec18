"""Issue 29 item 6 on the screens in headless Chromium, on a live table (`tablectl run`'s runtime on emulated
devices): a validated royal flush past the hand-pay threshold is held on the dealer's pay list, and the
supervisor's screen asks for its tax form (the player's identification, the form's number; the signed-in
supervisor pays it). Once entered, the identification is on no screen in full and in no log line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from controller import logs
from controller.config import parse_profile
from controller.games.handpay import masked
from tests.stud.test_hand_pay_live_29 import forget_logging
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import SUPERVISOR_ID, deal_progressive_hand, money, sign_in, wait_until
from tests.ui.ui_helpers import SUPERVISOR_PIN

ROYAL_ALONE = "Ah Kh Qh Jh Th  As Kd 7h 4c 2s".split()   # seat 1's royal flush, then the dealer's ace-king
PLAYER = "PA-88120-4417"
FORM = "W2G-0007"


@pytest.fixture(scope="module")
def box(tmp_path_factory, secrets_file):
    """The module's live table, the default profile (its [hand_pay]: $600 and 300 times the wager)."""
    from controller.table import Table
    base = tmp_path_factory.mktemp("handpay29")
    out = io.StringIO()
    logs.configure("debug", "json", stream=out, table="CS-01", force=True)   # every line logged, read after
    profile = parse_profile((Path(__file__).resolve().parents[2] / "config" / "caribbean-stud.toml").read_text())
    assert (profile.hand_pay.min_amount, profile.hand_pay.multiple) == (60_000, 300)
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=7, screen=False), secrets_file)
    try:
        yield server, out
    finally:
        server.close()
        forget_logging()


def test_the_form_step_on_the_supervisors_screen(box, page_factory, screenshots):
    server, out = box
    deal_progressive_hand(server, ROYAL_ALONE)
    assert server.submit({"type": "settle"})["ok"]
    wait_until(server, lambda s: s["round"]["state"] == "validation", "the royal waiting")

    page = page_factory(server.url + "/supervisor")
    sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
    page.click("[data-test=validate-1]")
    page.click("[data-test=confirm-validate]")
    state = wait_until(server, lambda s: s["validations"] == [] and s["hand_pays"], "the royal validated, held")
    assert state["round"]["state"] == "validation"
    (held,) = state["hand_pays"]

    # the dealer's pay list: seat 1's pays held until the form is done (a page of its own)
    dealer = page_factory(server.url + "/")
    steps = dealer.locator("#settlement li[data-seat='1'][data-step='held']")
    steps.first.wait_for()
    assert "its tax form first" in steps.first.inner_text()
    assert dealer.locator("#settlement li[data-seat='1'][data-step='pay']").count() == 0
    dealer.close()

    box_ = page.locator("[data-test=hand-pays]")
    box_.wait_for()
    assert money(held["amount"]) in box_.inner_text()
    page.click("[data-test=hand-pay-1]")
    page.locator("[data-test=hand-pay-dialog]").wait_for()
    page.fill("[data-test=hand-pay-player]", "12")   # too short: refused by the table, shown in the dialog
    page.fill("[data-test=hand-pay-form]", FORM)
    page.click("[data-test=hand-pay-ok]")
    page.wait_for_function("document.getElementById('hand-pay-error').textContent.includes('player_id')")
    page.fill("[data-test=hand-pay-player]", PLAYER)
    page.click("[data-test=hand-pay-ok]")
    wait_until(server, lambda s: s["round"]["state"] == "closed", "the round closed by the form")
    done = page.locator("[data-hand-pay-done]")
    done.wait_for()
    assert done.inner_text() == f"Form {FORM}, player id {masked(PLAYER)}, paid by {SUPERVISOR_ID}"
    page.screenshot(path=screenshots / "hand-pay-29-form-done.png")

    # after its entry, the identification is on no screen in full: not in the page, its fields, its state
    assert PLAYER not in page.content()
    assert page.eval_on_selector("[data-test=hand-pay-player]", "e => e.value") == ""
    assert PLAYER not in json.dumps(server.published())
    dealer = page_factory(server.url + "/")
    dealer.locator("#settlement li[data-seat='1'][data-step='pay']").first.wait_for()
    assert PLAYER not in dealer.content()
    # nor in a log line, though the screen's action was logged
    lines = [json.loads(x) for x in out.getvalue().splitlines() if x.startswith("{")]
    (action,) = [x for x in lines if x["event"] == "supervisor_action" and x["action"]["type"] == "hand_pay"
                 and x["action"]["player_id"] != "\u2022" * 4]
    assert action["action"]["player_id"] == masked(PLAYER)
    assert PLAYER not in out.getvalue()
