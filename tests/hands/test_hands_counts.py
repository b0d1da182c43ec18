"""Every one of the 2,598,960 five-card hands, counted by class and category.

The textbook counts (e.g. 4 royal flushes, 1,302,540 high-card hands) and the numbers of
distinct classes (7,462 high, 6,175 A-5, 7,462 deuce-to-seven, 56 eight-or-better) are
facts of the deck; an evaluator that misranks any class, or merges or splits two, moves them.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from controller.cards import CARDS
from controller.hands import high, low

TOTAL = 2_598_960


@pytest.fixture(scope="module")
def all_fives():
    return list(combinations(CARDS, 5))


def _by_category(values: Counter, category) -> Counter:
    out: Counter = Counter()
    for v, n in values.items():
        out[category(v)] += n
    return out


def _classes_by_category(values: Counter, category) -> Counter:
    return Counter(category(v) for v in values)


def test_high_category_counts_and_7462_classes(all_fives):
    """5324.42(b)(2), 5324.37(b)(2): A-2-3-4-5 is a straight (and a straight flush), no other wrap."""
    values = Counter(map(high.value, all_fives))
    assert sum(values.values()) == TOTAL
    assert len(values) == 7462 == high.CLASSES
    assert min(values) == 0 and max(values) == high.ROYAL_FLUSH
    assert _by_category(values, high.category) == {
        "royal-flush": 4, "straight-flush": 36, "four-of-a-kind": 624, "full-house": 3_744,
        "flush": 5_108, "straight": 10_200, "three-of-a-kind": 54_912, "two-pair": 123_552,
        "pair": 1_098_240, "high-card": 1_302_540,
    }
    assert _classes_by_category(values, high.category) == {
        "royal-flush": 1, "straight-flush": 9, "four-of-a-kind": 156, "full-house": 156, "flush": 1_277,
        "straight": 10, "three-of-a-kind": 858, "two-pair": 858, "pair": 2_860, "high-card": 1_277,
    }
    # Values are dense: the classes are exactly 0..7461, and categories occupy contiguous bands.
    bands = [high.category_index(v) for v in range(high.CLASSES)]
    assert bands == sorted(bands)


def test_a5_low_6175_classes(all_fives):
    """5324.42(b)(4)-(5): straights and flushes do not count, so every rank multiset is one class."""
    values = Counter(map(low.a5_value, all_fives))
    assert len(values) == 6_175 == low.A5_CLASSES
    assert _by_category(values, low.a5_category) == {
        # no pair = high card + flush + straight + straight flush + royal of the high counts
        "high-card": 1_302_540 + 5_108 + 10_200 + 36 + 4,
        "pair": 1_098_240, "two-pair": 123_552, "three-of-a-kind": 54_912,
        "full-house": 3_744, "four-of-a-kind": 624,
    }


def test_deuce_seven_7462_classes(all_fives):
    """Triple draw 2-7: ace high only, so A-2-3-4-5 is no straight: its 1,020 unsuited hands are
    ace-high and its 4 suited ones plain flushes; straights and flushes count (5324.42(b)(5))."""
    values = Counter(map(low.deuce_seven_value, all_fives))
    assert len(values) == 7_462 == low.DEUCE_SEVEN_CLASSES
    assert _by_category(values, low.deuce_seven_category) == {
        "straight-flush": 36 + 4 - 4, "four-of-a-kind": 624, "full-house": 3_744, "flush": 5_108 + 4,
        "straight": 10_200 - 1_020, "three-of-a-kind": 54_912, "two-pair": 123_552,
        "pair": 1_098_240, "high-card": 1_302_540 + 1_020,
    }
    best = max(values)
    assert low.deuce_seven(["7c", "5d", "4h", "3s", "2c"]).value == best


def test_eight_or_better_56_classes(all_fives):
    """5324.42(h)(10): five unpaired cards 8 or lower; C(8,5) = 56 rank sets, 4^5 suitings each."""
    values = Counter(map(low.eight_value, all_fives))
    qualifying = {v: n for v, n in values.items() if v >= 0}
    assert len(qualifying) == 56 == low.EIGHT_OR_BETTER_CLASSES
    assert sum(qualifying.values()) == 56 * 4 ** 5
    assert values[-1] == TOTAL - 56 * 4 ** 5
    # An eight-or-better value is the A-5 value of the same five cards.
    for five in all_fives[:: 997]:
        v = low.eight_value(five)
        if v >= 0:
            assert v == low.a5_value(five)
