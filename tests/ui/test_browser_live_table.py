"""Rounds on the live runtime (controller/table.py) and its emulated devices, through the screens.

The table runs as `tablectl run` runs it, with the emulators of drivers/sim for
the shoe, the shuffler and the progressive controller, and its journal in a
fresh directory; the test serves the screens on a free port and works the
round from the pages in headless Chromium. The emulated devices are stacked the
way a test stacks a real deck: the shuffler's shuffle leaves the deck in the
order it was put in (Caribbean stud), or the shoe is loaded with a stacked shoe
(casino war), so the hands the test needs come out of the real shoe driver.
"""

from __future__ import annotations

from controller.cards import CARDS
from tests.table.table_helpers import deck_ready
from tests.ui.ui_helpers import (
    STUD_DECK,
    SUPERVISOR_ID,
    SUPERVISOR_NAME,
    SUPERVISOR_PIN,
    draw_by_hand,
    http,
    load_stacked_deck,
    money,
    settlement_on_screen,
    sign_in,
    stacked,
    state_is,
    wait_until,
)


def journal_entries(server, round_id: str) -> list:
    async def read():
        return server.table.journal.round_entries(round_id)
    return server.call(read())


def test_stud_round_on_the_live_table_royal_validated_straight_flush_refused(live, real_table, page_factory,
                                                                            screenshots):
    server = live(real_table("caribbean-stud"))
    wait_until(server, lambda s: s["round"]["state"] == "open" and deck_ready(s),
               "the first round open with a counted deck in the shoe")
    load_stacked_deck(server, STUD_DECK)
    world = server.table.devices.world

    dealer = page_factory(server.url)
    state_is(dealer, "open")
    meter_before = server.published()["meter"]["amount"]
    assert dealer.inner_text("#meter") == money(meter_before)
    # The chips offered are the profile's limits as the table publishes them (issue 9).
    table = server.published()["table"]
    chips = [int(c.get_attribute("data-chip")) for c in dealer.locator("[data-chip]").all()]
    assert chips[0] == table["minimum_wager"] and max(chips) <= table["maximum_wager"] and len(chips) > 1
    assert dealer.locator(".seat").count() == table["seats"]
    for seat in (1, 2, 3):
        dealer.click(f"[data-test=ante-{seat}]")
        dealer.locator(f".seat[data-seat='{seat}'] .wagers").get_by_text("$5.00").wait_for()
        world.progressive.place_wager(seat)           # a chip on the seat's acceptor
        dealer.locator(f".seat[data-seat='{seat}'] .light.on").wait_for()
    for name in ("deal", "reveal", "settle", "next_round"):
        assert dealer.is_disabled(f"[data-test=panel-{name}]"), name
    dealer.click("[data-test=panel-no_more_bets]")
    state_is(dealer, "no_more_bets")
    dealer.click("[data-test=panel-deal]")
    state_is(dealer, "decisions")                     # five stacks out of the emulated shoe
    # Game protection (issue 18): the players' cards are face down on the dealer's screen until settled.
    assert server.published()["seats"][0]["cards"] == STUD_DECK[0:5]
    for seat in (1, 2, 3):
        assert dealer.locator(f".seat[data-seat='{seat}'] .card.back").count() == 5
        assert dealer.locator(f".seat[data-seat='{seat}'] .card[data-card]").count() == 0
    dealer.screenshot(path=screenshots / "live-dealer-stud-decisions.png", full_page=True)
    for seat in (1, 2, 3):
        dealer.click(f"[data-test=bet-{seat}]")
        dealer.locator(f".seat[data-seat='{seat}'] .decision.bet").wait_for()
    dealer.click("[data-test=panel-reveal]")
    state_is(dealer, "revealed")
    assert "Qualifies" in dealer.inner_text("#dealer")
    for seat, cards in ((1, STUD_DECK[0:5]), (2, STUD_DECK[5:10]), (3, STUD_DECK[10:15])):
        shown = dealer.locator(f".seat[data-seat='{seat}'] .card")
        assert [c.get_attribute("data-card") for c in shown.all()] == cards
    dealer.click("[data-test=panel-settle]")
    state_is(dealer, "validation")

    published = server.published()
    round_id = published["round"]["id"]
    shown = settlement_on_screen(dealer)
    assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in published["settlement"]]
    assert ("pay", 1, money(100 * 1000)) in shown and ("pay", 2, money(50 * 1000)) in shown
    # The progressive wins are in the pay list, waiting for the supervisor (issue 18).
    assert {(s[0], s[1]) for s in shown if s[0] == "waiting"} == {("waiting", 1), ("waiting", 2)}
    dealer.screenshot(path=screenshots / "live-dealer-stud-settled.png", full_page=True)

    # Without a credential a validation is refused and nothing reaches the journal.
    entries = len(journal_entries(server, round_id))
    status, _ = http(f"{server.url}/api/supervisor/action", body={"event": {"type": "validate", "seat": 1}})
    assert status == 401
    status, _ = http(f"{server.url}/api/panel", body={"event": {"type": "validate", "seat": 1}})
    assert status == 403
    assert len(journal_entries(server, round_id)) == entries
    assert server.published()["validations"] == published["validations"]

    supervisor = page_factory(server.url + "/supervisor")
    supervisor.locator("#signin").wait_for()
    assert supervisor.locator(".win").count() == 0          # nothing shown before signing in
    supervisor.screenshot(path=screenshots / "live-supervisor-signin.png", full_page=True)
    sign_in(supervisor, SUPERVISOR_ID, SUPERVISOR_PIN)
    supervisor.get_by_text(f"Signed in: {SUPERVISOR_NAME}").wait_for()
    supervisor.locator(".win").nth(1).wait_for()
    assert supervisor.locator(".win").count() == 2
    for v in published["validations"]:
        win = supervisor.locator(f".win[data-win='{v['seat']}']")
        assert [c.get_attribute("data-card") for c in win.locator(".card").all()] == v["cards"]
        assert win.locator("[data-award]").inner_text() == money(v["award"])
        assert win.locator("[data-from-meter]").inner_text() == money(v["meter"])
    assert {v["hand"] for v in published["validations"]} == {"royal-flush", "straight-flush"}
    supervisor.screenshot(path=screenshots / "live-supervisor-wins-waiting.png", full_page=True)
    # Validate the royal flush; refuse the straight flush, with a reason (5324.37(f)(2)).
    supervisor.click("[data-test=validate-1]")
    supervisor.locator("#confirm-dialog [data-confirm-hand]").get_by_text("Royal flush").wait_for()
    supervisor.click("[data-test=confirm-validate]")
    supervisor.locator(".win[data-win='1']").wait_for(state="detached")
    supervisor.click("[data-test=refuse-2]")
    supervisor.locator("#confirm-dialog [data-confirm-hand]").get_by_text("Straight flush").wait_for()
    supervisor.click("[data-test=confirm-refuse]")              # no reason: refused on the page
    assert "reason" in supervisor.inner_text("#confirm-error")
    supervisor.fill("#refuse-reason", "acceptor light was not lit")
    supervisor.click("[data-test=confirm-refuse]")
    supervisor.locator(".win[data-win='2']").wait_for(state="detached")
    supervisor.get_by_text("None waiting.").wait_for()
    # The royal is past the hand-pay threshold (issue 29 item 6): its tax form, then the round closes.
    supervisor.click("[data-test=hand-pay-1]")
    supervisor.fill("[data-test=hand-pay-player]", "NJ-4455-6677")
    supervisor.fill("[data-test=hand-pay-form]", "W2G-1")
    supervisor.click("[data-test=hand-pay-ok]")
    state_is(dealer, "closed")

    # The journal: each validation with who did it; the meter's movements end where the screens show.
    entries = journal_entries(server, round_id)
    validations = [e.payload for e in entries if e.kind == "event" and e.payload["event"]["type"] == "validate"]
    assert [v["event"]["seat"] for v in validations] == [1]
    refusals = [e.payload for e in entries if e.kind == "event" and e.payload["event"]["type"] == "refuse"]
    assert [(r["event"]["seat"], r["event"]["reason"], r["who"]) for r in refusals] == [
        (2, "acceptor light was not lit", SUPERVISOR_ID)]
    assert all(v["source"] == "supervisor" and v["who"] == SUPERVISOR_ID for v in validations + refusals)
    assert all(e.at for e in entries)
    meter_moves = [e.payload for e in entries if e.kind == "meter"]
    assert [m["reason"] for m in meter_moves] == ["contribution", "award", "award", "correction"]
    assert {m["hand"] for m in meter_moves[1:3]} == {"royal-flush", "straight-flush"}
    straight = next(v for v in published["validations"] if v["seat"] == 2)
    assert (meter_moves[3]["by"], meter_moves[3]["amount"]) == (SUPERVISOR_ID, straight["award"])
    record = next(e.payload for e in entries if e.kind == "round-record")
    assert record["validated"] == {"1": SUPERVISOR_ID}
    assert record["refused"]["2"]["reason"] == "acceptor light was not lit"
    journal_meter = meter_moves[-1]["after"]
    assert journal_meter == record["meter_after"]
    dealer.wait_for_function("t => document.getElementById('meter').textContent === t", arg=money(journal_meter))
    supervisor.wait_for_function("t => document.getElementById('meter').textContent === t",
                                 arg=money(journal_meter))
    supervisor.screenshot(path=screenshots / "live-supervisor-validated.png", full_page=True)
    dealer.screenshot(path=screenshots / "live-dealer-stud-closed.png", full_page=True)


# A fresh six-deck shoe burns one card (5324.22(h)(1)); then seat 1, seat 2, the dealer;
# seat 1 ties the dealer's queen and goes to war: three burn cards, seat 1, the dealer.
WAR_SHOE_TOP = "2d Qs 9c Qh 2c 3c 4c Kd 5c".split()


def test_casino_war_round_with_a_war_on_the_live_table(live, real_table, page_factory, screenshots):
    server = live(real_table("casino-war"))
    wait_until(server, lambda s: s["round"]["state"] == "wagers" and s["round"]["id"], "the first round open")
    world = server.table.devices.world
    world.shoe.load(stacked(WAR_SHOE_TOP, decks=6), cover_at=250)
    wait_until(server, lambda s: s["shoe"]["burn"] == 1 and s["shoe"]["dispensed"] == 0,
               "the stacked shoe loaded, a burn card due")

    dealer = page_factory(server.url)
    state_is(dealer, "wagers")
    dealer.click("[data-chip='1000']")
    dealer.click("[data-test=initial-1]")
    dealer.locator(".seat[data-seat='1'] .wagers").get_by_text("$10.00").wait_for()
    dealer.click("[data-chip='500']")
    dealer.click("[data-test=initial-2]")
    dealer.locator(".seat[data-seat='2'] .wagers").get_by_text("$5.00").wait_for()
    dealer.click("[data-test=tie-1]")
    dealer.locator(".seat[data-seat='1'] .wagers").get_by_text("Tie").wait_for()
    dealer.click("[data-test=panel-no_more_bets]")
    state_is(dealer, "first_deal")
    dealer.click("[data-test=panel-deal]")
    draw_by_hand(server, dealer, ["the burn card", "seat 1's card", "seat 2's card", "the dealer's card"])
    state_is(dealer, "first_settle")
    dealer.click("[data-test=panel-settle]")
    state_is(dealer, "decisions")
    assert dealer.locator(".seat.offer").get_attribute("data-seat") == "1"
    dealer.screenshot(path=screenshots / "live-dealer-war-offer.png", full_page=True)
    dealer.click("[data-test=war-1]")
    state_is(dealer, "war_deal")
    dealer.click("[data-test=panel-war]")
    draw_by_hand(server, dealer, ["war burn card 1 of 3", "war burn card 2 of 3", "war burn card 3 of 3",
                                  "seat 1's war card", "the dealer's war card"])
    state_is(dealer, "war_settle")
    dealer.click("[data-test=panel-settle]")
    state_is(dealer, "closed")

    published = server.published()
    shown = settlement_on_screen(dealer)
    assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in published["settlement"]]
    # 5324.22(j): the tie wager 10:1; the war wager 2:1 on a higher war card; the initial
    # wager of a seat at war collected (i)(5); seat 2's nine loses to the queen.
    assert ("pay", 1, money(5000)) in shown
    assert ("pay", 1, money(2000)) in shown
    assert ("collect", 1, money(1000)) in shown
    assert ("collect", 2, money(500)) in shown
    assert [c.get_attribute("data-card") for c in dealer.locator(".seat[data-seat='1'] .card").all()] == ["Qs", "Kd"]
    assert [c.get_attribute("data-card") for c in dealer.locator("#dealer .card").all()] == ["Qh", "5c"]
    record = next(e.payload for e in journal_entries(server, published["round"]["id"]) if e.kind == "round-record")
    assert record["settlement"]["burned"] == ["2d", "2c", "3c", "4c"]
    dealer.screenshot(path=screenshots / "live-dealer-war-settled.png", full_page=True)


def test_alarms_on_the_live_table_and_a_fault_cleared_by_the_supervisor(live, real_table, page_factory,
                                                                         screenshots):
    server = live(real_table("caribbean-stud"))
    wait_until(server, lambda s: s["round"]["state"] == "open" and deck_ready(s),
               "the first round open with a counted deck in the shoe")
    world = server.table.devices.world
    dealer = page_factory(server.url)
    for seat in (1, 2):
        assert server.submit({"type": "ante", "seat": seat, "amount": 500})["ok"]
    # A progressive wager withdrawn before the lock-out: the acceptor flags it.
    world.progressive.place_wager(2)
    dealer.locator(".seat[data-seat='2'] .light.on").wait_for()
    world.progressive.remove_wager(2)
    dealer.locator("[data-alarm=wager_removed][data-seat='2']").wait_for()
    # A chip after "no more bets" is not a wager (5324.37(a)(3)(ii)): flagged late.
    dealer.click("[data-test=panel-no_more_bets]")
    state_is(dealer, "no_more_bets")
    world.progressive.place_wager(1)
    dealer.locator("[data-alarm=late_wager][data-seat='1']").wait_for()
    # A deck that does not count 52 is not dealt.
    world.shuffler.insert_deck([int(c) for c in CARDS[:51]])
    assert server.submit({"type": "reshuffle"})["ok"]
    dealer.locator("[data-alarm=deck_count]").wait_for()
    assert "51" in dealer.inner_text("[data-alarm=deck_count]")
    assert dealer.is_disabled("[data-test=panel-deal]")
    # The shoe's cable pulled.
    world.shoe.unplug()
    dealer.locator(".device.disconnected[data-device=shoe]").wait_for()
    dealer.locator("[data-alarm=device]").wait_for()
    dealer.screenshot(path=screenshots / "live-dealer-alarms.png", full_page=True)

    # A fault (as the running table raises one): the table refuses play until a supervisor clears it
    # (an operational one: one supervisor; controller/journal/severity.py).
    async def fault():
        server.table.raise_fault("internal", "an internal error (raised by the test)")
        server.table.publish()
    server.call(fault())
    dealer.locator("[data-alarm=fault]").wait_for()
    dealer.screenshot(path=screenshots / "live-dealer-fault.png", full_page=True)
    assert not server.submit({"type": "ante", "seat": 3, "amount": 500})["ok"]

    supervisor = page_factory(server.url + "/supervisor")
    sign_in(supervisor, SUPERVISOR_ID, SUPERVISOR_PIN)
    supervisor.locator("#desk").wait_for()
    supervisor.locator("[data-alarm=fault]").wait_for()
    assert supervisor.is_enabled("[data-test=clear-fault]")
    supervisor.click("[data-test=clear-fault]")
    supervisor.fill("#reason", "Seal checked by hand")
    supervisor.screenshot(path=screenshots / "live-supervisor-clear-fault.png", full_page=True)
    supervisor.click("#reason-ok")
    dealer.locator("[data-alarm=fault]").wait_for(state="detached")
    world.shoe.replug()
    dealer.locator("[data-alarm=device]").wait_for(state="detached", timeout=15_000)

    async def cleared():
        return [e.payload for e in server.table.journal.entries_since(0) if "clear" in e.kind]
    entries = server.call(cleared())
    assert any(SUPERVISOR_ID in str(p) and "Seal checked by hand" in str(p) for p in entries), entries
