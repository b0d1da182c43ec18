"""The poker room's irregularities by touch on the live seven-card stud table (issue 31).

One live table (`tablectl run`'s Table on emulated devices) and one console page for the module:
exposed hole cards touched before "Hole cards dealt" ((p)(6)), both exposed: dead, the ante back;
the seventh-street exposure's choice by one touch ((p)(6)(i)-(ii)); players' hole cards face down
on the console unless the dealer turns them (game protection).
"""

from __future__ import annotations

import pytest

from tests.ui.poker_console import pick, poker, record_of, replayed, sit, step_by_touch, synced, unused_cards
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, SUPERVISOR_ID, SUPERVISOR_PIN, sign_in, wait_until


@pytest.fixture(scope="module")
def stud(browser, secrets_file, tmp_path_factory):
    from controller.config import load_profile
    from controller.table import Table
    profile = load_profile(PROFILES / "seven-card-stud.toml")
    data = tmp_path_factory.mktemp("stud31")
    server = LiveServer(lambda: Table(profile, data_dir=data / "data", seed=31, screen=False), secrets_file)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.goto(server.url)
    page.wait_for_function("document.body.dataset.connection === 'online'")
    for seat in (1, 2, 3):
        sit(page, seat, 10_000)
    yield server, page
    ctx.close()
    server.close()


def next_hand(page, server) -> None:
    page.click("[data-test=panel-next_round]")
    wait_until(server, lambda s: s["round"]["state"] != "closed" and ((s.get("poker") or {}).get("deck") or {}).get("ok"),
               "the next hand, its deck counted")


def expose_by_touch(page, server, seat: int, card: str) -> None:
    synced(page, server)
    if not page.locator(f"[data-test=expose-{seat}]").is_visible():
        page.click("[data-test=irregularities]")
    n = len(poker(server)["actions"])
    pick(page, [card])
    page.click(f"[data-test=expose-{seat}]")
    wait_until(server, lambda s: len(s["poker"]["actions"]) > n, f"seat {seat}'s {card} exposed")


def finish(page, server) -> None:
    while server.published()["round"]["state"] != "closed":
        step_by_touch(page, server)


def test_p6_both_hole_cards_exposed_before_hole_cards_dealt_dead_hand_ante_returned(stud, tmp_path, screenshots):
    """5324.42(p)(6): a first hole card turned up in the dealing, touched before "Hole cards dealt": the
    third card is dealt face down; the second turned up too: the hand is dead, the ante returned."""
    server, page = stud
    next_hand(page, server)
    expose_by_touch(page, server, 2, "Ah")
    me = next(x for x in poker(server)["players"] if x["seat"] == 2)
    assert me["cards"] == ["Ah"] and me["up"] == [True]
    assert poker(server)["owed"]["hole"]["2"] == [False, False]     # its up card now comes face down
    page.locator("[data-player='2'] [data-card='Ah']").wait_for()
    expose_by_touch(page, server, 2, "Kh")
    me = next(x for x in poker(server)["players"] if x["seat"] == 2)
    stack_before = next(x["stack"] for x in server.published()["seating"]["seats"] if x["seat"] == 2)
    assert me["folded"] and me["stack"] == stack_before                  # the ante back
    page.locator("[data-player='2'].folded").wait_for()
    page.screenshot(path=screenshots / "poker-stud-both-hole-cards-exposed.png", full_page=True)
    finish(page, server)
    record = record_of(server, server.published()["round"]["id"])
    assert record["stacks_after"][record["seats"].index(2)] == stack_before
    assert replayed(record, tmp_path)["finishing_stacks"] == record["stacks_after"]


def test_p6_third_hole_card_exposed_the_choice_by_one_touch(stud, tmp_path, screenshots):
    """5324.42(p)(6)(i): the seventh-street card turned up: "End obligation" ends the player's wagers,
    who contends for the pot formed so far; the console offers "Contend for the pot" beside it."""
    server, page = stud
    next_hand(page, server)
    while True:   # to the seventh street's down card, every player checking or calling
        p = poker(server)
        if p["owed"]["hole"] and all(f == [False] for f in p["owed"]["hole"].values()) \
                and len(p["players"][0]["cards"]) == 6:
            break
        step_by_touch(page, server)
    step_by_touch(page, server)          # "Hole cards dealt": the seventh card, face down
    expose_by_touch(page, server, 1, unused_cards(server.published())[-1])
    wait_until(server, lambda s: s["poker"]["turn"] == "contend", "seat 1's choice")
    synced(page, server)
    assert "5324.42(p)(6)" in page.inner_text("[data-test=next-step]")
    page.locator("[data-test=contend-all]").wait_for()
    page.screenshot(path=screenshots / "poker-stud-third-hole-card-choice.png", full_page=True)
    page.click("[data-test=contend-part]")
    wait_until(server, lambda s: s["poker"]["turn"] == "bet", "the betting open without seat 1")
    page.locator("[data-test=ended-1]").wait_for()
    assert next(x for x in poker(server)["players"] if x["seat"] == 1)["ended"]
    finish(page, server)
    record = record_of(server, server.published()["round"]["id"])
    assert "p1 contend part" in record["phh"]
    assert replayed(record, tmp_path)["finishing_stacks"] == record["stacks_after"]


def test_hole_cards_are_face_down_on_the_console_until_the_dealer_turns_them(stud):
    """Game protection (issue 31, item 10): a player's known hole cards show as backs; "Turn up" shows
    them, the up cards always showing."""
    server, page = stud
    next_hand(page, server)
    for text in ("d dh p1 AsAd", "d dh p1 9c", "d dh p2 ????Tc", "d dh p3 ????3h"):
        assert server.submit({"type": "action", "action": text}, source="panel")["ok"]
    synced(page, server)
    box = page.locator("[data-player='1']")
    box.locator("[data-card='9c']").wait_for()
    assert box.locator("[data-card='As']").count() == 0 and box.locator(".card.back").count() == 2
    page.click("[data-test=turn-1]")
    box.locator("[data-card='As']").wait_for()
    page.click("[data-test=turn-1]")
    box.locator("[data-card='As']").wait_for(state="detached")
    finish(page, server)


def test_p3_a_dead_deck_is_replaced_on_the_supervisors_screen_before_it_is_dealt_again(stud, browser, screenshots):
    """5324.42(p)(3): "Cards missing" touched on the console: the round dead, every chip back; the next
    hand (the same round dealt again, (p)(1)) refuses the dead deck until a supervisor puts a new one in
    play and the shuffler counts it."""
    server, page = stud
    next_hand(page, server)
    first = server.published()["poker"]["dealing_deck"]
    page.locator("[data-test=deal-hole]").wait_for()
    step_by_touch(page, server)                                  # hole cards dealt
    synced(page, server)
    if not page.locator("[data-test=dead-missing]").is_visible():
        page.click("[data-test=irregularities]")
    page.click("[data-test=dead-missing]")
    page.locator("[data-alarm=void_pending]").wait_for()
    assert server.submit({"type": "void_round", "reason": "a card missing"}, source="supervisor",
                         who=SUPERVISOR_ID)["ok"]
    record = record_of(server, server.published()["round"]["id"])
    assert record["void"] and record["stacks_after"] == record["stacks_before"]
    page.click("[data-test=panel-next_round]")
    wait_until(server, lambda s: s["round"]["state"] != "closed", "the round dealt again")
    s = synced(page, server)
    assert s["poker"]["dealing_deck"]["id"] == first["id"] and s["poker"]["deck"]["dead"]
    assert "5324.42(p)(3)" in page.inner_text("[data-test=next-step]")
    assert page.locator("[data-test=deal-hole]").count() == 0
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        sup = ctx.new_page()
        sup.set_default_timeout(10_000)
        sup.goto(server.url + "/supervisor")
        sup.wait_for_function("document.body.dataset.connection === 'online'")
        sign_in(sup, SUPERVISOR_ID, SUPERVISOR_PIN)
        sup.locator("#poker-deck").wait_for()
        assert "called dead (5324.42(p)(3))" in sup.text_content("#deck-count")
        sup.screenshot(path=screenshots / "poker-supervisor-dead-deck.png", full_page=True)
        sup.click("[data-test=replace-deck]")
        wait_until(server, lambda s: (s["poker"]["deck"] or {}).get("ok"), "the new deck counted 52")
    finally:
        ctx.close()
    page.locator("[data-test=deal-hole]").wait_for()
    finish(page, server)


def test_p5i_a_fouled_stud_hand_is_recorded_by_one_touch(stud, tmp_path):
    """5324.42(p)(5)(i): stud hole cards are protected; "Fouled" records the hand dead (the player's part
    in it), where before it was refused at a stud table."""
    server, page = stud
    next_hand(page, server)
    step_by_touch(page, server)                                  # hole cards dealt
    synced(page, server)
    if not page.locator("[data-test=foul-2]").is_visible():
        page.click("[data-test=irregularities]")
    n = len(poker(server)["actions"])
    page.click("[data-test=foul-2]")
    wait_until(server, lambda s: len(s["poker"]["actions"]) > n, "the foul recorded")
    assert poker(server)["actions"][-1] == f"p{next(x['player'] for x in poker(server)['players'] if x['seat'] == 2)} foul contributor"
    page.locator("[data-player='2'].folded").wait_for()
    finish(page, server)
    record = record_of(server, server.published()["round"]["id"])
    assert "foul contributor" in record["phh"]
    assert replayed(record, tmp_path)["finishing_stacks"] == record["stacks_after"]
