"""The pure rules of casino war (5324.22(c), (f), (h)(3), (i), (j))."""

from __future__ import annotations

import pytest

from controller.cards import parse_card
from controller.games.casino_war.rules import (MIN_ODDS, Rules, RulesError, SeatPlay, compare,
                                               first_deal_order, settle_first_deal, settle_seat,
                                               settle_surrender, settle_war, surrender_loss,
                                               war_deal_order)

C = parse_card


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_six_seven_or_eight_decks(decks):
    assert Rules(decks=decks).decks == decks


@pytest.mark.parametrize("field,value", [
    ("decks", 5), ("decks", 9), ("decks", 1), ("tie_odds", 9), ("war_odds", 1),
    ("war_tie_odds", 2), ("tie_odds", -10), ("decks", 6.0), ("war_odds", True), ("tie_odds", "10"),
])
def test_rules_refused_below_the_regulation(field, value):
    with pytest.raises(RulesError) as err:
        Rules(**{field: value})
    assert err.value.field == field


def test_minimum_odds_are_those_of_j():
    assert MIN_ODDS == {"tie_odds": 10, "war_odds": 2, "war_tie_odds": 3}
    assert Rules().as_record() == {"decks": 6, "tie_odds": 10, "war_odds": 2, "war_tie_odds": 3}


def test_rank_order_ace_high_suits_ignored():
    """5324.22(f): ace, king, ... 3, 2; suit has no effect."""
    ranks = "AKQJT98765432"
    for hi, lo in zip(ranks, ranks[1:], strict=False):
        assert compare(C(hi + "c"), C(lo + "s")) == 1
        assert compare(C(lo + "s"), C(hi + "c")) == -1
    for r in ranks:
        for s1 in "cdhs":
            for s2 in "cdhs":
                assert compare(C(r + s1), C(r + s2)) == 0


@pytest.mark.parametrize("initial,loss", [(1, 1), (2, 1), (3, 2), (999, 500), (1000, 500),
                                          (1001, 501), (10**9 + 1, 5 * 10**8 + 1)])
def test_surrender_half_rounded_up_to_the_cent(initial, loss):
    assert surrender_loss(initial) == loss
    assert settle_surrender(initial) == {"stake": initial, "outcome": "surrender", "net": -loss}


def test_first_deal_leaves_a_tie_hands_initial_wager_open():
    initial, tie = settle_first_deal(1000, 100, C("9s"), C("9d"), Rules())
    assert initial is None
    assert tie == {"stake": 100, "outcome": "win", "net": 1000}
    initial, tie = settle_first_deal(1000, None, C("Ts"), C("9d"), Rules())
    assert initial == {"stake": 1000, "outcome": "win", "net": 1000} and tie is None


def test_war_outcomes_with_house_odds():
    rules = Rules(war_odds=3, war_tie_odds=5, tie_odds=12)
    assert settle_war(100, 10, C("Ac"), C("Kc"), rules) == (
        {"stake": 100, "outcome": "lose", "net": -100},
        {"stake": 100, "outcome": "win", "net": 300},
        {"stake": 10, "outcome": "lose", "net": -10})
    assert settle_war(100, 10, C("Ac"), C("Ad"), rules) == (
        {"stake": 100, "outcome": "push", "net": 0},
        {"stake": 100, "outcome": "win", "net": 500},
        {"stake": 10, "outcome": "win", "net": 120})
    assert settle_war(100, None, C("2c"), C("3d"), rules) == (
        {"stake": 100, "outcome": "lose", "net": -100},
        {"stake": 100, "outcome": "lose", "net": -100}, None)


@pytest.mark.parametrize("play,dealer_war", [
    (SeatPlay(1, 100, C("Tc"), decision="war", war_card=C("2c")), C("3c")),   # not a tie
    (SeatPlay(1, 100, C("Tc"), war_tie=5), None),                             # not a tie
    (SeatPlay(1, 100, C("9h")), None),                                        # tie, no decision
    (SeatPlay(1, 100, C("9h"), decision="fold"), None),
    (SeatPlay(1, 100, C("9h"), decision="surrender", war_card=C("2c")), C("3c")),
    (SeatPlay(1, 100, C("9h"), decision="war"), C("3c")),                     # no war card
    (SeatPlay(1, 100, C("9h"), decision="war", war_card=C("2c")), None),      # no dealer war card
])
def test_settle_seat_refuses_a_play_the_regulation_does_not_describe(play, dealer_war):
    with pytest.raises(ValueError):
        settle_seat(play, C("9d"), dealer_war, Rules())


def test_deal_order_seat_order_then_dealer():
    """5324.22(h)(1), (h)(3): a new dealer's burn card, seats from the dealer's left, dealer."""
    assert first_deal_order([5, 1, 3]) == [("seat", 1), ("seat", 3), ("seat", 5), ("dealer", None)]
    assert first_deal_order([2], burn=1) == [("burn", None), ("seat", 2), ("dealer", None)]


def test_war_deal_three_burns_first():
    """5324.22(i)(5)(i)."""
    assert war_deal_order([6, 2]) == [("burn", None)] * 3 + [("seat", 2), ("seat", 6),
                                                             ("dealer", None)]
