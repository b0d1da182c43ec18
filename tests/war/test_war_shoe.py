"""The casino war shoe: 5324.22(c), (h)(1), (h)(4), (i)(4), (i)(5)(iii)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.cards import CARDS, parse_card
from controller.games.casino_war.events import CoverCard, DealtCard
from controller.games.casino_war.shoe import DiscardRack, WarShoe
from tests.war.war_helpers import stacked_shoe


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_a_shoe_holds_each_card_once_per_deck(decks):
    shoe = WarShoe.shuffled(decks, random.Random(1))
    assert len(shoe.cards) == shoe.remaining == 52 * decks
    assert Counter(shoe.cards) == Counter({c: decks for c in CARDS})


@pytest.mark.parametrize("decks", [1, 5, 9])
def test_other_deck_counts_refused(decks):
    with pytest.raises(ValueError, match=r"5324\.22\(c\)"):
        WarShoe.shuffled(decks, random.Random(1))


def test_shuffle_comes_from_the_injected_source():
    a = WarShoe.shuffled(6, random.Random(42))
    b = WarShoe.shuffled(6, random.Random(42))
    c = WarShoe.shuffled(6, random.Random(43))
    assert a.cards == b.cards and a.cover_at == b.cover_at
    assert a.cards != c.cards


def test_the_cut_moves_cards_from_front_to_back():
    uncut = WarShoe.shuffled(6, random.Random(5), cut=1)
    # cut=1 moved one card; cut=101 on the same shuffle moves 100 more.
    cut = WarShoe.shuffled(6, random.Random(5), cut=101)
    assert cut.cards == uncut.cards[100:] + uncut.cards[:100]
    for bad in (0, 312, -3):
        with pytest.raises(ValueError, match="cut"):
            WarShoe.shuffled(6, random.Random(5), cut=bad)


def test_the_cover_card_is_placed_inside_the_stack():
    for seed in range(20):
        shoe = WarShoe.shuffled(8, random.Random(seed))
        assert 416 * 2 // 3 <= shoe.cover_at <= 416 * 3 // 4
    with pytest.raises(ValueError, match="cover card"):
        WarShoe.shuffled(6, random.Random(1), cover_at=312)
    with pytest.raises(ValueError, match="cover card"):
        WarShoe.shuffled(6, random.Random(1), cover_at=0)


def test_a_short_or_wrong_stack_is_refused():
    with pytest.raises(ValueError, match="holds each"):
        WarShoe(list(CARDS) * 5 + list(CARDS[:51]) + [CARDS[0]], 100, 6)


def test_the_cover_card_comes_out_before_the_card_behind_it():
    shoe = stacked_shoe(["2c", "3c", "4c", "5c"], cover_at=2)
    # the events as the round takes them: the declarations' models (controller/games/casino_war/events.py)
    assert shoe.draw(burn=True) == [DealtCard(card=parse_card("2c"))]
    assert shoe.draw(burn=False) == [DealtCard(card=parse_card("3c"))]
    assert not shoe.needs_reshuffle
    assert shoe.draw(burn=False) == [CoverCard(), DealtCard(card=parse_card("4c"))]
    assert shoe.needs_reshuffle
    assert [e.journal() for e in shoe.draw(burn=False)] == [{"type": "card", "card": "5c"}]
    assert [str(c) for c in shoe.burned] == ["2c"]
    assert [str(c) for c in shoe.dealt] == ["3c", "4c", "5c"]


def test_burn_due_on_a_fresh_shoe_and_for_each_new_dealer():
    """5324.22(h)(1)."""
    shoe = WarShoe.shuffled(6, random.Random(3))
    assert shoe.open_round() == 1
    assert shoe.open_round() == 0
    shoe.new_dealer()
    assert shoe.open_round() == 1
    assert shoe.open_round() == 0


def test_no_round_after_the_cover_card_until_reshuffled():
    """5324.22(h)(4)."""
    shoe = stacked_shoe(["2c", "3c"], cover_at=1)
    shoe.open_round()
    shoe.draw(burn=True)
    shoe.draw(burn=False)
    with pytest.raises(RuntimeError, match=r"5324\.22\(h\)\(4\)"):
        shoe.open_round()
    fresh = shoe.reshuffled(random.Random(9))
    assert Counter(fresh.cards) == Counter(shoe.cards)
    assert not fresh.needs_reshuffle and fresh.open_round() == 1


def test_discard_rack_keeps_order_and_hands_apart():
    rack = DiscardRack()
    rack.carry_out([
        {"type": "card", "deal": "first", "to": "burn", "card": "Ah"},
        {"type": "card", "deal": "first", "to": "seat", "seat": 1, "card": "7s"},
        {"type": "discard", "hands": [{"hand": 2, "cards": ["Td"]}]},
        {"type": "card", "deal": "war", "to": "burn", "card": "4d"},
        {"type": "discard", "hands": [{"hand": 1, "cards": ["7s", "Qh"]},
                                      {"hand": "dealer", "cards": ["7d", "Jc"]}]},
    ])
    assert rack.entries == [
        {"burn": "Ah"}, {"hands": [{"hand": 2, "cards": ["Td"]}]}, {"burn": "4d"},
        {"hands": [{"hand": 1, "cards": ["7s", "Qh"]}, {"hand": "dealer", "cards": ["7d", "Jc"]}]},
    ]
    assert [str(c) for c in rack.cards()] == ["Ah", "Td", "4d", "7s", "Qh", "7d", "Jc"]
