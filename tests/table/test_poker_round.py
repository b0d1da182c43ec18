"""A poker hand at the table (controller/games/poker/at_table.py) and the seats between hands, pure."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games.base import EventRefused
from controller.poker.replay import replay_text
from controller.games.poker.at_table import PokerRound
from controller.games.poker.contract import verify_jackpot
from controller.runtime.tablestate import TableState
from controller.config import load_profile
from tests.rounds import apply, table_event

HOLDEM = "config/texas-holdem.toml"


def table(*stacks: tuple[int, int]) -> TableState:
    state = TableState(load_profile(HOLDEM))
    for seat, stack in stacks:
        table_event(state, {"type": "sit", "seat": seat, "stack": stack}, None)
    return state


def act(r: PokerRound, *actions: str) -> list[dict]:
    effects = []
    for a in actions:
        effects += apply(r, {"type": "action", "action": a})
    return effects


def counted(r: PokerRound) -> PokerRound:
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    return r


def test_a_hand_needs_two_players_the_first_button_right_of_the_dealer_then_clockwise():
    """5324.42(f)(2); (i)(3)(i): the first button in front of the first player to the dealer's right
    (seats count from the dealer's left, so the highest occupied seat); (i)(3)(iii): then clockwise."""
    state = table((3, 20_000))
    assert "two players" in state.can_open()
    table_event(state, {"type": "sit", "seat": 7, "stack": 20_000}, None)
    table_event(state, {"type": "sit", "seat": 5, "stack": 20_000}, None)
    snap, _ = state.open_round()
    first = snap["opening"]
    assert first["button"] == 7 and first["order"] == [3, 5, 7]      # small blind, big blind, button
    assert first["setup"]["blinds"] == [100, 200, 0]
    r = state.round
    counted(r)
    act(r, "d dh p1 AsKs", "d dh p2 7c2d", "d dh p3 9h9d", "p3 f", "p1 f")
    assert r.closed
    state.after_close()
    assert state.seats == {3: 19_900, 5: 20_100, 7: 20_000}
    second = state.open_round()[0]["opening"]
    assert second["button"] == 3 and second["order"] == [5, 7, 3]


def test_no_card_before_the_deck_counts_52():
    state = table((1, 10_000), (2, 10_000))
    state.open_round()
    r = state.round
    with pytest.raises(EventRefused, match=r"5324\.42\(f\)\(6\)\(iv\)"):
        act(r, "d dh p1 AsKs")
    effects = apply(r, {"type": "deck_count", "total": 53, "anomalies": ["extra As"], "truncated": False})
    assert effects[0]["kind"] == "deck_count"
    with pytest.raises(EventRefused):
        act(r, "d dh p1 AsKs")


def test_a_refused_action_changes_nothing_and_the_record_replays():
    state = table((1, 10_000), (2, 10_000), (4, 10_000))
    state.open_round()
    r = counted(state.round)
    act(r, "d dh p1 AsKs", "d dh p2 7c2d", "d dh p3 9h9d")
    before = r.view()
    for bad in ("p1 cc", "p3 cbr 50", "d db AsKdQd", "nonsense", "p9 f"):
        with pytest.raises(EventRefused):
            act(r, bad)
    assert r.view() == before
    effects = act(r, "p3 cbr 1000", "p1 cc", "p2 f", "d db 2c3c4c", "p1 cc", "p3 cc", "d db 8d", "p1 cc", "p3 cc",
                  "d db Jd", "p1 cc", "p3 cc", "p1 sm -", "p3 sm -")
    record = [e for e in effects if e["type"] == "journal"][0]["payload"]
    summary, _ = replay_text(record["phh"])              # what `tablectl poker replay` reads
    assert summary["finishing_stacks"] == record["stacks_after"]
    assert sum(record["stacks_before"]) == sum(record["stacks_after"]) + record["rake"] + record["jackpot_drop"]
    again = PokerRound(state.round.opening)
    for e in r.events:
        apply(again, e)
    assert again.hand.result.finishing_stacks == r.hand.result.finishing_stacks


def test_seats_are_taken_and_left_between_hands():
    state = table((1, 10_000))
    with pytest.raises(EventRefused, match="taken"):
        table_event(state, {"type": "sit", "seat": 1, "stack": 500}, None)
    with pytest.raises(EventRefused, match="seat must be"):
        table_event(state, {"type": "sit", "seat": 11, "stack": 500}, None)
    table_event(state, {"type": "leave", "seat": 1}, None)
    assert state.seats == {}


def test_a_buy_in_is_within_the_tables_limits_and_a_top_up_within_its_maximum():
    state = table()
    low, high = state.buy_in_limits()
    for stack in (low - 1, high + 1):
        with pytest.raises(EventRefused, match="buy-in"):
            table_event(state, {"type": "sit", "seat": 1, "stack": stack}, None)
    table_event(state, {"type": "sit", "seat": 1, "stack": low}, None)
    table_event(state, {"type": "top_up", "seat": 1, "amount": 1000}, None)      # (c)(3)(i): chips added
    assert state.seats == {1: low + 1000}
    with pytest.raises(EventRefused, match="maximum buy-in"):
        table_event(state, {"type": "top_up", "seat": 1, "amount": high}, None)
    with pytest.raises(EventRefused, match="stack"):
        table_event(state, {"type": "sit", "seat": 2, "stack": 10.5}, None)        # cents, never a float


def test_a_seat_short_of_the_minimum_to_play_is_not_dealt_in():
    """5324.42(c)(3)(iii): chips for any bet and at least one bet at the posted table minimum."""
    state = table((1, 10_000), (2, 10_000), (3, 10_000))
    assert state.minimum_to_play() == 200
    state.seats[2] = 150                       # what a hand left him
    snap, _ = state.open_round()
    assert 2 not in snap["opening"]["order"] and sorted(snap["opening"]["order"]) == [1, 3]
    assert state.seating_view()["seats"][1] == {"seat": 2, "stack": 150, "away": False, "short": True}


def test_a_player_sitting_out_keeps_seat_and_stack_and_is_not_dealt_in_until_back():
    """5324.42(c)(3)(v): a player leaving temporarily keeps the seat; the table stakes are kept."""
    state = table((1, 10_000), (2, 10_000), (3, 10_000))
    table_event(state, {"type": "sit_out", "seat": 2}, None)
    snap, _ = state.open_round()
    assert snap["opening"]["order"] == [1, 3] and snap["away"] == [2]
    again = TableState.from_snapshot(state.profile, snap)     # a restart: the seat is still away
    assert again.away == {2} and again.seats == state.seats
    r = counted(state.round)
    act(r, "d dh p1 ????", "d dh p2 ????", "p2 f")
    state.after_close()
    table_event(state, {"type": "sit_in", "seat": 2}, None)
    assert state.seats[2] == 10_000 and 2 in state.open_round()[0]["opening"]["order"]


def test_console_events_become_phh_and_a_refused_one_changes_nothing():
    state = table((1, 1000), (2, 3000), (3, 5000))
    state.open_round()
    r = counted(state.round)
    apply(r, {"type": "deal_hole"})                        # every hole card, face down, unseen
    assert r.hand.actions()[:3] == ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????"]
    before = r.view()
    for bad in ({"type": "bet_raise", "seat": 3, "amount": 50}, {"type": "check_call", "seat": 1},
                {"type": "fold", "seat": 9}, {"type": "deal_board", "cards": ["Zz"]}, {"type": "deal_hole"},
                {"type": "bet_raise", "seat": 3, "amount": 600.0}):
        with pytest.raises(EventRefused):
            apply(r, bad)
    assert r.view() == before
    apply(r, {"type": "bet_raise", "seat": 3, "amount": 5000})
    assert r.view()["poker"]["to_act"] == 1


def test_the_straddle_is_offered_to_the_seat_after_the_big_blind_before_any_card():
    """5324.42(c)(11): a straddle of twice the big blind by the player after the big blind."""
    state = table((1, 10_000), (2, 10_000), (3, 10_000), (4, 10_000))
    state.open_round()                                   # button 4: 1 small, 2 big, 3 may straddle
    r = state.round
    assert r.view()["poker"]["straddle"] == {"seat": 3, "amount": 400}
    with pytest.raises(EventRefused, match="only seat 3"):
        apply(r, {"type": "straddle", "seat": 4})
    apply(r, {"type": "straddle", "seat": 3})
    p = r.view()["poker"]
    assert p["straddle"] is None and (p["blinds"]["straddle"], p["blinds"]["straddle_seat"]) == (400, 3)
    counted(r)
    apply(r, {"type": "deal_hole"})
    assert r.view()["poker"]["to_act"] == 4               # the first after the straddle
    with pytest.raises(EventRefused, match="straddle"):
        apply(r, {"type": "straddle", "seat": 3})
    apply(r, {"type": "fold", "seat": 4})
    apply(r, {"type": "fold", "seat": 1})
    apply(r, {"type": "fold", "seat": 2})
    assert r.record["stacks_after"] == [9_900, 9_800, 10_300, 10_000]
    assert "blinds_or_straddles = [100, 200, 400, 0]" in r.record["phh"]
    assert replay_text(r.record["phh"])[0]["finishing_stacks"] == r.record["stacks_after"]


def test_a_table_without_a_straddle_offers_none():
    state = TableState(load_profile("config/omaha.toml"))
    for seat in (1, 2, 3):
        table_event(state, {"type": "sit", "seat": seat, "stack": 10_000}, None)
    state.open_round()
    assert state.round.view()["poker"]["straddle"] is None
    with pytest.raises(EventRefused, match="no straddle"):
        apply(state.round, {"type": "straddle", "seat": 3})


def test_the_kill_lammer_goes_to_a_whole_pot_above_the_threshold_and_raises_the_next_hand():
    """5324.42(j)(9): the half-kill of the Omaha/8 profile (pot above 80.00 won whole)."""
    state = TableState(load_profile("config/omaha-hi-lo-8.toml"))
    for seat in (1, 2, 3):
        table_event(state, {"type": "sit", "seat": seat, "stack": 50_000}, None)
    state.open_round()                                    # button 3: 1 small, 2 big
    r = counted(state.round)
    act(r, "d dh p1 AhAdKhKd", "d dh p2 7c7d8c8d", "d dh p3 2s3s9c9d",
        "p3 cbr 800", "p1 cbr 1200", "p2 cc", "p3 cc", "d db KsQsJh",
        "p1 cbr 400", "p2 cc", "p3 cc", "d db Kc", "p1 cbr 800", "p2 cc", "p3 cc", "d db Th",
        "p1 cbr 800", "p2 cc", "p3 cc", "p1 sm AhAdKhKd", "p2 sm 7c7d8c8d", "p3 sm 2s3s9c9d")
    state.after_close()
    assert sum(p.amount for p in r.hand.result.pots) == 9_600 and state.lammer == 1
    snapshot = state.open_round()[0]
    second = snapshot["opening"]
    assert second["kill"] == {"seat": 1, "kind": "half-kill"}
    assert (second["setup"]["small_bet"], second["setup"]["big_bet"]) == (600, 1200)
    blinds = dict(zip(second["order"], second["setup"]["blinds"], strict=True))
    assert blinds[1] == 600                               # the kill blind, the raised minimum wager
    assert state.round.view()["poker"]["kill"] == {"seat": 1, "kind": "half-kill"}
    assert TableState.from_snapshot(state.profile, snapshot).lammer == 1      # across a restart
    r = counted(state.round)
    apply(r, {"type": "deal_hole"})
    while not r.closed:
        apply(r, {"type": "fold", "seat": r.view()["poker"]["to_act"]})
    assert "_kill_blind = " in r.record["phh"]
    assert replay_text(r.record["phh"])[0]["finishing_stacks"] == r.record["stacks_after"]


def test_the_two_decks_alternate_each_hand_and_each_count_is_kept_by_deck():
    """5324.42(a)(5)(i), (iii): two decks, backs of different colours, each dealt every other hand with the
    shuffler; (f)(6)(iv): each counted before it is dealt."""
    state = table((1, 10_000), (2, 10_000))
    dealt = []
    for _ in range(3):
        snap, _ = state.open_round()
        r = counted(state.round)
        dealt.append(snap["opening"]["deck"]["color"])
        assert "deck (" in r.view()["round"]["next_step"]
        apply(r, {"type": "deal_hole"})
        apply(r, {"type": "fold", "seat": r.view()["poker"]["to_act"]})
        assert r.record["deck"] == snap["opening"]["deck"]["id"]
        state.after_close()
    assert dealt == ["red", "blue", "red"]
    assert set(state.deck_counts) == {"A", "B"} and all(c["ok"] for c in state.deck_counts.values())
    snapshot = state.open_round()[0]
    assert TableState.from_snapshot(state.profile, snapshot).deck_in_play == 1     # blue next, after a restart


def test_a_profile_with_two_decks_alike_is_refused(tmp_path):
    from controller.config import ConfigError
    alike = "decks = [{id = 'A', color = 'red'}, {id = 'B', color = 'red'}]\n\n[poker.rake]"
    text = Path(HOLDEM).read_text().replace("[poker.rake]", alike)
    bad = tmp_path / "p.toml"
    bad.write_text(text)
    with pytest.raises(ConfigError, match=r"5324\.42\(a\)\(5\)\(iii\)"):
        load_profile(bad)


BAD_BEAT = ("d dh p1 KhKc", "d dh p2 AsQs", "d dh p3 3c4c", "d dh p4 5d6d", "p3 cbr 500", "p4 cc", "p1 cc", "p2 cc",
            "d db KsKdTs", "p1 cc", "p2 cc", "p3 cc", "p4 cc", "d db Js", "p1 cc", "p2 cc", "p3 cc", "p4 cc",
            "d db 2c", "p1 cc", "p2 cc", "p3 cc", "p4 cc", "p1 sm KhKc", "p2 sm AsQs", "p3 sm -", "p4 sm -")


def test_a_bad_beat_waits_for_the_floorperson_then_its_tracking_form_line_is_recorded():
    """5324.42(r)(4): each qualifying hand verified by the floorperson, who records the player's name and
    phone (i), the table (ii), the hand (iii), the dealer (iv) and himself (v); (r)(3): the drop is the
    table's own fund, its amount displayed ((r)(2))."""
    state = table((1, 10_000), (2, 10_000), (3, 10_000), (4, 10_000))
    state.open_round()                                    # button 4: p1 seat 1 ... p4 seat 4
    r = counted(state.round)
    act(r, *BAD_BEAT)
    state.after_close()
    view = state.jackpot_view()
    assert view["amount"] == r.record["jackpot_drop"] > 0
    assert view["pending"] == [{"hand": r.round_id, "seat": 1, "kind": "bad-beat", "hand_name": "four-of-a-kind",
                                "cards": view["pending"][0]["cards"]}]
    form = {"type": "verify_jackpot", "hand": r.round_id, "seat": 1, "player": "Ann Lee", "phone": "555-0101",
            "dealer": "D. Cruz", "dealer_license": "DL-1", "floor_license": "FL-9"}
    with pytest.raises(EventRefused, match="phone"):   # refused at the door now, as the table reads it
        table_event(state, {**form, "phone": " "}, "S1042")
    assert "phone" in str(verify_jackpot({**form, "phone": " "})[1])   # the contract's (r)(4) form names it too
    with pytest.raises(EventRefused, match="no qualifying hand"):
        table_event(state, {**form, "seat": 2}, "S1042")
    effects = table_event(state, form, "S1042")
    line = effects[0]["payload"]
    assert effects[0]["kind"] == "jackpot-hand" and line["floorperson"] == "S1042" and line["player"] == "Ann Lee"
    assert state.jackpot_view()["pending"] == [] and state.jackpot_view()["verified"] == [line]
    snapshot = state.open_round()[0]
    assert TableState.from_snapshot(state.profile, snapshot).jackpot_view() == state.jackpot_view()


def test_the_first_button_may_be_drawn_for_with_a_card_to_each_player():
    """5324.42(i)(3)(ii): one card to each player, the highest by rank (then suit) takes the button."""
    state = table((2, 10_000), (5, 10_000), (8, 10_000))
    assert state.seating_view()["button_draw"] is True
    with pytest.raises(EventRefused, match="one card to each player"):
        table_event(state, {"type": "button_card", "cards": {"2": "As", "5": "Kd"}}, None)
    table_event(state, {"type": "button_card", "cards": {"2": "Qs", "5": "Ah", "8": "Ad"}}, None)
    assert state.first_button == 5                        # aces tie on rank; hearts beat diamonds
    assert state.open_round()[0]["opening"]["button"] == 5
    assert state.seating_view()["button_draw"] is False
    with pytest.raises(EventRefused, match="clockwise"):
        table_event(state, {"type": "button_card", "cards": {"2": "Qs", "5": "Ah", "8": "Ad"}}, None)


def test_time_charges_are_collected_at_each_increment_begun_and_wait_for_the_floorperson():
    """5324.42(o)(2)(iii): an hourly fee per table (seven-card stud: $30 an hour by 15 minutes), each
    increment begun assessed in advance ((c)), shared by the seated players, collected into the rake
    area ((d)) and verified by a floorperson ((e)); the hand's record carries them (the reports' field)."""
    state = TableState(load_profile("config/seven-card-stud.toml"))
    for seat in (1, 2, 3):
        table_event(state, {"type": "sit", "seat": seat, "stack": 20_000}, None)
    snap, _ = state.open_round(now=1_000)
    assert snap["opening"]["time_charges"] == {"1": 250, "2": 250, "3": 250}      # 750 a quarter hour
    assert snap["opening"]["stacks"] == [19_750] * 3 and snap["seats"] == {"1": 19_750, "2": 19_750, "3": 19_750}
    r = counted(state.round)
    assert r.view()["round"]["next_step"].startswith("Collect the time charges (seat 1 $2.50")
    while not r.closed:
        apply(r, {"type": "deal_hole", "up": {s: [c] for s, c in zip(("1", "2", "3"), ("Kd", "7c", "2h"), strict=True)}}
                if r.view()["poker"]["owed"]["hole"] and not r.hand.log else
                {"type": "fold", "seat": r.view()["poker"]["to_act"]} if r.view()["poker"]["turn"] == "bet" and
                "fold" in [o["action"] for o in r.view()["poker"]["options"]] else
                {"type": "bring_in", "seat": r.view()["poker"]["to_act"]})
    assert r.record["time_charges"] == 750
    state.after_close()
    assert state.open_round(now=1_000 + 10 * 60)[0]["opening"].get("time_charges") is None   # the same quarter
    apply(state.round, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    apply(state.round, {"type": "action", "action": "d misdeal shuffle"})
    state.after_close()
    third = state.open_round(now=1_000 + 16 * 60)[0]["opening"]                  # a second quarter begun
    assert third["time_charges"] == {"1": 250, "2": 250, "3": 250}
    view = state.time_view()
    assert [t["total"] for t in view["pending"]] == [750, 750]
    with pytest.raises(EventRefused, match="no time charges"):
        table_event(state, {"type": "verify_time_charges", "hand": "nope"}, "S1042")
    effects = table_event(state, {"type": "verify_time_charges", "hand": snap["round"]}, "S1042")
    assert effects[0]["kind"] == "time-charges" and effects[0]["payload"]["floorperson"] == "S1042"
    assert [t["hand"] for t in state.time_view()["verified"]] == [snap["round"]]


def test_a_deck_that_did_not_count_52_is_replaced_by_the_supervisor_and_counted_again():
    """5324.42(f)(6)(iv): the supervisor removes the deck and puts a new one into play; no card before."""
    state = table((1, 10_000), (2, 10_000))
    state.open_round()
    r = state.round
    with pytest.raises(EventRefused, match="nothing to replace"):
        apply(r, {"type": "replace_deck"})
    apply(r, {"type": "deck_count", "total": 51, "anomalies": [], "truncated": False})
    assert r.alarms and r.deck_wanted() is None
    with pytest.raises(EventRefused):
        apply(r, {"type": "deal_hole"})
    apply(r, {"type": "replace_deck"})
    assert r.alarms == [] and r.deck_wanted() == 1                      # the shuffler is asked again
    apply(counted(r), {"type": "deal_hole"})
    with pytest.raises(EventRefused, match="begun"):
        apply(r, {"type": "replace_deck"})
