"""Caribbean stud settlement beyond the spec's examples (5324.37(e)-(h), shared/spec/rounds.md)."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.games.caribbean_stud import deal as dealing
from controller.games.caribbean_stud.record import settle_record
from controller.games.caribbean_stud.rules import (PAYTABLE_MINIMUM, StudRules, max_round_win, payout_limit_floor,
                                                   rule_violations, settlement_steps)
from controller.progressive import Fixed, PercentOfMeter
from tests.stud.stud_helpers import by_seat, record, seat

AK_DEALER = "As Kd 7h 4c 2s"        # high card, qualifies with the least hand that does
AQ_DEALER = "Ah Qc 9d 7s 3h"        # does not qualify


# --- (e)(4)-(5): the three ways a bet wager goes ---------------------------------------

def test_fold_loses_the_ante_and_places_no_bet():  # 5324.37(e)(1)
    out = settle_record(record(AK_DEALER, seat(3, 700, "Qh Qs 5c 5d 9h", "fold")))
    s = out["seats"][0]
    assert s["ante"] == {"stake": 700, "outcome": "lose", "net": -700}
    assert "bet" not in s and s["hand"] == "two-pair"


def test_dealer_without_ace_king_pays_the_ante_and_voids_the_bet():  # 5324.37(e)(5)(ii)
    out = settle_record(record(AQ_DEALER, seat(2, 1000, "2c 3d 8c Js 6h")))
    s = out["seats"][0]
    assert out["dealer"]["qualifies"] is False
    assert s["ante"] == {"stake": 1000, "outcome": "win", "net": 1000}
    assert s["bet"] == {"stake": 2000, "outcome": "void", "net": 0}


def test_dealer_pair_of_twos_qualifies():
    out = settle_record(record("2s 2d 7h 4c 9s", seat(1, 100, "Ah Kh Qc Jd 9c")))
    assert out["dealer"] == {"cards": ["2s", "2d", "7h", "4c", "9s"], "up_card": "2s", "hand": "pair",
                             "qualifies": True}
    assert by_seat(out)[1]["bet"]["outcome"] == "lose"


@pytest.mark.parametrize("player,hand,odds", [
    ("Ah Kh Qc Jd 9c", "high-card", 1),      # beats A-K-7-4-2 on the third card
    ("3c 3d 5h 8s Tc", "pair", 1),
    ("3c 3d 5h 5s Tc", "two-pair", 2),
    ("3c 3d 3h 8s Tc", "three-of-a-kind", 3),
    ("Ac 2d 3h 4s 5c", "straight", 4),       # the wheel, 5324.37(b)(1)
    ("3c 7c 9c Jc Qc", "flush", 5),
    ("3c 3d 3h 8s 8c", "full-house", 7),
    ("9c 9d 9h 9s Tc", "four-of-a-kind", 20),
    ("Ah 2h 3h 4h 5h", "straight-flush", 50),
    ("Tc Jc Qc Kc Ac", "royal-flush", 100),
])
def test_bet_pays_the_paytable_on_the_players_hand(player, hand, odds):  # 5324.37(g)(2)
    out = settle_record(record(AK_DEALER, seat(7, 300, player)))
    s = out["seats"][0]
    assert s["hand"] == hand
    assert s["ante"]["net"] == 300
    assert s["bet"] == {"stake": 600, "outcome": "win", "net": 600 * odds}


def test_ace_king_loses_to_a_higher_ace_king():  # 5324.37(b)(3): highest card not shared
    out = settle_record(record(AK_DEALER, seat(1, 100, "Ac Kh 6d 4h 3c")))
    assert out["seats"][0]["ante"]["outcome"] == "lose"
    assert out["seats"][0]["bet"] == {"stake": 200, "outcome": "lose", "net": -200}


def test_identical_ranks_push_both_wagers():  # 5324.37(e)(4)(ii)
    out = settle_record(record("As Kd 7h 4c 2s", seat(1, 100, "Ac Kh 7d 4h 2c")))
    s = out["seats"][0]
    assert s["ante"] == {"stake": 100, "outcome": "push", "net": 0}
    assert s["bet"] == {"stake": 200, "outcome": "push", "net": 0}


def test_the_wheel_is_the_lowest_straight():  # 5324.37(b)(2)(vi)
    out = settle_record(record("Ac 2d 3h 4s 5c", seat(1, 100, "2c 3d 4h 5s 6d")))
    assert out["dealer"]["hand"] == "straight"
    assert out["seats"][0]["bet"]["outcome"] == "win"


def test_no_wrap_around_straight():  # 5324.37(b)(1): the ace ends or starts, never wraps
    out = settle_record(record(AK_DEALER, seat(1, 100, "Qc Kc Ad 2h 3s")))
    assert out["seats"][0]["hand"] == "high-card"


# --- rules of the facility --------------------------------------------------------------

def test_payout_limit_caps_one_bet_wager():  # 5324.37(g)(3)
    out = settle_record(record(AK_DEALER, seat(1, 1000, "Th Jh Qh Kh Ah"), seat(2, 100, "3c 3d 3h 8s Tc"),
                               bet_payout_limit=150000))
    s = by_seat(out)
    assert s[1]["bet"] == {"stake": 2000, "outcome": "win", "net": 150000,   # 200000 capped, and said so
                           "capped": True, "uncapped": 200000}
    pays = [x for x in settlement_steps(out) if x["step"] == "pay" and x["wager"] == "bet"]
    assert pays == [{"step": "pay", "seat": 2, "wager": "bet", "amount": 600},
                    {"step": "pay", "seat": 1, "wager": "bet", "amount": 150000, "capped": True, "uncapped": 200000}]
    assert s[1]["ante"]["net"] == 1000                                         # the ante is not capped
    assert s[2]["bet"]["net"] == 600                                           # under the cap: unchanged


def test_richer_paytable_and_bet_multiple():
    table = dict(PAYTABLE_MINIMUM, flush=6)
    out = settle_record(record(AK_DEALER, seat(1, 100, "3c 7c 9c Jc Qc"), bet_multiple=3, paytable=table))
    assert out["seats"][0]["bet"] == {"stake": 300, "outcome": "win", "net": 1800}


def test_partial_rules_keep_the_other_defaults():
    out = settle_record(record(AK_DEALER, seat(1, 100, "3c 7c 9c Jc Qc", progressive=True),
                               paytable={"flush": 8}, progressive={"flush": 7500}))
    s = out["seats"][0]
    assert s["bet"]["net"] == 1600
    assert s["progressive"] == {"stake": 100, "outcome": "win", "net": 7400, "award": 7500}
    assert out["progressive"]["meter_before"] == 2500000
    assert out["progressive"]["contributions"] == 70


def test_rule_violations_are_those_the_record_refuses():
    assert rule_violations(StudRules()) == []
    bad = StudRules(paytable=dict(PAYTABLE_MINIMUM, straight=3))
    assert [f for f, _ in rule_violations(bad)] == ["paytable.straight"]


# --- (g)(3): the floor of the payout limit, for the table profile check --------------

def test_max_round_win_is_ante_plus_royal_flush_bet():
    assert max_round_win(500) == 500 + 500 * 2 * 100
    assert max_round_win(500, StudRules(bet_multiple=3, paytable=dict(PAYTABLE_MINIMUM, **{"royal-flush": 250}))) \
        == 500 + 1500 * 250


def test_payout_limit_floor_is_the_greater_of_the_two():
    assert payout_limit_floor(5_000_000, 500) == 5_000_000
    assert payout_limit_floor(50_000, 500) == 100_500
    with pytest.raises(ValueError):
        max_round_win(0)


def test_a_limit_at_the_floor_pays_every_bet_in_full_at_the_minimum_ante():
    floor = payout_limit_floor(0, 500)
    out = settle_record(record(AK_DEALER, seat(1, 500, "Tc Jc Qc Kc Ac"), bet_payout_limit=floor))
    assert out["seats"][0]["bet"]["net"] == 500 * 2 * 100


# --- void hands (5324.37(h)) ------------------------------------------------------------

def test_a_hand_of_four_is_void_and_reported_as_given():
    out = settle_record(record(AK_DEALER, seat(1, 100, "Tc Jc Qc Kc", "bet", progressive=True),
                               seat(2, 100, "3c 3d 5h 8s Td")))
    s = by_seat(out)
    assert s[1] == {"seat": 1, "cards": ["Tc", "Jc", "Qc", "Kc"], "void": True,
                    "ante": {"stake": 100, "outcome": "void", "net": 0},
                    "bet": {"stake": 200, "outcome": "void", "net": 0},
                    "progressive": {"stake": 100, "outcome": "void", "net": 0}}
    assert s[2]["bet"]["outcome"] == "win"
    # the voided progressive wager's contribution stays in the meter
    assert out["progressive"] == {"meter_before": 2500000, "contributions": 70, "meter_after": 2500070,
                                  "awards": []}


def test_a_hand_of_six_is_void_too():
    out = settle_record(record(AK_DEALER, seat(1, 100, "Tc Jc Qc Kc Ac 9c", None)))
    assert out["seats"][0]["void"] is True and "bet" not in out["seats"][0]


def test_a_dealer_hand_of_four_voids_every_hand():
    out = settle_record(record("As Kd 7h 4c", seat(1, 100, "Tc Jc Qc Kc Ac", progressive=True),
                               seat(5, 200, "3c 3d 5h 8s Td", None)))
    assert out["dealer"] == {"cards": ["As", "Kd", "7h", "4c"], "up_card": "As", "void": True}
    for s in out["seats"]:
        assert s["void"] is True and "hand" not in s
        assert all(s[w]["outcome"] == "void" and s[w]["net"] == 0 for w in ("ante", "bet", "progressive") if w in s)
    assert out["progressive"]["awards"] == [] and out["progressive"]["meter_after"] == 2500070


# --- dealing from a shoe (5324.37(d)) ---------------------------------------------------

SHOE = "Ad Ac 8s 6d 2h Th Jd Qs Kh Ah 4c 4d 7h 8c 9c Kc Qc 9d 5h 3h 2s 3s".split()


def test_manual_deal_is_one_card_round_the_table_five_times():  # 5324.37(d)(1)
    out = settle_record({"game": "caribbean-stud", "shoe": SHOE, "dealing": "manual",
                         "seats": [{"seat": 5, "ante": 100, "decision": "bet"},
                                   {"seat": 2, "ante": 100, "decision": "fold"}]})
    s = by_seat(out)
    # seat order is 2, 5, then the dealer; the dealer's first card is the up card
    assert s[2]["cards"] == [SHOE[i] for i in (0, 3, 6, 9, 12)]
    assert s[5]["cards"] == [SHOE[i] for i in (1, 4, 7, 10, 13)]
    assert out["dealer"]["cards"] == [SHOE[i] for i in (2, 5, 8, 11, 14)]
    assert out["dealer"]["up_card"] == SHOE[2]
    assert [x["seat"] for x in out["seats"]] == [2, 5]


def test_automated_deal_is_stacks_in_seat_order_then_the_dealer():  # 5324.37(d)(2)-(3)
    out = settle_record({"game": "caribbean-stud", "shoe": SHOE[:15], "dealing": "automated",
                         "seats": [{"seat": 6, "ante": 100, "decision": "bet"},
                                   {"seat": 1, "ante": 100, "decision": "bet"}]})
    s = by_seat(out)
    assert s[1]["cards"] == SHOE[0:5] and s[6]["cards"] == SHOE[5:10]
    assert out["dealer"]["cards"] == SHOE[10:15] and out["dealer"]["up_card"] == SHOE[10]


def test_deal_order_helpers():
    assert dealing.manual_order([3, 1]) == [1, 3, "dealer"] * 5
    assert dealing.stack_order([7, 2, 4]) == [2, 4, 7, "dealer"]
    hands, dealer = dealing.deal(parse_cards(SHOE[:10]), [4], "automated")
    assert [str(c) for c in hands[4]] == SHOE[:5] and [str(c) for c in dealer] == SHOE[5:10]
    with pytest.raises(ValueError):
        dealing.deal(parse_cards(SHOE[:9]), [4], "manual")


# --- progressive awards (5324.37(f), (g)(4)-(6)) -------------------------------------

def test_progressive_pays_whatever_the_dealer_holds():  # 5324.37(f)(3)
    out = settle_record(record(AQ_DEALER, seat(1, 100, "8c 8d 8h 5s 5c", progressive=True)))
    s = out["seats"][0]
    assert s["bet"]["outcome"] == "void"
    assert s["progressive"] == {"stake": 100, "outcome": "win", "net": 9900, "award": 10000}
    # fixed awards come from the house, not the meter
    assert out["progressive"]["meter_after"] == 2500070


def test_progressive_pays_a_losing_hand_too():
    out = settle_record(record("9s 9d 9h 9c 2s", seat(1, 100, "3c 7c Tc Jc Qc", progressive=True)))
    s = out["seats"][0]
    assert s["bet"]["outcome"] == "lose"
    assert s["progressive"]["award"] == 5000


def test_no_award_below_a_flush():
    out = settle_record(record(AK_DEALER, seat(1, 100, "Ac 2d 3h 4s 5c", progressive=True)))
    assert out["seats"][0]["progressive"] == {"stake": 100, "outcome": "lose", "net": -100}
    assert out["progressive"]["awards"] == []


def test_fixed_straight_flush_does_not_touch_the_meter():
    out = settle_record(record(AK_DEALER, seat(1, 100, "5s 6s 7s 8s 9s", progressive=True),
                               progressive={"straight-flush": {"fixed": 600000}}))
    assert out["seats"][0]["progressive"]["award"] == 600000
    assert out["progressive"]["meter_after"] == 2500070


def test_awards_in_payment_order_seat_7_to_1_each_at_the_meter_then():  # 5324.37(e)(4)(iii), (g)(6)
    # seat 6's straight flush is paid first at 10% of 1,000,210; seat 2's at 10% of what is left.
    out = settle_record(record("Kc Kh 4d Js 2c",
                               seat(2, 100, "5s 6s 7s 8s 9s", progressive=True),
                               seat(4, 100, "3c 3d 3h Tc Th", progressive=True),
                               seat(6, 100, "5d 6d 7d 8d 9d", progressive=True),
                               progressive={"meter": 1000000}))
    first = 1000210 // 10
    second = (1000210 - first) // 10
    assert out["progressive"]["awards"] == [
        {"seat": 6, "hand": "straight-flush", "amount": first},
        {"seat": 4, "hand": "full-house", "amount": 10000},
        {"seat": 2, "hand": "straight-flush", "amount": second}]
    assert out["progressive"]["meter_after"] == 1000210 - first - second


def test_straight_flush_after_a_royal_takes_its_percent_of_the_reset_meter():
    out = settle_record(record("Kc Kh 4d Js 2c",
                               seat(1, 100, "5s 6s 7s 8s 9s", progressive=True),
                               seat(5, 100, "Td Jd Qd Kd Ad", progressive=True),
                               progressive={"meter": 2000000, "reset": 500000}))
    assert out["progressive"]["awards"] == [{"seat": 5, "hand": "royal-flush", "amount": 2000140},
                                            {"seat": 1, "hand": "straight-flush", "amount": 50000}]
    assert out["progressive"]["meter_after"] == 450000


def test_three_royals_share_the_meter_odd_cents_first():
    out = settle_record(record("9c 9h 4d 6s 2c",
                               seat(1, 100, "Ts Js Qs Ks As", progressive=True),
                               seat(3, 100, "Th Jh Qh Kh Ah", progressive=True),
                               seat(7, 100, "Td Jd Qd Kd Ad", progressive=True),
                               progressive={"meter": 1000000}))
    # 1,000,210 / 3 = 333,403 rem 1: the first paid (seat 7) gets the odd cent
    assert [a["amount"] for a in out["progressive"]["awards"]] == [333404, 333403, 333403]
    assert [a["seat"] for a in out["progressive"]["awards"]] == [7, 3, 1]
    assert out["progressive"]["meter_after"] == 1000000


def test_folded_royal_flush_wins_nothing():
    out = settle_record(record(AK_DEALER, seat(1, 100, "Th Jh Qh Kh Ah", "fold", progressive=True)))
    assert out["seats"][0]["progressive"]["outcome"] == "lose"
    assert out["progressive"]["meter_after"] == 2500070


def test_contributions_round_down_over_the_round():
    # 3 wagers of 100 at 73.33% = 219.99 cents: 219 added
    out = settle_record(record(AK_DEALER, *(seat(n, 100, h, progressive=True) for n, h in (
        (1, "2c 3d 8c Jh 6h"), (2, "2d 3h 8d Jd 6s"), (3, "2h 3s 8h Js 6c"))),
        progressive={"contribution_bp": 7333}))
    assert out["progressive"]["contributions"] == 219


def test_no_progressive_section_without_a_progressive_wager():
    assert "progressive" not in settle_record(record(AK_DEALER, seat(1, 100, "2c 3d 8c Jh 6h")))


# --- the order of settlement (5324.37(e)(4)-(5)) ---------------------------------------

def test_settlement_steps_collect_then_push_then_pay_from_seat_7():
    out = settle_record(record(AK_DEALER,
                               seat(1, 100, "3c 3d 5h 8s Td"),                # wins
                               seat(2, 100, "Ac Kh 7d 4h 2c"),                # push
                               seat(3, 100, "Jc 9d 5c 4d 3h", "fold"),        # folded
                               seat(5, 100, "Ad Kc 6d 5d 2d"),                # loses
                               seat(6, 100, "8c 8d 9h 6h Jd", progressive=True)))   # wins
    steps = settlement_steps(out)
    kinds = [s["step"] for s in steps]
    assert kinds == sorted(kinds, key=["collect", "push", "void", "pay"].index)
    collect = [(s["seat"], s["wager"]) for s in steps if s["step"] == "collect"]
    assert collect == [(6, "progressive"), (5, "ante"), (5, "bet"), (3, "ante")]
    assert [(s["seat"], s["wager"]) for s in steps if s["step"] == "pay"] == [
        (6, "ante"), (6, "bet"), (1, "ante"), (1, "bet")]
    assert [(s["seat"], s["step"]) for s in steps if s["step"] == "push"] == [(2, "push"), (2, "push")]
    # the fold was collected at the fold (e)(1): the table leaves it out
    assert (3, "ante") not in [(s["seat"], s["wager"]) for s in settlement_steps(out, folds_collected=True)]


def test_progressive_award_kinds_serialize():
    assert Fixed(5).to_dict() == {"fixed": 5}
    assert PercentOfMeter(10).to_dict() == {"percent_of_meter": 10}
