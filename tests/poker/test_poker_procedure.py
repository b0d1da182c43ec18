"""Table procedure: the button (5324.42(i)(3)), the Omaha/8 kill (j)(9), the two decks and their counts ((a)(5), (f)(6)(iv))."""

from __future__ import annotations

import dataclasses

import pytest

from controller.cards import parse_card
from controller.poker.button import (ButtonError, button_by_card, button_right_of_dealer, next_button, phh_seats,
                                     stud_seats)
from controller.poker.decks import Deck, DeckError, TableDecks
from controller.poker.errors import SetupError
from controller.poker.hand import Hand, HandSetup
from controller.poker.kill import KillLammer, KillRule, after_hand, kill_setup, killed
from controller.poker.phh import hand_to_phh, loads
from controller.poker.variants import VARIANTS
from tests.poker.poker_helpers import act, setup


def card(text):
    return int(parse_card(text))


# --- the button (i)(3) -----------------------------------------------------------------------

def test_button_starts_with_the_first_player_to_the_dealers_right():
    """5324.42(i)(3)(i): seats run clockwise from the dealer's left; the right is the highest seat."""
    assert button_right_of_dealer([1, 3, 5, 8]) == 8


def test_button_by_a_single_card_dealt_highest_rank_then_suit():
    """5324.42(i)(3)(ii): the rank of one card each; equal ranks by suit, spades highest."""
    assert button_by_card({1: card("Kd"), 3: card("Ah"), 5: card("As"), 8: card("2c")}) == 5
    assert button_by_card({2: card("9c"), 4: card("9d")}) == 4
    with pytest.raises(ButtonError, match="a card is dealt twice"):
        button_by_card({2: card("9c"), 4: card("9c")})


def test_button_rotates_clockwise_after_each_hand():
    """5324.42(i)(3)(iii), (n)(3)(c): to the next occupied seat, wrapping round; from an emptied seat too."""
    seats = [1, 3, 5, 8]
    order = [8]
    for _ in range(5):
        order.append(next_button(order[-1], seats))
    assert order == [8, 1, 3, 5, 8, 1]
    assert next_button(3, [1, 5, 8]) == 5          # the button's player left


def test_phh_order_starts_after_the_button():
    assert phh_seats(5, [1, 3, 5, 8]) == [8, 1, 3, 5]
    assert phh_seats(8, [1, 3, 5, 8]) == [1, 3, 5, 8]
    assert stud_seats([7, 2, 4]) == [2, 4, 7]       # stud: from the dealer's left (h)(3)
    with pytest.raises(ButtonError, match="the button's seat 2 has no player"):
        phh_seats(2, [1, 3])
    with pytest.raises(ButtonError, match="poker needs at least 2"):
        button_right_of_dealer([4])


# --- the kill (j)(9) ---------------------------------------------------------------------------

BASE = setup("FO/8", [500] * 6, blinds=(2, 4), small=4, big=8)
KILL = KillRule("kill", 80)
DEAL6 = ("d dh p1 2c3c4c5c, d dh p2 6c7c8c9c, d dh p3 TcJcQcKc, d dh p4 Ac2d3d4d, d dh p5 5d6d7d8d, "
         "d dh p6 9dTdJdQd")


def test_kill_doubles_the_limits_and_half_kill_raises_them_by_half():
    assert (killed("kill", 4), killed("kill", 8)) == (8, 16)
    assert (killed("half-kill", 4), killed("half-kill", 8)) == (6, 12)
    with pytest.raises(SetupError, match="a half-kill of 5 is not a whole number"):
        killed("half-kill", 5)


def test_kill_blind_is_one_blind_of_the_increased_minimum_and_acts_last_before_the_flop():
    """5324.42(j)(9): the kill player posts one blind, the increased minimum wager; the others post as posted."""
    s = kill_setup(BASE, 3, KILL)
    assert (s.small_bet, s.big_bet, s.blinds, s.kill_blind) == (8, 16, (2, 4, 0, 8, 0, 0), 3)
    h = act(Hand(s), DEAL6)
    assert h.bets == [2, 4, 0, 8, 0, 0]
    assert h.to_act == 4                         # the player after the kill blind
    o = h.options()
    assert (o.call, o.raise_min) == (8, 16)
    act(h, "p5 cc, p6 f, p1 f, p2 f, p3 cc")
    assert h.to_act == 3                         # the kill blind last, with the option to raise
    assert h.options().raise_min == 16


def test_kill_player_in_a_blind_posts_only_the_kill_blind():
    s = kill_setup(BASE, 1, KILL)
    assert s.blinds == (2, 8, 0, 0, 0, 0)
    s = kill_setup(BASE, 0, dataclasses.replace(KILL, kind="half-kill"))
    assert (s.blinds, s.small_bet, s.big_bet) == ((6, 4, 0, 0, 0, 0), 6, 12)
    h = act(Hand(s), DEAL6)
    assert h.to_act == 1                         # the big blind acts first; the kill blind last


def test_kill_is_refused_outside_omaha_hi_lo_and_at_the_wrong_amount():
    with pytest.raises(SetupError, match=r"_kill_blind: no-limit Texas hold'em has no kill.*5324.42\(j\)\(9\)"):
        HandSetup(VARIANTS["NT"], (100,) * 3, (0,) * 3, (1, 2, 4), 0, 2, 2, kill_blind=2)
    with pytest.raises(SetupError, match=r"blinds_or_straddles\[3\]: the kill blind is the increased minimum "
                                         r"wager, 8, not 6"):
        dataclasses.replace(BASE, blinds=(2, 4, 0, 6, 0, 0), small_bet=8, big_bet=16, kill_blind=3)


def play_out(s, *texts):
    return act(Hand(s), DEAL6, *texts)


def test_the_lammer_goes_to_the_player_who_wins_a_whole_pot_above_the_threshold():
    """5324.42(j)(9): a scoop above the amount places (or moves) the lammer; a small pot or a split collects it."""
    seats = [2, 3, 5, 6, 8, 9]
    # everyone folds to the big blind: a pot of 6, below 80
    small = play_out(BASE, "p3 f, p4 f, p5 f, p6 f, p1 f")
    assert after_hand(KILL, KillLammer(5), small, seats) == KillLammer(None)
    # a raised pot of 4 x 48 = 192 scooped by p3 (no low on the board)
    big = play_out(BASE, "p3 cbr 8, p4 cc, p5 cc, p6 cc, p1 f, p2 f",
                   "d db KdKhKs, p3 cbr 4, p4 cc, p5 cc, p6 cc, d db Qh, p3 cbr 8, p4 cc, p5 cc, p6 cc",
                   "d db Jh, p3 cbr 8, p4 cc, p5 cc, p6 cc, p3 sm -, p4 sm -, p5 sm -, p6 sm -")
    assert sum(p.amount for p in big.result.pots) > 80
    assert len({p for pot in big.result.pots for p, c in pot.awards.items() if c}) == 1
    winner = next(p for pot in big.result.pots for p, c in pot.awards.items() if c)
    assert after_hand(KILL, KillLammer(None), big, seats) == KillLammer(seats[winner])


def test_a_pot_split_high_and_low_collects_the_lammer():
    hi_lo = play_out(BASE, "p3 cbr 8, p4 cc, p5 cc, p6 cc, p1 f, p2 f",
                     "d db 2h3hKs, p3 cbr 4, p4 cc, p5 cc, p6 cc, d db Kh, p3 cbr 8, p4 cc, p5 cc, p6 cc",
                     "d db 7s, p3 cbr 8, p4 cc, p5 cc, p6 cc, p3 sm -, p4 sm -, p5 sm -, p6 sm -")
    winners = {p for pot in hi_lo.result.pots for p, c in pot.awards.items() if c}
    assert winners == {2, 3}                     # p3 trip kings high, p4 7-4-3-2-A low
    assert after_hand(KILL, KillLammer(3), hi_lo, [1, 2, 3, 4, 5, 6]) == KillLammer(None)


def test_kill_blind_is_written_to_phh_and_read_back():
    h = act(Hand(kill_setup(BASE, 3, KILL)), DEAL6, "p5 cc")
    text = hand_to_phh(h)
    assert "_kill_blind = 4" in text
    again = loads(text)
    assert again.setup == h.setup


# --- two decks with a shuffler (a)(5)(iii) and the count (f)(6)(iv) ------------------------------

RED, BLUE = Deck("A", "red"), Deck("B", "blue")


def test_with_a_shuffler_the_decks_alternate_every_round():
    """5324.42(a)(5)(iii)(b)-(c): one dealt while the other is shuffled, each every other round."""
    t = TableDecks((RED, BLUE), shuffler=True, opened_at=0)
    dealt = []
    for _ in range(6):
        dealt.append(t.dealing.id)
        assert t.other.id != t.dealing.id
        t = t.next_round()
    assert dealt == ["A", "B", "A", "B", "A", "B"]
    by_hand = TableDecks((RED, BLUE), shuffler=False, opened_at=0)
    assert by_hand.next_round().dealing.id == "A"


def test_decks_must_be_distinguishable_and_of_different_colours_with_a_shuffler():
    """5324.42(a)(5)(i), (iii)(a)."""
    with pytest.raises(DeckError, match=r"different colours \(5324.42\(a\)\(5\)\(iii\)\(a\)\)"):
        TableDecks((Deck("A", "red", "casino"), Deck("B", "red", "stars")), shuffler=True, opened_at=0)
    TableDecks((Deck("A", "red", "casino"), Deck("B", "red", "stars")), shuffler=False, opened_at=0)
    with pytest.raises(DeckError, match=r"visually distinguishable \(5324.42\(a\)\(5\)\(i\)\)"):
        TableDecks((Deck("A", "red"), Deck("B", "red")), shuffler=False, opened_at=0)


def test_the_deck_is_counted_every_fifteen_minutes():
    """5324.42(f)(6)(iv): an overdue count is an alarm; a count of 52 by the dealer or shuffler clears it."""
    t = TableDecks((RED, BLUE), shuffler=True, opened_at=1000)
    assert t.alarms(1000 + 900) == [] and t.count_due == 1900
    assert t.alarms(1000 + 901)[0].startswith("deck A was last counted 15 minutes ago")
    t, result = t.count("A", 52, "shuffler", 1950)
    assert result.ok and t.alarms(1950 + 900) == []
    with pytest.raises(DeckError, match="no automated shuffler"):
        TableDecks((RED, BLUE), shuffler=False, opened_at=0).count("A", 52, "shuffler", 5)


def test_a_count_not_52_sounds_an_alarm_and_the_deck_is_replaced():
    """5324.42(f)(6)(iv): the supervisor removes the deck and a new deck is placed into play."""
    t = TableDecks((RED, BLUE), shuffler=True, opened_at=0)
    t, result = t.count("A", 51, "dealer", 300)
    assert not result.ok and "deck A counted 51 cards, not 52" in result.alarm
    assert any("deck A is out of play" in a for a in t.alarms(301))
    with pytest.raises(DeckError, match="deck A was removed"):
        _ = t.dealing   # the property refuses
    with pytest.raises(DeckError, match=r"the new deck C: .*different colours"):
        t.replace("A", Deck("C", "blue"), 400)
    t = t.replace("A", Deck("C", "green"), 400)
    assert t.dealing.id == "C" and t.alarms(401) == []
    with pytest.raises(DeckError, match="only a removed deck is replaced"):
        t.replace("B", Deck("D", "gold"), 500)


def test_the_shuffler_will_not_bring_in_a_removed_deck():
    t = TableDecks((RED, BLUE), shuffler=True, opened_at=0).remove("B", "extra card found (5324.42(p)(3))")
    with pytest.raises(DeckError, match="deck B is due next but was removed"):
        t.next_round()
