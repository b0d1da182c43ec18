"""The Caribbean stud count table and strategies against independent counts.

Two checks that do not share the inclusion-exclusion: on the full deck, the count
of a sample of player-hand classes by visiting every dealer hand (a second
algorithm); on reduced decks, the whole par sheet (house edge, bets of both
strategies) of three paytables by a plain itertools enumeration with the table's
own evaluator, in Python ints.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from controller.cards import parse_cards
from controller.games.caribbean_stud.rules import paytable_key
from controller.hands import high
from controller.hands.caribbean import LOWEST_QUALIFYING
from controller.games.caribbean_stud.par import counts as stud_counts
from controller.games.caribbean_stud.par import paytable as stud

STANDARD = dict(zip(stud.PAY_LINES, (1, 2, 3, 4, 5, 7, 20, 50, 100), strict=True))
RICH = dict(zip(stud.PAY_LINES, (1, 3, 5, 8, 10, 15, 40, 80, 200), strict=True))
STEEP = dict(zip(stud.PAY_LINES, (1, 2, 4, 6, 7, 9, 25, 60, 250), strict=True))
# Suit-symmetric (three suits: six suit permutations make the classes) and lopsided decks.
SYMMETRIC = "Tc Jc Qc Kc Ac Td Jd Qd Kd Ad Th Jh Qh Kh Ah"
LOPSIDED = "Kc Kd Kh Ks Ac Ad Ah As Qh Jh Th 9h 5c 2d"


@pytest.fixture(scope="module")
def full_deck():
    return stud_counts.Prepared(stud_counts.FULL_DECK)


def test_the_deck_is_ranked_by_the_tables_evaluator(full_deck):
    rng = np.random.default_rng(21)
    for h in rng.choice(len(full_deck.values), 2000, replace=False).tolist():
        pos = np.empty(5, dtype=np.int64)
        stud_counts._unrank(h, 5, full_deck.binom, pos)
        assert full_deck.values[h] == high.value5([int(full_deck.deck[p]) for p in pos])
    assert stud_counts.ACE_KING == LOWEST_QUALIFYING


def test_player_classes_cover_every_hand_once(full_deck):
    assert len(full_deck.weights) == 134_459
    assert int(full_deck.weights.sum()) == 2_598_960


def test_inclusion_exclusion_equals_visiting_every_dealer_hand(full_deck):
    """A sample of classes from every pay line and around the qualifier, on 52 cards."""
    rng = np.random.default_rng(5)
    lines = stud.pay_line(full_deck.player)
    rows = set()
    for line in range(len(stud.PAY_LINES)):
        where = np.flatnonzero(lines == line)
        rows.update(rng.choice(where, min(2, len(where)), replace=False).tolist())
    near = np.flatnonzero(np.abs(full_deck.player.astype(int) - LOWEST_QUALIFYING) <= 1)
    rows.update(rng.choice(near, 3, replace=False).tolist())
    rows = np.array(sorted(rows))
    fast, slow = full_deck.count(rows=rows), full_deck.count_directly(rows)
    assert fast.hole_sets == 163_185
    for name in ("not_qualifying", "lower", "tied"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name
    assert (fast.not_qualifying + fast.lower + fast.tied <= fast.hole_sets).all()


def enumerate_sheet(deck, paytable: dict, bet_multiple: int) -> dict:
    """Every player hand x up card x hole-card set of the deck, one by one; no shared code but the evaluator."""
    value = {hand: high.value5(hand) for hand in combinations(deck, 5)}
    won = {"optimal": 0, "simple": 0}
    bets = {"optimal": 0, "simple": 0}
    deals = 0
    for player in combinations(deck, 5):
        mine = value[player]
        odds = paytable["royal-flush" if mine == high.ROYAL_FLUSH else paytable_key(high.category(mine))]
        rest = [c for c in deck if c not in player]
        by_up = {u: [0, 0, 0, 0] for u in rest}  # not qualifying, lower, tied, higher
        for dealer in combinations(rest, 5):
            theirs = value[dealer]
            k = 0 if theirs < LOWEST_QUALIFYING else 1 if theirs < mine else 2 if theirs == mine else 3
            for u in dealer:
                by_up[u][k] += 1
        for nq, lo, tie, hi in by_up.values():
            hole = nq + lo + tie + hi
            deals += hole
            bet = nq + lo * (1 + bet_multiple * odds) - hi * (1 + bet_multiple)
            if bet > -hole:
                won["optimal"] += bet
                bets["optimal"] += hole
            else:
                won["optimal"] -= hole
            if mine >= LOWEST_QUALIFYING:
                won["simple"] += bet
                bets["simple"] += hole
            else:
                won["simple"] -= hole
    return {"deals": deals, "won": won, "bets": bets}


@pytest.mark.parametrize("cards", [SYMMETRIC, LOPSIDED], ids=["symmetric", "lopsided"])
def test_reduced_deck_sheets_equal_plain_enumeration(cards):
    deck = tuple(sorted(parse_cards(cards.split())))
    table = stud.StudTable.from_counts(stud_counts.Prepared(deck).count())
    checked = 0
    for paytable, multiple in ((STANDARD, 2), (RICH, 2), (STEEP, 3)):
        plain = enumerate_sheet(deck, paytable, multiple)
        ours = stud.strategies(table, paytable, multiple)
        assert table.deals == plain["deals"]
        for name in ("optimal", "simple"):
            s = ours[name]
            assert s.ante_won == plain["won"][name], (name, paytable)
            assert s.bets == plain["bets"][name], (name, paytable)
            assert s.folds + s.not_qualifying + s.wins + s.pushes + s.losses == s.deals
            assert s.house_edge == Fraction(-plain["won"][name], plain["deals"])
            checked += 1
        assert ours["optimal"].house_edge <= ours["simple"].house_edge
    assert checked == 6
    # the paytables do change the figures
    edges = {stud.strategies(table, p, m)["optimal"].house_edge for p, m in ((STANDARD, 2), (RICH, 2), (STEEP, 3))}
    assert len(edges) == 3


def test_capped_hands_follow_the_payout_limit():
    assert stud.capped_hands(STANDARD, 2, 500, 100_500) == []
    assert stud.capped_hands(STANDARD, 2, 50_000, 100_500) == list(stud.PAY_LINES[1:])
    assert stud.capped_hands(STANDARD, 2, 50_000, None) == []
