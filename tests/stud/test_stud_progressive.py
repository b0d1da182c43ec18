"""The progressive meter component (controller/progressive.py; 5324.37(g)(4)-(6))."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.progressive import (
    Fixed, MeterError, PercentOfMeter, ProgressiveMeter, WholeMeter, contribute, pay_awards,
)

AWARDS = {"flush": Fixed(5000), "full-house": Fixed(10000), "four-of-a-kind": Fixed(50000),
          "straight-flush": PercentOfMeter(10), "royal-flush": WholeMeter()}
LEVELS = list(AWARDS) + ["straight", "pair"]  # the last two win nothing


def meter(amount=1_000_000, bp=7000, reset=500_000) -> ProgressiveMeter:
    return ProgressiveMeter(amount=amount, reset=reset, contribution_bp=bp, awards=AWARDS)


def test_contribution_rounds_down_and_carries_the_fraction():
    assert contribute(100, 7000) == (70, 0)
    assert contribute(100, 7333) == (73, 3300)
    assert contribute(100, 7333, 3300) == (73, 6600)
    assert contribute(100, 7333, 6600) == (73, 9900)
    assert contribute(100, 7333, 9900) == (74, 3200)
    with pytest.raises(MeterError):
        contribute(100, 7000, 10000)


def test_meter_carries_fractions_across_rounds_exactly():
    m = meter(amount=0, bp=7333)
    total = sum(m.contribute([1]) for _ in range(10_000))
    # 10,000 one-cent wagers at 73.33%: exactly 7,333 cents, nothing lost or invented
    assert total == 7333 and m.carry == 0 and m.amount == 7333


@given(st.lists(st.lists(st.integers(1, 10_000), max_size=7), max_size=60), st.integers(7000, 10000))
@settings(max_examples=150, deadline=None)
def test_contributions_plus_carry_are_exactly_the_rate_of_every_cent_wagered(rounds, bp):
    m = meter(amount=0, bp=bp)
    for stakes in rounds:
        m.contribute(stakes)
    wagered = sum(map(sum, rounds))
    assert m.contributed * 10_000 + m.carry == wagered * bp
    assert m.wagers == sum(map(len, rounds)) and m.wagered == wagered
    assert m.balances()


def test_fixed_awards_do_not_touch_the_meter():
    p = pay_awards(1_000_000, [(5, "flush"), (3, "full-house"), (1, "four-of-a-kind")], AWARDS, 0)
    assert [a.amount for a in p.awards] == [5000, 10000, 50000]
    assert p.meter_after == 1_000_000 and not any(a.from_meter for a in p.awards)


def test_percent_award_is_of_the_meter_as_it_stands_rounded_down():
    p = pay_awards(1_000_009, [(7, "straight-flush"), (2, "straight-flush")], AWARDS, 0)
    assert [a.amount for a in p.awards] == [100_000, 90_000]
    assert p.meter_after == 810_009


def test_royal_flushes_share_the_meter_of_the_first_and_the_meter_restarts():  # 5324.37(g)(6)
    p = pay_awards(1_000_001, [(6, "royal-flush"), (4, "straight-flush"), (2, "royal-flush")], AWARDS, 300_000)
    assert [(a.seat, a.amount) for a in p.awards] == [(6, 500_001), (4, 30_000), (2, 500_000)]
    assert p.meter_after == 270_000 and p.seeded == 300_000


def test_hands_without_an_award_are_skipped():
    p = pay_awards(1000, [(3, "straight"), (1, "pair")], AWARDS, 0)
    assert p.awards == () and p.meter_after == 1000


def test_meter_audit_counts_hits_and_amounts_per_level():
    m = meter(amount=2_000_000)
    m.contribute([100, 100])
    m.pay([(7, "straight-flush"), (4, "flush")], round_id="r1")
    m.pay([(3, "royal-flush")], round_id="r2")
    a = m.audit()
    assert a["wagers"] == 2 and a["contributions"] == 140
    assert a["levels"]["straight-flush"] == {"hits": 1, "paid": 200_014}
    assert a["levels"]["flush"] == {"hits": 1, "paid": 5000}
    assert a["levels"]["royal-flush"] == {"hits": 1, "paid": 2_000_140 - 200_014}
    assert a["paid_by_house"] == 5000 and a["paid_by_meter"] == 2_000_140
    assert a["meter"] == 500_000 and a["resets"] == 1 and a["seeded"] == 500_000
    assert [(x["round"], x["seat"], x["hand"]) for x in a["last_awards"]] == [
        ("r1", 7, "straight-flush"), ("r1", 4, "flush"), ("r2", 3, "royal-flush")]
    assert m.balances()


def test_correction_needs_reason_and_supervisor_and_is_logged():
    m = meter(amount=1_000_000)
    for reason, who in (("", "sup"), ("   ", "sup"), ("fault", ""), ("fault", None), (None, "sup")):
        with pytest.raises(MeterError):
            m.correct(900_000, reason=reason, supervisor=who)
    assert m.amount == 1_000_000 and m.corrections == []
    m.correct(900_000, reason="display fault, meter re-read", supervisor="J. Smith #41")
    assert m.amount == 900_000
    assert m.corrections == [{"before": 1_000_000, "after": 900_000,
                              "reason": "display fault, meter re-read", "supervisor": "J. Smith #41"}]
    assert m.balances()
    with pytest.raises(MeterError):
        m.correct(-1, reason="x", supervisor="y")


def test_meter_refuses_float_amounts_and_bad_configuration():
    with pytest.raises(MeterError):
        ProgressiveMeter(amount=1.5, reset=0, contribution_bp=7000, awards=AWARDS)
    with pytest.raises(MeterError):
        ProgressiveMeter(amount=0, reset=0, contribution_bp=10001, awards=AWARDS)
    with pytest.raises(MeterError):
        ProgressiveMeter(amount=0, reset=0, contribution_bp=7000, awards={"flush": 5000})
    with pytest.raises(MeterError):
        meter().contribute([0])


def test_state_round_trips_through_json():
    m = meter(amount=1_234_567, bp=7333)
    m.contribute([100, 100, 100])
    m.pay([(2, "straight-flush")], round_id="r9")
    m.correct(1_200_000, reason="test", supervisor="sup")
    back = ProgressiveMeter.from_dict(json.loads(json.dumps(m.to_dict())))
    assert back == m and back.carry == m.carry and back.audit() == m.audit()
    # and it carries on identically
    assert back.contribute([100]) == m.contribute([100]) and back == m
    with pytest.raises(MeterError):
        ProgressiveMeter.from_dict({"amount": 5})


@given(st.lists(st.one_of(
    st.tuples(st.just("wagers"), st.lists(st.integers(1, 500), max_size=7)),
    st.tuples(st.just("hits"), st.lists(st.tuples(st.integers(1, 7), st.sampled_from(LEVELS)), max_size=4)),
), max_size=40), st.integers(0, 5_000_000), st.integers(0, 2_000_000))
@settings(max_examples=200, deadline=None)
def test_the_meter_moves_only_by_contributions_and_awards(ops, start, reset):
    m = meter(amount=start, reset=reset)
    for kind, arg in ops:
        before = m.amount
        if kind == "wagers":
            added = m.contribute(arg)
            assert m.amount == before + added >= before  # a contribution never lowers it
        else:
            hits = sorted(arg, key=lambda h: -h[0])
            p = m.pay(hits)
            from_meter = sum(a.amount for a in p.awards if a.from_meter)
            assert m.amount == before - from_meter + p.seeded
            assert m.amount >= 0
            royals = [a for a in p.awards if a.hand == "royal-flush"]
            if royals:  # every royal flush of the round shares one meter; shares differ by at most a cent
                assert max(a.amount for a in royals) - min(a.amount for a in royals) <= 1
            else:
                assert m.amount <= before
    assert m.balances()
