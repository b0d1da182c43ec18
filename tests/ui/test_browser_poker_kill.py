"""Omaha high-low split eight or better dealt by touches on the live table: the half-kill, the odd chip.

A pot above the profile's threshold ($80) won whole by one player puts the kill
lammer in front of him (5324.42(j)(9)); the next hand he posts the kill blind and
the limits are raised by half, which the console shows; both records replay with
the installed `tablectl poker replay` to the same stacks.
"""

from __future__ import annotations

import pytest

from tests.ui.poker_console import deal_board, poker, record_of, replayed, show_down, sit, synced
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, money, wait_until


def touch(page, server, test: str, seat: int) -> None:
    """Seat `seat`, to act, does what the button `test` says; wait until the table took it."""
    page.locator(f"[data-player='{seat}'].to-act").wait_for()
    synced(page, server)
    n = len(poker(server)["actions"])
    page.click(f"[data-test={test}]")
    wait_until(server, lambda s: len(s["poker"]["actions"]) > n, f"seat {seat}: {test}")


@pytest.fixture(scope="module")
def omaha8(browser, secrets_file, tmp_path_factory):
    """One live Omaha/8 table and one console page for the module's hands."""
    from controller.config import load_profile
    from controller.table import Table
    profile = load_profile(PROFILES / "omaha-hi-lo-8.toml")
    data = tmp_path_factory.mktemp("omaha8")
    server = LiveServer(lambda: Table(profile, data_dir=data / "data", seed=5, screen=False), secrets_file)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.goto(server.url)
    page.wait_for_function("document.body.dataset.connection === 'online'")
    yield server, page
    ctx.close()
    server.close()


def test_a_whole_pot_above_the_threshold_gives_the_half_kill_to_its_winner(omaha8, tmp_path, screenshots):
    """5324.42(j)(9): the half-kill lammer, its kill blind and the limits raised by half."""
    server, page = omaha8
    for seat in (1, 2, 3):
        sit(page, seat, 50_000)
    page.click("[data-test=panel-next_round]")
    wait_until(server, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the deck counted")
    page.locator("[data-test=deal-hole]:enabled").click()
    for seat, test in ((3, "preset-min"), (1, "preset-min"), (2, "call"), (3, "call")):
        touch(page, server, test, seat)
    for board in (["Ks", "Qs", "Jh"], ["Kc"], ["Th"]):        # no low can be made: one hand scoops
        deal_board(page, server, board)
        for seat, test in ((1, "preset-min"), (2, "call"), (3, "call")):
            touch(page, server, test, seat)
    show_down(page, server, {1: ["Ah", "Ad", "Kh", "Kd"], 2: ["7c", "7d", "8c", "8d"], 3: ["2s", "3s", "9c", "9d"]})
    first = record_of(server, server.published()["round"]["id"])
    assert sum(first["stacks_before"]) - sum(first["stacks_after"]) == first["rake"] + first["jackpot_drop"]
    assert replayed(first, tmp_path)["finishing_stacks"] == first["stacks_after"]

    page.click("[data-test=panel-next_round]")
    page.locator("[data-test=kill-1]").wait_for()
    assert page.inner_text("[data-test=kill-1]") == "HALF-KILL"
    wait_until(server, lambda s: (s["poker"]["deck"] or {}).get("ok"), "the deck counted")
    synced(page, server)
    assert "half-kill" in page.inner_text("[data-test=next-step]")
    p = poker(server)
    assert p["kill"] == {"seat": 1, "kind": "half-kill"}
    assert next(x for x in p["players"] if x["seat"] == 1)["bet"] == 600    # the kill blind: 1.5 x $4
    assert f"Bet {money(600)}" in page.inner_text("[data-player='1']")
    page.screenshot(path=screenshots / "poker-omaha8-half-kill-1280.png", full_page=True)
    page.locator("[data-test=deal-hole]:enabled").click()
    while True:   # fold round to the last player; between a fold and the next seat's turn nobody is to act
        s = wait_until(server, lambda s: s["round"]["state"] == "closed" or s["poker"]["to_act"] is not None,
                       "the next seat to act, or the hand over")
        if s["round"]["state"] == "closed":
            break
        touch(page, server, "fold", s["poker"]["to_act"])
    second = record_of(server, server.published()["round"]["id"])
    assert "_kill_blind" in second["phh"] and "big_bet = 1200" in second["phh"]
    assert replayed(second, tmp_path)["finishing_stacks"] == second["stacks_after"]


def test_a_split_pot_pays_the_odd_chip_to_the_high_hand(omaha8, tmp_path, screenshots):
    """5324.42(j)(6)(ii)(a): a pot that does not divide evenly in the table's $1 chips between the
    high and the low hand gives the odd chip to the high hand."""
    server, page = omaha8
    wait_until(server, lambda s: s["round"]["state"] == "closed", "the last hand over")
    assert server.published()["poker"]["kill"] is not None      # the killed hand; its small pot ends the kill
    page.click("[data-test=panel-next_round]")
    wait_until(server, lambda s: s["round"]["state"] == "deal" and (s["poker"]["deck"] or {}).get("ok"),
               "the next hand, its deck counted")
    assert poker(server)["kill"] is None
    page.locator("[data-test=deal-hole]:enabled").click()
    order = [x["seat"] for x in poker(server)["players"]]       # small blind, big blind, button
    for seat, test in ((order[2], "call"), (order[0], "call"), (order[1], "check")):
        touch(page, server, test, seat)
    for board in (["2c", "3d", "4h"], ["Kd"], ["Ks"]):
        deal_board(page, server, board)
        for seat in order:
            touch(page, server, "check", seat)
    high, low, other = order
    show_down(page, server, {high: ["Kh", "Kc", "9s", "9h"], low: ["Ah", "5c", "Qs", "Qh"],
                             other: ["Js", "Jd", "Ts", "Td"]})
    pot = poker(server)["showdown"]["pots"][0]
    net = pot["amount"] - poker(server)["showdown"]["rake"] - poker(server)["showdown"]["jackpot_drop"]
    assert net % 200 == 100                                      # an odd number of $1 chips
    assert pot["awards"] == {str(high): net // 200 * 100 + 100, str(low): net // 200 * 100}
    page.locator("[data-award='0']").wait_for()
    assert f"Seat {high} wins {money(net // 200 * 100 + 100)}" in page.inner_text("#showdown")
    page.screenshot(path=screenshots / "poker-omaha8-odd-chip-1280.png", full_page=True)
    record = record_of(server, server.published()["round"]["id"])
    assert "_chip = 100" in record["phh"]
    assert replayed(record, tmp_path)["finishing_stacks"] == record["stacks_after"]
