"""Irregularities of 5324.42(p) entered by the dealer: refused by name when not allowed, changing nothing."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections import Counter

import pytest

from controller.poker.actions import Action, parse_action
from controller.poker.errors import IllegalAction
from controller.poker.hand import Hand, Phase
from controller.poker.jackpot import JackpotRule, candidates
from controller.poker.kill import KillLammer, KillRule, after_hand
from controller.poker.phh import hand_to_phh, loads
from controller.poker.rake import PercentageRake
from controller.poker.replay import replay, run
from controller.poker.variants import VARIANTS
from tests.poker.poker_helpers import act, cards, new, setup, snapshot
from tests.poker.poker_play import play, random_setup

DEAL3 = "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d"


def refused(hand, text):
    """The refusal message; the hand must be exactly as it was."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as exc:
        act(hand, text)
    assert snapshot(hand) == before
    return str(exc.value)


def stacks(hand):
    return list(hand.result.finishing_stacks)


# --- misdeals (p)(1) -----------------------------------------------------------------------------

def test_misdeal_returns_every_chip_and_voids_the_hand():
    """5324.42(p)(1): all cards back for a reshuffle; the blinds and bets come back too."""
    h = new("NT", [100] * 3, DEAL3, "p3 cc", "d misdeal position")
    assert h.phase is Phase.COMPLETE and stacks(h) == [100] * 3
    assert h.result.pots == () and h.result.rake == 0
    assert "(5324.42(p)(1)(ii))" in h.result.void and not h.result.replace_deck


@pytest.mark.parametrize("cause, provision", [("position", "(ii)"), ("skipped", "(iv)")])
def test_wrong_start_or_skipped_player_is_a_misdeal_only_until_two_players_wager(cause, provision):
    """5324.42(p)(1)(ii), (iv): detected before two players voluntarily place wagers."""
    h = new("NT", [100] * 3, DEAL3, "p3 cc")          # blinds are not voluntary; one call is
    h2 = new("NT", [100] * 3, DEAL3, "p3 cc")
    act(h2, f"d misdeal {cause}")
    assert h2.result.void
    act(h, "p1 cc")
    assert refused(h, f"d misdeal {cause}") == (
        f"d misdeal {cause}: p1, p3 have put chips in voluntarily: it is too late for a misdeal "
        f"(5324.42(p)(1){provision})")


def test_a_failed_shuffle_is_a_misdeal_whenever_found():
    """5324.42(p)(1)(i)."""
    h = new("NT", [100] * 3, DEAL3, "p3 cc, p1 cc, p2 cc, d db 3s4s5d, p1 cbr 4, p2 cc, p3 cc, d db 9h",
            "d misdeal shuffle")
    assert stacks(h) == [100] * 3 and "5324.42(p)(1)(i)" in h.result.void


def test_two_cards_face_up_in_the_deck_are_a_misdeal_one_goes_to_the_discards():
    """5324.42(p)(4), (p)(1)(iii)."""
    h = new("NT", [100] * 3, DEAL3, "d faceup 7h")
    assert h.result is None and h.deck.pile[-1][0] == cards("7h")[0]
    act(h, "p3 cc, p1 cc, p2 cc")
    assert refused(h, "d db 7h8d9d").endswith("7h was already dealt and is in the discards; it is not in the deck")
    act(h, "d faceup 8h9h")
    assert "5324.42(p)(1)(iii)" in h.result.void and stacks(h) == [100] * 3
    h = new("NT", [100] * 3, DEAL3)
    assert refused(h, "d faceup As") == "d faceup As: As is already dealt (in p1's hand)"
    assert refused(h, "d faceup ??") == "d faceup ??: a card seen face up must be named"


# --- ineligible player (p)(2), off the table (p)(8) ------------------------------------------------

def test_cards_dealt_to_an_ineligible_player_are_discarded_and_the_hand_goes_on():
    """5324.42(p)(2)."""
    h = new("NT", [100] * 3, "d dh p1 AsKs, d ineligible 7h????, d dh p2 QhQd, d dh p3 2c2d")
    assert h.phase is Phase.BET and h.deck.stub == 52 - 9
    act(h, "p3 f, p1 f")
    assert stacks(h) == [99, 101, 100]


def test_a_card_dealt_off_the_table_is_not_used():
    """5324.42(p)(8)."""
    h = new("FT", [100] * 2, "d dh p1 AsKs, d dh p2 QhQd, p2 cc, p1 cc, d offtable 3s")
    assert refused(h, "d db 3s4s5d").endswith("3s was already dealt and is in the discards; it is not in the deck")
    assert refused(h, "d offtable 4s5s") == "d offtable 4s5s: one card at a time"
    act(h, "d db 4s5s6d")


# --- missing or extra cards (p)(3) --------------------------------------------------------------

def test_missing_or_extra_cards_kill_the_hand_return_every_chip_and_replace_the_deck():
    """5324.42(p)(3): even after the rake of two rounds, everything goes back."""
    s = dataclasses.replace(setup("NT", [100] * 3), rake=PercentageRake(1000))
    h = act(Hand(s), DEAL3, "p3 cbr 10, p1 cc, p2 cc, d db 3s4s5d, p1 cbr 10, p2 cc, p3 cc")
    assert sum(p.rake for p in h.pots()) == 3 + 3
    act(h, "d dead extra")
    assert stacks(h) == [100] * 3 and h.result.rake == 0 and h.result.replace_deck
    assert "(5324.42(p)(3))" in h.result.void
    assert refused(h, "d dead missing") == "d dead missing: the hand is over"


def test_a_voided_hand_leaves_the_kill_lammer_and_has_no_jackpot_hand():
    s = dataclasses.replace(setup("FO/8", [500] * 3, blinds=(2, 4), small=4, big=8))
    h = act(Hand(s), "d dh p1 2c3c4c5c, d dh p2 6c7c8c9c, d dh p3 TcJcQcKc, d misdeal skipped")
    assert after_hand(KillRule("kill", 10), KillLammer(7), h, [1, 2, 3]) == KillLammer(7)
    assert candidates(h, JackpotRule("high-hand", 1, "high-card")) == []


# --- fouled and protected hands (p)(5) -------------------------------------------------------------

def test_a_protected_hand_collected_by_the_dealer_gets_every_chip_back():
    """5324.42(p)(5)(iii): the victim, not a contributor, is refunded all monies put in the pot."""
    h = new("NT", [100] * 3, DEAL3, "p3 cbr 6, p1 cc, p3 foul refund")
    assert h.stacks[2] == 100 and not h.live[2]
    assert h.to_act == 1 and h.options().call == 4       # the live bet is p1's 6
    act(h, "p2 cc, d db 3s4s5d, p1 cc, p2 cc, d db 9h, p1 cc, p2 cc, d db Tc, p1 cc, p2 cc, p1 sm -, p2 sm -")
    assert stacks(h) == [94, 106, 100]


def test_an_unprotected_hand_has_no_redress():
    """5324.42(p)(5): the chips stay in the pot."""
    h = new("NT", [100] * 3, DEAL3, "p3 cbr 6, p1 cc, p3 foul unprotected")
    act(h, "p2 cc, d db 3s4s5d, p1 cc, p2 cc, d db 9h, p1 cc, p2 cc, d db Tc, p1 cc, p2 cc, p1 sm -, p2 sm -")
    assert stacks(h) == [94, 112, 94]


def test_stud_hole_cards_are_protected():
    """5324.42(p)(5)(i): `unprotected` is refused in stud; a contributor gets nothing back."""
    h = new("F7S", [100] * 3, "d dh p1 AsKs9h, d dh p2 QhQd2c, d dh p3 3c3d7d, p2 pb, p3 cc", antes=1)
    assert refused(h, "p1 foul unprotected").startswith(
        "p1 foul unprotected: hole cards in stud are protected (5324.42(p)(5)(i))")
    act(h, "p1 foul contributor")
    assert h.stacks[0] == 99 and not h.live[0]


def test_a_foul_before_anyone_acts_reopens_the_round_and_moves_the_bring_in():
    """The bring-in player's hand is fouled before the bring-in: the next lowest up card brings in (h)(4)."""
    h = new("F7S", [100] * 3, "d dh p1 AsKs9h, d dh p2 QhQd2c, d dh p3 3c3d7d", antes=1)
    assert h.to_act == 1
    act(h, "p2 foul refund")
    assert h.to_act == 2 and h.options().bring_in == 5 and h.stacks[1] == 100


def test_reconstructed_hand_plays_on_and_a_player_who_left_is_out():
    """5324.42(p)(5)(ii), (iv)."""
    h = new("NT", [100] * 3, DEAL3, "p3 cc")
    act(h, "p1 foul reconstructed")
    assert str(h.log[-1]) == "p1 foul reconstructed"
    assert h.live == [True, True, True] and h.stacks == [99, 98, 98] and h.to_act == 0
    act(h, "p1 left")
    assert not h.live[0] and h.to_act == 1
    act(h, "p2 cc, d db 3s4s5d, p2 cbr 2, p3 f")
    assert stacks(h) == [99, 103, 98]                    # p1's small blind stays in the pot
    assert refused(h, "p1 foul refund") == "p1 foul refund: the hand is over"


def test_a_foul_that_leaves_one_player_ends_the_hand():
    h = new("NT", [100] * 2, "d dh p1 AsKs, d dh p2 QhQd, p2 cbr 10, p1 foul unprotected")
    assert stacks(h) == [98, 102]                        # p2's uncalled raise comes back


# --- exposed hole cards in stud (p)(6)-(7) --------------------------------------------------------

def test_stud_first_hole_card_exposed_the_up_card_comes_face_down():
    """5324.42(p)(6): the third card is dealt face down; the exposed card is the one showing."""
    h = new("F7S", [100] * 3, "d dh p1 As, d expose p1 As", antes=1)
    assert h.up[0] == [True] and h.dealer_owes()["hole"][0] == (False, False)
    act(h, "d dh p1 Kd9h, d dh p2 QhQd2c, d dh p3 3c3d7d")
    assert h.up[0] == [True, False, False]
    assert h.to_act == 1                                  # 2c brings in; p1 shows the ace


def test_stud_both_hole_cards_exposed_the_hand_is_dead_and_the_ante_returned():
    """5324.42(p)(6)."""
    h = new("F7S", [100] * 3, "d dh p1 AsKd, d expose p1 As, d expose p1 Kd", antes=1)
    assert not h.live[0] and h.stacks[0] == 100 and h.antes[0] == 0
    act(h, "d dh p2 QhQd2c, d dh p3 3c3d7d")
    assert h.to_act == 1


def test_stud_exposure_after_the_up_card_is_refused():
    h = new("F7S", [100] * 3, "d dh p1 AsKd9h", antes=1)
    assert refused(h, "d expose p1 As") == (
        "d expose p1 As: p1's up card is already dealt; a hole card turned up is dealt with in the dealing, "
        "before it (5324.42(p)(6))")
    assert refused(h, "d expose p1 9h").startswith("d expose p1 9h: p1 was dealt no card face down")


SEVEN = ("d dh p1 AhKh9h, d dh p2 QhQd2c, d dh p3 3c3d7d, p2 pb, p3 cc, p1 cc",
         "d dh p1 Th, d dh p2 Jc, d dh p3 4d, p2 cc, p3 cc, p1 cc",
         "d dh p1 8h, d dh p2 Js, d dh p3 5d, p2 cc, p3 cc, p1 cc",
         "d dh p1 7h, d dh p2 2d, d dh p3 6s, p2 cc, p3 cc, p1 cc")


def test_third_hole_card_exposed_the_player_may_contend_only_for_the_pot_so_far():
    """5324.42(p)(6)(i): no further wagers; only the pot formed before them; the others bet into a side pot."""
    h = new("F7S", [100] * 3, *SEVEN, "d dh p1 Ac, d expose p1 Ac, d dh p2 Kc, d dh p3 8s", antes=1)
    assert h.phase is Phase.DEAL and h.to_act == 0
    assert refused(h, "p2 cc").startswith("p2 cc: p1 is to choose to contend for the whole pot or only the part")
    assert refused(h, "p2 contend part") == "p2 contend part: no exposed third hole card gives this player a " \
                                            "choice (5324.42(p)(6))"
    act(h, "p1 contend part")
    assert h.phase is Phase.BET and h.to_act == 1
    act(h, "p2 cbr 20, p3 cc, p2 sm -, p3 sm -, p1 sm -")
    main, side = h.result.pots
    assert (main.amount, main.awards, side.amount, side.awards) == (18, {0: 18}, 40, {2: 40})
    assert stacks(h) == [112, 74, 114]


def test_third_hole_card_exposed_the_player_may_contend_for_the_whole_pot():
    """5324.42(p)(6)(ii)."""
    h = new("F7S", [100] * 3, *SEVEN, "d dh p1 Ac, d dh p2 Kc, d dh p3 8s, d expose p1 Ac", antes=1)
    assert h.phase is Phase.DEAL and h.round is None      # the round had opened; nobody had acted
    act(h, "p1 contend all, p2 cbr 20, p3 cc, p1 cc, p2 sm -, p3 sm -, p1 sm -")
    assert stacks(h) == [152, 74, 74]                    # p1's flush takes the side pot too


def test_five_card_stud_hole_card_exposed_the_second_card_comes_face_down():
    """5324.42(p)(7)."""
    h = new("F5S", [100] * 2, "d dh p1 Ks, d expose p1 Ks, d dh p1 3d, d dh p2 2c3c", antes=1)
    assert h.up[0] == [True, False]
    assert h.to_act == 1                                  # 3c is the lowest up card


# --- exposed hole cards in hold'em and Omaha (p)(9) ------------------------------------------------

def test_holdem_exposed_card_is_exchanged_and_discarded():
    """5324.42(p)(9)(i): replaced from the top of the deck, the exposed card to the discards."""
    h = new("NT", [100] * 3, "d dh p1 AsKs, d expose p1 As")
    assert h.hole[0] == [cards("Ks")[0]] and h.dealer_owes()["hole"][0] == (False,)
    act(h, "d dh p1 Qc, d dh p2 QhQd, d dh p3 2c2d")
    assert refused(h, "d dh p3 As").startswith("d dh p3 As: the betting round is open")
    act(h, "p3 f, p1 f")
    assert stacks(h) == [99, 101, 100]


def test_holdem_exposed_card_as_the_burn_card_before_the_flop():
    """5324.42(p)(9)(ii): the flop is dealt without another burn; only one card can be that burn."""
    h = new("NT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d expose p1 As burn")
    assert refused(h, "d expose p2 Qh burn") == (
        "d expose p2 Qh burn: As is already the burn card before the flop; this one goes to the discards")
    act(h, "d expose p2 Qh, d dh p1 Jc, d dh p2 Jd, d dh p3 2c2d, p3 cc, p1 cc, p2 cc")
    stub = h.deck.stub
    act(h, "d db 3s4s5d")
    assert h.deck.stub == stub - 3                        # no burn: the ace was it


def test_an_exposure_once_the_betting_began_or_on_the_board_is_refused():
    h = new("PO", [100] * 2, "d dh p1 AsKsQsJs, d dh p2 2c2d3c3d")
    act(h, "d expose p2 3d, d dh p2 4h")                   # the round had opened; nobody had acted
    act(h, "p2 cc")
    assert refused(h, "d expose p1 As").startswith(
        "d expose p1 As: an exposed card is dealt with while the preflop is dealt, before the betting on it")
    act(h, "p1 cc, d db 9h9d9c")
    assert refused(h, "d expose p1 As").startswith("d expose p1 As: hole cards are dealt before the flop")


def test_an_exposure_in_a_draw_game_is_refused():
    h = new("F5D", [100] * 2, "d dh p1 AsKsQsJs2d")
    assert refused(h, "d expose p1 As").startswith("d expose p1 As: 5324.42(p) sets no rule for an exposed card")


# --- written, read back, replayed ---------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "d misdeal position", "d misdeal shuffle", "d dead missing", "d ineligible 7h??", "d faceup 7h",
    "d offtable 7h", "d expose p3 As", "d expose p3 As burn", "p2 foul refund", "p2 foul unprotected",
    "p2 foul contributor", "p2 foul reconstructed", "p2 left", "p1 contend part", "p1 contend all",
])
def test_irregularity_notation_reads_and_writes_the_same(text):
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["d misdeal late", "d dead gone", "p2 foul maybe", "p1 contend most",
                                  "d expose p1 As discard", "p1 left now"])
def test_bad_irregularity_notation_is_refused(text):
    from controller.poker.actions import ActionSyntaxError
    with pytest.raises(ActionSyntaxError):
        parse_action(text)


def test_a_hand_with_irregularities_is_written_and_replayed(tmp_path):
    h = new("F7S", [100] * 3, *SEVEN, "d dh p1 Ac, d expose p1 Ac, d dh p2 Kc, d dh p3 8s, p1 contend part",
            "p2 cbr 20, p3 cc, p2 sm -, p3 sm -, p1 sm -", antes=1)
    text = hand_to_phh(h)
    assert "'d expose p1 Ac'" in text.replace('"', "'") and "'p1 contend part'" in text.replace('"', "'")
    assert replay(loads(text)).result == h.result
    v = new("NT", [100] * 3, DEAL3, "d misdeal skipped")
    path = tmp_path / "void.phh"
    path.write_text(hand_to_phh(v))
    out, err = io.StringIO(), io.StringIO()
    assert run(str(path), out, err) == 0, err.getvalue()
    printed = json.loads(out.getvalue())
    assert printed["finishing_stacks"] == [100] * 3 and printed["pots"] == []
    assert "5324.42(p)(1)(iv)" in printed["void"]


# --- every irregularity at any moment: refused unchanged, or replayed the same ----------------------

def random_irregularity(hand, rng) -> Action:
    n = hand.n
    card = rng.randrange(52)
    p = rng.randrange(n)
    # a card dealt face down to the player this street: the one an exposure is about
    down = [c for k, c in enumerate(hand.hole[p]) if k >= hand.dealt_from[p] and not hand.up[p][k]]
    if down and rng.random() < 0.5:
        return Action("expose", p, (rng.choice(down),), None, rng.choice((None, "burn")))
    if rng.random() < 0.1:   # a void hand ends the play: rarely, so the others reach the later streets
        return rng.choice([
            Action("misdeal", None, None, None, rng.choice(("shuffle", "position", "faceup", "skipped"))),
            Action("dead", None, None, None, rng.choice(("missing", "extra"))),
        ])
    return rng.choice([
        Action("faceup", None, (card,)), Action("ineligible", None, (card, rng.randrange(52))),
        Action("offtable", None, (card,)),
        Action("expose", p, (rng.choice(down) if down else card,), None, rng.choice((None, "burn"))),
        Action("foul", p, None, None, rng.choice(("unprotected", "contributor", "refund", "reconstructed"))),
        Action("left", p), Action("contend", p, None, None, rng.choice(("part", "all"))),
    ])


def test_irregularities_at_random_moments_keep_every_chip_and_replay_the_same():
    checked = refusals = voids = 0
    kinds = Counter()
    for code in VARIANTS:
        for seed in range(4):
            rng = random.Random(f"irregular|{code}|{seed}")

            def maybe(hand, rng=rng, code=code, seed=seed):
                nonlocal checked, refusals, voids
                eager = hand.phase is Phase.DEAL and hand.street_index in (0, len(hand.variant.streets) - 1)
                if rng.random() > (0.4 if eager else 0.1) or hand.finished:
                    return
                action = random_irregularity(hand, rng)
                before = snapshot(hand)
                try:
                    hand.apply(action)
                except IllegalAction:
                    assert snapshot(hand) == before, action
                    refusals += 1
                    return
                checked += 1
                again = Hand.replay(hand.setup, hand.log)
                assert snapshot(again) == snapshot(hand), (code, seed, str(action))
                voids += bool(hand.result and hand.result.void)

            s = dataclasses.replace(random_setup(code, rng), rake=PercentageRake(500))
            hand = play(s, rng, before=maybe, partial_deals=True)
            result = hand.result
            total = sum(result.finishing_stacks) + result.rake + result.jackpot_drop
            assert total == sum(s.starting_stacks), (code, seed, hand.actions())
            if result.void:
                assert result.finishing_stacks == s.starting_stacks
            assert replay(loads(hand_to_phh(hand))).result == result
            kinds.update(a.kind for a in hand.log)
    assert checked > 100 and refusals > 100 and voids > 5
    # every kind of irregularity was taken somewhere
    assert {"misdeal", "dead", "faceup", "ineligible", "offtable", "expose", "foul", "left",
                                     "contend"} <= set(kinds), kinds
