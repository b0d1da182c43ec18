"""A poker hand's facts: the qualifying hands for the jackpot, judged on the hand replayed from its
PHH by the rule the table posted (5324.42(r)(4)), and the rake by the method the PHH names."""

from __future__ import annotations

import dataclasses

from controller.poker.hand import Hand
from controller.poker.jackpot import JackpotRule
from controller.poker.phh import hand_to_phh
from controller.poker.rake import PercentageRake
from controller.report.facts import round_fact
from controller.report.figures import table_report
from tests.poker.poker_helpers import act, setup

BAD_BEAT = JackpotRule("bad-beat", 100, "four-of-a-kind", minimum_players=3)


def played(p1: str, p2: str, p3: str, board: str, jackpot=BAD_BEAT) -> dict:
    """A hold'em hand of three (p3 folds, p1 and p2 check it down), as the table journals its record."""
    rake = PercentageRake(rate_bp=1000, cap=500, minimum_pot=0)
    s = dataclasses.replace(setup("NT", [10_000] * 3, blinds=(100, 200)), jackpot=jackpot, rake=rake)
    h = act(Hand(s), f"d dh p1 {p1}, d dh p2 {p2}, d dh p3 {p3}, p3 f, p1 cc, p2 cc",
            f"d db {board[:6]}, p1 cc, p2 cc, d db {board[6:8]}, p1 cc, p2 cc, d db {board[8:]}, p1 cc, p2 cc",
            f"p1 sm {p1}, p2 sm {p2}")
    r = h.result
    return {"game": "texas-holdem", "phh": hand_to_phh(h), "seats": [1, 2, 3], "stacks_before": [10_000] * 3,
            "stacks_after": list(r.finishing_stacks), "rake": r.rake, "jackpot_drop": r.jackpot_drop, "void": None}


def test_a_bad_beat_is_a_qualifying_hand_and_a_plain_hand_is_not():
    beat = round_fact(10, "2026-12-01T12:00:00.000000Z", "PK-01-000001", played("8s8h", "3h4h", "AcAd", "5h6h7h8d8c"))
    plain = round_fact(20, "2026-12-01T12:05:00.000000Z", "PK-01-000002", played("2c3d", "AsKs", "7h8h", "9cTdJhQs4d"))
    assert beat["poker"]["qualifying"] == 1 and plain["poker"]["qualifying"] == 0
    assert beat["poker"]["rake_method"] == "percentage" and beat["poker"]["rake"] > 0
    t = table_report([beat, plain], "PK-01", None, "2026-12-01T00:00:00.000000Z", "2026-12-02T00:00:00.000000Z")
    assert t["game"] == "texas-holdem" and t["rounds"] == t["poker"]["hands"] == 2
    assert t["poker"]["qualifying_hands"] == 1
    assert t["poker"]["rake_by_method"] == {"percentage": beat["poker"]["rake"] + plain["poker"]["rake"]}
    assert t["house_win"] == t["poker"]["rake"]


def test_without_a_posted_jackpot_no_hand_qualifies():
    fact = round_fact(1, "2026-12-01T12:00:00.000000Z", "PK-01-000001",
                      played("8s8h", "3h4h", "AcAd", "5h6h7h8d8c", jackpot=None))
    assert fact["poker"]["qualifying"] == 0 and fact["poker"]["jackpot_drop"] == 0
