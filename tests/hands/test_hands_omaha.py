"""Omaha: exactly two of four hole cards and three community cards (5324.42(j)(4), (j)(6), (j)(7))."""

from __future__ import annotations

from itertools import combinations

import pytest

from controller.hands import HandError, high, low, omaha
from tests.hands.hands_helpers import cards, seeded_hands


def hi(hole, board):
    return omaha.high(cards(hole), cards(board))


def lo(hole, board):
    return omaha.low8(cards(hole), cards(board))


def test_two_hole_cards_must_play():
    """(j)(6): two of the player's four cards and three community cards, no more, no fewer."""
    assert hi("Ac Ad Ah As", "Kc Kd 2c 4h 5h").name == "two-pair"          # not four aces
    assert hi("Ah 2c 3d 4s", "Kh Qh Jh Th 9h").name == "high-card"         # the board's straight flush needs 4
    assert hi("Kc 9c 3d 4s", "Ah Qh Jh Th 2h").name == "straight"          # no heart in hand: no flush
    assert hi("Kh 2h 3d 4s", "Ah Qh Jh Th 9c").name == "flush"             # two hearts in hand: flush
    assert hi("Ac Kc 2d 3d", "Qc Jc Tc 4h 5h").name == "royal-flush"


def test_board_straight_needs_two_hole_cards_to_join():
    assert hi("2c 2d 3h 3s", "9c Td Jh Qs Kc").name == "pair"               # 2-2 + three board cards
    assert hi("Ac 2d 3h 4s", "9c Td Jh Qs Kc").name == "high-card"
    assert hi("Ac Kd 3h 3s", "9c Td Jh Qs 2c").name == "straight"


def test_evaluate_gives_the_five_used():
    hv = hi("Ac Kc 2d 3d", "Qc Jc Tc 4h 5h")
    assert hv.cards == tuple(cards("Ac Kc Qc Jc Tc"))
    for hand in seeded_hands(400, 9, salt=909):
        hole, board = hand[:4], hand[4:]
        hv = omaha.high(hole, board)
        assert len(set(hv.cards) & set(hole)) == 2 and len(set(hv.cards) & set(board)) == 3
        best = max(high.value5(p + t) for p in combinations(hole, 2) for t in combinations(board, 3))
        assert hv.value == best == omaha.high_value(hole, board) == high.value5(hv.cards)


def test_low_needs_three_board_cards_eight_or_lower():
    """(j)(7): no low unless three community cards are 8 or lower."""
    assert lo("Ac 2c 3d 4d", "5c 6d Kh Qs Jh") is None
    assert lo("Ac 2c Kd Kh", "3c 4d 5h Qh Jh").name == "5-4-3-2-A"
    assert lo("Ac 2c Kd Kh", "3c 4d 5h Qh Jh").value == low.A5_CLASSES - 1


def test_low_uses_exactly_two_hole_cards():
    assert lo("Ac Kc Kd Kh", "2c 3d 4h 5s 6h") is None                     # only one low hole card
    assert lo("Ac 2c 3d 4d", "5c 6d 7h Ks Qh").name == "7-6-5-2-A"          # best two of the four
    assert lo("Ac 2c Qd Kd", "Ah 3c 4d Ks Qh") is None                     # counterfeit: A-2 + A-3-4 pairs


def test_the_ace_plays_both_ways_and_fives_may_differ():
    """(j)(8): one hand may win both halves, with the same or different fives, the ace high and low."""
    hole, board = cards("Ac 2c Kd Kh"), cards("3c 4c 5c Kc 9h")
    high_hand, low_hand = omaha.high(hole, board), omaha.low8(hole, board)
    assert high_hand.name == "straight-flush" and low_hand.name == "5-4-3-2-A"
    hole, board = cards("Ac 2d Kd Kh"), cards("3c 4c Ks Qh 7h")
    assert omaha.high(hole, board).name == "three-of-a-kind"
    assert omaha.low8(hole, board).name == "7-4-3-2-A"


def test_low8_is_the_best_qualifying_two_plus_three():
    for hand in seeded_hands(400, 9, salt=919):
        hole, board = hand[:4], hand[4:]
        lows = [low.eight_value(p + t) for p in combinations(hole, 2) for t in combinations(board, 3)]
        best = max(lows)
        found = omaha.low8(hole, board)
        assert omaha.low8_value(hole, board) == best
        assert (found.value if found else -1) == best
        if found:
            assert len(set(found.cards) & set(hole)) == 2


def test_partial_board():
    assert hi("Ac Ad Kc Kd", "As Kh 2c").name == "three-of-a-kind"   # all three board cards play
    assert hi("Ac Ad Kc Kd", "As Kh 2c 2d").name == "full-house"
    assert lo("Ac 2c Kd Kh", "3c 4d 5h").name == "5-4-3-2-A"


@pytest.mark.parametrize("hole, board, words", [
    ("Ac Ad Kc", "2c 3c 4c 5c 6c", "Omaha hole cards: needs 4 cards, got 3"),
    ("Ac Ad Kc Kd Qc", "2c 3c 4c 5c 6c", "needs 4 cards, got 5"),
    ("Ac Ad Kc Kd", "2c 3c", "Omaha board: needs 3 or 4 or 5 cards, got 2"),
    ("Ac Ad Kc Kd", "2c 3c 4c 5c 6c 7c", "got 6"),
    ("Ac Ad Kc Kd", "2c 3c Ac 5c 6c", "Ac both in the hole and on the board"),
    ("Ac Ad Kc 1d", "2c 3c 4c 5c 6c", "'1d' is not a card"),
])
def test_bad_hands_refused(hole, board, words):
    for fn in (omaha.high, omaha.low8, omaha.high_value, omaha.low8_value):
        with pytest.raises(HandError) as err:
            fn(hole.split(), board.split())
        assert words in str(err.value) or "take Card ints" in str(err.value)
    with pytest.raises(HandError) as err:
        omaha.high(hole.split(), board.split())
    assert words in str(err.value)
