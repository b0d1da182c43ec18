"""The games of 5324.42(g) that PHH has no code for: stud hi-lo, five-card draw, five-card stud, pineapple."""

from __future__ import annotations

import io
import json

import pytest

from controller.poker.errors import IllegalAction
from controller.poker.hand import Phase
from controller.poker.phh import hand_to_phh
from controller.poker.replay import run
from controller.poker.variants import VARIANTS, HandKind, Opener, variant_for
from tests.poker.poker_helpers import act, new


def stacks(hand):
    return list(hand.result.finishing_stacks)


def refused(hand, text):
    with pytest.raises(IllegalAction) as exc:
        act(hand, text)
    return str(exc.value)


def replay_text(text, tmp_path):
    path = tmp_path / "hand.phh"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = run(str(path), out, err)
    assert (code, err.getvalue()) == (0, "")
    return json.loads(out.getvalue())


# --- seven-card stud high-low split without a qualifier -------------------------------------

def test_stud_hi_lo_bring_in_is_the_highest_up_card_with_the_ace_below_the_two():
    """5324.42(h)(4)(iii): a king brings in before an ace; the ace ranks below the two."""
    h = new("F7S/HL", [500] * 3, "d dh p1 9c9dAs, d dh p2 3c4dKh, d dh p3 5c6d2c", antes=1)
    assert h.to_act == 1                       # Kh is the highest; As counts below 2c
    h = new("F7S/HL", [500] * 3, "d dh p1 9c9dAs, d dh p2 3c4d2d, d dh p3 5c6d2c", antes=1)
    assert h.to_act == 1                       # two deuces: diamonds above clubs
    h = new("F7S/HL", [500] * 2, "d dh p1 9c9dAs, d dh p2 3c4dAh", antes=1)
    assert h.to_act == 0                       # two aces: spades highest


def test_stud_hi_lo_later_streets_open_with_the_best_high_hand_showing():
    """5324.42(h)(6)(i)."""
    h = new("F7S/HL", [500] * 2, "d dh p1 9c9dAs, d dh p2 3c4dKh, p2 pb, p1 cc, d dh p1 2s, d dh p2 Kd",
            antes=1)
    assert h.to_act == 1                       # a pair of kings showing


def test_stud_hi_lo_splits_with_any_low_no_qualifier():
    """5324.42(h)(9)(iii): the best low takes half though it is jack-high; no eight-or-better needed."""
    deal = ("d dh p1 AsKsQs, d dh p2 9h7c6d, p1 pb, p2 cc",
            "d dh p1 Kc, d dh p2 Tc, p1 cc, p2 cc, d dh p1 Kd, d dh p2 9c, p1 cc, p2 cc",
            "d dh p1 Qd, d dh p2 9d, p1 cc, p2 cc, d dh p1 Jc, d dh p2 Jd, p1 cc, p2 cc, p1 sm -, p2 sm -")
    h = new("F7S/HL", [500] * 2, *deal, antes=1, bring_in=5)
    assert h.variant.hands == (HandKind.HIGH, HandKind.LOW_A5)
    pot = h.result.pots[0]
    assert pot.amount == 2 + 5 + 5
    # p1: kings full, and no five unpaired ranks; p2: trip nines, and J-T-9-7-6 as a low
    assert pot.awards == {0: 6, 1: 6}


def test_stud_hi_lo_one_hand_may_win_both_halves():
    """5324.42(h)(11)-(12): the same player takes high and low; the ace plays both ways."""
    deal = ("d dh p1 As2s3s, d dh p2 KhKd9c, p2 pb, p1 cc, d dh p1 4s, d dh p2 9d",
            "p2 cc, p1 cc, d dh p1 5s, d dh p2 Qc, p2 cc, p1 cc, d dh p1 Jd, d dh p2 Qd, p2 cc, p1 cc",
            "d dh p1 Jc, d dh p2 8d, p2 cc, p1 cc, p2 sm -, p1 sm -")
    h = new("F7S/HL", [500] * 2, *deal, antes=1, bring_in=5)
    assert h.result.pots[0].awards == {0: 12}


# --- five-card draw ---------------------------------------------------------------------------

def test_five_card_draw_deals_five_down_burns_and_draws_once():
    """5324.42(k)(4)-(7): five down, a round, one draw in turn from after the button, the final round."""
    v = VARIANTS["F5D"]
    assert [s.draw for s in v.streets] == [False, True] and v.streets[1].burn and v.button
    h = new("F5D", [100] * 3, "d dh p1 AsKsQsJs2d, d dh p2 QhQd2c3c4c, d dh p3 7h8h9hTh2h",
            "p3 cc, p1 cc, p2 cc")
    assert h.phase is Phase.DEAL and h.to_act == 0          # p1, first after the button, draws first
    assert refused(h, "p2 sd 2c") == "p2 sd 2c: out of turn: p1 is to draw"
    act(h, "p1 sd 2d, p2 sd 2c3c4c, p3 sd, d dh p1 Ts, d dh p2 QcKdAd")
    assert h.phase is Phase.BET and h.to_act == 0           # (k)(7) first after the button
    act(h, "p1 cbr 4, p2 cc, p3 f, p1 sm -, p2 sm -")
    assert stacks(h) == [108, 94, 98]                       # the royal flush beats three queens


def test_five_card_draw_low_is_ace_to_five_with_straights_ignored():
    """5324.42(b)(4)-(5), (k)(8)(ii): A-2-3-4-5 (a straight, suited) is the best low."""
    h = new("F5DL", [100] * 2, "d dh p1 As2s3s4s5s, d dh p2 6c4d3c2cAd, p2 cc, p1 cc",
            "p1 sd, p2 sd, p1 cc, p2 cc, p1 sm -, p2 sm -")
    assert stacks(h) == [102, 98]


def test_five_card_draw_reshuffle_takes_the_drawers_own_discards_not_the_waiting_players():
    """5324.42(k)(6)(ii): ten players leave one card; the drawer's own discards are reshuffled, not others'."""
    deck = "".join(r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in ("Ah", "As"))
    hands = [deck[i * 10:(i + 1) * 10] for i in range(10)]
    deal = ", ".join(f"d dh p{i + 1} {c}" for i, c in enumerate(hands))
    bets = ", ".join(f"p{i + 1} cc" for i in [2, 3, 4, 5, 6, 7, 8, 9, 0, 1])
    h = new("F5D", [100] * 10, deal, bets)
    # 50 dealt and the burn: one card (Ac, Ad, Ah or As) left, unknown which
    act(h, "p1 sd 2c2d, p2 sd 3h3s")
    with pytest.raises(IllegalAction, match="3h is the discard of a player not yet served"):
        act(h, "d dh p1 3hAs")
    act(h, "d dh p1 2cAs")                                   # own discard back after the reshuffle
    assert h.hole[0][-2:] == [0, 51]


# --- five-card stud -------------------------------------------------------------------------

def test_five_card_stud_deals_one_down_one_up_and_brings_in_the_lowest_up_card():
    """5324.42(m)(3)-(4): one down, one up; the lowest up card (ace high) brings in, ties by suit."""
    v = VARIANTS["F5S"]
    assert [s.hole for s in v.streets] == [(False, True), (True,), (True,), (True,)]
    assert [s.burn for s in v.streets] == [False, True, True, True]
    assert v.streets[0].opener is Opener.LOW_CARD and v.streets[1].opener is Opener.HIGH_HAND
    h = new("F5S", [100] * 3, "d dh p1 Kc3d, d dh p2 2c3c, d dh p3 AsAh", antes=1)
    assert h.to_act == 1                     # 3c below 3d
    assert h.options().bring_in == 5


def test_five_card_stud_later_rounds_open_with_the_best_hand_showing_ties_from_the_dealers_left():
    """5324.42(m)(6): the highest-ranking hand showing bets first; equal hands: the first after the dealer."""
    h = new("F5S", [100] * 3, "d dh p1 Kc3d, d dh p2 2c3c, d dh p3 As4h, p2 pb, p3 cc, p1 cc",
            "d dh p1 9h, d dh p2 9s, d dh p3 2d", antes=1)
    assert h.to_act == 0                     # 9-3 and 9-3 showing: p1 is first from the dealer's left
    act(h, "p1 cc, p2 cc, p3 cc, d dh p1 Ks, d dh p2 4s, d dh p3 2h")
    assert h.to_act == 2                     # a pair of deuces showing beats K-9-3
    assert h.round.street_min == 20          # the big bet on the last two rounds


def test_five_card_stud_plays_to_a_showdown_of_five_cards(tmp_path):
    """5324.42(m)(7) and replay of the project's code F5S."""
    h = new("F5S", [100] * 2, "d dh p1 Kc3d, d dh p2 2c3c, p2 pb, p1 cc",
            "d dh p1 9h, d dh p2 9s, p1 cc, p2 cc, d dh p1 Ks, d dh p2 3s, p2 cc, p1 cc",
            "d dh p1 Qd, d dh p2 Qs, p2 cc, p1 cc, p2 sm 2c3c9s3sQs, p1 sm Kc3d9hKsQd", antes=1)
    assert stacks(h) == [106, 94]            # kings beat threes
    out = replay_text(hand_to_phh(h), tmp_path)
    assert out["variant"] == "F5S" and out["finishing_stacks"] == [106, 94]


# --- pineapple and crazy pineapple ----------------------------------------------------------

def test_pineapple_discards_one_of_three_before_the_flop(tmp_path):
    """5324.42(n)(5)-(7), (n)(13): three down, a round, one discarded with no replacement, then the flop."""
    h = new("NPI", [100] * 3, "d dh p1 AsKsQd, d dh p2 2c2d2h, d dh p3 7h8h9c, p3 cc, p1 cc, p2 cc")
    assert h.phase is Phase.DEAL and h.to_act == 0
    assert refused(h, "d db 3s4s5d") == "d db 3s4s5d: p1 is to discard first"
    assert refused(h, "p1 dd Qd2c") == "p1 dd Qd2c: discard exactly 1 card"
    act(h, "p1 dd Qd, p2 dd 2h, p3 dd 9c, d db 3s4s5d")
    assert [len(c) for c in h.hole] == [2, 2, 2] and h.phase is Phase.BET
    act(h, "p1 cc, p2 cc, p3 cc, d db Js, p1 cc, p2 cc, p3 cc, d db Qs",
        "p1 cc, p2 cc, p3 cc, p1 sm AsKs, p2 sm 2c2d, p3 sm 7h8h")
    assert stacks(h) == [104, 98, 98]        # the ace-high flush
    text = hand_to_phh(h)
    assert "'p1 dd Qd'" in text.replace('"', "'")
    assert replay_text(text, tmp_path)["finishing_stacks"] == [104, 98, 98]


def test_crazy_pineapple_discards_after_the_flop(tmp_path):
    """5324.42(n)(9): the discard comes once the three community cards are out, before that round's bets."""
    h = new("FCP", [100] * 2, "d dh p1 AsKsQd, d dh p2 2c2d2h, p2 cc, p1 cc")
    assert h.phase is Phase.DEAL and h.to_act is None and h.owed_board == 3
    assert refused(h, "p1 dd Qd").startswith("p1 dd Qd: no discard now")
    act(h, "d db 3s4s5d")
    assert h.to_act == 0 and h.phase is Phase.DEAL
    act(h, "p1 dd Qd, p2 dd 2h")
    assert h.phase is Phase.BET
    act(h, "p1 cc, p2 cc, d db Js, p1 cc, p2 cc, d db 2s, p1 cc, p2 cc, p1 sm AsKs, p2 sm 2c2d")
    assert stacks(h) == [102, 98]            # the flush beats three deuces
    assert replay_text(hand_to_phh(h), tmp_path)["finishing_stacks"] == stacks(h)


def test_pineapple_seats_eleven_players():
    """5324.42(a)(1), (f)(2): 11 x 3 + 3 burns + 5 board cards = 41 of one deck."""
    assert VARIANTS["NPI"].max_players == VARIANTS["NCP"].max_players == 11


# --- codes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game, structure, code", [
    ("seven-card-stud-hi-lo", "fixed-limit", "F7S/HL"), ("five-card-draw", "no-limit", "N5D"),
    ("five-card-draw-low", "fixed-limit", "F5DL"), ("five-card-stud", "pot-limit", "P5S"),
    ("pineapple", "no-limit", "NPI"), ("crazy-pineapple", "pot-limit", "PCP"),
    ("texas-holdem", "no-limit", "NT"), ("seven-card-stud-low", "fixed-limit", "FR"),
])
def test_every_profile_game_has_its_code(game, structure, code):
    assert variant_for(game, structure).code == code


def test_project_codes_never_reuse_a_standard_code():
    for code, v in VARIANTS.items():
        if code in {"FT", "NT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D"}:
            assert v.standard
        else:
            assert not v.standard
