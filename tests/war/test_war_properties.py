"""Property tests: settlement against the regulation's words, money and cards accounted for."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from controller.cards import CARDS, RANKS, SUITS
from controller.games.casino_war.machine import CasinoWarRound, State
from controller.games.casino_war.record import settle_record
from controller.games.casino_war.rules import Rules
from controller.games.casino_war.shoe import WarShoe
from tests.war.war_helpers import stacked_shoe
from tests.rounds import apply as handed

CARD_TEXT = [str(c) for c in CARDS]
KINDS = ("initial", "tie", "war", "war_tie")


def rank(card: str) -> int:
    return RANKS.index(card[0])


def oracle(seat: dict, dealer: dict, rules: Rules) -> dict:
    """Each wager's (outcome, net), read straight off 5324.22(i) and (j) and the spec."""
    p, d = rank(seat["card"]), rank(dealer["card"])
    out = {}
    stake = seat["initial"]
    if p > d:
        out["initial"] = ("win", stake)
    elif p < d:
        out["initial"] = ("lose", -stake)
    elif seat["decision"] == "surrender":
        out["initial"] = ("surrender", -(stake - stake // 2))
    else:
        wp, wd = rank(seat["war_card"]), rank(dealer["war_card"])
        if wp == wd:
            out["initial"] = ("push", 0)
            out["war"] = ("win", stake * rules.war_tie_odds)
        elif wp > wd:
            out["initial"] = ("lose", -stake)
            out["war"] = ("win", stake * rules.war_odds)
        else:
            out["initial"] = ("lose", -stake)
            out["war"] = ("lose", -stake)
        if "war_tie" in seat:
            out["war_tie"] = (("win", seat["war_tie"] * rules.tie_odds) if wp == wd
                              else ("lose", -seat["war_tie"]))
    if "tie" in seat:
        out["tie"] = ("win", seat["tie"] * rules.tie_odds) if p == d else ("lose", -seat["tie"])
    return out


stakes = st.integers(min_value=1, max_value=10**7)
rules_st = st.builds(Rules, decks=st.sampled_from([6, 7, 8]),
                     tie_odds=st.integers(10, 15), war_odds=st.integers(2, 4),
                     war_tie_odds=st.integers(3, 6))


def card_like(draw, other: str, same: bool) -> str:
    """A card of the same rank as `other` (a tie) or any card."""
    if same:
        return other[0] + draw(st.sampled_from(SUITS))
    return draw(st.sampled_from(CARD_TEXT))


@st.composite
def dealt_records(draw):
    rules = draw(rules_st)
    dealer = {"card": draw(st.sampled_from(CARD_TEXT))}
    seats = []
    for n in sorted(draw(st.sets(st.integers(1, 7), min_size=1))):
        seat = {"seat": n, "initial": draw(stakes),
                "card": card_like(draw, dealer["card"], draw(st.booleans()))}
        if draw(st.booleans()):
            seat["tie"] = draw(stakes)
        if rank(seat["card"]) == rank(dealer["card"]):
            seat["decision"] = draw(st.sampled_from(["surrender", "war"]))
        if seat.get("decision") == "war":
            if "war_card" not in dealer:
                dealer["war_card"] = draw(st.sampled_from(CARD_TEXT))
            seat["war_card"] = card_like(draw, dealer["war_card"], draw(st.booleans()))
            if draw(st.booleans()):
                seat["war_tie"] = draw(stakes)
        seats.append(seat)
    every = [dealer["card"], dealer.get("war_card")] + [s[k] for s in seats
                                                       for k in ("card", "war_card") if k in s]
    assume(max(Counter(c for c in every if c).values()) <= rules.decks)
    order = draw(st.permutations(seats))
    return {"game": "casino-war", "rules": rules.as_record(), "dealer": dealer,
            "seats": list(order)}, rules


@settings(max_examples=150, deadline=None)   # every run draws anew; failures are kept in .hypothesis
@given(dealt_records())
def test_settle_record_agrees_with_the_regulation(case):
    record, rules = case
    out = settle_record(json.loads(json.dumps(record)))
    by_seat = {s["seat"]: s for s in record["seats"]}
    assert [s["seat"] for s in out["seats"]] == sorted(by_seat)
    assert out["dealer"] == record["dealer"] and out["burned"] == []
    for seat_out in out["seats"]:
        seat = by_seat[seat_out["seat"]]
        want = oracle(seat, record["dealer"], rules)
        got = {k: (seat_out[k]["outcome"], seat_out[k]["net"]) for k in KINDS if k in seat_out}
        assert got == want
        for k in got:
            stake = seat[k] if k != "war" else seat["initial"]
            assert seat_out[k]["stake"] == stake
            assert seat_out[k]["net"] >= -stake          # never lose more than the stake


# -- rounds played through the machine -----------------------------------------------

@st.composite
def shoes(draw):
    """A whole shoe: shuffled by a seeded source, or stacked with look-alike cards up
    front so that tie hands and wars are common."""
    decks = draw(st.sampled_from([6, 7, 8]))
    n = 52 * decks
    cover_at = draw(st.integers(1, n - 1))
    if draw(st.booleans()):
        rng = random.Random(draw(st.integers(0, 2**32)))
        return WarShoe.shuffled(decks, rng, cover_at=cover_at)
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=3, unique=True))
    top = draw(st.lists(st.sampled_from([r + s for r in ranks for s in SUITS]), max_size=40))
    assume(not top or max(Counter(top).values()) <= decks)
    return stacked_shoe(top, decks=decks, cover_at=cover_at)


def play_round(draw, shoe: WarShoe) -> tuple[CasinoWarRound, list[dict]]:
    """One round from the shoe with drawn wagers, voids and decisions; every effect."""
    r = CasinoWarRound(Rules(decks=shoe.decks), burn=shoe.open_round())
    effects: list[dict] = []

    def apply(event):
        out = handed(r, event)
        shoe.rack.carry_out(out)
        effects.extend(out)

    for seat in sorted(draw(st.sets(st.integers(1, 7), min_size=1))):
        if draw(st.integers(0, 9)):
            apply({"type": "wager", "seat": seat, "wager": "initial", "stake": draw(stakes)})
        if draw(st.booleans()):
            apply({"type": "wager", "seat": seat, "wager": "tie", "stake": draw(stakes)})
    if not any("initial" in w for w in r.wagers.values()):
        apply({"type": "wager", "seat": 1, "wager": "initial", "stake": 100})
    apply({"type": "no_more_bets"})
    while r.state is not State.CLOSED:
        if r.state is State.FIRST_DEAL and r.next_slot()[0] == "seat" and \
                len([s for k, s in r.order if k == "seat"]) > 1 and not draw(st.integers(0, 15)):
            apply({"type": "no_card", "seat": r.next_slot()[1]})
        elif r.wants_card():
            for event in shoe.draw(burn=r.next_slot()[0] == "burn"):
                apply(event)
        elif r.state is State.DECISIONS:
            seat = next(s for s in r.tie_hands if s not in r.decisions)
            event = {"type": "decision", "seat": seat,
                     "decision": draw(st.sampled_from(["war", "surrender"]))}
            if event["decision"] == "war" and draw(st.booleans()):
                event["war_tie"] = draw(stakes)
            apply(event)
        else:
            apply({"type": "settle"})
    return r, effects


def check_money(r: CasinoWarRound, effects: list[dict]) -> None:
    """Every chip put on the layout comes back to the player or goes to the house, once."""
    placed: dict = {}
    for e in effects:
        if e["type"] == "wager":
            placed[(e["seat"], e["wager"])] = e["stake"]
        elif e["type"] == "war_wager":
            placed[(e["seat"], "war")] = e["stake"]
            if "war_tie" in e:
                placed[(e["seat"], "war_tie")] = e["war_tie"]
    settled: dict = {}

    def settle(seat, kind, w):
        key = (seat, kind)
        assert key not in settled, f"{key} settled twice"
        settled[key] = w

    for e in effects:
        if e["type"] == "settle":
            for s in e["seats"]:
                for kind in KINDS:
                    if kind in s:
                        settle(s["seat"], kind, s[kind])
        elif e["type"] == "surrender":
            settle(e["seat"], "initial", e["initial"])
        elif e["type"] == "void":
            for kind in ("initial", "tie"):
                if kind in e:
                    settle(e["seat"], kind, e[kind])
    assert set(settled) == set(placed)
    for key, w in settled.items():
        assert w["stake"] == placed[key]
        assert w["net"] >= -w["stake"]
    closed = effects[-2] if effects[-1]["type"] == "reshuffle" else effects[-1]
    assert closed["type"] == "round_closed"
    final = {(s["seat"], k): s[k] for s in closed["settlement"]["seats"] for k in KINDS if k in s}
    final.update({(v["seat"], k): v[k] for v in closed["void"] for k in ("initial", "tie")
                  if k in v})
    # What the dealer paid and collected step by step is what the record settles to.
    assert final == settled
    players = sum(w["net"] for w in settled.values())
    chips_back = sum(w["stake"] + w["net"] for w in settled.values())
    assert sum(placed.values()) + players == chips_back
    # The record the table journals re-settles to the same round, through JSON.
    assert settle_record(json.loads(json.dumps(closed["record"]))) == closed["settlement"]


def check_cards(shoe: WarShoe, r: CasinoWarRound) -> None:
    """Every card of the shoe is in the discard rack (dealt or burned) or still in the shoe."""
    assert Counter(shoe.rack.cards()) + Counter(shoe.left()) == Counter(shoe.cards)
    burns = [e["burn"] for e in shoe.rack.entries if "burn" in e]
    assert burns == [str(c) for c in shoe.burned]
    hands = Counter(c for e in shoe.rack.entries if "hands" in e
                    for h in e["hands"] for c in h["cards"])
    assert hands == Counter(str(c) for c in shoe.dealt)
    assert r.on_table == {}
    # The round's record lists exactly the cards that came out for it, in order.
    n = len(r.drawn)
    taken = len(shoe.cards) - shoe.remaining
    assert [str(c) for c in shoe.cards[taken - n:taken]] == r.record["shoe"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_round_conserves_money_and_cards(data):
    shoe = data.draw(shoes())
    r, effects = play_round(data.draw, shoe)
    check_money(r, effects)
    check_cards(shoe, r)
    for kind in ("war_wager", "surrender", "void", "cover_card"):
        if any(e["type"] == kind for e in effects):
            event(kind)
    assert ("reshuffle" in [e["type"] for e in effects]) == shoe.cover_out == r.cover_out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_rounds_until_the_cover_card_account_for_every_card(data):
    shoe = data.draw(shoes())
    rounds = 0
    while not shoe.needs_reshuffle and shoe.remaining > 60:
        r, effects = play_round(data.draw, shoe)
        check_money(r, effects)
        check_cards(shoe, r)
        rounds += 1
        if rounds > 1:
            assert r.burn == 0          # only the shoe's first round opens with a burn card
    if shoe.needs_reshuffle:
        assert effects[-1]["type"] == "reshuffle"
