"""Issue 29 item 6 at a casino war table in headless Chromium (`tablectl run`'s runtime on emulated devices):
a facility's [hand_pay] of $50 and 10 times the wager makes a $5 tie wager won at 10:1 a hand-pay; its seat's
pay is held on the dealer's list from the first Settle, and once the tie hand has surrendered the round waits
for the form on the supervisor's screen (the shared screen's step, as at Caribbean stud)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.config import parse_profile
from controller.games.handpay import masked
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_PIN, sign_in, stacked, wait_until

ROUND = "Qs 9c Qh".split()   # [the burn], seat 1's queen, seat 3's nine, the dealer's queen: seat 1 ties
PLAYER = "TX-55120-0093"


@pytest.fixture(scope="module")
def war(tmp_path_factory, secrets_file):
    from controller.table import Table
    base = tmp_path_factory.mktemp("handpay-war")
    text = (Path(__file__).resolve().parents[2] / "config" / "casino-war.toml").read_text()
    text = text.replace("min_amount = 60000", "min_amount = 5000").replace("multiple = 300", "multiple = 10")
    profile = parse_profile(text)
    assert (profile.hand_pay.min_amount, profile.hand_pay.multiple) == (5000, 10)
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=7, screen=False), secrets_file)
    wait_until(server, lambda s: s["round"]["state"] == "wagers" and s["shoe"]["dispensed"] == 0,
               "the first round open on a fresh shoe")
    server.table.devices.world.shoe.load(stacked(["2d", *ROUND], decks=6), cover_at=200)
    yield server
    server.close()


def draw(server, count: int) -> None:
    """The dealer's hand on the emulated manual shoe: each card drawn and read, one after another."""
    for _ in range(count):
        before = server.published()["shoe"]["dispensed"]
        server.table.devices.world.shoe.draw()
        wait_until(server, lambda s, before=before: s["shoe"]["dispensed"] > before, "the card read by the shoe")


def test_a_tie_wager_past_the_threshold_waits_for_its_form(war, page_factory, screenshots):
    for event in ({"type": "wager", "seat": 1, "wager": "initial", "stake": 500},
                  {"type": "wager", "seat": 1, "wager": "tie", "stake": 500},
                  {"type": "wager", "seat": 3, "wager": "initial", "stake": 500},
                  {"type": "no_more_bets"}, {"type": "deal"}):
        assert war.submit(event)["ok"], event
    draw(war, war.published()["shoe"]["burn"] + 3)
    wait_until(war, lambda s: s["round"]["state"] == "first_settle", "the original deal dealt")
    assert war.submit({"type": "settle"})["ok"]
    state = wait_until(war, lambda s: s["round"]["state"] == "decisions", "seat 1's tie offered")
    assert [(x["step"], x["seat"], x["wager"]) for x in state["settlement"] if x["seat"] == 1] == [("held", 1, "tie")]
    dealer = page_factory(war.url + "/")
    held = dealer.locator("#settlement li[data-seat='1'][data-step='held']")
    held.wait_for()
    assert "its tax form first" in held.inner_text()
    dealer.close()
    assert war.submit({"type": "decision", "seat": 1, "decision": "surrender"}, who="player-1")["ok"]
    state = wait_until(war, lambda s: s["round"]["state"] == "hand_pay", "the round held for the form")
    assert "Hand-pay: seat 1" in state["round"]["next_step"]

    page = page_factory(war.url + "/supervisor")
    sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
    page.locator("[data-test=hand-pays]").wait_for()
    assert "tie $50.00 on $5.00" in page.inner_text("[data-test=hand-pays]")
    page.click("[data-test=hand-pay-1]")
    page.fill("[data-test=hand-pay-player]", PLAYER)
    page.fill("[data-test=hand-pay-form]", "W2G-WAR-1")
    page.click("[data-test=hand-pay-ok]")
    wait_until(war, lambda s: s["round"]["state"] == "closed", "the round closed by the form")
    done = page.locator("[data-hand-pay-done]")
    done.wait_for()
    assert done.inner_text() == f"Form W2G-WAR-1, player id {masked(PLAYER)}, paid by {SUPERVISOR_ID}"
    page.screenshot(path=screenshots / "hand-pay-29-war-form-done.png")
    assert PLAYER not in page.content() and PLAYER not in json.dumps(war.published())
    assert [(x["step"], x["seat"]) for x in war.published()["settlement"] if x["seat"] == 1 and x["wager"] == "tie"] \
        == [("pay", 1)]
