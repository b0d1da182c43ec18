"""Showdown and pots: who wins, how a split divides, who takes the odd chip, who opens in stud."""

from __future__ import annotations

import random

import pytest

from controller.poker.errors import IllegalAction
from controller.poker.showdown import bring_in_player, showing_opener
from controller.poker.variants import Opener
from tests.poker.poker_helpers import act, cards, new


def stacks(hand):
    return list(hand.result.finishing_stacks)


def awards(hand):
    return [{p + 1: c for p, c in pot.awards.items()} for pot in hand.result.pots]


# --- hold'em and Omaha -------------------------------------------------------------------

def test_board_that_plays_splits_and_the_odd_chip_goes_clockwise_from_the_button():
    """5324.42(i)(10): a board that plays is shared; the odd chip as spec/poker.md: first after the button."""
    h = new("NT", [100] * 3,
            "d dh p1 2c3d, d dh p2 4h5d, d dh p3 6c7d, p3 cc, p1 f, p2 cc",
            "d db AsKsQs, p2 cc, p3 cc, d db Js, p2 cc, p3 cc, d db Ts, p2 cc, p3 cc",
            "p2 sm 4h5d, p3 sm 6c7d")
    assert awards(h) == [{2: 3, 3: 2}]          # 5 chips: 2 each, the odd one to p2
    assert stacks(h) == [99, 101, 100]


def test_omaha_uses_exactly_two_hole_cards_and_three_board_cards():
    """5324.42(j)(6): four spades in the hand and two on the board make no flush."""
    h = new("PO", [100] * 2,
            "d dh p1 AsKs5s6s, d dh p2 QdQc3h4h, p2 cc, p1 cc",
            "d db 2s7s9d, p1 cc, p2 cc, d db Td, p1 cc, p2 cc, d db Jh, p1 cc, p2 cc",
            "p1 sm AsKs5s6s, p2 sm QdQc3h4h")
    assert stacks(h) == [98, 102]


def test_omaha_low_needs_three_board_cards_of_eight_or_less():
    """5324.42(j)(7): with two low cards on the board there is no low; the high hand takes all."""
    h = new("FO/8", [100] * 2,
            "d dh p1 Ah2h4c5d, d dh p2 KdKcQh9h, p2 cc, p1 cc",
            "d db 3s7sJd, p1 cc, p2 cc, d db Qd, p1 cc, p2 cc, d db Tc, p1 cc, p2 cc",
            "p1 sm Ah2h4c5d, p2 sm KdKcQh9h")
    assert stacks(h) == [98, 102]


def test_omaha_hi_lo_splits_and_the_excess_goes_to_the_high_hand():
    """5324.42(j)(6)(ii)(a): a pot that cannot be divided gives the excess to the high hand."""
    play = ("d dh p1 Ah2h9c9d, d dh p2 KdKcQhJh, d dh p3 TsTd8c8h, p3 cc, p1 cc, p2 cc",
            "d db 3s7s4d, p1 cc, p2 cc, p3 cc, d db Kh, p1 cbr 4, p2 cc, p3 f",
            "d db Tc, p1 cc, p2 cc, p1 sm Ah2h9c9d, p2 sm KdKcQhJh")
    h = new("FO/8", [100] * 3, *play)
    assert h.result.pots[0].amount == 14
    assert awards(h) == [{1: 7, 2: 7}]
    h = new("FO/8", [100] * 3, *play, antes=[1, 0, 0])
    assert h.result.pots[0].amount == 15
    assert awards(h) == [{1: 7, 2: 8}]


# --- seven-card stud ----------------------------------------------------------------------

def stud(code, deal, *rest, antes=1):
    return new(code, [100] * 3, deal, *rest, antes=antes, bring_in=5, small=10)


HI_LO = ("d dh p1 KsKdQc, d dh p2 AhAdKh, d dh p3 2c3c4d",
         "p3 pb, p1 f, p2 cc",
         "d dh p2 Kc, d dh p3 5h, p2 cc, p3 cc",
         "d dh p2 9s, d dh p3 7s, p2 cc, p3 cc",
         "d dh p2 9d, d dh p3 Qd, p2 cc, p3 cc",
         "d dh p2 Jh, d dh p3 Jc, p2 cc, p3 cc",
         "p2 sm AhAdKhKc9s9dJh, p3 sm 2c3c4d5h7sQdJc")


def test_stud_hi_lo_split_gives_the_excess_to_the_high_hand():
    """5324.42(h)(9)(a): 13 chips split high 7, low 6."""
    h = stud("F7S/8", *HI_LO)
    assert h.result.pots[0].amount == 13
    assert awards(h) == [{2: 7, 3: 6}]
    assert stacks(h) == [99, 101, 100]


def test_stud_hi_lo_without_a_qualifying_low_the_high_hand_takes_all():
    """5324.42(h)(10): no hand is eight or better, so no low half."""
    deal = HI_LO[0].replace("2c3c4d", "2c3c9c")
    rest = [x.replace("d dh p3 5h", "d dh p3 Th") for x in HI_LO[1:]]
    rest[-1] = "p2 sm AhAdKhKc9s9dJh, p3 sm 2c3c9cTh7sQdJc"
    rest[0] = "p2 pb, p1 f, p3 cc"   # now p2's king is... the lowest up card is p3's 9c
    h = stud("F7S/8", deal, "p3 pb, p1 f, p2 cc", *rest[1:])
    assert awards(h) == [{2: 13}]


STUD_TIE = ("d dh p1 2s2hTd, d dh p2 AhKh3d, d dh p3 AsKs4h",
            "p2 pb, p3 cc, p1 f",
            "d dh p2 Qd, d dh p3 Qc, p3 cc, p2 cc",
            "d dh p2 Jc, d dh p3 Jd, p3 cc, p2 cc",
            "d dh p2 9h, d dh p3 9s, p3 cc, p2 cc",
            "d dh p2 4c, d dh p3 3c, p3 cc, p2 cc",
            "p3 sm AsKs4hQcJd9s3c, p2 sm AhKh3dQdJc9h4c")


def test_stud_tied_high_hands_odd_chip_to_the_highest_card_by_suit():
    """5324.42(h)(9)(b), (d): A-K-Q-J-9 each; the ace of spades beats the ace of hearts."""
    h = stud("F7S", *STUD_TIE)
    assert h.result.pots[0].amount == 13
    assert awards(h) == [{2: 6, 3: 7}]


def test_stud_later_streets_open_with_the_best_hand_showing_ties_to_the_first_after_the_dealer():
    """5324.42(h)(6): Q-4 beats Q-3 showing; later, equal hands: the first after the dealer."""
    h = stud("F7S", *STUD_TIE[:2], "d dh p2 Qd, d dh p3 Qc")
    assert h.to_act == 2
    h = new("F7S", [100] * 3, "d dh p1 2s2hTd, d dh p2 AhKh3d, d dh p3 AsKs3c, p3 pb, p1 f, p2 cc",
            "d dh p2 Qd, d dh p3 Qc", antes=1, bring_in=5, small=10)
    assert h.to_act == 1   # p2 is first after the dealer


RAZZ_TIE = ("d dh p1 KdKsQh, d dh p2 Ah2h6h, d dh p3 Ac2c6c",
            "p1 pb, p2 cc, p3 cc",
            "d dh p1 Qd, d dh p2 3d, d dh p3 3s, p2 cc, p3 cc, p1 cc",
            "d dh p1 Jh, d dh p2 4d, d dh p3 4s, p2 cc, p3 cc, p1 cc",
            "d dh p1 Jd, d dh p2 9c, d dh p3 9d, p2 cc, p3 cc, p1 cc",
            "d dh p1 Th, d dh p2 Ts, d dh p3 Tc, p2 cc, p3 cc, p1 cc",
            "p2 sm Ah2h6h3d4d9cTs, p3 sm Ac2c6c3s4s9dTc, p1 sm KdKsQhQdJhJdTh")


def test_razz_tied_low_hands_odd_chip_to_the_lowest_low_card_by_suit():
    """5324.42(h)(9)(c), (d): A-2-3-4-6 each; the ace of clubs is the lowest low card."""
    h = stud("FR", *RAZZ_TIE, antes=2)
    assert h.result.pots[0].amount == 21
    assert awards(h) == [{2: 10, 3: 11}]


def test_razz_brings_in_by_the_highest_up_card_ace_high():
    """5324.42(h)(4)(ii): ranked "as if the game were one of high poker": the ace is highest."""
    h = new("FR", [100] * 3, "d dh p1 2s3sKd, d dh p2 4h5hAc, d dh p3 6c7cQh", antes=1, bring_in=5, small=10)
    assert h.to_act == 1
    with pytest.raises(IllegalAction, match="p1 pb: out of turn: p2 is to act"):
        act(h, "p1 pb")


def test_razz_later_streets_open_with_the_best_low_showing():
    """5324.42(h)(6)(ii): 8-2 showing is a better low than Q-A; any pair is worse than none."""
    third = "d dh p1 2s3sKd, d dh p2 4h5hQc, d dh p3 6c7c8h, p1 pb, p2 cc, p3 cc"
    h = new("FR", [100] * 3, third, "d dh p1 Kc, d dh p2 Ac, d dh p3 2d", antes=1, bring_in=5, small=10)
    assert h.to_act == 2
    h = new("FR", [100] * 3, third, "d dh p1 Kc, d dh p2 Ac, d dh p3 8d", antes=1, bring_in=5, small=10)
    assert h.to_act == 1


@pytest.mark.parametrize("opener, ups, expected", [
    (Opener.LOW_CARD, ["2h", "2c", "3d"], 1),            # (h)(4)(i): the deuce of clubs
    (Opener.LOW_CARD, ["Ah", "Kc", "Kd"], 1),            # (h)(4)(iv): the ace is high
    (Opener.HIGH_CARD, ["Ah", "Kc", "Ks"], 0),           # (h)(4)(ii): the ace is high
    (Opener.HIGH_CARD, ["Kh", "Kc", "Ks"], 2),           # a tie of rank: spades
    (Opener.HIGH_CARD_ACE_LOW, ["Ah", "2c", "Kd"], 2),   # (h)(4)(iii): the ace below the two
    (Opener.HIGH_CARD_ACE_LOW, ["Ah", "As", "2c"], 2),
])
def test_bring_in_by_up_card(opener, ups, expected):
    up = [list(cards(c)) for c in ups]
    assert bring_in_player(up, [True] * len(up), opener) == expected


def test_folded_players_do_not_open():
    up = [list(cards("As")), list(cards("2c")), list(cards("Kd"))]
    assert showing_opener(up, [False, True, True], low=False) == 2


def test_exposed_hand_order_agrees_with_pokerkit():
    """The standing of 1-4 cards showing, high and low, against pokerkit's opener lookups."""
    from pokerkit import Card as PKCard
    from pokerkit.state import _HighHandOpeningLookup, _LowHandOpeningLookup

    high, low = _HighHandOpeningLookup(), _LowHandOpeningLookup()
    rng = random.Random(5324)
    for _ in range(1500):
        k = rng.randint(1, 4)
        a, b = rng.sample(range(52), k), rng.sample(range(52), k)
        for is_low, lookup in ((False, high), (True, low)):
            ours = showing_opener([a, b], [True, True], low=is_low)
            ea = lookup.get_entry(PKCard.parse("".join(str(cards_text(x)) for x in a)))
            eb = lookup.get_entry(PKCard.parse("".join(str(cards_text(x)) for x in b)))
            theirs = ([ea, eb].index(min(ea, eb)) if is_low else [ea, eb].index(max(ea, eb)))
            assert ours == theirs, (is_low, a, b)


def cards_text(c):
    from controller.cards import CARDS
    return str(CARDS[c])


# --- side pots -------------------------------------------------------------------------------

def test_side_pots_awarded_before_the_main_pot_each_to_its_players():
    """5324.42(c)(3)(iv), (f)(6)(vi): the all-in player wins only the main pot."""
    h = new("NT", [20, 100, 100],
            "d dh p1 AsAd, d dh p2 KsKd, d dh p3 2c7d, p3 cc, p1 cbr 20, p2 cbr 60, p3 cc",
            "d db 3h8h9c, p2 cc, p3 cc, d db Jd, p2 cc, p3 cc, d db 4s, p2 cc, p3 cc",
            "p2 sm KsKd, p3 sm 2c7d, p1 sm AsAd")
    r = h.result
    assert [(p.amount, [e + 1 for e in p.eligible]) for p in r.pots] == [(60, [1, 2, 3]), (80, [2, 3])]
    assert awards(h) == [{1: 60}, {2: 80}]
    assert r.award_order == (1, 0)
    assert stacks(h) == [60, 120, 40]


def test_a_muck_concedes_only_contested_pots():
    """5324.42(f)(5): the side pot nobody else reached stays with the one who did, muck or not."""
    h = new("NT", [20, 100, 100],
            "d dh p1 AsAd, d dh p2 KsKd, d dh p3 2c7d, p3 cc, p1 cbr 20, p2 cbr 60, p3 cc",
            "d db 3h8h9c, p2 cbr 40, p3 f",
            "d db Jd, d db 4s, p2 sm, p1 sm AsAd")
    assert awards(h) == [{1: 60}, {2: 80}]
    assert stacks(h) == [60, 120, 40]


def test_the_last_hand_in_a_contested_pot_cannot_be_mucked():
    h = new("NT", [100] * 2, "d dh p1 AsAd, d dh p2 KsKd, p2 cc, p1 cc",
            "d db 3h8h9c, p1 cc, p2 cc, d db Jd, p1 cc, p2 cc, d db 4s, p1 cc, p2 cc, p1 sm")
    with pytest.raises(IllegalAction, match="holds the last hand in contention for a pot of 4; it must be shown"):
        act(h, "p2 sm")
    act(h, "p2 sm KsKd")
    assert stacks(h) == [98, 102]


def test_all_fold_to_an_all_in_player_who_takes_every_chip():
    """(f)(6)(v): the last player left takes the pot, the side money the others folded included."""
    h = new("NT", [10, 100, 100],
            "d dh p1 AsAd, d dh p2 KsKd, d dh p3 2c7d, p3 cc, p1 cbr 10, p2 cbr 30, p3 cc",
            "d db 3h8h9c, p2 f, p3 f")
    assert h.finished
    assert awards(h) == [{1: 70}]
    assert stacks(h) == [70, 70, 70]
