"""Betting rounds: order, sizes, caps, all-ins, the bring-in, and refusals that change nothing."""

from __future__ import annotations

import pytest

from controller.poker.errors import IllegalAction, SetupError
from controller.poker.hand import Phase
from tests.poker.poker_helpers import act, new, setup, snapshot

HOLDEM_DEAL = ("d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, d dh p4 7h8h, d dh p5 JcTc")


def refused(hand, text: str) -> str:
    """The refusal message of an action, checking that the hand did not change."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as exc:
        act(hand, text)
    assert snapshot(hand) == before, f"{text} changed the hand"
    return str(exc.value)


# --- turn order -----------------------------------------------------------------------

def test_first_to_act_preflop_is_after_the_big_blind_and_after_the_button_later():
    """5324.42(i)(6)-(7): clockwise after the blinds, then from the first player after the button."""
    h = new("NT", [100] * 5, HOLDEM_DEAL)
    assert h.to_act == 2
    act(h, "p3 cc, p4 cc, p5 cc, p1 cc, p2 cc, d db 3s4s5d")
    assert h.to_act == 0


def test_out_of_turn_is_refused_naming_the_player_to_act():
    h = new("NT", [100] * 5, HOLDEM_DEAL)
    assert refused(h, "p1 cc") == "p1 cc: out of turn: p3 is to act"
    assert refused(h, "d db 3s4s5d").startswith("d db 3s4s5d: the betting round is open: p3 is to act")


def test_heads_up_blinds_are_reversed_as_phh_reads_them():
    """phh-std: heads-up the button (p2) posts the small blind and acts first before the flop."""
    h = new("NT", [100, 100], "d dh p1 AsKs, d dh p2 QhQd")
    assert h.bets == [2, 1]
    assert h.to_act == 1
    act(h, "p2 cc, p1 cc, d db 3s4s5d")
    assert h.to_act == 0


def test_straddle_acts_last_before_the_flop_and_sets_the_call():
    """5324.42(c)(11): the player after the big blind straddles twice the big blind."""
    h = new("NT", [100] * 5, HOLDEM_DEAL, blinds=(1, 2, 4))
    assert h.bets[:3] == [1, 2, 4]
    assert h.to_act == 3
    assert h.options().call == 4
    act(h, "p4 cc, p5 cc, p1 cc, p2 cc")
    assert h.to_act == 2   # the straddle has the option
    assert h.options().check


def test_blinds_with_a_gap_are_refused():
    with pytest.raises(SetupError, match=r"blinds_or_straddles\[3\]: .*\(5324.42\(i\)\(4\), \(c\)\(11\)\)"):
        setup("NT", [100] * 5, blinds=(1, 2, 0, 4))


# --- no limit ----------------------------------------------------------------------------

def test_no_limit_minimum_raise_is_the_last_raise():
    h = new("NT", [1000] * 5, HOLDEM_DEAL)
    assert refused(h, "p3 cbr 3") == "p3 cbr 3: below the minimum raise of 4"
    act(h, "p3 cbr 10")                        # a raise of 8
    assert h.options().raise_min == 18
    assert refused(h, "p4 cbr 17") == "p4 cbr 17: below the minimum raise of 18"
    act(h, "p4 cbr 18")
    assert h.options().raise_max == 1000


def test_no_limit_bet_above_the_stack_is_refused():
    h = new("NT", [50, 50, 50, 50, 50], HOLDEM_DEAL)
    assert refused(h, "p3 cbr 51") == "p3 cbr 51: above the maximum raise of 50 (the player's chips)"


def test_check_then_raise_is_allowed():
    """5324.42(c)(10): a player who checked may raise later in the round."""
    h = new("NT", [1000] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 cc, p1 cc, p2 cc, d db 3s4s5d")
    act(h, "p1 cc, p2 cbr 10, p3 cc, p1 cbr 30")
    assert h.bets == [30, 10, 10]


def test_a_short_all_in_raise_does_not_reopen_the_betting():
    """5324.42(c)(3)(iv): a player who has acted faces only a short all-in: call or fold."""
    h = new("NT", [1000, 18, 1000],
            "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 cc, p1 cc, p2 cc, d db 3s4s5d")
    act(h, "p1 cbr 10, p2 cbr 16, p3 cc")     # p2 is all-in, 6 more than the bet (a raise of 10 is full)
    o = h.options()
    assert o.player == 0 and o.call == 6 and o.raise_min is None
    assert refused(h, "p1 cbr 26") == "p1 cbr 26: a short all-in does not reopen the betting (5324.42(c)(3)(iv))"


def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting():
    h = new("NT", [1000, 17, 22, 1000],
            "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, d dh p4 9h9d, p3 cc, p4 cc, p1 cc, p2 cc, d db 3s4s5d")
    act(h, "p1 cbr 10, p2 cbr 15, p3 cbr 20, p4 cc")   # two raises of 5 are a full raise of 10
    assert h.options().raise_min == 30


def test_a_player_not_yet_acting_may_raise_a_short_all_in():
    h = new("NT", [1000, 18, 1000],
            "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 cc, p1 cc, p2 cc, d db 3s4s5d")
    act(h, "p1 cbr 10, p2 cbr 16")
    assert h.options().player == 2 and h.options().raise_min == 26


def test_uncalled_bet_goes_back():
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 cbr 60, p1 f, p2 f")
    assert h.finished
    assert h.result.finishing_stacks == (99, 98, 103)
    assert [p.amount for p in h.result.pots] == [5]


# --- fixed limit ---------------------------------------------------------------------------

def test_fixed_limit_sizes_small_then_big_bet():
    h = new("FT", [1000] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d", blinds=(1, 2))
    assert refused(h, "p3 cbr 6") == "p3 cbr 6: the raise is to exactly 4"
    act(h, "p3 cc, p1 cc, p2 cc, d db 3s4s5d")
    assert refused(h, "p1 cbr 4") == "p1 cbr 4: the bet is to exactly 2"
    act(h, "p1 cc, p2 cc, p3 cc, d db 6d")
    o = h.options()
    assert (o.raise_word, o.raise_min, o.raise_max) == ("bet", 4, 4)


@pytest.mark.parametrize("cap, raises", [(4, 4), (3, 3), (None, 7)])
def test_fixed_limit_cap_is_the_tables(cap, raises):
    """The cap on bets and raises a round, as the table configures it (None: uncapped)."""
    h = new("FT", [1000] * 2, "d dh p1 AsKs, d dh p2 QhQd, p2 cc, p1 cc, d db 3s4s5d", cap=cap)
    made = 0
    for _ in range(7):
        o = h.options()
        if o.raise_min is None:
            break
        h.bet_or_raise_to(o.player, o.raise_min)
        made += 1
    assert made == raises
    if cap is not None:
        msg = refused(h, f"p{h.to_act + 1} cbr {h.bets[0] + 2}")
        assert f"the betting is capped at {cap} bets and raises a round" in msg


# --- pot limit ------------------------------------------------------------------------------

def test_pot_limit_maximum_is_the_pot_after_the_call():
    h = new("PO", [1000] * 4, "d dh p1 AsKsQsJs, d dh p2 AhKhQhJh, d dh p3 2c3c4c5c, d dh p4 2d3d4d5d")
    o = h.options()
    assert (o.raise_min, o.raise_max) == (4, 7)         # call 2, pot then 1 + 2 + 2 = 5
    assert refused(h, "p3 cbr 8") == "p3 cbr 8: above the maximum raise of 7 (the pot limit)"
    act(h, "p3 cbr 7")
    assert h.options().raise_max == 7 + 7 + 10          # p4: call 7, pot 1+2+7+7 = 17, to 24


# --- the bring-in -----------------------------------------------------------------------------

STUD_DEAL = "d dh p1 AsKs9h, d dh p2 QhQd2c, d dh p3 3c3d2d, d dh p4 7h8h2h"


def test_bring_in_is_the_lowest_up_card_ties_broken_by_suit():
    """5324.42(h)(4)(i): lowest up card; of three deuces, clubs brings in."""
    h = new("F7S", [500] * 4, STUD_DEAL, antes=1, bring_in=5, small=10)
    o = h.options()
    assert o.player == 1 and o.bring_in == 5 and not o.fold and not o.check
    assert refused(h, "p2 f").endswith("the bring-in must be posted or completed, not folded (5324.42(h)(4))")
    assert refused(h, "p2 cc").endswith("the bring-in must be posted or completed (5324.42(h)(4))")
    assert refused(h, "p3 pb") == "p3 pb: out of turn: p2 is to act"


def test_bring_in_then_call_or_complete():
    h = new("F7S", [500] * 4, STUD_DEAL, "p2 pb", antes=1, bring_in=5, small=10)
    o = h.options()
    assert o.player == 2 and o.call == 5 and o.raise_word == "complete" and o.raise_min == 10
    act(h, "p3 cbr 10")
    o = h.options()
    assert o.raise_word == "raise" and o.raise_min == 20


def test_bring_in_player_may_complete_instead():
    h = new("F7S", [500] * 4, STUD_DEAL, "p2 cbr 10", antes=1, bring_in=5, small=10)
    assert h.bets == [0, 10, 0, 0] and h.to_act == 2


# --- refusals -------------------------------------------------------------------------------------

def test_actions_after_the_hand_are_refused():
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 f, p1 f")
    assert h.phase is Phase.COMPLETE
    assert refused(h, "p2 cc") == "p2 cc: the hand is over"
    assert refused(h, "d db 3s4s5d") == "d db 3s4s5d: the hand is over"
    assert refused(h, "p2 sm QhQd") == "p2 sm QhQd: the hand is over"


def test_folded_player_cannot_act():
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 f")
    assert refused(h, "p3 cc") == "p3 cc: out of turn: p1 is to act"
    assert refused(h, "d dh p3 4h") == "d dh p3 4h: the betting round is open: p1 is to act"


def test_bets_during_the_deal_are_refused():
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd")
    assert refused(h, "p3 cc") == "p3 cc: the dealer still owes cards to p3 on the preflop"
