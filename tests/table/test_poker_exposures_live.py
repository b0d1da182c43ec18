"""Exposed hole cards at the live table (issue 31, item 1): 5324.42(p)(6), (p)(7), (p)(9).

Driven through the table the dealer's console drives (TableState and its PokerRound), with the
console's own events: the exposure touched before "Hole cards dealt" too, and the (p)(6) choice
carried out in the pots.
"""

from __future__ import annotations

import pytest

from controller.config import load_profile
from controller.games.base import EventRefused
from controller.games.poker.contract import check_view
from controller.runtime.tablestate import TableState
from tests.rounds import apply, table_event

STUD = "config/seven-card-stud.toml"
FIVE = "config/five-card-stud.toml"
HOLDEM = "config/texas-holdem.toml"


def hand(profile: str, *seats: int, stack: int = 20_000):
    state = TableState(load_profile(profile))
    for seat in seats:
        table_event(state, {"type": "sit", "seat": seat, "stack": stack})
    state.open_round()
    r = state.round
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    return state, r


def send(r, **event) -> list[dict]:
    return apply(r, event)


def act(r, *actions: str) -> None:
    for a in actions:
        apply(r, {"type": "action", "action": a})


def player(r, seat: int) -> dict:
    view = r.view()
    check_view(view)
    return next(x for x in view["poker"]["players"] if x["seat"] == seat)


def test_p6_a_first_hole_card_exposed_before_hole_cards_dealt_the_third_card_comes_face_down():
    """5324.42(p)(6): touched before "Hole cards dealt", the exposed card is the one showing and the
    card still owed to the seat comes face down (no up card asked of it)."""
    _, r = hand(STUD, 1, 2, 3)
    send(r, type="expose", seat=2, card="As")
    assert r.view()["poker"]["owed"]["hole"]["2"] == [False, False]     # no up card is owed to seat 2 now
    me = player(r, 2)
    assert me["cards"] == ["As"] and me["up"] == [True]
    send(r, type="deal_hole", up={"1": ["Kd"], "3": ["9c"]})
    me = player(r, 2)
    assert me["up"] == [True, False, False] and me["cards"][0] == "As"
    assert r.view()["poker"]["phase"] == "bet"


def test_p6_both_hole_cards_exposed_the_hand_is_dead_and_the_ante_returned():
    """5324.42(p)(6): both hole cards turned up: the hand is dead and the player's ante comes back."""
    _, r = hand(STUD, 1, 2, 3)
    send(r, type="expose", seat=2, card="As")
    send(r, type="expose", seat=2, card="Kh")
    me = player(r, 2)
    assert me["folded"] and me["stack"] == 20_000 and me["bet"] == 0          # the 50-cent ante back
    send(r, type="deal_hole", up={"1": ["Kd"], "3": ["9c"]})
    assert r.view()["poker"]["pot"] == 100                                   # the two antes still in
    with pytest.raises(EventRefused):
        send(r, type="fold", seat=2)


def test_p7_five_card_stud_hole_card_exposed_the_second_card_comes_face_down():
    """5324.42(p)(7): five-card stud, the hole card turned up: the second card is dealt face down."""
    _, r = hand(FIVE, 1, 2)
    send(r, type="expose", seat=1, card="Qs")
    assert r.view()["poker"]["owed"]["hole"] == {"1": [False], "2": [False, True]}
    send(r, type="deal_hole", up={"2": ["3d"]})
    assert player(r, 1)["up"] == [True, False]
    assert r.view()["poker"]["phase"] == "bet"


def _to_seventh(r) -> None:
    """Three players to the seventh street, each checking (the bring-in by seat 3's 2c)."""
    send(r, type="deal_hole", up={"1": ["Kd"], "2": ["9h"], "3": ["2c"]})
    send(r, type="bring_in", seat=3)
    send(r, type="check_call", seat=1)
    send(r, type="check_call", seat=2)
    for ups in ({"1": ["Kc"], "2": ["9d"], "3": ["3c"]}, {"1": ["5s"], "2": ["7d"], "3": ["4h"]},
                {"1": ["6s"], "2": ["Th"], "3": ["Jd"]}):
        send(r, type="deal_hole", up=ups)
        for _ in range(3):
            seat = r.view()["poker"]["to_act"]
            send(r, type="check_call", seat=seat)
    send(r, type="deal_hole", up={})                                        # seventh street, face down


def test_p6_third_hole_card_exposed_end_obligation_contends_only_for_the_pot_so_far():
    """5324.42(p)(6)(i): the seventh-street card turned up; "End obligation": no more wagers, and the
    player contends only for the pot formed before; the others' bets make a side pot without them."""
    _, r = hand(STUD, 1, 2, 3)
    _to_seventh(r)
    send(r, type="expose", seat=1, card="Ah")
    p = r.view()["poker"]
    assert p["turn"] == "contend" and p["to_act"] == 1 and "5324.42(p)(6)" in r.view()["round"]["next_step"]
    with pytest.raises(EventRefused, match=r"choose"):
        send(r, type="check_call", seat=2)
    before = player(r, 1)["stack"]
    act(r, "p1 contend part")
    me = player(r, 1)
    assert me["ended"] and not me["all_in"] and me["stack"] == before
    assert r.view()["poker"]["to_act"] != 1
    bettor = r.view()["poker"]["to_act"]
    send(r, type="bet_raise", seat=bettor, amount=600)
    send(r, type="check_call", seat=r.view()["poker"]["to_act"])
    p = r.view()["poker"]
    assert p["phase"] == "showdown"
    while not r.closed:
        p = r.view()["poker"]
        seat = p["to_act"]
        send(r, type="show", seat=seat, cards=_shown(r, seat))
    pots = r.view()["poker"]["showdown"]["pots"]
    assert len(pots) == 2 and all("1" not in x["awards"] for x in pots[1:])   # the side pot is not seat 1's
    assert player(r, 1)["stack"] == before + pots[0]["awards"].get("1", 0)


SHOWN = {1: ["8c", "8d", "Ah"], 2: ["2h", "3h", "4d"], 3: ["Qc", "Qd", "Qh"]}


def _shown(r, seat: int) -> list[str]:
    """The seat's cards for the showdown: its up cards as dealt and its hole cards named."""
    cards = player(r, seat)["cards"]
    hole = iter(c for c in SHOWN[seat] if c not in cards)
    return [c if c != "??" else next(hole) for c in cards]


def test_p6_third_hole_card_exposed_contend_for_the_pot_plays_on_for_everything():
    """5324.42(p)(6)(ii): "Contend for the pot": the player bets on as any other."""
    _, r = hand(STUD, 1, 2, 3)
    _to_seventh(r)
    send(r, type="expose", seat=1, card="Ah")
    act(r, "p1 contend all")
    assert not player(r, 1)["ended"] and r.view()["poker"]["turn"] == "bet"
    assert player(r, 1)["up"][-1] is True


def test_p9_holdem_hole_card_exposed_before_hole_cards_dealt_is_exchanged():
    """5324.42(p)(9)(i): in hold'em the exposed card is replaced from the top of the deck (one more
    card owed to the seat) and goes to the discards."""
    _, r = hand(HOLDEM, 1, 2, 3)
    send(r, type="expose", seat=2, card="As")
    assert r.view()["poker"]["owed"]["hole"]["2"] == [False, False]
    assert player(r, 2)["cards"] == []
    send(r, type="deal_hole", up={})
    assert r.view()["poker"]["phase"] == "bet"
    assert "d expose p" in " ".join(r.view()["poker"]["actions"])
