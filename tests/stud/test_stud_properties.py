"""Properties of Caribbean stud settlement over random rounds (hypothesis).

- Money is conserved: what the players win, plus what the house keeps, plus the
  meter's change, sums to zero over wagers, awards and contributions.
- The meter moves only by the round's contributions and the awards it pays.
- Every outcome agrees with an independent judge: treys ranks the hands, the
  dealer qualifies with a pair or better or a hand holding an ace and a king,
  and the paytable and payout limit price the bet.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from treys import Card as TCard
from treys import Evaluator

from controller.cards import CARDS, parse_cards
from controller.games.caribbean_stud.record import settle_record
from controller.games.caribbean_stud.rules import PAYTABLE_MINIMUM

EVALUATOR = Evaluator()
TREYS_NAME = {0: "royal-flush", 1: "straight-flush", 2: "four-of-a-kind", 3: "full-house", 4: "flush",
              5: "straight", 6: "three-of-a-kind", 7: "two-pair", 8: "pair", 9: "high-card"}
# Hands a random deal seldom gives, so the progressive's awards get exercised.
SPECIAL = [" ".join(f"{r}{s}" for r in "TJQKA") for s in "cdhs"] \
    + [" ".join(f"{r}{s}" for r in "23456") for s in "cdhs"] \
    + ["7c 7d 7h 7s 8c", "8d 8h 8s 9c 9d", "2h 5h 7h 9h Jh", "3s 5s 8s 9s Qs", "9h 9s Tc Td Th", "Ac 2d 3h 4s 5c"]
FIXED_LEVELS = ("flush", "full-house", "four-of-a-kind")


def judge(cards: list[str]) -> tuple[int, str]:
    """(strength, hand name) by treys: higher strength is the better hand."""
    rank = EVALUATOR.evaluate([TCard.new(c) for c in cards[:2]], [TCard.new(c) for c in cards[2:]])
    return -rank, TREYS_NAME[EVALUATOR.get_rank_class(rank) if rank != 1 else 0]


def qualifies(cards: list[str]) -> bool:
    strength, name = judge(cards)
    ranks = {c[0] for c in cards}
    return name != "high-card" or {"A", "K"} <= ranks


@st.composite
def rounds(draw):
    deck = iter(str(c) for c in draw(st.permutations(CARDS)))
    specials = draw(st.lists(st.sampled_from(SPECIAL), max_size=4, unique=True))
    used: set[str] = set()

    def take(n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            c = next(deck)
            if c not in used:
                used.add(c)
                out.append(c)
        return out

    seat_numbers = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    seats = []
    for i, n in enumerate(seat_numbers):
        count = draw(st.sampled_from([5] * 12 + [4, 6]))  # now and then a void hand (5324.37(h))
        special = specials[i].split() if i < len(specials) else None
        if count == 5 and special and not used & set(special):
            used.update(special)
            cards = special
        else:
            cards = take(count)
        s = {"seat": n, "ante": draw(st.integers(1, 100_000)), "cards": cards}
        if count == 5 or draw(st.booleans()):
            s["decision"] = draw(st.sampled_from(["bet", "bet", "fold"]))
        if draw(st.booleans()):
            s["progressive"] = True
        seats.append(s)
    dealer = take(draw(st.sampled_from([5] * 20 + [4])))
    progressive = {
        "wager": draw(st.sampled_from([100, 500, 1])),
        "meter": draw(st.integers(0, 10_000_000)),
        "reset": draw(st.integers(0, 2_000_000)),
        "contribution_bp": draw(st.integers(7000, 10000)),
        "straight-flush": draw(st.sampled_from([{"percent_of_meter": 10}, {"percent_of_meter": 25},
                                               {"fixed": 500_000}])),
    }
    rules = {"bet_multiple": draw(st.integers(1, 3)),
             "bet_payout_limit": draw(st.sampled_from([None, None, 100_000, 2_000_000])),
             "progressive": progressive}
    return {"game": "caribbean-stud", "rules": rules, "dealer": dealer, "seats": seats}


def wagers(seat: dict):
    return [seat[w] for w in ("ante", "bet", "progressive") if w in seat]


@given(rounds())
@settings(max_examples=150, deadline=None)   # every run draws anew; failures are kept in .hypothesis
def test_money_is_conserved_and_the_meter_moves_only_by_contributions_and_awards(record):
    out = settle_record(record)
    rules = record["rules"]
    p = rules["progressive"]
    players = sum(w["net"] for s in out["seats"] for w in wagers(s))
    prog = out.get("progressive")
    if prog is None:
        assert not any(s.get("progressive") for s in record["seats"])
        # without a progressive, the house takes exactly what the players lose
        house = -sum(w["net"] for s in out["seats"] for w in wagers(s))
        assert players + house == 0
        return
    # The house's side, from the flows alone: it keeps losing antes and bets and pays winning
    # ones, takes every progressive stake that was not voided, hands the contributions to
    # the meter, pays the fixed awards itself and refills the meter at its reset after a royal.
    fixed = set(FIXED_LEVELS) | ({"straight-flush"} if "fixed" in p["straight-flush"] else set())
    stakes_taken = sum(s["progressive"]["stake"] for s in out["seats"]
                       if "progressive" in s and s["progressive"]["outcome"] != "void")
    awards = prog["awards"]
    house_paid = sum(a["amount"] for a in awards if a["hand"] in fixed)
    meter_paid = sum(a["amount"] for a in awards if a["hand"] not in fixed)
    seeded = p["reset"] if any(a["hand"] == "royal-flush" for a in awards) else 0
    house = (-sum(s[w]["net"] for s in out["seats"] for w in ("ante", "bet") if w in s)
             + stakes_taken - prog["contributions"] - house_paid - seeded)
    meter_change = prog["meter_after"] - prog["meter_before"]
    assert players + house + meter_change == 0
    assert meter_change == prog["contributions"] - meter_paid + seeded
    assert prog["meter_before"] == p["meter"]
    count = sum(1 for s in record["seats"] if s.get("progressive"))
    assert prog["contributions"] == count * p["wager"] * p["contribution_bp"] // 10_000
    # awards: in payment order, seat 7 down to seat 1, and each one is the seat's wager
    assert [a["seat"] for a in awards] == sorted((a["seat"] for a in awards), reverse=True)
    won = {s["seat"]: s["progressive"] for s in out["seats"] if "progressive" in s}
    assert {a["seat"]: a["amount"] for a in awards} == {
        n: w["award"] for n, w in won.items() if w["outcome"] == "win"}
    for _n, w in won.items():
        assert w["net"] == (w["award"] - w["stake"] if w["outcome"] == "win" else
                            0 if w["outcome"] == "void" else -w["stake"])


@given(rounds())
@settings(max_examples=150, deadline=None)   # every run draws anew; failures are kept in .hypothesis
def test_every_outcome_agrees_with_an_independent_judge(record):
    out = settle_record(record)
    rules = record["rules"]
    limit = rules["bet_payout_limit"]
    dealer = record["dealer"]
    assert [s["seat"] for s in out["seats"]] == sorted(s["seat"] for s in record["seats"])
    given_seats = {s["seat"]: s for s in record["seats"]}
    dealer_void = len(dealer) != 5
    if not dealer_void:
        d_strength, d_name = judge(dealer)
        assert out["dealer"]["hand"] == d_name
        assert out["dealer"]["qualifies"] == qualifies(dealer)
    assert out["dealer"]["up_card"] == dealer[0]
    for s in out["seats"]:
        g = given_seats[s["seat"]]
        assert s["cards"] == g["cards"]
        stake = g["ante"] * rules["bet_multiple"]
        if dealer_void or len(g["cards"]) != 5:
            assert s["void"] is True and "hand" not in s
            assert all(w["outcome"] == "void" and w["net"] == 0 for w in wagers(s))
            assert ("bet" in s) == (g.get("decision") == "bet")
            continue
        strength, name = judge(g["cards"])
        assert s["hand"] == name
        if g["decision"] == "fold":
            assert s["ante"] == {"stake": g["ante"], "outcome": "lose", "net": -g["ante"]} and "bet" not in s
            if g.get("progressive"):
                assert s["progressive"]["outcome"] == "lose"
            continue
        if not qualifies(dealer):
            assert s["ante"]["net"] == g["ante"] and s["bet"] == {"stake": stake, "outcome": "void", "net": 0}
        elif strength > d_strength:
            odds = PAYTABLE_MINIMUM["pair-or-less" if name in ("pair", "high-card") else name]
            pay = stake * odds if limit is None else min(stake * odds, limit)
            capped = {"capped": True, "uncapped": stake * odds} if pay < stake * odds else {}
            assert s["ante"]["net"] == g["ante"] and s["bet"] == {"stake": stake, "outcome": "win", "net": pay, **capped}
        elif strength < d_strength:
            assert s["ante"]["net"] == -g["ante"] and s["bet"] == {"stake": stake, "outcome": "lose", "net": -stake}
        else:
            assert s["ante"]["outcome"] == s["bet"]["outcome"] == "push"
        if g.get("progressive"):
            wins = name in ("flush", "full-house", "four-of-a-kind", "straight-flush", "royal-flush")
            assert (s["progressive"]["outcome"] == "win") == wins


@given(st.permutations(CARDS), st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True),
       st.sampled_from(["manual", "automated"]))
@settings(max_examples=100, deadline=None)
def test_a_shoe_settles_as_the_hands_it_deals(deck, seat_numbers, mode):
    shoe = [str(c) for c in deck]
    seats = [{"seat": n, "ante": 100, "decision": "bet"} for n in seat_numbers]
    dealt = settle_record({"game": "caribbean-stud", "shoe": shoe, "dealing": mode, "seats": seats})
    given_cards = {"game": "caribbean-stud", "dealer": dealt["dealer"]["cards"],
                   "seats": [dict(s, cards=next(x["cards"] for x in dealt["seats"] if x["seat"] == s["seat"]))
                             for s in seats]}
    assert settle_record(given_cards) == dealt
    # the hands are the first cards of the shoe and nothing else, each card once
    used = dealt["dealer"]["cards"] + [c for s in dealt["seats"] for c in s["cards"]]
    assert sorted(used) == sorted(shoe[:5 * (len(seats) + 1)])
    assert parse_cards(used)  # all distinct and valid
