"""Caribbean stud: five cards (5324.37(d)); the dealer qualifies with ace-king or better (5324.37(e)(4))."""

from __future__ import annotations

import pytest

from controller.cards import card
from controller.hands import HandError, caribbean, high, low
from controller.hands._tables import classes
from tests.hands.hands_helpers import cards


@pytest.mark.parametrize("text, qualifies", [
    ("Ac Kd 4h 3s 2c", True),    # the lowest ace-king
    ("Ac Kd Qh Js 9c", True),
    ("Ac Qd Jh Ts 8c", False),   # ace high without a king
    ("Kc Qd Jh Ts 8c", False),   # king high without an ace
    ("2c 2d 3h 4s 5c", True),    # any pair
    ("Ac 2d 3h 4s 5c", True),    # the wheel is a straight
    ("Ac 3d 5h 7s 9c", False),
    ("2c 3c 4c 5c 7c", True),    # a flush
    ("As Ks Qs Js Ts", True),
])
def test_dealer_qualifier(text, qualifies):
    assert caribbean.dealer_qualifies(cards(text)) is qualifies
    assert caribbean.dealer_qualifies(high.evaluate(cards(text))) is qualifies
    assert caribbean.dealer_qualifies(caribbean.evaluate(cards(text))) is qualifies


def test_qualifier_over_every_class():
    """Every one of the 7,462 classes: qualifies iff pair or better, or high card holding A and K."""
    seen = 0
    for category, suited, ranks in classes(straights=True, wheel=True, flushes=True):
        suits = [0] * 5 if suited else ([0, 1, 2, 3, 1] if category == 0 or category == 4 else None)
        if suits is None:  # paired: give each repeat a different suit
            used: dict[int, int] = {}
            suits = []
            for r in ranks:
                suits.append(used.get(r, 0))
                used[r] = used.get(r, 0) + 1
        hand = [card(r, s) for r, s in zip(ranks, suits, strict=True)]
        expected = category > 0 or (12 in ranks and 11 in ranks)
        assert caribbean.dealer_qualifies(hand) is expected, hand
        seen += 1
    assert seen == 7462


def test_qualifier_refuses_what_is_not_a_dealer_hand():
    with pytest.raises(HandError):
        caribbean.dealer_qualifies(cards("Ac Kd 4h 3s 2c 2d"))   # six cards
    with pytest.raises(HandError):
        caribbean.dealer_qualifies(cards("Ac Kd 4h 3s"))
    with pytest.raises(HandError):
        caribbean.dealer_qualifies(low.a5(cards("Ac Kd 4h 3s 2c")))  # a low hand's value is another scale
    with pytest.raises(HandError):
        caribbean.evaluate(cards("Ac Kd 4h 3s 2c 9d 9c"))           # five cards a hand, (d)


def test_ties_are_pushes_by_value():
    """5324.37(b)(3): identical after the highest-card rule is a push."""
    assert caribbean.evaluate(cards("Ac Kd 9h 5s 3c")).value == caribbean.evaluate(cards("Ad Kh 9s 5c 3d")).value
    assert caribbean.evaluate(cards("Ac Kd 9h 5s 3c")).value > caribbean.evaluate(cards("Ad Kh 9s 5c 2d")).value
