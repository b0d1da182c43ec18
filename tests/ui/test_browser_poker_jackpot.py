"""The bad-beat jackpot of the hold'em profile on the live table: the hand by touches on the console,
the (r)(4) tracking form on the supervisor's screen, verified by the signed-in floorperson; the form's
dealer is the dealer who dealt the hand, though a new dealer signed in at the console before the
floorperson came (issue 30, 9)."""

from __future__ import annotations

from tests.ui.poker_console import deal_board, key_in, poker, record_of, replayed, show_down, sit, synced
from tests.ui.screens_fixtures import TEST_DEALER, LiveServer
from tests.ui.ui_helpers import PROFILES, SUPERVISOR_ID, SUPERVISOR_PIN, money, sign_in, wait_until


NEXT_DEALER = "4102"   # the dealer who relieves the hand's dealer (TEST_DEALER) before the verification


def touch(page, server, test: str, seat: int) -> None:
    page.locator(f"[data-player='{seat}'].to-act").wait_for()
    synced(page, server)
    n = len(poker(server)["actions"])
    page.click(f"[data-test={test}]")
    wait_until(server, lambda s: len(s["poker"]["actions"]) > n, f"seat {seat}: {test}")


def test_a_bad_beat_is_verified_on_the_tracking_form_and_recorded_with_the_floorperson(
        browser, secrets_file, tmp_path, screenshots):
    """5324.42(r)(4): each qualifying hand is verified by the floorperson and recorded on the tracking form,
    its dealer ((iv)) the one who dealt it, not the one on duty at the verification;
    (r)(2)-(3): the table's own jackpot, its amount displayed, grows by each hand's drop."""
    from controller.config import load_profile
    from controller.table import Table
    profile = load_profile(PROFILES / "texas-holdem.toml")
    server = LiveServer(lambda: Table(profile, data_dir=tmp_path / "data", seed=9, screen=False), secrets_file)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        dealer, sup = (ctx.new_page() for ctx in contexts)
        for page in (dealer, sup):
            page.set_default_timeout(10_000)
        dealer.goto(server.url)
        dealer.wait_for_function("document.body.dataset.connection === 'online'")
        for seat in (1, 2, 3, 4):
            sit(dealer, seat, 10_000)
        dealer.click("[data-test=panel-next_round]")
        wait_until(server, lambda s: ((s.get("poker") or {}).get("deck") or {}).get("ok"), "the deck counted")
        assert dealer.inner_text("[data-test=jackpot]") == f"Jackpot {money(0)}"
        dealer.locator("[data-test=deal-hole]:enabled").click()
        dealer.locator("[data-player='3'].to-act").wait_for()
        key_in(dealer, 500)                                          # a raise to $5.00 on the keypad
        touch(dealer, server, "raise", 3)
        for seat in (4, 1, 2):
            touch(dealer, server, "call", seat)
        for board in (["Ks", "Kd", "Ts"], ["Js"], ["2c"]):
            deal_board(dealer, server, board)
            for seat in (1, 2, 3, 4):
                touch(dealer, server, "check", seat)
        show_down(dealer, server, {1: ["Kh", "Kc"], 2: ["As", "Qs"], 3: ["3c", "4c"], 4: ["5d", "6d"]})
        record = record_of(server, server.published()["round"]["id"])
        assert replayed(record, tmp_path)["finishing_stacks"] == record["stacks_after"]
        dealer.locator("[data-test=jackpot]:has-text('CALL THE FLOORPERSON')").wait_for()
        assert money(record["jackpot_drop"]) in dealer.inner_text("[data-test=jackpot]")

        # the dealers rotate before the floorperson comes: the next dealer signs in on the console's keypad
        dealer.click("[data-test=dealer-on-duty]")
        dealer.locator("#dealer-signin").get_by_text(f"On duty now: {TEST_DEALER}").wait_for()
        for digit in NEXT_DEALER:
            dealer.click(f"[data-test=dealer-key-{digit}]")
        dealer.click("[data-test=dealer-signin]")
        wait_until(server, lambda s: s["dealer_on_duty"] == NEXT_DEALER, f"dealer {NEXT_DEALER} on duty")

        # then the floorperson opens the supervisor's screen: the form is drawn after the rotation
        sup.goto(server.url + "/supervisor")
        sup.wait_for_function("document.body.dataset.connection === 'online'")
        sign_in(sup, SUPERVISOR_ID, SUPERVISOR_PIN)
        sup.locator("[data-test=verify-jackpot-1]").wait_for()
        assert sup.inner_text("[data-test=jackpot-amount]") == money(record["jackpot_drop"])
        sup.click("[data-test=verify-jackpot-1]")                     # the form incomplete: refused
        sup.locator("#toast.show").wait_for()
        assert server.published()["jackpot"]["pending"]
        # the dealer who dealt the hand (on duty when it opened, as the journal has it) is the form's dealer
        # already (issue 30), not the one on duty now
        assert server.published()["dealer_on_duty"] == NEXT_DEALER
        assert sup.input_value("[data-test=jp-dealer-1]") == TEST_DEALER
        assert [q["dealt_by"] for q in server.published()["jackpot"]["pending"]] == [{"badge": TEST_DEALER, "name": None}]
        for name, value in (("player", "Ann Lee"), ("phone", "555-0101"),
                            ("dealer_license", "DL-1"), ("floor_license", "FL-9")):
            sup.fill(f"[data-test=jp-{name}-1]", value)
        sup.screenshot(path=screenshots / "poker-supervisor-jackpot-form.png", full_page=True)
        sup.click("[data-test=verify-jackpot-1]")
        sup.locator("[data-verified]").wait_for()
        jp = server.published()["jackpot"]
        assert jp["pending"] == [] and [(v["seat"], v["hand_name"], v["player"], v["floorperson"])
                                       for v in jp["verified"]] == [(1, "four-of-a-kind", "Ann Lee", SUPERVISOR_ID)]

        async def lines():
            return [e for e in server.table.journal.entries_since(0) if e.kind == "jackpot-hand"]
        journaled = server.call(lines())
        assert [(e.payload["floor_license"], e.payload["dealer"]) for e in journaled] == [("FL-9", TEST_DEALER)]
        dealer.locator("[data-test=jackpot]:not(:has-text('FLOORPERSON'))").wait_for()
    finally:
        for ctx in contexts:
            ctx.close()
        server.close()
