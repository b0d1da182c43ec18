"""Issue 29 item 6, the rules: a hand-pay's threshold (controller/games/handpay.py, pure), the profile's
`[hand_pay]`, and the Caribbean stud round held in validation until a supervisor fills in the form."""

from __future__ import annotations

import copy

import pytest
from controller.config import parse_profile
from controller.config.toml_lines import ConfigError
from controller.games.base import EventRefused
from controller.games.caribbean_stud.machine import CaribbeanStudRound, State, new_meter
from controller.games.caribbean_stud.paylist import HELD, pay_list
from controller.games.caribbean_stud.rules import StudRules
from controller.games.handpay import Threshold, is_hand_pay, masked, qualifying, redacted
from tests.rounds import apply

DEFAULT = Threshold()
PLAYER = "D4471-0932-18"   # a player's identification as keyed (never shown in full)


@pytest.mark.parametrize(("win", "wager", "held"), [
    (60_000, 200, True),      # $600 on $2: both thresholds met exactly
    (59_999, 100, False),     # under $600, however many times the wager
    (60_000, 201, False),     # $600 but less than 300 times $2.01
    (60_300, 201, True),      # 300 times $2.01
    (2_499_970, 100, True),   # a royal flush's award, net of its $1 wager
    (200_000, 2_000, False),  # $2,000 at 100:1: a bet wager's royal, never 300 times
    (0, 100, False), (-100, 100, False), (60_000, 0, False),
])
def test_the_threshold_is_both_the_amount_and_the_multiple_of_the_wager(win, wager, held):
    assert is_hand_pay(win, wager, DEFAULT) is held


def test_a_profiles_own_threshold():
    assert is_hand_pay(50_000, 1_000, Threshold(min_amount=50_000, multiple=50))
    assert not is_hand_pay(50_000, 1_001, Threshold(min_amount=50_000, multiple=50))
    assert Threshold.from_dict(Threshold(min_amount=1, multiple=2).to_dict()) == Threshold(1, 2)
    assert Threshold.from_dict(None) is None   # a round opened before issue 29: nothing held


def test_each_wager_of_a_seat_is_held_to_the_threshold_by_itself():
    seat = {"seat": 1, "cards": ["As"], "hand": "royal-flush",
            "ante": {"stake": 500, "outcome": "win", "net": 500},
            "bet": {"stake": 1_000, "outcome": "win", "net": 100_000},   # $1,000 at 100:1: not 300 times
            "progressive": {"stake": 100, "outcome": "win", "net": 2_499_970, "award": 2_500_070}}
    assert qualifying(seat, DEFAULT) == [{"wager": "progressive", "stake": 100, "win": 2_499_970}]
    assert qualifying(seat, DEFAULT, frozenset({"progressive"})) == []   # not validated yet: no win yet
    assert qualifying(seat, Threshold(min_amount=600, multiple=1)) == [   # the ante's $5 is under $6
        {"wager": "bet", "stake": 1_000, "win": 100_000}, {"wager": "progressive", "stake": 100, "win": 2_499_970}]


def test_an_identification_is_shown_by_its_last_four_and_masked_wherever_it_stands():
    assert masked(PLAYER) == "\u2022" * 4 + "2-18"
    assert masked("1234") == "\u2022" * 4   # too short to show any of it
    event = {"type": "hand_pay", "seat": 1, "player_id": PLAYER, "form": "W2G-7",
             "nested": [{"player_id": PLAYER}], "excerpt": f'{{"player_id":"{PLAYER}"'}
    shown = redacted(event)
    assert PLAYER not in repr(shown) and shown["form"] == "W2G-7" and shown["seat"] == 1
    assert shown["player_id"] == masked(PLAYER) and shown["nested"][0]["player_id"] == masked(PLAYER)


PROFILE = """game = "caribbean-stud"
[table]
id = "CS-HP"
name = "hand-pays"
minimum_wager = 500
maximum_wager = 50000
"""


def test_the_profiles_hand_pay_section_defaults_and_refusals():
    assert parse_profile(PROFILE).hand_pay.min_amount == 60_000
    assert parse_profile(PROFILE).hand_pay.multiple == 300
    p = parse_profile(PROFILE + "[hand_pay]\nmin_amount = 120000\nmultiple = 500\n")
    assert (p.hand_pay.min_amount, p.hand_pay.multiple) == (120_000, 500)
    for bad in ("min_amount = 0", "min_amount = 600.0", "multiple = 0", "threshold = 5"):
        with pytest.raises(ConfigError) as refused:
            parse_profile(PROFILE + f"[hand_pay]\n{bad}\n")
        assert f"<profile>:8: hand_pay.{bad.split()[0]}" in str(refused.value)   # on its line, by its key


# -- the round: seat 1 a royal flush (progressive), seat 4 a pair of jacks; the dealer qualifies -----------

RULES = StudRules()
SEAT1 = ["Ah", "Kh", "Qh", "Jh", "Th"]
SEAT4 = ["2d", "7s", "9c", "Jd", "Js"]
DEALER = ["As", "Kd", "7h", "4c", "2s"]
SETTLED = [{"type": "ante", "seat": 1, "amount": 1000}, {"type": "progressive", "seat": 1},
           {"type": "ante", "seat": 4, "amount": 500}, {"type": "no_more_bets"},
           *({"type": "card", "card": c} for trio in zip(SEAT1, SEAT4, DEALER, strict=True) for c in trio),
           {"type": "decision", "seat": 4, "decision": "bet"}, {"type": "decision", "seat": 1, "decision": "bet"},
           {"type": "reveal"}, {"type": "settle"}]
FORM = {"type": "hand_pay", "seat": 1, "player_id": PLAYER, "form": "W2G-0001", "supervisor": "pat"}


def settled(threshold: Threshold | None = DEFAULT) -> CaribbeanStudRound:
    r = CaribbeanStudRound(RULES, new_meter(RULES, 2_500_000), hand_pay=threshold)
    for e in SETTLED:
        apply(r, copy.deepcopy(e))
    return r


def held_list(r: CaribbeanStudRound) -> list:
    d = r.d
    from controller.games.caribbean_stud.rules import settlement_steps
    return pay_list(settlement_steps(d.result, folds_collected=True), d.pending, d.validated, d.refused, {},
                    held=frozenset(r.forms_due()))


def test_a_validated_royal_is_held_for_its_form_and_the_round_closes_once_it_is_done():
    r = settled()
    assert r.state is State.VALIDATION and r.forms_due() == []   # the award is not a win until validated
    assert "hand_pay" not in r.allowed()
    with pytest.raises(EventRefused):
        apply(r, copy.deepcopy(FORM))
    apply(r, {"type": "validate", "seat": 1, "supervisor": "pat"})
    assert r.state is State.VALIDATION and r.forms_due() == [1] and "hand_pay" in r.allowed()
    steps = held_list(r)
    assert {s["step"] for s in steps if s["seat"] == 1} == {HELD, "collect"}   # nothing of seat 1 is paid yet
    assert {s["step"] for s in steps if s["seat"] == 4} == {"pay"}  # the others are
    before = r.snapshot()
    for bad, why in (({"seat": 4}, "no hand-pay waiting"), ({"supervisor": " "}, "signs its form")):
        with pytest.raises(EventRefused, match=why):
            apply(r, {**FORM, **bad})
    assert r.snapshot() == before
    effects = apply(r, copy.deepcopy(FORM))
    paid = next(e for e in effects if e["type"] == "hand_paid")
    assert paid == {"type": "hand_paid", "seat": 1, "amount": 2_499_970, "form": "W2G-0001", "paid_by": "pat",
                    "player": masked(PLAYER), "wagers": [{"wager": "progressive", "stake": 100, "win": 2_499_970}]}
    assert r.state is State.CLOSED and PLAYER not in repr(r.snapshot()) and PLAYER not in repr(effects)
    assert {s["step"] for s in held_list(r) if s["seat"] == 1} == {"pay", "collect"}


def test_a_refused_royal_is_no_hand_pay_and_a_round_without_a_threshold_holds_nothing():
    r = settled()
    apply(r, {"type": "refuse", "seat": 1, "supervisor": "pat", "reason": "the acceptor light was not lit"})
    assert r.state is State.CLOSED and r.forms_due() == []
    old = settled(None)   # opened before issue 29 (no threshold in its opening): replays as it was played
    apply(old, {"type": "validate", "seat": 1, "supervisor": "pat"})
    assert old.state is State.CLOSED


def test_a_base_game_win_past_a_low_threshold_holds_the_settlement_itself():
    # $6 and once the wager: seat 4's $10 bet won $10 (its $5 ante is too little), seat 1's $10 ante won $10
    r = settled(Threshold(min_amount=600, multiple=1))
    assert r.state is State.VALIDATION and r.forms_due() == [1, 4]
    with pytest.raises(EventRefused, match="not validated yet"):   # its form waits for the whole of its win
        apply(r, copy.deepcopy(FORM))
    apply(r, {"type": "validate", "seat": 1, "supervisor": "pat"})
    assert r.forms_due() == [1, 4]
    apply(r, {**FORM, "seat": 4, "form": "W2G-4"})
    with pytest.raises(EventRefused, match="already another seat's"):
        apply(r, {**FORM, "form": "W2G-4"})
    effects = apply(r, copy.deepcopy(FORM))
    assert [w["wager"] for w in effects[0]["wagers"]] == ["ante", "bet", "progressive"]
    assert r.state is State.CLOSED


def test_a_linked_royal_is_held_once_the_pools_award_is_validated():
    r = CaribbeanStudRound(RULES, new_meter(RULES, 2_500_000), linked="cs-main", hand_pay=DEFAULT)
    for e in SETTLED:
        apply(r, copy.deepcopy(e))
    assert r.forms_due() == [] and "hand_pay" not in r.allowed()   # the pool has not answered: no award yet
    apply(r, {"type": "pool_awards", "awards": [{"seat": 1, "hand": "royal-flush", "amount": 3_123_456, "seq": 4,
                                                  "meter_before": 3_123_456, "meter_after": 1_000_000,
                                                  "shared_by": 1, "from_meter": True}]})
    apply(r, {"type": "validate", "seat": 1, "supervisor": "pat"})
    assert r.state is State.VALIDATION and r.hand_pays_due()[1][-1] == {"wager": "progressive", "stake": 100,
                                                                        "win": 3_123_356}
    apply(r, copy.deepcopy(FORM))
    assert r.state is State.CLOSED and r.d.hand_pays[1]["player"] == masked(PLAYER)
