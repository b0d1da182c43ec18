"""The rake of 5324.42(o): percentage, incremental, time charges; never on an uncalled bet, never after the push."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest

from controller.poker.errors import IllegalAction, SetupError
from controller.poker.hand import Hand, Phase
from controller.poker.phh import hand_to_phh, loads
from controller.poker.rake import (IncrementalRake, PercentageRake, TimeCharge, rule_fields, rule_from_config,
                                   time_charge_due, time_charges)
from controller.poker.replay import run
from tests.poker.poker_helpers import act, setup

ROOT = Path(__file__).parents[2]

# p1 is all-in on the flop; p2 and p3 bet on into a side pot on the turn.
SIDE_POT_HAND = (
    "d dh p1 AsAd, d dh p2 KsKd, d dh p3 QsQd, p3 cc, p1 cc, p2 cc",                  # 600
    "d db 2c7h9d, p1 cbr 800, p2 cc, p3 cc",                                           # 2,400 (p1 all-in)
    "d db Tc, p2 cbr 1000, p3 cc",                                                     # 2,000 to the side pot
    "d db 3h, p2 cc, p3 cc",
)
SHOWDOWN = "p2 sm KsKd, p3 sm QsQd, p1 sm AsAd"


def side_pot_hand(rake, *texts, jackpot=None) -> Hand:
    s = dataclasses.replace(setup("NT", [1000, 3000, 3000], blinds=(100, 200)), rake=rake, jackpot=jackpot)
    return act(Hand(s), *texts)


def pots(hand):
    return [(p.amount, p.rake, p.eligible) for p in hand.result.pots]


# --- straight percentage (o)(2)(i) ----------------------------------------------------------------

def test_percentage_is_taken_after_each_round_from_the_pot_and_the_side_pot():
    """5324.42(o)(2)(i)(a)-(b): 10 percent of each round's sums, each pot raked on the chips it got."""
    h = side_pot_hand(PercentageRake(1000), *SIDE_POT_HAND, SHOWDOWN)
    assert pots(h) == [(3000, 60 + 240, (0, 1, 2)), (2000, 200, (1, 2))]
    assert h.result.rake == 500
    assert list(h.result.finishing_stacks) == [2700, 2800, 1000]
    assert sum(h.result.finishing_stacks) + h.result.rake == 7000


def test_rake_is_collected_as_each_round_ends_and_shown_during_the_hand():
    """5324.42(o)(2)(i)(b): the dealer's screen sees the rake of the rounds that have ended."""
    h = side_pot_hand(PercentageRake(1000), SIDE_POT_HAND[0])
    assert [p.rake for p in h.pots()] == [60]
    act(h, "d db 2c7h9d, p1 cbr 800")
    assert [p.rake for p in h.pots()] == [60]          # the open round is not raked yet
    act(h, "p2 cc, p3 cc")
    assert [p.rake for p in h.pots()] == [300]


def test_rate_above_ten_percent_is_refused():
    """5324.42(o)(2)(i)(a): not to exceed 10 percent of all sums bet in the betting round."""
    with pytest.raises(SetupError, match=r"_rake.rate_bp: 1001 is above 1000 \(10 percent .*5324.42\(o\)\(2\)\(i\)\(a\)"):
        PercentageRake(1001)


def test_cap_per_hand():
    """5324.42(o)(1)(iii): the maximum rake of a hand; the rounds after it is reached pay nothing."""
    h = side_pot_hand(PercentageRake(1000, cap=250), *SIDE_POT_HAND, SHOWDOWN)
    assert pots(h) == [(3000, 250, (0, 1, 2)), (2000, 0, (1, 2))]
    assert list(h.result.finishing_stacks) == [2750, 3000, 1000]


def test_a_pot_below_the_minimum_is_not_raked_that_round():
    """The profile's minimum_pot: the preflop pot of 600 is below 1,000 and is not raked."""
    h = side_pot_hand(PercentageRake(1000, minimum_pot=1000), *SIDE_POT_HAND, SHOWDOWN)
    assert pots(h) == [(3000, 240, (0, 1, 2)), (2000, 200, (1, 2))]


def test_the_uncalled_final_bet_is_never_raked():
    """5324.42(o)(4): a bet no one calls goes back before the rake is reckoned."""
    h = side_pot_hand(PercentageRake(1000), SIDE_POT_HAND[0], "d db 2c7h9d, p1 cc, p2 cbr 2800, p3 f, p1 f")
    assert h.result.rake == 60                         # the flop bet of 2,800 was not called
    assert list(h.result.finishing_stacks) == [800, 3340, 2800]


def test_the_uncalled_part_of_a_bet_called_all_in_is_not_raked():
    """5324.42(o)(4): p1 calls 800 all-in of a 2,000 bet; 1,200 goes back unraked."""
    h = side_pot_hand(PercentageRake(1000), SIDE_POT_HAND[0], "d db 2c7h9d, p1 cc, p2 cbr 2000, p3 f, p1 cc")
    assert h.result is None and h.marks[-1] == (1000, 1000, 200)
    assert [p.rake for p in h.pots()] == [60 + 160]


def test_nothing_is_raked_once_the_pot_is_pushed():
    """5324.42(o)(5): the showdown and the push add no rake; a finished hand's rake is fixed."""
    h = side_pot_hand(PercentageRake(1000), *SIDE_POT_HAND)
    assert h.phase is Phase.SHOWDOWN
    before = sum(p.rake for p in h.pots())
    act(h, SHOWDOWN)
    assert h.result.rake == before == 500
    with pytest.raises(IllegalAction, match="the hand is over"):
        act(h, "p2 cc")
    assert h.result.rake == 500 and sum(p.rake for p in h.pots()) == 500


def test_a_hand_won_before_the_flop_is_raked_on_what_was_called():
    """(o)(2)(i) with (o)(4): blinds and a call, the raise uncalled: 10 percent of 600."""
    h = side_pot_hand(PercentageRake(1000), "d dh p1 AsAd, d dh p2 KsKd, d dh p3 QsQd",
                      "p3 cc, p1 cc, p2 cbr 1000, p3 f, p1 f")
    assert h.result.rake == 60 and list(h.result.finishing_stacks) == [800, 3340, 2800]


# --- incremental (o)(2)(ii) ----------------------------------------------------------------------

def test_incremental_amounts_at_predetermined_pot_levels_from_the_pot_that_reached_them():
    """5324.42(o)(2)(ii)(a): 100 at 1,000, 3,000 and 5,000; the 5,000 level is reached in the side pot."""
    rule = IncrementalRake(((1000, 100), (3000, 100), (5000, 100)))
    h = side_pot_hand(rule, *SIDE_POT_HAND, SHOWDOWN)
    assert pots(h) == [(3000, 200, (0, 1, 2)), (2000, 100, (1, 2))]
    assert list(h.result.finishing_stacks) == [2800, 2900, 1000]


def test_incremental_levels_must_rise_and_an_amount_fit_its_pot():
    with pytest.raises(SetupError, match=r"_rake.levels\[1\].pot: 500 is not above the level before it \(1000\)"):
        IncrementalRake(((1000, 100), (500, 50)))
    with pytest.raises(SetupError, match=r"_rake.levels\[0\].amount: 200 is more than the pot of 100"):
        IncrementalRake(((100, 200),))


def test_incremental_rake_of_an_uncalled_raise_is_not_reached():
    """(o)(4) for the incremental system: a pot that reaches a level only with an uncalled bet is not raked."""
    rule = IncrementalRake(((1000, 100),))
    h = side_pot_hand(rule, "d dh p1 AsAd, d dh p2 KsKd, d dh p3 QsQd", "p3 cbr 2000, p1 f, p2 f")
    assert h.result.rake == 0


# --- time charges (o)(2)(iii) ----------------------------------------------------------------------

def test_time_charge_per_player_includes_inactive_seated_players():
    """5324.42(o)(2)(iii)(a)-(c): each seated player, playing or not, by each half hour begun."""
    rule = TimeCharge("player", hourly=600, increment_minutes=30)
    seated = {1: 0, 2: 600, 5: 0}      # seat 5 sits out: assessed all the same
    assert time_charges(rule, seated, 1800) == {1: 300, 2: 300, 5: 300}
    paid = {1: 300, 2: 300, 5: 300}
    assert time_charges(rule, seated, 1800, paid) == {}
    assert time_charges(rule, seated, 1801, paid) == {1: 300, 5: 300}    # seat 2 has sat 20 minutes


def test_time_charge_per_table_and_fractional_increments_never_drift():
    """5324.42(o)(2)(iii)(b)-(c): an hourly fee by the table's limits, assessed by fractions of the hour."""
    rule = TimeCharge("table", hourly=3000, increment_minutes=15)
    assert time_charges(rule, {3: 120, 4: 0}, 3600) == {"table": 3000}
    odd = TimeCharge("player", hourly=1000, increment_minutes=7)
    assert time_charge_due(odd, 7 * 60) == 116                          # 116.67 rounded down
    assert time_charge_due(odd, 7 * 3600) == 7000                       # 60 increments: exactly 7 hours
    with pytest.raises(ValueError, match="after now"):
        time_charges(rule, {1: 100}, 50)


def test_a_time_charge_table_takes_nothing_from_the_pots():
    h = side_pot_hand(TimeCharge("table", 3000, 15), *SIDE_POT_HAND, SHOWDOWN)
    assert h.result.rake == 0 and sum(h.result.finishing_stacks) == 7000


# --- PHH `_rake` and the profiles ----------------------------------------------------------------

def test_rake_is_written_to_phh_and_read_back(tmp_path):
    """The table writes its rake as `_rake`; the replay takes the same rake and prints it per pot."""
    for rule in (PercentageRake(1000, cap=250, minimum_pot=100), IncrementalRake(((1000, 100), (5000, 100))),
                 TimeCharge("player", 600, 30)):
        h = side_pot_hand(rule, *SIDE_POT_HAND, SHOWDOWN)
        text = hand_to_phh(h)
        assert "_rake = {method = " in text
        assert loads(text).setup.rake == rule
        path = tmp_path / "hand.phh"
        path.write_text(text)
        out, err = io.StringIO(), io.StringIO()
        assert run(str(path), out, err) == 0, err.getvalue()
        printed = json.loads(out.getvalue())
        assert printed["rake"] == h.result.rake
        assert [p["rake"] for p in printed["pots"]] == [p.rake for p in h.result.pots]
        assert printed["finishing_stacks"] == list(h.result.finishing_stacks)


@pytest.mark.parametrize("value, message", [
    ('{method = "percent"}', "_rake.method: must be one of percentage, incremental, time"),
    ('{method = "percentage"}', "_rake.rate_bp: is required"),
    ('{method = "percentage", rate_bp = 1500}', "_rake.rate_bp: 1500 is above 1000"),
    ('{method = "percentage", rate_bp = 500, per = "player"}', "_rake.per: is not a setting of the percentage rake"),
    ('{method = "incremental", levels = [{pot = 1000, amount = 100}, {pot = 500, amount = 50}]}',
     "_rake.levels[1].pot: 500 is not above the level before it (1000)"),
    ('{method = "time", per = "seat", hourly = 600}', "_rake.per: must be \"player\" or \"table\""),
    ('{method = "percentage", rate_bp = 2.5}', "_rake.rate_bp: must be a whole number"),
    ("10", "_rake: must be a table"),
])
def test_a_bad_rake_field_is_refused_by_name(value, message):
    text = hand_to_phh(side_pot_hand(None, SIDE_POT_HAND[0]))
    with pytest.raises(SetupError) as exc:
        loads(text + f"_rake = {value}\n")
    assert str(exc.value).startswith(message), str(exc.value)


@pytest.mark.parametrize("profile, rule", [
    ("texas-holdem.toml", PercentageRake(1000, cap=500, minimum_pot=1000)),
    ("omaha-hi-lo-8.toml", IncrementalRake(((1000, 100), (3000, 100), (5000, 100)))),
    ("five-card-draw.toml", TimeCharge("player", 600, 30)),
    ("seven-card-stud.toml", TimeCharge("table", 3000, 15)),
])
def test_the_rake_of_a_table_profile(profile, rule):
    """The rake by the table's configuration (controller/games/poker/profile.py [poker.rake])."""
    from controller.config import load_profile
    loaded = load_profile(ROOT / "config" / profile)
    assert rule_from_config(loaded.poker.rake) == rule
    assert rule_fields(rule)["method"] == loaded.poker.rake.method


# --- every game, random hands --------------------------------------------------------------------

def test_random_hands_of_every_game_keep_every_chip_and_rake_at_most_ten_percent_a_round():
    """5324.42(o)(2)(i)(a), (o)(4), (r)(3) over random hands: rake + contribution + stacks = what came in."""
    import random

    from controller.poker.jackpot import JackpotRule
    from controller.poker.replay import replay
    from controller.poker.variants import VARIANTS
    from tests.poker.poker_play import play, random_setup

    raked = 0
    for code in VARIANTS:
        for seed in range(6):
            rng = random.Random(f"rake|{code}|{seed}")
            rule = rng.choice([PercentageRake(rng.choice((500, 1000)), cap=rng.choice((None, 7, 50))),
                               IncrementalRake(((20, 2), (60, 3), (200, 5)))])
            jackpot = JackpotRule("high-hand", rng.choice((1, 5)), "flush", minimum_pot=rng.choice((0, 30)))
            s = dataclasses.replace(random_setup(code, rng), rake=rule, jackpot=jackpot)
            h = play(s, rng)
            r = h.result
            assert sum(r.finishing_stacks) + r.rake + r.jackpot_drop == sum(s.starting_stacks), (code, seed)
            assert r.jackpot_drop <= jackpot.contribution
            for pot in r.pots:
                assert 0 <= pot.net == sum(pot.awards.values()), (code, seed, pot)
            if isinstance(rule, PercentageRake):
                if rule.cap is not None:
                    assert r.rake <= rule.cap
                take = h._take([dataclasses.replace(p) for p in r.pots])   # the hand's own reckoning
                previous = 0
                # no rake by round when the hand ended with no pot in the middle (rake.house_take)
                for mark, taken in zip(h.marks, take.rake_by_round, strict=False):
                    assert taken * 10_000 <= (sum(mark) - previous) * rule.rate_bp, (code, seed)
                    previous = sum(mark)
            raked += r.rake > 0
            again = replay(loads(hand_to_phh(h)))
            assert again.result == r
    assert raked > 50
