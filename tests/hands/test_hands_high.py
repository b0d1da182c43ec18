"""High hands of 5324.42(b)(2)-(3) and 5324.37(b): the regulation's named examples, 6 and 7 cards, errors."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from controller.cards import CARDS
from controller.hands import HandError, HandValue, high
from tests.hands.hands_helpers import cards, seeded_hands


def v(text: str) -> int:
    return high.value(cards(text))


def name(text: str) -> str:
    return high.evaluate(cards(text)).name


# --- the examples named in 5324.42(b)(2) and 5324.37(b)(2) ------------------------------

def test_named_examples_of_each_category():
    assert name("As Ks Qs Js Ts") == "royal-flush"                     # (b)(2)(i)
    assert name("Kh Qh Jh Th 9h") == "straight-flush"                  # (b)(2)(ii) highest
    assert name("Ad 2d 3d 4d 5d") == "straight-flush"                  # (b)(2)(ii) lowest
    assert name("Ac Ad Ah As 2c") == "four-of-a-kind"                  # (b)(2)(iii)
    assert name("Ac Ad Ah Kc Kd") == "full-house"                      # (b)(2)(iv)
    assert name("2c 7c 9c Jc Kc") == "flush"                           # (b)(2)(v)
    assert name("Ac Kd Qh Js Tc") == "straight"                        # (b)(2)(vi) highest
    assert name("Ac 2d 3h 4s 5c") == "straight"                        # (b)(2)(vi) lowest
    assert name("Ac Ad Ah 7c 2d") == "three-of-a-kind"                 # (b)(2)(vii)
    assert name("Ac Ad Kh Ks 2d") == "two-pair"                        # (b)(2)(viii)
    assert name("Ac Ad 9h 7s 2d") == "pair"                            # (b)(2)(ix)
    assert name("Ac Qd 9h 7s 2d") == "high-card"
    assert [high.category(v(t)) for t in (
        "As Ks Qs Js Ts", "Kh Qh Jh Th 9h", "Ac Ad Ah As 2c", "Ac Ad Ah Kc Kd", "2c 7c 9c Jc Kc",
        "Ac Kd Qh Js Tc", "Ac Ad Ah 7c 2d", "Ac Ad Kh Ks 2d", "Ac Ad 9h 7s 2d", "Ac Qd 9h 7s 2d",
    )] == list(high.NAMES)


def test_categories_rank_in_the_order_listed():
    """5324.42(b)(2): each category beats every hand of the categories after it."""
    worst_of = ["Ts Js Qs Ks As", "2h 3h 4h 5h Ah", "2c 2d 2h 2s 3c", "2c 2d 2h 3c 3d", "2c 3c 4c 5c 7c",
                "Ac 2d 3h 4s 5c", "2c 2d 2h 3c 4d", "2c 2d 3h 3s 4d", "2c 2d 3h 4s 5d", "2c 3d 4h 5s 7c"]
    best_of = ["As Ks Qs Js Ts", "Ks Qs Js Ts 9s", "Ac Ad Ah As Kc", "Ac Ad Ah Kc Kd", "Ac Kc Qc Jc 9c",
               "Ac Kd Qh Js Tc", "Ac Ad Ah Kc Qd", "Ac Ad Kh Ks Qd", "Ac Ad Kh Qs Jd", "Ac Kd Qh Js 9c"]
    for higher_worst, lower_best in zip(worst_of, best_of[1:], strict=False):
        assert v(higher_worst) > v(lower_best), (higher_worst, lower_best)


@pytest.mark.parametrize("higher, lower", [
    ("Kh Qh Jh Th 9h", "Qd Jd Td 9d 8d"),   # (b)(2)(ii) K-high is the highest straight flush
    ("6s 5s 4s 3s 2s", "5d 4d 3d 2d Ad"),   # ... and A-2-3-4-5 the lowest
    ("Ac Ad Ah As 2c", "Kc Kd Kh Ks Qc"),   # (iii) four aces highest
    ("3c 3d 3h 3s 2c", "2c 2d 2h 2s Ac"),   # ... four 2s lowest
    ("Ac Ad Ah Kc Kd", "Ac Ad Ah Qc Qd"),   # (iv) three aces and two kings highest
    ("2c 2d 2h 4c 4d", "2c 2d 2h 3c 3d"),   # ... three 2s and two 3s lowest
    ("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c"),   # (vi) A-K-Q-J-10 highest straight
    ("6c 5d 4h 3s 2c", "5c 4d 3h 2s Ac"),   # ... A-2-3-4-5 lowest
    ("Ac Ad Ah 3c 2d", "Kc Kd Kh Ac Qd"),   # (vii)
    ("Ac Ad Kh Ks 2d", "Ac Ad Qh Qs Kd"),   # (viii) aces and kings highest two pairs
    ("4c 4d 2h 2s 3d", "3c 3d 2h 2s Ad"),   # ... 3s and 2s lowest
    ("Ac Ad 3h 4s 2d", "Kc Kd Ah Qs Jd"),   # (ix)
    ("Ac Kd 9h 5s 3c", "Ad Kc 9s 5h 2c"),   # (b)(3) the highest card not in the other hand
    ("Ac Ad 9h 5s 3c", "As Ah 9s 5h 2c"),   # (b)(3) among kickers too
    ("2c 2d 2h 3c 3d", "Ac Kc Qc Jc 9c"),   # a full house beats a flush
])
def test_higher_beats_lower(higher, lower):
    assert v(higher) > v(lower)


def test_identical_ranks_tie_whatever_the_suits():
    """5324.42(b)(3): identical after (b)(3) is a tie (a push, 5324.37(b)(3)); suits do not rank hands."""
    assert v("Ac Kd 9h 5s 3c") == v("Ad Kh 9s 5c 3d")
    assert v("Ac Ad 9h 9s 3c") == v("Ah As 9c 9d 3s")
    assert v("Ac Kc Qc Jc 9c") == v("Ad Kd Qd Jd 9d")


def test_no_straight_wraps_round_the_ace():
    """5324.37(b)(1), 5324.42(b)(2)(vi): the ace completes 10-J-Q-K or 2-3-4-5 only."""
    for text in ("Qc Kd Ah 2s 3c", "Kc Ad 2h 3s 4c", "Jc Qd Kh As 2c"):
        assert name(text) == "high-card", text
    assert name("Qc Kd Ah 2c 3c 4d 5h") == "straight"  # but the 2-3-4-5 with the ace is
    assert high.evaluate(cards("Qc Kd Ah 2c 3c 4d 5h")).cards == tuple(cards("5h 4d 3c 2c Ah"))


def test_values_are_dense_and_royal_is_top():
    assert high.CLASSES == 7462
    assert v("As Ks Qs Js Ts") == v("Ah Kh Qh Jh Th") == high.ROYAL_FLUSH == 7461
    assert v("7c 5d 4h 3s 2c") == 0  # the lowest high hand


# --- 6 and 7 cards -------------------------------------------------------------------------

@pytest.mark.parametrize("text, expect_name, expect_five", [
    ("As Ks Qs Js Ts 9s", "royal-flush", "As Ks Qs Js Ts"),
    ("9s Ks Qs Js Ts 2d", "straight-flush", "Ks Qs Js Ts 9s"),
    ("2c 2d 2h 2s 3c 3d", "four-of-a-kind", "2s 2h 2d 2c 3d"),
    ("8c 8d 8h 5s 5c 5d", "full-house", "8h 8d 8c 5s 5d"),  # two trips: the higher plays as three
    ("Ac Ad Kh Ks Qd Qc", "two-pair", "Ad Ac Ks Kh Qd"),    # three pairs: the lowest pair is a kicker
    ("4c 7c 9c Jc Kc 2c", "flush", "Kc Jc 9c 7c 4c"),       # six suited: the best five
    ("Ac 2d 3h 4s 5c 6d", "straight", "6d 5c 4s 3h 2d"),    # 6-high beats the wheel
    ("7c 5d 4h 3s 2c 9d", "high-card", "9d 7c 5d 4h 3s"),
])
def test_six_cards_best_five(text, expect_name, expect_five):
    hv = high.evaluate(cards(text))
    assert hv.name == expect_name
    # Where two fives tie (a 3 of clubs or of diamonds as kicker) either may be given: compare ranks.
    assert [c.rank_char for c in hv.cards] == [c.rank_char for c in cards(expect_five)]
    assert set(hv.cards) <= set(cards(text))
    assert hv.value == high.value5(hv.cards)


def test_seven_cards_flush_over_straight_and_full_house_over_flush():
    assert name("2h 5h 9h Jh Kh Tc Qd") == "flush"          # K-high flush beats the 9-K straight
    assert name("2h 5h 9h Jh 9c 9d 2c") == "full-house"     # nines full beats the heart flush
    assert name("Ac Kc Qc Jc Td 9c 8c") == "flush"          # A-K-Q-J-9 clubs beats A-high straight
    assert name("Ac Kc Qc Jc Tc 9c 8c") == "royal-flush"


def test_best_of_more_cards_is_the_best_five_subset():
    """On seeded 6- and 7-card deals: value = best of the five-card values, cards one such five."""
    for n in (6, 7):
        for hand in seeded_hands(3_000, n, salt=300 + n):
            best = max(high.value5(five) for five in combinations(hand, 5))
            hv = high.evaluate(hand)
            assert hv.value == best == high.value(hand)
            assert set(hv.cards) <= set(hand) and len(set(hv.cards)) == 5
            assert high.value5(hv.cards) == best
            assert hv.name == high.category(best)


def test_values_batch_equals_value():
    hands = seeded_hands(2_000, 7, salt=33) + seeded_hands(500, 5, salt=34) + seeded_hands(500, 6, salt=35)
    random.Random(3).shuffle(hands)
    assert high.values(hands) == [high.value(h) for h in hands]
    assert high.values(iter(hands[:10])) == [high.value(h) for h in hands[:10]]


def test_evaluate_accepts_cards_ints_and_tokens_alike():
    hv = high.evaluate(["As", "Ks", "Qs", "Js", "Ts"])
    assert isinstance(hv, HandValue)
    assert hv == high.evaluate(cards("As Ks Qs Js Ts")) == high.evaluate([51, 47, 43, 39, 35])
    assert all(type(c) is type(CARDS[0]) for c in hv.cards)


# --- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("bad, words", [
    (["As", "Ks", "Qs", "Js"], "needs 5 or 6 or 7 cards, got 4"),
    (["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"], "got 8"),
    (["As", "As", "Qs", "Js", "Ts"], "As appears twice"),
    (["As", "10s", "Qs", "Js", "Ts"], "card [1]: '10s' is not a card"),
    ([51, 47, 43, 39, 52], "card [4] 52 is not a card"),
    ([51, 47, 43, 39, True], "card [4] True is not a card"),
    ("AsKsQsJsTs", "expected a list of cards"),
    (None, "expected a list of cards"),
])
def test_evaluate_refuses_bad_hands_by_name(bad, words):
    with pytest.raises(HandError) as err:
        high.evaluate(bad)
    assert words in str(err.value)


@pytest.mark.parametrize("bad, words", [
    (["As", "Ks", "Qs", "Js", "Ts"], "take Card ints 0..51, not 'As'"),
    ([51, 47, 43, 39], "got 4"),
    ([51, 47, 43, 39, -1], "card [4] -1 is not a card"),
    ([51, 47, 43, 39, 60, 2, 3], "card [4] 60 is not a card"),
])
def test_value_fast_path_still_says_what_is_wrong(bad, words):
    with pytest.raises(HandError) as err:
        high.value(bad)
    assert words in str(err.value)
    with pytest.raises(HandError):
        high.values([cards("As Ks Qs Js Ts"), bad])


@pytest.mark.parametrize("bad", [-1, 7462, 1.5, True, "7"])
def test_category_refuses_a_non_value(bad):
    with pytest.raises(HandError):
        high.category(bad)


@pytest.mark.parametrize("first", [
    "2c 5c 9c Jc Kc Ac",          # six suited before any 6/7-card table exists
    "2c 5c 9c Jc Kc Ac 3d",       # seven with a flush
    "2c 5c 9c Jc Kd Ah 3d",       # seven without
    "2c 3c 4c 5c 6c 7c 8c",       # seven suited: straight flush
])
def test_first_use_of_six_and_seven_cards_in_a_fresh_process(first):
    """The 6- and 7-card tables grow on first use; whatever comes first must already be right."""
    import subprocess
    import sys

    code = (
        "from controller.hands import high; from controller.cards import parse_cards as p; "
        f"print(high.value(p({first.split()!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(out) == max(high.value5(f) for f in combinations(cards(first), 5))
