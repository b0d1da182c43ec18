"""Differential tests against pokerkit's hand types, on seeded random deals.

For every evaluator, the order of every pair of hands must agree with pokerkit's
(see `order_disagreements`), and where pokerkit says no low can be formed, ours says
None. Sizes follow the issue: 100,000 7-card high hands and 20,000 Omaha hands, with
pokerkit's verdicts cached per five-card class (hands_helpers explains why, and the
first tests here check that shortcut against pokerkit's own `from_game`).
"""

from __future__ import annotations

import pytest

from controller.hands import high, low, omaha
from tests.hands.hands_helpers import (FiveCardClasses, cached_strength, from_game, oracle, order_disagreements,
                                       seeded_hands, strength)


def _agree(ours, theirs, hands):
    assert len(ours) == len(theirs) == len(hands)
    bad = order_disagreements(ours, theirs, hands)
    assert not bad, f"{len(bad)} disagreements, e.g. {bad[:3]}"


def _qualifying(ours, theirs, hands):
    """Same qualification hand by hand, then the qualifying ones in the same order."""
    differ = [h for h, a, t in zip(hands, ours, theirs, strict=True) if (a < 0) != (t is None)]
    assert not differ, f"qualification differs on {len(differ)} hands, e.g. {[' '.join(map(str, h)) for h in differ[:3]]}"
    keep = [i for i, a in enumerate(ours) if a >= 0]
    _agree([ours[i] for i in keep], [theirs[i] for i in keep], [hands[i] for i in keep])
    return len(keep)


# --- the oracle shortcut is pokerkit's from_game ---------------------------------------

@pytest.mark.parametrize("kind, n_cards, split", [
    ("StandardHighHand", 7, None), ("RegularLowHand", 7, None), ("EightOrBetterLowHand", 7, None),
    ("StandardLowHand", 5, None), ("OmahaHoldemHand", 9, 4), ("OmahaEightOrBetterLowHand", 9, 4),
])
def test_cached_oracle_is_pokerkit_from_game(kind, n_cards, split):
    hands = seeded_hands(1_500 if split is None else 300, n_cards, salt=100 + n_cards)
    classes = FiveCardClasses(kind)
    for h in hands:
        cut = 2 if split is None else split
        assert cached_strength(kind, h, split, classes) == strength(from_game(kind, h[:cut], h[cut:])), h


# --- end to end with from_game, small samples ------------------------------------------

def test_high_7_cards_agree_with_pokerkit_from_game():
    hands = seeded_hands(3_000, 7, salt=70)
    _agree(high.values(hands), [strength(from_game("StandardHighHand", h[:2], h[2:])) for h in hands], hands)


def test_omaha_agrees_with_pokerkit_from_game():
    hands = seeded_hands(600, 9, salt=90)
    _agree([omaha.high_value(h[:4], h[4:]) for h in hands],
           [strength(from_game("OmahaHoldemHand", h[:4], h[4:])) for h in hands], hands)
    _qualifying([omaha.low8_value(h[:4], h[4:]) for h in hands],
                [strength(from_game("OmahaEightOrBetterLowHand", h[:4], h[4:])) for h in hands], hands)


# --- the big samples ---------------------------------------------------------------------

def test_high_7_cards_agree_with_pokerkit_on_100000_hands():
    hands = seeded_hands(100_000, 7, salt=7)
    _agree(high.values(hands), oracle("StandardHighHand", hands), hands)


@pytest.mark.parametrize("n_cards", [5, 6])
def test_high_5_and_6_cards_agree_with_pokerkit(n_cards):
    hands = seeded_hands(20_000, n_cards, salt=n_cards)
    _agree([high.value(h) for h in hands], oracle("StandardHighHand", hands), hands)


def test_omaha_high_and_low8_agree_with_pokerkit_on_20000_hands():
    """Two hole and three board cards (5324.42(j)(6)); eight-or-better low ((j)(7))."""
    hands = seeded_hands(20_000, 9, salt=9)
    _agree([omaha.high_value(h[:4], h[4:]) for h in hands], oracle("OmahaHoldemHand", hands, split=4), hands)
    ours_low = [omaha.low8_value(h[:4], h[4:]) for h in hands]
    qualified = _qualifying(ours_low, oracle("OmahaEightOrBetterLowHand", hands, split=4), hands)
    assert 2_000 < qualified < 18_000  # both outcomes well represented in the sample


def test_a5_low_agrees_with_pokerkit_regular_low():
    """A-5 low, straights and flushes ignored (5324.42(b)(4)-(5)), best five of seven."""
    hands = seeded_hands(20_000, 7, salt=15)
    _agree([low.a5_value(h) for h in hands], oracle("RegularLowHand", hands), hands)


def test_deuce_seven_agrees_with_pokerkit_standard_low():
    """Triple-draw 2-7: ace high, straights and flushes count (5324.42(b)(4)-(5))."""
    hands = seeded_hands(50_000, 5, salt=27)
    _agree([low.deuce_seven_value(h) for h in hands], oracle("StandardLowHand", hands), hands)


def test_eight_or_better_agrees_with_pokerkit():
    """Five unpaired cards 8 or lower, ace low (5324.42(h)(10)), best of seven."""
    hands = seeded_hands(20_000, 7, salt=8)
    qualified = _qualifying([low.eight_value(h) for h in hands], oracle("EightOrBetterLowHand", hands), hands)
    assert 1_000 < qualified < 19_000
