"""The dealer's console and the supervisor's screen in a real browser (Chromium, headless).

Each scenario plays a round through the pages' own buttons, checks what the
pages show against what the table published and journaled, and saves a
screenshot of each screen (tests/ui/screenshots, ignored by git).
"""

from __future__ import annotations

from conftest import SUPERVISOR_ID, SUPERVISOR_NAME, SUPERVISOR_PIN
from fake_table import FakeTable
from helpers import money, settlement_on_screen, sign_in

# Stacks of five in seat order, then the dealer's (5324.37(d)(2)): seat 1 a royal
# flush, seat 2 a straight flush, seat 3 nothing; the dealer ace-king, qualifying.
STUD_DECK = ("Ah Kh Qh Jh Th  9s 8s 7s 6s 5s  2c 3d 4h 9c Jd  As Kd 7h 4c 2s").split()


def state_is(page, state: str) -> None:
    page.wait_for_function("s => document.getElementById('state').dataset.state === s", arg=state)


def test_stud_round_royal_and_straight_flush_validated_by_supervisor(live, page_factory, screenshots):
    table = live(lambda: FakeTable("caribbean-stud", deck=list(STUD_DECK), meter=2_500_000))
    dealer = page_factory(table.url)
    state_is(dealer, "open")
    for seat in (1, 2, 3):
        dealer.click(f"[data-test=ante-{seat}]")
        dealer.locator(f".seat[data-seat='{seat}'] .wagers").get_by_text("$5.00").wait_for()
        # The acceptor sees the progressive wager (a device event, not the dealer's).
        assert table.submit({"type": "progressive", "seat": seat}, source="device")["ok"]
    dealer.locator(".seat[data-seat='3'] .light.on").wait_for()

    # The panel allows only the next step.
    assert dealer.is_enabled("[data-test=panel-no_more_bets]")
    for name in ("deal", "reveal", "settle", "next_round"):
        assert dealer.is_disabled(f"[data-test=panel-{name}]"), name
    dealer.click("[data-test=panel-no_more_bets]")
    state_is(dealer, "no_more_bets")
    assert dealer.is_disabled("[data-test=panel-no_more_bets]")
    dealer.click("[data-test=panel-deal]")
    state_is(dealer, "decisions")
    for seat in (1, 2, 3):
        dealer.click(f"[data-test=bet-{seat}]")
        dealer.locator(f".seat[data-seat='{seat}'] .decision.bet").wait_for()
    dealer.click("[data-test=panel-reveal]")
    state_is(dealer, "revealed")
    assert "Qualifies" in dealer.inner_text("#dealer")
    dealer.click("[data-test=panel-settle]")
    state_is(dealer, "validation")

    published = table.published()
    shown = settlement_on_screen(dealer)
    assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in published["settlement"]]
    # Paying order (5324.37(e)(4)-(5)): every collection before any pay, seat 7 down to seat 1.
    steps = [s for s, _, _ in shown]
    assert steps == sorted(steps, key=["collect", "push", "pay"].index)
    assert ("pay", 1, money(100 * 1000)) in shown   # royal flush: bet 100:1
    assert ("pay", 2, money(50 * 1000)) in shown    # straight flush: 50:1
    assert dealer.locator(".seat[data-seat='1'] .hand-name").inner_text() == "Royal flush"
    assert dealer.locator(".seat[data-seat='2'] .hand-name").inner_text() == "Straight flush"
    dealer.screenshot(path=screenshots / "dealer-stud-settled.png", full_page=True)

    supervisor = page_factory(table.url + "/supervisor")
    supervisor.locator("#signin").wait_for()
    supervisor.screenshot(path=screenshots / "supervisor-signin.png", full_page=True)
    sign_in(supervisor, SUPERVISOR_ID, SUPERVISOR_PIN)
    supervisor.get_by_text(f"Signed in: {SUPERVISOR_NAME}").wait_for()
    wins = supervisor.locator(".win")
    wins.nth(1).wait_for()
    assert wins.count() == 2
    for v in published["validations"]:
        win = supervisor.locator(f".win[data-win='{v['seat']}']")
        assert [c.get_attribute("data-card") for c in win.locator(".card").all()] == v["cards"]
        assert win.locator("[data-award]").inner_text() == money(v["award"])
        assert win.locator("[data-from-meter]").inner_text() == money(v["meter"])
    assert {v["hand"] for v in published["validations"]} == {"royal-flush", "straight-flush"}
    supervisor.screenshot(path=screenshots / "supervisor-wins-waiting.png", full_page=True)

    for v in published["validations"]:
        supervisor.click(f"[data-test=validate-{v['seat']}]")
        supervisor.locator(f".win[data-win='{v['seat']}']").wait_for(state="detached")
    supervisor.get_by_text("None waiting.").wait_for()
    state_is(dealer, "closed")
    assert dealer.is_enabled("[data-test=panel-next_round]")

    # Each validation journaled with who; the meter on both screens is the journal's.
    paid = [j for j in table.table.journal if j["kind"] == "pay_progressive"]
    assert sorted(j["seat"] for j in paid) == [1, 2]
    assert all(j["who"] == SUPERVISOR_ID and j["at"] for j in paid)
    journal_meter = paid[-1]["meter"]
    dealer.wait_for_function("t => document.getElementById('meter').textContent === t", arg=money(journal_meter))
    assert supervisor.inner_text("#meter") == money(journal_meter)
    supervisor.screenshot(path=screenshots / "supervisor-validated.png", full_page=True)
    dealer.screenshot(path=screenshots / "dealer-stud-closed.png", full_page=True)


# Casino war, one deck of six: seat 1 ties the dealer's queen and goes to war; seat 2 loses.
# First deal: seat 1, seat 2, dealer; war deal: three burn cards, seat 1, dealer (5324.22(i)(5)(i)).
WAR_DECK = "Qs 9c Qh 2c 3c 4c Kd 5c".split()


def test_casino_war_round_with_a_war(live, page_factory, screenshots):
    table = live(lambda: FakeTable("casino-war", deck=list(WAR_DECK)))
    dealer = page_factory(table.url)
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
    state_is(dealer, "first_settle")
    dealer.click("[data-test=panel-settle]")
    state_is(dealer, "decisions")
    assert dealer.locator(".seat.offer").get_attribute("data-seat") == "1"
    dealer.screenshot(path=screenshots / "dealer-war-offer.png", full_page=True)
    dealer.click("[data-test=war-1]")
    state_is(dealer, "war_deal")
    assert dealer.is_enabled("[data-test=panel-war]")
    dealer.click("[data-test=panel-war]")
    state_is(dealer, "war_settle")
    dealer.click("[data-test=panel-settle]")
    state_is(dealer, "closed")

    shown = settlement_on_screen(dealer)
    assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in table.published()["settlement"]]
    # 5324.22(j): tie wager 10:1 on the tie; war wager 2:1 when the war card is higher;
    # the initial wager collected when the war wager was placed (i)(5).
    assert ("pay", 1, money(5000)) in shown          # tie wager $5 at 10:1
    assert ("pay", 1, money(2000)) in shown          # war wager $10 at 2:1
    assert ("collect", 1, money(1000)) in shown      # initial wager
    assert ("collect", 2, money(500)) in shown       # seat 2's nine loses to the queen
    cards = dealer.locator(".seat[data-seat='1'] .card")
    assert [c.get_attribute("data-card") for c in cards.all()] == ["Qs", "Kd"]
    dealer.screenshot(path=screenshots / "dealer-war-settled.png", full_page=True)


def test_alarms_and_device_status_shown_at_once(live, page_factory, screenshots):
    table = live(lambda: FakeTable("caribbean-stud", deck=list(STUD_DECK)))
    dealer = page_factory(table.url)
    table.submit({"type": "ante", "seat": 1, "amount": 500})
    table.submit({"type": "ante", "seat": 2, "amount": 500})
    table.submit({"type": "progressive", "seat": 2}, source="device")
    table.submit({"type": "remove", "seat": 2, "wager": "ante"})
    dealer.locator("[data-alarm=wager_removed]").wait_for()
    table.submit({"type": "no_more_bets"})
    table.submit({"type": "progressive", "seat": 1}, source="device")
    dealer.locator("[data-alarm=late_wager]").wait_for()
    table.submit({"type": "deck_count", "count": 51}, source="device")
    table.submit({"type": "device", "name": "shoe", "status": "disconnected", "detail": "no answer"}, source="device")
    dealer.locator("[data-alarm=device]").wait_for()
    dealer.locator(".device.disconnected[data-device=shoe]").wait_for()
    dealer.locator("[data-alarm=deck_count]").wait_for()
    table.submit({"type": "fault", "reason": "shoe disconnected during the deal"}, source="device")
    dealer.locator("[data-alarm=fault]").wait_for()
    assert "Seat 1" in dealer.inner_text("[data-alarm=late_wager]")
    dealer.screenshot(path=screenshots / "dealer-alarms.png", full_page=True)

    supervisor = page_factory(table.url + "/supervisor")
    sign_in(supervisor, SUPERVISOR_ID, SUPERVISOR_PIN)
    supervisor.locator("#desk").wait_for()
    assert supervisor.is_enabled("[data-test=clear-fault]")
    supervisor.click("[data-test=clear-fault]")
    supervisor.fill("#reason", "Shoe reconnected and checked")
    supervisor.click("#reason-ok")
    dealer.locator("[data-alarm=fault]").wait_for(state="detached")
    cleared = [j for j in table.table.journal if j["kind"] == "clear_fault"]
    assert cleared and cleared[-1]["who"] == SUPERVISOR_ID and cleared[-1]["reason"] == "Shoe reconnected and checked"
    supervisor.wait_for_function("() => document.querySelector('[data-test=clear-fault]').disabled")


def test_page_says_at_once_that_the_connection_is_lost_and_reconnects(live, page_factory, screenshots):
    table = live(lambda: FakeTable("casino-war", deck=list(WAR_DECK)))
    dealer = page_factory(table.url)
    assert dealer.locator("#conn-banner").is_hidden()
    table.stop()
    dealer.locator("#conn-banner").wait_for(state="visible", timeout=3000)
    assert dealer.evaluate("document.body.dataset.connection") == "offline"
    dealer.screenshot(path=screenshots / "dealer-connection-lost.png", full_page=True)
    table.submit({"type": "wager", "seat": 4, "wager": "initial", "stake": 500})
    table.start()
    dealer.locator("#conn-banner").wait_for(state="hidden", timeout=5000)
    # The state it missed while away is there on reconnecting.
    dealer.locator(".seat[data-seat='4'] .wagers").get_by_text("$5.00").wait_for()
