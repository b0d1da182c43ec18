"""The hand as a live table uses it: whose turn, what they may do, what is owed, rebuilt from its actions."""

from __future__ import annotations

import random

import pytest

from controller.cards import CARDS
from controller.poker.actions import Action, parse_action
from controller.poker.errors import IllegalAction, SetupError
from controller.poker.hand import Hand, IncompleteHand, Phase
from controller.poker.variants import VARIANTS
from tests.poker.poker_helpers import act, new, setup, snapshot
from tests.poker.poker_play import play, random_setup


def test_a_hand_posts_antes_and_blinds_and_says_what_the_dealer_owes():
    h = Hand(setup("NT", [100, 100, 1, 100], blinds=(1, 2), antes=1))
    assert h.stacks == [98, 97, 0, 99]          # p3 is all-in with the ante (c)(3)(iv)
    assert h.bets == [1, 2, 0, 0]
    assert h.phase is Phase.DEAL and h.to_act is None
    assert h.dealer_owes() == {"hole": {0: (False, False), 1: (False, False), 2: (False, False),
                                        3: (False, False)}, "board": 0}
    act(h, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, d dh p4 7h8h")
    assert h.phase is Phase.BET and h.to_act == 3   # p3 is all-in: p4 acts after the big blind
    o = h.options()
    assert (o.player, o.fold, o.check, o.call, o.raise_word, o.raise_min, o.raise_max) == \
        (3, True, False, 2, "raise", 4, 99)
    assert [(p.amount, p.eligible) for p in h.pots()] == [(4, (0, 1, 2, 3))]


def test_stud_deals_two_down_one_up_and_the_up_card_is_seen():
    h = Hand(setup("F7S", [100] * 2, antes=1, bring_in=5, small=10))
    assert h.dealer_owes()["hole"] == {0: (False, False, True), 1: (False, False, True)}
    act(h, "d dh p1 AsKs, d dh p1 9h")
    assert h.up[0] == [False, False, True]
    assert h.dealer_owes()["hole"] == {1: (False, False, True)}


def test_showdown_lists_who_may_show_from_the_last_aggressor():
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 cc, p1 cc, p2 cc",
            "d db 3s4s5d, p1 cc, p2 cbr 4, p3 cc, p1 cc, d db 9h, p1 cc, p2 cc, p3 cc",
            "d db Tc, p1 cc, p2 cc, p3 cbr 10, p1 f, p2 cc")
    assert h.phase is Phase.SHOWDOWN and h.showing == [2, 1]
    with pytest.raises(IllegalAction, match="p1 sm AsKs: p1 is out of the hand"):
        act(h, "p1 sm AsKs")
    act(h, "p2 sm QhQd")
    assert h.to_act == 2


def test_an_all_in_before_the_river_lets_hands_be_shown_before_the_cards_run():
    h = new("NT", [20, 20], "d dh p1 AsKs, d dh p2 QhQd, p2 cbr 20, p1 cc")
    assert h.phase is Phase.DEAL and h.showing == [1, 0]
    act(h, "p1 sm AsKs")
    act(h, "d db 3s4s5d")           # the flop ends that showing; p2 may show again before the turn
    assert h.showing == [1]
    act(h, "d db 9h")
    assert h.showing == [1]
    act(h, "d db Tc")
    assert h.phase is Phase.SHOWDOWN and h.showing == [1]
    with pytest.raises(IllegalAction, match="p1 has no card face down to show"):
        act(h, "p1 sm AsKs")
    act(h, "p2 sm QhQd")
    assert h.result.finishing_stacks == (0, 40)


def test_finish_turns_up_known_hands_and_refuses_an_unfinished_hand():
    h = new("NT", [100] * 2, "d dh p1 AsKs, d dh p2 ????, p2 cc, p1 cc",
            "d db 3s4s5d, p1 cc, p2 cc, d db 9h, p1 cc, p2 cc")
    with pytest.raises(IncompleteHand, match="the hand is not over: the dealer still owes 1 board card on the river"):
        h.finish()
    act(h, "d db Tc, p1 cc, p2 cc")
    h.finish()                       # p2's cards were never seen: p2 cannot win; p1's are turned up
    assert h.result.finishing_stacks == (102, 98)


def test_finish_refuses_when_no_hand_can_be_read_for_a_contested_pot():
    h = new("NT", [100] * 2, "d dh p1 ????, d dh p2 ????, p2 cc, p1 cc",
            "d db 3s4s5d, p1 cc, p2 cc, d db 9h, p1 cc, p2 cc, d db Tc, p1 cc, p2 cc")
    with pytest.raises(IncompleteHand, match="p1, p2 must show their cards"):
        h.finish()


def test_setup_refusals_name_the_field_and_provision():
    v = VARIANTS["F2L3D"]
    with pytest.raises(SetupError, match=r"starting_stacks: 8 players; limit deuce-to-seven triple draw seats at "
                                         r"most 7 \(5324.42\(l\)\)"):
        setup("F2L3D", [10] * 8)
    with pytest.raises(SetupError, match=r"starting_stacks: 1 player\(s\); poker needs at least 2"):
        setup("NT", [10])
    with pytest.raises(SetupError, match="antes: no ante, blind or bring-in"):
        setup("NT", [10, 10], blinds=(0, 0), small=2)
    with pytest.raises(SetupError, match="blinds_or_straddles: limit seven-card stud has a bring-in, not blinds"):
        from controller.poker.hand import HandSetup
        HandSetup(VARIANTS["F7S"], (10, 10), (1, 1), (1, 2), 1, 2, 4)
    assert v.max_players == 7


def test_rebuilt_from_its_actions_a_hand_is_the_same_and_refusals_change_nothing():
    """A hand is its set-up and its actions; a refused action leaves every field as it was."""
    rng = random.Random(42)
    junk_cards = [None] + list(range(52))

    def probe(hand):
        rebuilt = Hand.replay(hand.setup, hand.log)
        assert snapshot(rebuilt) == snapshot(hand)
        before = snapshot(rebuilt)
        n = hand.n
        tries = [
            Action("cc", rng.randrange(n)), Action("f", rng.randrange(n)), Action("pb", rng.randrange(n)),
            Action("cbr", rng.randrange(n), None, rng.randint(0, 400)),
            Action("dh", rng.randrange(n), tuple(rng.choice(junk_cards) for _ in range(rng.randint(1, 3)))),
            Action("db", None, tuple(rng.choice(junk_cards) for _ in range(rng.randint(1, 3)))),
            Action("sd", rng.randrange(n), tuple(rng.sample(range(52), rng.randint(0, 2)))),
            Action("sm", rng.randrange(n), rng.choice([None, "-", tuple(rng.sample(range(52), 2))])),
        ]
        for action in tries:
            copy = Hand.replay(hand.setup, hand.log)
            try:
                copy.apply(action)
            except IllegalAction as exc:
                assert snapshot(copy) == before, (str(exc), action)
                assert str(exc).startswith(str(action).split(" ")[0])

    for code in VARIANTS:
        for seed in range(3):
            r = random.Random(f"probe|{code}|{seed}")
            play(random_setup(code, r), r, before=probe)


def test_actions_as_text_rebuild_the_hand():
    rng = random.Random(7)
    hand = play(random_setup("F7S/8", rng, players=5), rng)
    again = Hand.replay(hand.setup, [parse_action(a) for a in hand.actions()])
    assert again.result == hand.result


def test_unknown_action_kind_is_refused():
    h = Hand(setup("NT", [10, 10]))
    with pytest.raises(IllegalAction, match="not an action of a poker hand"):
        h.apply(Action("zz", 0))


def test_card_ints_and_card_objects_are_the_same_cards():
    h = Hand(setup("NT", [10, 10]))
    h.deal_hole(0, (CARDS[0], CARDS[1]))
    with pytest.raises(IllegalAction, match="2c is already dealt"):
        h.deal_hole(1, (0, 5))


def test_with_straddle_posts_twice_the_big_blind_after_it():
    """5324.42(c)(11)."""
    s = setup("NT", [100] * 4, blinds=(1, 2)).with_straddle()
    assert s.blinds == (1, 2, 4, 0)
    h = Hand(s)
    assert h.bets == [1, 2, 4, 0] and h.stacks == [99, 98, 96, 100]
    with pytest.raises(SetupError, match="no player follows the big blind"):
        setup("NT", [100] * 2).with_straddle()
    with pytest.raises(SetupError, match="has no blinds to straddle"):
        setup("F7S", [100] * 3, antes=1).with_straddle()


def test_a_hand_in_progress_is_written_and_restored():
    from controller.poker.phh import hand_from_phh, hand_to_phh

    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 cbr 6, p1 cc")
    text = hand_to_phh(h)
    assert "finishing_stacks" not in text
    again = hand_from_phh(text)
    assert snapshot(again) == snapshot(h) and again.to_act == 1
