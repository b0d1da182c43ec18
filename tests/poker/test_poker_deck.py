"""The deck: a card dealt twice, the stud common card (h)(8), the draw reshuffle (l)(6), unseen cards."""

from __future__ import annotations

import pytest

from controller.cards import CARDS
from controller.poker.actions import SHOW_KNOWN
from controller.poker.errors import IllegalAction
from controller.poker.hand import Hand, Phase
from tests.poker.poker_helpers import act, new, setup, snapshot


def refused(hand, text: str) -> str:
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as exc:
        act(hand, text)
    assert snapshot(hand) == before
    return str(exc.value)


def test_a_card_already_in_a_hand_or_on_the_board_is_refused():
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd")
    assert refused(h, "d dh p3 As2c") == "d dh p3 As2c: As is already dealt (in p1's hand)"
    assert refused(h, "d dh p3 2c2c") == "d dh p3 2c2c: 2c is dealt twice in one action"
    act(h, "d dh p3 2c2d, p3 cc, p1 cc, p2 cc, d db 3s4s5s")
    act(h, "p1 cc")
    assert refused(h, "d db 3s") == "d db 3s: the betting round is open: p2 is to act"
    act(h, "p2 cc, p3 cc")
    assert refused(h, "d db 3s") == "d db 3s: 3s is already dealt (on the board)"


def test_a_folded_hands_cards_are_not_dealt_again():
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 f, p1 cc, p2 cc")
    assert refused(h, "d db 2c3s4s") == ("d db 2c3s4s: 2c was already dealt and is in the discards; "
                                        "it is not in the deck")


def test_unseen_hole_cards_are_named_when_shown():
    h = new("NT", [100] * 2, "d dh p1 ????, d dh p2 QhQd, p2 cc, p1 cc",
            "d db 2c7d9s, p1 cc, p2 cc, d db Jd, p1 cc, p2 cc, d db 4s, p1 cc, p2 cc")
    assert refused(h, "p1 sm -") == "p1 sm -: p1's cards are not all known; name them"
    assert refused(h, "p1 sm Qh3c") == "p1 sm Qh3c: Qh is already dealt (in p2's hand)"
    assert refused(h, "p1 sm As") == "p1 sm As: p1 holds 2 cards; show all 2"
    act(h, "p1 sm AsAd, p2 sm -")
    assert h.result.finishing_stacks == (102, 98)


def test_a_face_up_card_must_be_named():
    h = new("F7S", [100] * 2, antes=1, bring_in=5, small=10)
    assert refused(h, "d dh p1 ??????") == "d dh p1 ??????: a card dealt face up must be named"
    act(h, "d dh p1 ????As")


# --- seven-card stud: the common card (h)(8) -----------------------------------------------

def play_stud_checking(n: int) -> tuple[Hand, list[int]]:
    """n players who all stay to the seventh street; cards dealt in order from the top."""
    h = Hand(setup("F7S", [1000] * n, antes=1, bring_in=5, small=10))
    deck = list(range(52))
    while h.phase in (Phase.BET, Phase.DEAL):
        if h.phase is Phase.BET:
            o = h.options()
            if o.bring_in is not None:
                h.post_bring_in(o.player)
            else:
                h.check_or_call(o.player)
            continue
        owes = h.dealer_owes()
        if owes["board"]:
            return h, deck
        p, statuses = next(iter(owes["hole"].items()))
        h.deal_hole(p, tuple(deck.pop(0) for _ in statuses))
    raise AssertionError("the hand ended with no common card")


def test_eight_players_to_seventh_street_get_a_common_card_after_the_burns_are_shuffled():
    """(h)(8): 48 cards dealt and 3 burned leave 1: shuffle the burns, burn, deal one common card."""
    h, deck = play_stud_checking(8)
    assert h.street.name == "seventh"
    assert h.dealer_owes() == {"hole": {}, "board": 1}
    assert h.deck.stub == 3              # 1 left + 3 burns shuffled back - 1 burned
    assert refused(h, "d dh p1 " + str(CARDS[deck[0]])).startswith("d dh p1 ")
    assert refused(h, "d db " + str(CARDS[0])).endswith("is already dealt (in p1's hand)")
    act(h, "d db " + str(CARDS[deck[0]]))
    assert h.phase is Phase.BET


def test_seven_players_to_seventh_street_get_a_common_card():
    """(h)(8): 42 dealt, 3 burned: 7 left, one is burned, 6 cannot go round 7 players."""
    h, deck = play_stud_checking(7)
    assert h.dealer_owes() == {"hole": {}, "board": 1}
    assert h.deck.stub == 6
    act(h, "d db " + str(CARDS[deck[0]]))
    while h.phase is Phase.BET:
        h.check_or_call(h.to_act)
    assert h.phase is Phase.SHOWDOWN
    for p in list(h.showing):
        h.show_or_muck(p, SHOW_KNOWN)
    assert h.finished and sum(h.result.finishing_stacks) == 7000


def test_six_players_never_need_a_common_card():
    with pytest.raises(AssertionError, match="no common card"):
        play_stud_checking(6)


# --- triple draw: the reshuffle (l)(6) ----------------------------------------------------------

def triple_draw_seven():
    """Seven players, each dealt five cards in order; then the first draw begins."""
    h = Hand(setup("F2L3D", [1000] * 7, blinds=(1, 2)))
    deck = [str(c) for c in CARDS]
    for p in range(7):
        act(h, f"d dh p{p + 1} " + "".join(deck[p * 5:p * 5 + 5]))
    for p in (2, 3, 4, 5, 6, 0, 1):
        act(h, f"p{p + 1} cc")
    assert h.street.draw
    return h, deck


def test_draw_from_the_discards_only_when_the_deck_runs_out_and_never_ones_own():
    """(l)(6): 17 cards left, 1 burned: three players draw five; the fourth's draw needs a reshuffle."""
    h, deck = triple_draw_seven()
    hands = [deck[p * 5:p * 5 + 5] for p in range(7)]
    act(h, "p1 sd " + "".join(hands[0]))
    assert refused(h, "d dh p1 " + "".join(deck[35:39]) + hands[1][0]).endswith("is already dealt (in p2's hand)")
    act(h, "d dh p1 " + "".join(deck[35:40]))
    act(h, "p2 sd " + "".join(hands[1]))
    assert refused(h, "d dh p2 " + "".join(deck[40:44]) + hands[0][0]) == (
        f"d dh p2 {''.join(deck[40:44])}{hands[0][0]}: {hands[0][0]} was already dealt and is in the discards; "
        "it is not in the deck")
    act(h, "d dh p2 " + "".join(deck[40:45]))
    act(h, "p3 sd " + "".join(hands[2]), "d dh p3 " + "".join(deck[45:50]))
    assert h.deck.stub == 1
    act(h, "p4 sd " + "".join(hands[3]))
    own = hands[3][0]
    msg = refused(h, "d dh p4 " + deck[50] + "".join(hands[0][:3]) + own)
    assert msg.endswith(f"{own} is the drawing player's own discard, which stays out of the reshuffle")
    act(h, "d dh p4 " + deck[50] + "".join(hands[0][:4]))
    assert h.deck.stub == 16 - 5 + 1 - 1   # 1 left + 15 reshuffled, 5 dealt


def test_discards_may_all_come_before_the_draws_as_phh_writes_them():
    h, deck = triple_draw_seven()
    hands = [deck[p * 5:p * 5 + 5] for p in range(7)]
    for p in range(7):
        act(h, f"p{p + 1} sd " + ("".join(hands[p]) if p < 4 else ""))
    act(h, "d dh p1 " + "".join(deck[35:40]), "d dh p2 " + "".join(deck[40:45]),
        "d dh p3 " + "".join(deck[45:50]))
    act(h, "d dh p4 " + deck[50] + "".join(hands[0][:4]))
    assert h.phase is Phase.BET


def test_draws_are_in_turn_from_the_first_player_after_the_button():
    h, deck = triple_draw_seven()
    assert refused(h, "p2 sd") == "p2 sd: out of turn: p1 is to draw"
    assert refused(h, "p1 sd " + deck[6]) == f"p1 sd {deck[6]}: p1 does not hold {deck[6]}"
    assert refused(h, "d dh p1 " + deck[40]) == "d dh p1 " + deck[40] + ": p1 has not yet discarded or stood pat"
