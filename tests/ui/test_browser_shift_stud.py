"""A Caribbean stud shift at the box (issue 18), by clicks on the dealer's console and the
supervisor's screen, against the live runtime (controller/table.py) on its emulated devices, at
the three screen sizes dealers use: 1280x800, 1024x600 and 800x480.

One live table and one browser serve the module; each size plays a big round on it: antes by chip,
by the keypad ($15, which no chip makes) and "same as last round"; progressive wagers on the
acceptors; a late wager; the players' cards face down until the settlement; a royal flush and
a straight flush validated after a confirmation that shows seat, cards, hand, amount and
source, the royal (above the profile's amount) with a second supervisor; the pay list with the
awards; the supervisor reaching the sign-in from the console and coming back. A short round
follows at each size: antes by "same as last round" and a chip, a bet and a fold, settled by
clicks, the pay list on screen the one journaled with the round. The deck is
stacked as a test stacks a real one (ui_helpers.load_stacked_deck). Screenshots are kept.
"""

from __future__ import annotations

import pytest

from controller.credentials import Supervisor, hash_pin, load_secrets, write_secrets

from controller.ui.auth import Authority
from tests.table.table_helpers import deck_ready
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import (
    STUD_DECK,
    SUPERVISOR_NAME,
    SUPERVISOR_PIN,
    deal_progressive_hand,
    load_stacked_deck,
    money,
    settlement_on_screen,
    state_is,
    step_visible,
    visible,
    wait_until,
)

SUPERVISOR_ID = "1042"                 # numeric ids: typed on the kiosk's keypad
SECOND_ID, SECOND_PIN, SECOND_NAME = "2077", "135791", "Lee Park"
SIZES = [(1280, 800), (1024, 600), (800, 480)]
THRESHOLD = 500_000       # $5,000: the royal flush (the whole meter) is above it, the straight flush (10%) not
# The facility's option of 5324.37(e)(5)(i): with no dealer hand, only progressive players' cards turned over.
PROFILE_EXTRA = f'second_signer_above = {THRESHOLD}\nno_hand_turn_over = "progressive"\n'
# The short round: seat 1 a pair of nines, seat 3 folds, the dealer qualifies with ace-king.
SHORT_DECK = "9h 9d 4s 6c Jc  2h 5d 8c Td Qs  As Kd 7h 4c 2s".split()
NO_HAND_DECK = "2c 7d 6s 4s Kc  As Ad 9c 4d 2s  Qd Jc 8s 5h 3d".split()


def journal(server, round_id):
    async def read():
        return server.table.journal.round_entries(round_id)
    return server.call(read())


@pytest.fixture(scope="module")
def stud_box(tmp_path_factory):
    """The live table of the module, with two supervisors who can sign in."""
    from pathlib import Path

    from controller.config import parse_profile
    from controller.table import Table
    base = tmp_path_factory.mktemp("shift-stud")
    secrets = base / "supervisors.toml"
    write_secrets(secrets, {SUPERVISOR_ID: Supervisor(SUPERVISOR_ID, SUPERVISOR_NAME, hash_pin(SUPERVISOR_PIN)),
                            SECOND_ID: Supervisor(SECOND_ID, SECOND_NAME, hash_pin(SECOND_PIN))})
    text = (Path(__file__).resolve().parents[2] / "config" / "caribbean-stud.toml").read_text()
    text = text.replace('dealing = "automated"', f'dealing = "automated"\n{PROFILE_EXTRA}', 1)
    profile = parse_profile(text)
    assert profile.caribbean_stud.second_signer_above == THRESHOLD
    assert profile.caribbean_stud.no_hand_turn_over == "progressive"
    authority = Authority(load_secrets(secrets), path=secrets)
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=7, screen=False), secrets,
                        authority=authority)
    yield server
    server.close()


def keypad_amount(page, dollars: str) -> None:
    page.click("[data-test=open-amount]")
    for d in dollars:
        page.click(f"[data-test=amount-key-{d}]")
    page.click("[data-test=amount-ok]")
    page.locator("#amount-dialog").wait_for(state="hidden")


def sign_in_by_keypad(page, who: str, pin: str) -> None:
    """The id and the PIN, both on the on-screen keypad: the kiosk has no keyboard."""
    page.locator("#sup-id.target").wait_for()
    for d in who:
        page.click(f"[data-test=key-{d}]")
    page.click("[data-test=to-pin]")
    for d in pin:
        page.click(f"[data-test=key-{d}]")
    page.click("#signin-go")


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_stud_round_of_the_shift_at_each_size(stud_box, browser, screenshots, width, height):
    server = stud_box
    size = f"{width}x{height}"
    world = server.table.devices.world
    state = server.published()
    if state["round"]["state"] == "closed":     # the size before left its round over
        assert server.submit({"type": "next_round"})["ok"]
    wait_until(server, lambda s: s["round"]["state"] == "open" and deck_ready(s),
               "a round open with a counted deck in the shoe")
    load_stacked_deck(server, STUD_DECK)
    table = server.published()["table"]
    assert table["chips"] == [500, 1000, 2500, 5000, 10000]   # the profile's denominations

    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        dealer = ctx.new_page()
        dealer.set_default_timeout(10_000)
        dealer.goto(server.url)
        dealer.wait_for_function("document.body.dataset.connection === 'online'")
        state_is(dealer, "open")
        step_visible(dealer)
        assert [int(c.get_attribute("data-chip")) for c in dealer.locator("[data-chip]").all()] == table["chips"]

        # Wagers at table speed: a chip, the keypad for any amount, and refusals naming the limit.
        dealer.click("[data-chip='1000']")
        dealer.click("[data-test=ante-1]")
        dealer.locator(".seat[data-seat='1'] .wagers").get_by_text("$10.00").wait_for()
        dealer.click("[data-test=open-amount]")
        for d in "3":
            dealer.click(f"[data-test=amount-key-{d}]")
        dealer.click("[data-test=amount-ok]")
        assert dealer.inner_text("#amount-error") == "$3.00 is below the table's minimum of $5.00"
        dealer.click("#amount-cancel")
        keypad_amount(dealer, "15")                   # a $15 ante: no chip makes it (issue 18, 3)
        dealer.click("[data-test=ante-2]")
        dealer.locator(".seat[data-seat='2'] .wagers").get_by_text("$15.00").wait_for()
        prev_ante_3 = dealer.locator("[data-test=same-3]")
        if prev_ante_3.count():                        # a later size: "same as last round" at seat 3
            prev_ante_3.click()
            dealer.locator(".seat[data-seat='3'] .wagers").get_by_text("$5.00").wait_for()
        else:
            dealer.click("[data-chip='500']")
            dealer.click("[data-test=ante-3]")
            dealer.locator(".seat[data-seat='3'] .wagers").get_by_text("$5.00").wait_for()
        # The table refuses above its maximum and says which limit (a request as the page sends it).
        refused = server.submit({"type": "ante", "seat": 4, "amount": 50_100})
        assert not refused["ok"] and "above the table's maximum of $500.00" in refused["error"]
        for seat in (1, 2, 3):
            world.progressive.place_wager(seat)
            dealer.locator(f".seat[data-seat='{seat}'] .light.on").wait_for()
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-wagers.png")

        dealer.click("[data-test=panel-no_more_bets]")
        state_is(dealer, "no_more_bets")
        # A late wager (a chip after no more bets): flagged at that seat, not recognized (5324.37(a)(3)(ii)).
        world.progressive.place_wager(5)
        dealer.locator("[data-alarm=late_wager][data-seat='5']").wait_for()
        dealer.locator(".seat[data-seat='5'] .light.late").wait_for()     # shown on that seat, with no ante
        step_visible(dealer)
        world.progressive.remove_wager(5)
        # The shoe jams in the deal: the alarm and the next step say what to do, in plain words, and
        # both go when the shoe reports the card freed; the deal then goes on.
        world.shoe.jam(after=7)
        dealer.click("[data-test=panel-deal]")
        alarm = dealer.locator("[data-alarm=device]")
        alarm.get_by_text("The shoe is jammed: open it, free the card and close it.", exact=False).wait_for()
        dealer.wait_for_function("document.getElementById('next-step').textContent.startsWith('The shoe is jammed')")
        assert "Dealing from the shoe" not in dealer.inner_text("#next-step")
        step_visible(dealer)
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-jam.png")
        world.shoe.clear_jam()
        alarm.wait_for(state="detached")
        state_is(dealer, "decisions")
        step_visible(dealer)
        # Game protection: the players' cards are face down on the dealer's screen while they decide.
        for seat in (1, 2, 3):
            dealer.locator(f".seat[data-seat='{seat}'] [data-hidden-cards='5']").wait_for()
            assert dealer.locator(f".seat[data-seat='{seat}'] .card[data-card]").count() == 0
        assert dealer.locator("#dealer .card[data-card]").count() == 1     # the dealer's up card only
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-decisions.png")
        for seat in (1, 2, 3):   # the next step's own buttons, beside it at every size
            assert dealer.inner_text("[data-test=step-bet]") == f"Seat {seat}: Bet"
            step_visible(dealer)
            dealer.click("[data-test=step-bet]")
            dealer.locator(f".seat[data-seat='{seat}'] .decision.bet").wait_for()
        dealer.click("[data-test=panel-reveal]")
        state_is(dealer, "revealed")
        for seat, cards in ((1, STUD_DECK[0:5]), (2, STUD_DECK[5:10]), (3, STUD_DECK[10:15])):
            shown = dealer.locator(f".seat[data-seat='{seat}'] .card[data-card]")
            assert [c.get_attribute("data-card") for c in shown.all()] == cards
        dealer.click("[data-test=panel-settle]")
        state_is(dealer, "validation")
        published = server.published()
        round_id = published["round"]["id"]
        wins = {v["seat"]: v for v in published["validations"]}
        assert wins[1]["hand"] == "royal-flush" and wins[1]["award"] > THRESHOLD and wins[1]["second_signer"]
        assert wins[2]["hand"] == "straight-flush" and not wins[2]["second_signer"]
        # The pay list: the awards among the wagers, waiting for the supervisor.
        shown = settlement_on_screen(dealer)
        assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in published["settlement"]]
        assert ("waiting", 1, money(wins[1]["award"])) in shown and ("waiting", 2, money(wins[2]["award"])) in shown
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-settled.png")

        # The supervisor at the box: from the console, the sign-in on the same page, by keypad.
        visible(dealer, "[data-test=open-supervisor]")
        dealer.click("[data-test=open-supervisor]")
        dealer.wait_for_url("**/supervisor?from=dealer")
        dealer.locator("#signin").wait_for()
        visible(dealer, "#signin-go")
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-signin.png")
        sign_in_by_keypad(dealer, SUPERVISOR_ID, SUPERVISOR_PIN)
        dealer.get_by_text(f"Signed in: {SUPERVISOR_NAME}").wait_for()
        dealer.locator(".win[data-win='2']").wait_for()
        for selector in ("#next-step", "[data-test=validate-1]", "[data-test=refuse-1]", "[data-test=validate-2]",
                         "[data-test=refuse-2]"):
            visible(dealer, selector)
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-supervisor.png")

        # The straight flush: confirm with what is paid and from where; one signer.
        dealer.click("[data-test=validate-2]")
        dialog = dealer.locator("#confirm-dialog")
        dialog.wait_for()
        assert dialog.locator("[data-confirm-seat]").inner_text() == "Seat 2"
        assert [c.get_attribute("data-card") for c in dialog.locator(".card").all()] == wins[2]["cards"]
        assert dialog.locator("[data-confirm-hand]").inner_text() == "Straight flush"
        assert dialog.locator("[data-confirm-amount]").inner_text() == money(wins[2]["award"])
        assert money(wins[2]["meter"]) in dialog.locator("[data-confirm-source='meter']").inner_text()
        assert dealer.locator("#second-row").is_hidden()
        visible(dealer, "[data-test=confirm-validate]")
        dealer.click("[data-test=confirm-validate]")
        dealer.locator(".win[data-win='2']").wait_for(state="detached")

        # The royal flush, above the profile's amount: a second supervisor signs with their own PIN.
        dealer.click("[data-test=validate-1]")
        dialog.wait_for()
        assert dialog.locator("[data-confirm-amount]").inner_text() == money(wins[1]["award"])
        dealer.locator("#second-row").wait_for()
        dealer.click("[data-test=confirm-validate]")          # no second signer yet: refused on the page
        assert "second supervisor" in dealer.inner_text("#confirm-error")
        for d in SUPERVISOR_ID:                                # the same supervisor twice: refused by the server
            dealer.click(f"[data-test=second-key-{d}]")
        dealer.click("#second-dots")
        for d in SUPERVISOR_PIN:
            dealer.click(f"[data-test=second-key-{d}]")
        dealer.click("[data-test=confirm-validate]")
        dealer.wait_for_function("document.getElementById('confirm-error').textContent.includes('another supervisor')")
        dealer.click("#second-id")
        dealer.click("[data-test=second-key-clear]")
        for d in SECOND_ID:
            dealer.click(f"[data-test=second-key-{d}]")
        dealer.click("#second-dots")
        for d in SECOND_PIN:
            dealer.click(f"[data-test=second-key-{d}]")
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-second-signer.png")
        visible(dealer, "[data-test=confirm-validate]")
        dealer.click("[data-test=confirm-validate]")
        dealer.locator(".win[data-win='1']").wait_for(state="detached")
        dealer.get_by_text("None waiting.").wait_for()

        # The wins past the hand-pay threshold (issue 29 item 6): each one's tax form, then it is paid.
        held = wait_until(server, lambda s: s["hand_pays"], "the hand-pays held")["hand_pays"]
        for hp in held:
            dealer.click(f"[data-test=hand-pay-{hp['seat']}]")
            dealer.fill("[data-test=hand-pay-player]", f"NY-1000-200{hp['seat']}")
            dealer.fill("[data-test=hand-pay-form]", f"W2G-{hp['seat']}")
            visible(dealer, "[data-test=hand-pay-ok]")
            dealer.click("[data-test=hand-pay-ok]")
            dealer.locator(f"[data-hand-pay-seat='{hp['seat']}'][data-done='true']").wait_for()

        # Both signers journaled with the validation.
        validations = [e.payload for e in journal(server, round_id)
                       if e.kind == "event" and e.payload["event"]["type"] == "validate"]
        assert [(v["event"]["seat"], v["who"], v["event"].get("second_signer")) for v in validations] == [
            (2, SUPERVISOR_ID, None), (1, SUPERVISOR_ID, SECOND_ID)]

        # Signing out returns the kiosk to the dealer's console; the pay list now pays the awards.
        dealer.click("[data-test=sign-out]")
        dealer.wait_for_url(server.url + "/")
        state_is(dealer, "closed")
        shown = settlement_on_screen(dealer)
        assert ("pay", 1, money(wins[1]["award"])) in shown and ("pay", 2, money(wins[2]["award"])) in shown
        assert not [s for s in shown if s[0] == "waiting"]
        royal_row = dealer.locator("#settlement li[data-wager='progressive'][data-seat='1'][data-step='pay']")
        assert "Royal flush" in royal_row.inner_text() and "from the meter" in royal_row.inner_text()
        rows = [r.get_attribute("data-seat") + r.get_attribute("data-wager")
                for r in dealer.locator("#settlement li[data-step='pay']").all()]
        assert rows.index("1progressive") > rows.index("1bet")           # after the seat's own wagers
        assert rows.index("2progressive") < rows.index("1ante")          # the pass runs seat 7 to seat 1
        step_visible(dealer)
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-paid.png")
        for seat in (1, 2, 3):                  # the dealer takes the progressive chips off the acceptors
            world.progressive.remove_wager(seat)
        # Next round; "same as last round" is offered from the wagers just settled.
        dealer.click("[data-test=panel-next_round]")
        state_is(dealer, "open")
        dealer.locator("[data-test=same-2]").wait_for()
        assert dealer.inner_text("[data-test=same-2]") == "Same $15.00"

        # A short round after the big one (several rounds at each size): antes by "same as last
        # round" and a chip, a bet and a fold, settled by clicks; the pay list is the journaled one.
        wait_until(server, lambda s: deck_ready(s), "a counted deck in the shoe")
        load_stacked_deck(server, SHORT_DECK)
        dealer.click("[data-test=same-3]")
        dealer.locator(".seat[data-seat='3'] .wagers").get_by_text("$5.00").wait_for()
        dealer.click("[data-chip='1000']")
        dealer.click("[data-test=ante-1]")
        dealer.locator(".seat[data-seat='1'] .wagers").get_by_text("$10.00").wait_for()
        dealer.click("[data-test=panel-no_more_bets]")
        state_is(dealer, "no_more_bets")
        dealer.click("[data-test=panel-deal]")
        state_is(dealer, "decisions")
        assert dealer.inner_text("[data-test=step-bet]") == "Seat 1: Bet"
        dealer.click("[data-test=step-bet]")
        dealer.locator(".seat[data-seat='1'] .decision.bet").wait_for()
        assert dealer.inner_text("[data-test=step-fold]") == "Seat 3: Fold"
        dealer.click("[data-test=step-fold]")
        dealer.locator(".seat[data-seat='3'] .decision.fold").wait_for()
        dealer.click("[data-test=panel-reveal]")
        state_is(dealer, "revealed")
        dealer.click("[data-test=panel-settle]")
        state_is(dealer, "closed")
        published = server.published()
        shown = settlement_on_screen(dealer)
        record = next(e.payload for e in journal(server, published["round"]["id"]) if e.kind == "round-record")
        assert shown == [(s["step"], s["seat"], money(s["amount"])) for s in record["steps"]]
        # The dealer's ace-king qualifies; seat 1's pair of nines wins the ante 1:1 and the bet at
        # 1:1 (5324.37(g)(1), (2)); seat 3 folded, its ante lost at the fold.
        assert sorted(shown) == [("pay", 1, money(1000)), ("pay", 1, money(2000))]
        dealer.screenshot(path=screenshots / f"shift-stud-{size}-short-round.png")
        dealer.click("[data-test=panel-next_round]")
        state_is(dealer, "open")
        dealer.locator("[data-test=same-3]").wait_for()
    finally:
        ctx.close()


ROYAL_ALONE_DECK = "Ah Kh Qh Jh Th  As Kd 7h 4c 2s".split()   # seat 1 a royal flush; the dealer ace-king


def test_refusing_a_win_above_the_amount_takes_two_supervisors_too(stud_box, browser, screenshots):
    """Issue 26: one supervisor refused a royal above second_signer_above alone, and the award went back
    to the meter, where validating it asks for a second PIN. Refused with one supervisor, at the table's
    event boundary and from the signed-in screen; accepted with two, on the kiosk."""
    server = stud_box
    if server.published()["round"]["state"] == "closed":
        assert server.submit({"type": "next_round"})["ok"]
    round_id = deal_progressive_hand(server, ROYAL_ALONE_DECK)
    assert server.submit({"type": "settle"})["ok"]
    state = wait_until(server, lambda s: s["round"]["state"] == "validation", "the royal waiting")
    win = state["validations"][0]
    assert win["hand"] == "royal-flush" and win["award"] > THRESHOLD and win["second_signer"]
    meter = state["meter"]["amount"]

    # At the table's event boundary (Table.submit, as the screens' server submits): one signer is refused.
    alone = server.submit({"type": "refuse", "seat": 1, "reason": "light not lit"}, source="supervisor",
                          who=SUPERVISOR_ID)
    assert not alone["ok"] and "second supervisor" in alone["error"], alone
    state = server.published()
    assert state["round"]["state"] == "validation" and state["meter"]["amount"] == meter

    ctx = browser.new_context(viewport={"width": 1024, "height": 600})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        page.click("[data-test=open-supervisor]")
        page.wait_for_url("**/supervisor?from=dealer")
        sign_in_by_keypad(page, SUPERVISOR_ID, SUPERVISOR_PIN)
        page.locator(".win[data-win='1'] [data-second-signer]").wait_for()
        # The signed-in screen's own request, one signer: refused by the server and the table.
        sent = page.request.post(server.url + "/api/supervisor/action", headers={"X-Tablectl": "1"},
                                 data={"event": {"type": "refuse", "seat": 1, "reason": "light not lit"}})
        assert sent.status == 409 and "second supervisor" in sent.json()["error"], sent.text()
        assert server.published()["meter"]["amount"] == meter

        # On the screen: the refusal's dialog shows the win and asks for the reason and the second PIN.
        page.click("[data-test=refuse-1]")
        dialog = page.locator("#confirm-dialog")
        dialog.wait_for()
        assert dialog.locator("[data-confirm-hand]").inner_text() == "Royal flush"
        assert dialog.locator("[data-confirm-amount]").inner_text() == money(win["award"])
        page.locator("#second-row").wait_for()
        page.locator("[data-test=confirm-validate]").wait_for(state="hidden")   # nothing here pays it
        page.click("#refuse-presets [data-preset='Acceptor light was not lit']")
        page.click("[data-test=confirm-refuse]")                 # no second signer: refused on the page
        assert "second supervisor" in page.inner_text("#confirm-error")
        for d in SUPERVISOR_ID:                                   # the same supervisor twice: refused
            page.click(f"[data-test=second-key-{d}]")
        page.click("#second-dots")
        for d in SUPERVISOR_PIN:
            page.click(f"[data-test=second-key-{d}]")
        page.click("[data-test=confirm-refuse]")
        page.wait_for_function("document.getElementById('confirm-error').textContent.includes('another supervisor')")
        assert server.published()["meter"]["amount"] == meter
        page.click("#second-id")
        page.click("[data-test=second-key-clear]")
        for d in SECOND_ID:
            page.click(f"[data-test=second-key-{d}]")
        page.click("#second-dots")
        for d in SECOND_PIN:
            page.click(f"[data-test=second-key-{d}]")
        page.screenshot(path=screenshots / "refuse-second-signer.png")
        page.click("[data-test=confirm-refuse]")
        page.locator(".win[data-win='1']").wait_for(state="detached")
        page.get_by_text("None waiting.").wait_for()
        page.click("[data-test=sign-out]")
        page.wait_for_url(server.url + "/")
    finally:
        ctx.close()
    state = wait_until(server, lambda s: s["round"]["state"] == "closed", "the round closed by the refusal")
    assert state["meter"]["amount"] > meter                    # the award went back to the meter, signed by two
    refusals = [e.payload for e in journal(server, round_id)
                if e.kind == "event" and e.payload["event"]["type"] == "refuse"]
    assert [(r["who"], r["event"].get("second_signer"), r["event"]["reason"]) for r in refusals] == [
        (SUPERVISOR_ID, SECOND_ID, "Acceptor light was not lit")]
    server.table.devices.world.progressive.remove_wager(1)


def test_no_hand_the_dealer_turns_over_only_the_progressive_players_cards_5324_37_e_5_i(stud_box, browser,
                                                                                         screenshots):
    server = stud_box
    world = server.table.devices.world
    if server.published()["round"]["state"] == "closed":
        assert server.submit({"type": "next_round"})["ok"]
    wait_until(server, lambda s: s["round"]["state"] == "open" and deck_ready(s),
               "a round open with a counted deck in the shoe")
    load_stacked_deck(server, NO_HAND_DECK)
    ctx = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        dealer = ctx.new_page()
        dealer.set_default_timeout(10_000)
        dealer.goto(server.url)
        dealer.wait_for_function("document.body.dataset.connection === 'online'")
        state_is(dealer, "open")
        for seat in (1, 2):
            dealer.click("[data-chip='500']")
            dealer.click(f"[data-test=ante-{seat}]")
            dealer.locator(f".seat[data-seat='{seat}'] .wagers").get_by_text("$5.00").wait_for()
        world.progressive.place_wager(1)                 # seat 1 only: a progressive wager
        dealer.locator(".seat[data-seat='1'] .light.on").wait_for()
        dealer.click("[data-test=panel-no_more_bets]")
        dealer.click("[data-test=panel-deal]")
        state_is(dealer, "decisions")
        dealer.click("[data-test=step-bet]")
        dealer.click("[data-test=step-bet]")
        dealer.locator(".seat[data-seat='2'] .decision.bet").wait_for()
        dealer.click("[data-test=panel-reveal]")
        state_is(dealer, "revealed")
        assert "Does not qualify" in dealer.inner_text("#dealer")
        step = dealer.inner_text("#next-step")
        assert step.startswith("No hand: turn over only the cards of seat 1") and "5324.37(e)(5)(i)" in step
        shown = [c.get_attribute("data-card") for c in dealer.locator(".seat[data-seat='1'] .card[data-card]").all()]
        assert shown == NO_HAND_DECK[0:5]
        assert dealer.locator(".seat[data-seat='2'] [data-hidden-cards='5']").count() == 1   # not turned over
        step_visible(dealer)
        dealer.screenshot(path=screenshots / "shift-stud-800x480-no-hand.png")
        dealer.click("[data-test=panel-settle]")
        state_is(dealer, "closed")
        assert dealer.locator(".seat[data-seat='2'] [data-hidden-cards='5']").count() == 1
        world.progressive.remove_wager(1)
    finally:
        ctx.close()


def test_the_supervisor_left_signed_in_is_signed_out_and_the_kiosk_returns_to_the_dealer(stud_box, browser):
    """A kiosk left alone does not stay signed in (issue 18, 1); the session's idle time is the server's."""
    server = stud_box
    authority = server.server.app.state.authority
    before = authority.idle_seconds
    authority.idle_seconds = 2
    ctx = browser.new_context(viewport={"width": 1024, "height": 600})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url + "/supervisor?from=dealer")
        page.wait_for_function("document.body.dataset.connection === 'online'")
        sign_in_by_keypad(page, SUPERVISOR_ID, SUPERVISOR_PIN)
        page.locator("#desk").wait_for()
        page.wait_for_url(server.url + "/", timeout=15_000)      # nobody touched it: back to the dealer
        page.wait_for_function("document.body.dataset.screen === 'dealer'")
        assert page.request.get(server.url + "/api/supervisor/me").status == 401
    finally:
        authority.idle_seconds = before
        ctx.close()


def test_the_acceptor_lights_are_shown_as_the_controller_echoed_them(stud_box, browser):
    """The dealer's screen shows a seat's light lit only once the progressive controller has echoed
    it (issue 18, 6): with the controller's cable out, a recognized wager's light is not shown lit."""
    server = stud_box
    world = server.table.devices.world
    if server.published()["round"]["state"] == "closed":
        assert server.submit({"type": "next_round"})["ok"]
    wait_until(server, lambda s: s["round"]["state"] == "open", "a round open")
    ctx = browser.new_context(viewport={"width": 1024, "height": 600})
    try:
        dealer = ctx.new_page()
        dealer.set_default_timeout(10_000)
        dealer.goto(server.url)
        dealer.wait_for_function("document.body.dataset.connection === 'online'")
        assert server.submit({"type": "ante", "seat": 6, "amount": 500})["ok"]
        world.progressive.unplug()
        dealer.locator(".device.disconnected[data-device=progressive]").wait_for(timeout=15_000)
        world.progressive.place_wager(6)          # the chip is there; the controller cannot say so
        assert server.submit({"type": "progressive", "seat": 6}, source="device", who="progressive")["ok"]
        seat = wait_until(server, lambda s: s["seats"][5].get("light_wanted") == "on", "the round's light on")["seats"][5]
        assert seat["light"] == "off"               # not echoed: not shown lit
        assert dealer.locator(".seat[data-seat='6'] .light.on").count() == 0
        world.progressive.replug()
        dealer.locator(".seat[data-seat='6'] .light.on").wait_for(timeout=15_000)   # echoed now
        assert server.published()["seats"][5]["light"] == "on"
    finally:
        ctx.close()
