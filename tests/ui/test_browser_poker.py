"""A poker hand with a side pot, entered on the dealer's console in a real browser.

No-limit hold'em, three players: seat 1 (small blind) has 1,000, seat 2 (big
blind) 3,000, seat 3 (button) 5,000. Seat 3 moves all in (two touches), seat 1
calls all in for less, seat 2 calls all in: a main pot of 3,000 that all three can
win and a side pot of 4,000 between seats 2 and 3 (5324.42(c)(3)(iv)); seat 3's
uncalled 2,000 goes back.
"""

from __future__ import annotations

from fake_table import FakeTable
from ui_helpers import money


def test_poker_hand_with_a_side_pot(live, page_factory, screenshots):
    table = live(lambda: FakeTable("poker", poker_stacks=(1000, 3000, 5000)))
    dealer = page_factory(table.url)
    assert dealer.locator("#poker").is_visible()
    assert dealer.locator("#banked").is_hidden()
    # Button and blinds.
    assert "D" in dealer.inner_text("[data-player='3'] .name")
    assert "SB $0.50" in dealer.inner_text("[data-player='1'] .name")
    assert "BB $1.00" in dealer.inner_text("[data-player='2'] .name")

    dealer.click("[data-test=deal-hole]")                      # one touch
    dealer.locator("[data-player='3'].to-act").wait_for()
    assert dealer.inner_text("#poker-actions .who-acts") == "Seat 3 to act"
    assert dealer.is_visible("[data-test=fold]") and dealer.is_visible("[data-test=call]")
    dealer.screenshot(path=screenshots / "dealer-poker-to-act.png", full_page=True)

    dealer.click("[data-test=preset-max]")                     # two touches: size, then confirm
    assert dealer.inner_text("[data-test=raise]") == f"Raise to {money(5000)}"
    dealer.click("[data-test=raise]")
    dealer.locator("[data-player='1'].to-act").wait_for()
    dealer.click("[data-test=call]")                           # one touch
    dealer.locator("[data-player='2'].to-act").wait_for()
    dealer.click("[data-test=call]")

    # Everyone is all in: the dealer deals the board, card by card on the picker.
    dealer.locator("[data-test=deal-board]").wait_for()
    side = dealer.locator("[data-side-pot='1']")
    side.wait_for()
    assert money(4000) in side.inner_text() and "seats 2, 3" in side.inner_text()
    assert f"Main pot: {money(3000)}" in dealer.inner_text("#pots")
    for p in (1, 2):
        dealer.locator(f"[data-player='{p}'] .marker.allin").wait_for()
    poker = table.published()["poker"]
    assert poker["side_pots"] == [{"amount": 4000, "eligible": [2, 3]}]
    dealer.screenshot(path=screenshots / "dealer-poker-side-pot.png", full_page=True)

    for street in (["2c", "7d", "9h"], ["Jc"], ["3s"]):
        for c in street:
            dealer.click(f"[data-pick='{c}']")
        dealer.click("[data-test=deal-board]")
        dealer.locator(f"#board [data-card='{street[-1]}']").wait_for()

    for seat, hole in ((1, ["As", "Ad"]), (2, ["Ks", "Kd"]), (3, ["Qs", "Qd"])):
        dealer.locator(f"[data-player='{seat}'].to-act").wait_for()
        assert "shows or mucks" in dealer.inner_text("#poker-actions .who-acts")
        for c in hole:
            dealer.click(f"[data-pick='{c}']")
        dealer.click("[data-test=show]")
    dealer.locator("#showdown-box").wait_for(state="visible")
    text = dealer.inner_text("#showdown")
    # Aces win the main pot; kings beat queens for the side pot.
    assert f"Main pot {money(3000)}: seat 1 wins {money(3000)}" in text
    assert f"Side pot 1 {money(4000)}: seat 2 wins {money(4000)}" in text
    assert "Rake" in dealer.inner_text("#pots") and "Jackpot drop" in dealer.inner_text("#pots")
    assert dealer.is_enabled("[data-test=panel-next_round]")
    stacks = {p["seat"]: p["stack"] for p in table.published()["poker"]["players"]}
    assert stacks == {1: 3000, 2: 4000, 3: 2000}
    assert dealer.inner_text("[data-player='3'] .stack >> nth=0") == f"Stack {money(2000)}"
    dealer.screenshot(path=screenshots / "dealer-poker-showdown.png", full_page=True)
