"""A bet wager the payout limit pays less says so (issue 30, 8): "capped at the payout limit" on the
dealer's pay list at every kiosk size, `capped` and the paytable's figure in the round's record, and the
same words in the installed `tablectl rounds show`. A live Caribbean stud table (the shipped profile: a
$1,005.00 bet payout limit, 5324.37(g)(3)) on emulated devices, its deck stacked: seat 1's royal flush
on a $25 ante (its $50 bet at 100:1 is $5,000.00 by the paytable), seat 2's straight flush on a $5 ante
($500.00, under the limit), seat 3 nothing; the dealer qualifies. One round, read at each size.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.table.table_helpers import deck_ready
from tests.ui.fit_helpers import SIZE_IDS, SIZES, fits
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import (PROFILES, STUD_DECK, load_stacked_deck, money, settlement_on_screen, visible,
                                 wait_until)

TABLECTL = Path(sys.executable).with_name("tablectl")   # the installed command
LIMIT = 100500


@pytest.fixture(scope="module")
def capped_round(tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    base = tmp_path_factory.mktemp("stud-capped")
    profile = load_profile(PROFILES / "caribbean-stud.toml")
    assert profile.caribbean_stud.bet_payout_limit == LIMIT
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=7, screen=False), secrets_file)
    try:
        wait_until(server, lambda s: s["round"]["state"] == "open" and deck_ready(s), "the first round open")
        load_stacked_deck(server, STUD_DECK)
        for seat, ante in ((1, 2500), (2, 500), (3, 500)):
            assert server.submit({"type": "ante", "seat": seat, "amount": ante})["ok"]
        for event in ({"type": "no_more_bets"}, {"type": "deal"}):
            assert server.submit(event)["ok"], event
        wait_until(server, lambda s: s["round"]["state"] == "decisions", "the hands dealt")
        for seat in (1, 2, 3):
            assert server.submit({"type": "decision", "seat": seat, "decision": "bet"})["ok"]
        for event in ({"type": "reveal"}, {"type": "settle"}):
            assert server.submit(event)["ok"], event
        wait_until(server, lambda s: s["round"]["state"] == "closed", "the round settled")
        yield server, server.published()["round"]["id"], base / "data"
    finally:
        server.close()


def test_the_record_and_rounds_show_say_capped(capped_round):
    server, round_id, data = capped_round

    async def read():
        return server.table.journal.round_entries(round_id)
    rec = next(e.payload for e in server.call(read()) if e.kind == "round-record")
    seats = {s["seat"]: s for s in rec["settlement"]["seats"]}
    assert {"step": "pay", "seat": 1, "wager": "bet", "amount": LIMIT, "capped": True, "uncapped": 500000} in rec["steps"]
    assert seats[1]["bet"] == {"stake": 5000, "outcome": "win", "net": LIMIT, "capped": True, "uncapped": 500000}
    assert "capped" not in seats[2]["bet"] and seats[2]["bet"]["net"] == 50000
    shown = subprocess.run([TABLECTL, "rounds", "show", round_id, "--data-dir", str(data)],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    seat1 = next(line for line in shown.stdout.splitlines() if line.strip().startswith("seat 1:"))
    assert f"capped at the payout limit: {money(500000)} by the paytable" in seat1, shown.stdout
    seat2 = next(line for line in shown.stdout.splitlines() if line.strip().startswith("seat 2:"))
    assert "capped" not in seat2


@pytest.mark.parametrize("width,height", SIZES, ids=SIZE_IDS)
def test_the_pay_list_says_capped_at_each_size(capped_round, browser, screenshots, width, height):
    server, round_id, _ = capped_round
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        page.locator("#settlement li").first.wait_for()
        rows = settlement_on_screen(page)
        assert ("pay", 1, money(LIMIT)) in rows and ("pay", 2, money(50000)) in rows, rows
        capped = page.locator("#settlement li[data-seat='1'][data-wager='bet']")
        assert "capped at the payout limit" in capped.inner_text()
        assert page.locator("#settlement li[data-seat='2'][data-wager='bet'] [data-capped]").count() == 0
        assert page.locator("#settlement [data-capped]").count() == 1
        fits(page, f"stud capped {width}x{height}")
        visible(page, "#settlement [data-capped]")                 # in sight, not pushed off the side
        visible(page, "#settlement li[data-seat='1'][data-wager='bet'] b")
        assert page.eval_on_selector("#settlement [data-capped]", "e => e.scrollWidth <= e.clientWidth + 1"), "the words cut"
        page.screenshot(path=screenshots / f"stud-capped-{width}x{height}.png")
    finally:
        ctx.close()
