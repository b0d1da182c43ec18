"""Low hands: A-5 (5324.42(b)(4)-(5)), deuce-to-seven (triple draw), eight or better ((h)(10), (j)(7))."""

from __future__ import annotations

from itertools import combinations

import pytest

from controller.hands import HandError, high, low
from tests.hands.hands_helpers import cards, seeded_hands


def a5(text):
    return low.a5(cards(text))


def d7(text):
    return low.deuce_seven(cards(text))


def e8(text):
    return low.eight_or_better(cards(text))


# --- A-5 -----------------------------------------------------------------------------------

def test_a5_best_and_worst():
    assert a5("5c 4d 3h 2s Ac").value == low.A5_CLASSES - 1 == 6174
    assert a5("5c 4d 3h 2s Ac").name == "5-4-3-2-A"
    assert a5("Kc Kd Kh Ks Qc").value == 0
    assert a5("Kc Kd Kh Ks Qc").name == "K-K-K-K-Q four-of-a-kind"


def test_a5_ignores_straights_and_flushes():
    """5324.42(b)(5): straights and flushes are not considered in low poker but 2-7."""
    assert a5("Ac 2c 3c 4c 5c").value == a5("Ad 2c 3h 4s 5c").value == 6174
    assert a5("6h 5h 4h 3h 2h").value > a5("7c 4d 3h 2s Ac").value  # 6-high beats 7-high


def test_a5_ace_is_the_lowest_card():
    """5324.42(b)(4): in low poker the ace ranks below the 2."""
    assert a5("6c 4d 3h 2s Ac").value > a5("6c 4d 3h 2s 5c").value  # 6-4-3-2-A beats 6-5-4-3-2
    assert a5("Kc Qd Jh Ts Ac").value > a5("Kc Qd Jh Ts 2c").value


def test_a5_pairs_count_against():
    assert a5("Kc Qd Jh Ts 9c").value > a5("Ac Ad 2h 3s 4c").value  # any unpaired beats any pair
    assert a5("Ac Ad 2h 3s 4c").value > a5("2c 2d Ah 3s 4c").value  # the lower pair is the better low
    assert a5("Ac Ad 2h 3s 4c").name == "A-A-4-3-2 pair"
    assert a5("2c 2d 3h 3s 4c").value < a5("Kc Kd Qh Js Tc").value  # two pair is worse than a pair
    assert a5("9c 9d 4h Ks Ac").name == "9-9-K-4-A pair"


def test_a5_inverse_of_high_for_unpaired_hands():
    """5324.42(b)(5): the ranking is the inverse of the high one, here highest card first."""
    assert a5("8c 6d 4h 2s Ac").value > a5("8c 6d 5h 2s Ac").value > a5("8c 7d 4h 2s Ac").value
    assert a5("8c 6d 4h 2s Ac").value > a5("9c 3d 4h 2s Ac").value


def test_a5_best_five_of_seven():
    hv = a5("8c 6d 4h 2s Ac 9c Kd")
    assert hv.name == "8-6-4-2-A"
    assert hv.cards == tuple(cards("8c 6d 4h 2s Ac"))
    # Only four ranks: the best low is the lowest pair (aces, 5324.42(b)(4)) with 4-3-2.
    hv = a5("Ac Ad 2c 2d 3c 3d 4h")
    assert hv.name == "A-A-4-3-2 pair"
    assert hv.value == max(low.a5_value(f) for f in combinations(cards("Ac Ad 2c 2d 3c 3d 4h"), 5))


def test_a5_of_more_cards_is_the_best_five():
    for n in (6, 7):
        for hand in seeded_hands(1_500, n, salt=500 + n):
            hv = low.a5(hand)
            assert hv.value == max(low.a5_value(f) for f in combinations(hand, 5)) == low.a5_value(hand)
            assert low.a5_value(hv.cards) == hv.value and set(hv.cards) <= set(hand)


@pytest.mark.parametrize("bad, words", [
    ("Ac 2d 3h 4s", "needs 5 or 6 or 7 cards, got 4"),
    ("Ac 2d 3h 4s Ac", "Ac appears twice"),
])
def test_a5_refuses_bad_hands(bad, words):
    with pytest.raises(HandError) as err:
        low.a5(bad.split())
    assert words in str(err.value)
    with pytest.raises(HandError):
        low.a5_category(6175)


# --- deuce to seven ------------------------------------------------------------------------

def test_deuce_seven_best_is_seven_five_unsuited():
    assert d7("7c 5d 4h 3s 2c").value == low.DEUCE_SEVEN_CLASSES - 1 == 7461
    assert d7("7c 5d 4h 3s 2c").name == "7-5-4-3-2"
    assert d7("7c 6d 4h 3s 2c").value < d7("7c 5d 4h 3s 2c").value
    assert d7("8c 5d 4h 3s 2c").value < d7("7c 6d 5h 4s 2c").value


def test_deuce_seven_ace_is_always_high():
    """5324.42(b)(4): in triple draw deuce to seven the ace ranks above the king."""
    assert d7("Ac 5d 4h 3s 2c").name == "A-5-4-3-2"                   # no wheel: ace high
    assert d7("Ac 5d 4h 3s 2c").value < d7("Kc Qd Jh 9s 8c").value   # worse than any king high
    assert d7("Ac Kd Qh Js Tc").name == "A-K-Q-J-T straight"          # ... yet A-K-Q-J-10 is a straight


def test_deuce_seven_straights_and_flushes_count_against():
    """5324.42(b)(5): in triple draw, straights and flushes are considered."""
    assert d7("6c 5d 4h 3s 2c").name == "6-5-4-3-2 straight"
    assert d7("6c 5d 4h 3s 2c").value < d7("Ac Kd Qh Js 9c").value    # a straight is worse than ace high
    assert d7("7c 5c 4c 3c 2c").name == "7-5-4-3-2 flush"
    assert d7("7c 5c 4c 3c 2c").value < d7("Ac Ad Kh Ks Qc").value    # ... and than two pair
    assert d7("7c 5c 4c 3c 2c").value < d7("6c 5d 4h 3s 2c").value    # a flush is worse than a straight
    assert d7("6h 5h 4h 3h 2h").name == "6-5-4-3-2 straight-flush"
    assert d7("2c 2d 7h 5s 3c").name == "2-2-7-5-3 pair"
    assert d7("As Ks Qs Js Ts").value == 0


@pytest.mark.parametrize("bad", ["7c 5d 4h 3s", "7c 5d 4h 3s 2c 8d", "7c 5d 4h 3s 7c"])
def test_deuce_seven_takes_exactly_five_distinct_cards(bad):
    with pytest.raises(HandError):
        low.deuce_seven(bad.split())
    with pytest.raises(HandError):
        low.deuce_seven_value(bad.split())


# --- eight or better ---------------------------------------------------------------------

def test_eight_or_better_qualifies_five_unpaired_eight_or_lower():
    """5324.42(h)(10): a winning low may not contain any pair or a 9, 10, jack, queen or king."""
    assert e8("8c 7d 6h 4s 2c").name == "8-7-6-4-2"
    assert e8("8c 7d 6h 4s Ac").name == "8-7-6-4-A"
    assert e8("9c 7d 6h 4s 2c") is None         # a 9
    assert e8("Kc 7d 6h 4s 2c") is None         # a king
    assert e8("7c 7d 6h 4s 2c") is None         # a pair
    assert e8("Ac 2c 3c 4c 5c").value == low.A5_CLASSES - 1  # (j)(7): straights and flushes do not count


def test_eight_or_better_best_of_seven():
    hv = e8("Kc Kd 8h 7s 6c 2d Ac")
    assert hv.name == "8-7-6-2-A" and set(hv.cards) == set(cards("8h 7s 6c 2d Ac"))
    assert e8("8c 8d 8h 7s 7c 2d Ac") is None   # only four distinct low ranks
    hv = e8("Ac Ad 2c 2d 3h 4s 5h")              # pairs do not spoil a low made without them
    assert hv.name == "5-4-3-2-A" and hv.value == a5("5h 4s 3h 2c Ac").value


def test_eight_or_better_value_is_the_a5_value():
    for hand in seeded_hands(3_000, 7, salt=808):
        hv = low.eight_or_better(hand)
        best = max((low.a5_value(f) for f in combinations(hand, 5)
                    if len({c.rank for c in f}) == 5 and all(c.rank <= 6 or c.rank == 12 for c in f)),
                   default=None)
        assert (hv.value if hv else None) == best
        if hv:
            assert low.a5_value(hv.cards) == hv.value and set(hv.cards) <= set(hand)


def test_eight_or_better_refuses_bad_hands():
    with pytest.raises(HandError):
        low.eight_or_better("8c 7d 6h 4s".split())
    with pytest.raises(HandError):
        low.eight_value(["8c", "7d", "6h", "4s", "2c"])


def test_low_values_and_high_values_are_separate_scales():
    """The same five cards: best A-5 low, and near the bottom of the high ranking."""
    five = cards("5c 4d 3h 2s Ac")
    assert high.category(high.value(five)) == "straight"
    assert low.a5_value(five) == 6174


def test_a5_first_use_of_seven_cards_in_a_fresh_process():
    """The 6- and 7-card A-5 tables grow on first use; the first answer must already be right."""
    import subprocess
    import sys

    first = "8c 6d 4h 2s Ac 9c Kd"
    code = (
        "from controller.hands import low; from controller.cards import parse_cards as p; "
        f"print(low.a5_value(p({first.split()!r})), low.a5_value(p({first.split()[:6]!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert [int(x) for x in out] == [a5(first).value, a5(" ".join(first.split()[:6])).value] == [6147, 6147]
