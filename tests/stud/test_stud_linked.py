"""A round on a linked progressive (issue 10): the table's meter never moves; the pool pays the hits.

The round machine settles the base game as always, claims each winning
progressive hand, and waits in validation for the pool's answer (the `pool_awards`
event the table journals) before a supervisor can validate or refuse a win.
"""

from __future__ import annotations

import copy

import pytest

from controller.games.base import EventRefused
from controller.games.caribbean_stud.machine import CaribbeanStudRound, State, new_meter
from controller.games.caribbean_stud.record import settle_record
from controller.games.caribbean_stud.rules import base_game, settlement_steps
from tests.stud.test_stud_machine import DEALER, REVEALED, RULES, SEAT1, SEAT4, SETTLED, WAGERS
from tests.rounds import apply

POOL = "cs-main"
ROYAL = {"seat": 1, "hand": "royal-flush", "amount": 3_123_456, "seq": 42, "meter_before": 3_123_456,
         "meter_after": 1_000_000, "shared_by": 1, "from_meter": True}


def linked(events, meter: int = 2_500_000) -> tuple[CaribbeanStudRound, list[dict]]:
    r = CaribbeanStudRound(RULES, new_meter(RULES, meter), linked=POOL)
    out: list[dict] = []
    for e in events:
        out.extend(apply(r, (copy.deepcopy(e))))
    return r, out


def test_a_linked_hit_is_claimed_from_the_pool_and_the_tables_meter_never_moves():
    r, effects = linked(SETTLED)
    assert r.state is State.VALIDATION
    assert r.meter.amount == 2_500_000 and r.meter.carry == 0          # no contribution, no award here
    assert not [e for e in effects if e["type"] == "meter"]
    claim = [e for e in effects if e["type"] == "claim_progressive"]
    assert claim == [{"type": "claim_progressive", "pool": POOL,
                      "hits": [{"seat": 1, "hand": "royal-flush", "cards": SEAT1, "award": None}]}]
    result = r.d.result
    seat1 = next(s for s in result["seats"] if s["seat"] == 1)
    assert seat1["progressive"] == {"stake": 100, "outcome": "claimed", "net": -100}
    assert result["progressive"] == {"pool": POOL, "claimed": [{"seat": 1, "hand": "royal-flush"}], "awards": []}
    # the record is the base game alone and re-settles (tablectl settle) to the output's base game
    assert "progressive" not in r.d.record["rules"]
    assert all("progressive" not in s for s in r.d.record["seats"])
    assert settle_record(r.d.record) == base_game(result)
    # the stake is collected with the losing wagers (5324.37(e)(4)), as for a table's own meter
    steps = settlement_steps(result, folds_collected=True)
    assert {"step": "collect", "seat": 1, "wager": "progressive", "amount": 100} in steps


def test_validation_waits_for_the_pools_award_and_pays_what_the_pool_says():
    r, _ = linked(SETTLED)
    for kind in ("validate", "refuse"):
        event = {"type": kind, "seat": 1, "supervisor": "pat", **({"reason": "x"} if kind == "refuse" else {})}
        with pytest.raises(EventRefused, match="not known yet: the pool 'cs-main' has not answered"):
            apply(r, (event))
    effects = apply(r, {"type": "pool_awards", "awards": [ROYAL]})
    assert effects == [{"type": "validate_progressive", "seat": 1, "hand": "royal-flush", "cards": SEAT1,
                        "award": 3_123_456, "pool": {k: ROYAL[k] for k in ("seq", "meter_before", "meter_after",
                                                                           "shared_by", "from_meter")}}]
    seat1 = next(s for s in r.d.result["seats"] if s["seat"] == 1)
    assert seat1["progressive"] == {"stake": 100, "outcome": "win", "net": 3_123_356, "award": 3_123_456}
    assert r.d.result["progressive"]["awards"] == [ROYAL]
    assert "pool_awards" not in r.allowed()                      # answered once
    paid = apply(r, {"type": "validate", "seat": 1, "supervisor": "pat"})
    assert {"type": "pay_progressive", "seat": 1, "hand": "royal-flush", "amount": 3_123_456,
            "supervisor": "pat"} in paid
    assert r.state is State.CLOSED and r.meter.amount == 2_500_000


def test_a_refused_linked_win_changes_no_local_meter():
    r, _ = linked(SETTLED)
    apply(r, {"type": "pool_awards", "awards": [ROYAL]})
    effects = apply(r, {"type": "refuse", "seat": 1, "supervisor": "pat", "reason": "light not lit"})
    assert effects[0] == {"type": "refuse_progressive", "seat": 1, "hand": "royal-flush", "amount": 3_123_456,
                          "supervisor": "pat", "reason": "light not lit", "returned": 0, "pool": POOL}
    assert not [e for e in effects if e["type"] == "meter"]
    assert r.state is State.CLOSED and r.meter.amount == 2_500_000
    assert r.d.refused == {1: {"supervisor": "pat", "reason": "light not lit", "returned": 0}}


@pytest.mark.parametrize("awards, why", [
    ([], "for seats [], the round claimed [1]"),
    ([{**ROYAL, "seat": 4}], "is not a claimed hit"),
    ([{**ROYAL, "hand": "flush"}], "the round claimed a 'royal-flush'"),
    ([ROYAL, ROYAL], "is not a claimed hit"),
])
def test_a_malformed_pool_answer_is_refused_and_changes_nothing(awards, why):
    r, _ = linked(SETTLED)
    before = r.snapshot()
    with pytest.raises(EventRefused, match=why.replace("[", r"\[").replace("]", r"\]")):
        apply(r, {"type": "pool_awards", "awards": awards})
    assert r.snapshot() == before


@pytest.mark.parametrize("awards, field", [
    ([{**ROYAL, "amount": -1}], "awards.0.amount"),
    ([{**ROYAL, "amount": 1.5}], "awards.0.amount"),
    ([{**ROYAL, "amount": True}], "awards.0.amount"),
    ([{**ROYAL, "extra": 1}], "awards.0.extra"),
    ("royal", "awards"),
])
def test_a_pool_answer_off_its_declaration_is_the_boundarys_to_refuse(awards, field):
    """What the pool's answer must hold is its declaration's (controller/games/caribbean_stud/events.py):
    the boundary refuses it naming the field, and the round never sees it."""
    r, _ = linked(SETTLED)
    before = r.snapshot()
    with pytest.raises(EventRefused) as err:
        apply(r, {"type": "pool_awards", "awards": awards})
    assert err.value.state == "boundary" and err.value.reason.startswith(f"{field}:")
    assert r.snapshot() == before


def test_pool_awards_is_refused_on_a_table_with_its_own_meter_and_outside_validation():
    own = CaribbeanStudRound(RULES, new_meter(RULES, 2_500_000))
    for e in SETTLED:
        apply(own, (copy.deepcopy(e)))
    with pytest.raises(EventRefused):
        apply(own, {"type": "pool_awards", "awards": [ROYAL]})
    r, _ = linked(REVEALED)
    with pytest.raises(EventRefused):
        apply(r, {"type": "pool_awards", "awards": [ROYAL]})


def test_a_claim_the_pool_refused_can_only_be_refused_by_the_supervisor():
    r, _ = linked(SETTLED)
    alarm = apply(r, {"type": "pool_awards", "refused": "LK007: round has no progressive contribution"})
    assert alarm[0]["kind"] == "claim_refused"
    with pytest.raises(EventRefused, match="the pool refused the claim"):
        apply(r, {"type": "validate", "seat": 1, "supervisor": "pat"})
    apply(r, {"type": "refuse", "seat": 1, "supervisor": "pat", "reason": "the pool has no contribution for it"})
    assert r.state is State.CLOSED


def test_a_linked_round_without_a_hit_closes_at_settlement_and_collects_the_stake():
    # seat 1's progressive wager with a pair of jacks instead of the royal flush
    events = [e for e in SETTLED]
    swapped = {a: b for a, b in zip(SEAT1, SEAT4, strict=True)} | {b: a for a, b in zip(SEAT1, SEAT4, strict=True)}
    events = [({**e, "card": swapped.get(e["card"], e["card"])} if e["type"] == "card" else e) for e in events]
    r, effects = linked(events)
    assert r.state is State.CLOSED
    assert not [e for e in effects if e["type"] == "claim_progressive"]
    seat1 = next(s for s in r.d.result["seats"] if s["seat"] == 1)
    assert seat1["progressive"] == {"stake": 100, "outcome": "lose", "net": -100}
    assert r.d.result["progressive"] == {"pool": POOL, "claimed": [], "awards": []}


def test_a_folded_progressive_hand_claims_nothing_and_a_round_without_progressive_has_no_block():
    folded = [e if e.get("seat") != 1 or e["type"] != "decision" else {**e, "decision": "fold"} for e in SETTLED]
    r, effects = linked(folded)
    assert r.state is State.CLOSED and not [e for e in effects if e["type"] == "claim_progressive"]
    plain = [e for e in SETTLED if e["type"] != "progressive"]
    r2, _ = linked(plain)
    assert "progressive" not in r2.d.result
    assert r2.d.result == base_game(r2.d.result)
    assert WAGERS[1]["type"] == "progressive" and DEALER    # the shared deal of test_stud_machine
