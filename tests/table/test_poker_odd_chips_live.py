"""Odd chips by the text at the table (issue 31, item 5): 5324.42(h)(9), (i)(10), (j)(6)(ii)(a).

A three-way tie whose pot leaves two chips over pays one chip each to the first two players in the
odd-chip order, never both to one; a profile's `chip` above $1 is refused, on its line, where the text
caps the excess at $1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.config import ConfigError, load_profile
from controller.runtime.tablestate import TableState
from tests.rounds import apply, table_event

CONFIG = "config/"
MONEY = re.compile(r"(?m)^(chip|ante|bring_in|small_bet|big_bet|min_bet|small_blind|big_blind|straddle|buy_in_min|"
                   r"buy_in_max|amount|pot|cap|contribution|minimum_pot|hourly|pot_threshold|minimum_wager|"
                   r"maximum_wager) = (\d+)")


def test_i10_a_three_way_tie_pays_the_remainder_one_chip_per_player_from_the_button():
    """5324.42(i)(10): the board plays, all three share the pot; what does not divide in $1 chips goes one
    chip each to the first tied players clockwise from the button (never $2 to one: not $6/$4/$4)."""
    state = TableState(load_profile(CONFIG + "texas-holdem.toml"))
    for seat in (1, 2, 3):
        table_event(state, {"type": "sit", "seat": seat, "stack": 20_000})
    state.open_round()
    r = state.round
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    for text in ("d dh p1 2c3d", "d dh p2 2d3c", "d dh p3 2h3s", "p3 cbr 1300", "p1 cc", "p2 cc",
                 "d db AhKhQh", "p1 cc", "p2 cc", "p3 cc", "d db Jh", "p1 cc", "p2 cc", "p3 cc",
                 "d db Th", "p1 cc", "p2 cc", "p3 cc", "p1 sm 2c3d", "p2 sm 2d3c", "p3 sm 2h3s"):
        apply(r, {"type": "action", "action": text})
    pot = r.hand.result.pots[0]
    assert pot.net % 300 == 200                            # two $1 chips over among three
    each = pot.net // 300 * 100
    assert pot.awards == {0: each + 100, 1: each + 100, 2: each}   # the small blind, the big blind first


def test_h9_tied_low_hands_share_the_remainder_one_chip_each():
    """5324.42(h)(9)(iii)(c): three tied low hands share the low half of a stud high-low pot; the two
    50-cent chips it leaves go one each, never both to one player."""
    from controller.poker.actions import parse_action
    from controller.poker.hand import Hand, HandSetup
    from controller.poker.variants import variant_for
    setup = HandSetup(variant=variant_for("seven-card-stud-hi-lo", "fixed-limit"), starting_stacks=(10_000,) * 4,
                      antes=(100,) * 4, blinds=(0,) * 4, bring_in=100, small_bet=300, big_bet=600, chip=50)
    hand = Hand(setup)
    cards = {1: ["Ac2d3h", "4s", "5c", "Ks", "9s"], 2: ["Ad2h3s", "4c", "5d", "Kh", "9h"],
             3: ["Ah2s3c", "4d", "5h", "Kd", "9d"], 4: ["QsQc7c", "Qd", "Qh", "7d", "8c"]}
    for street in range(5):
        for p in (1, 2, 3, 4):
            hand.apply(parse_action(f"d dh p{p} {cards[p][street]}"))
        while hand.phase.value == "bet":
            o = hand.options()
            hand.apply(parse_action(f"p{hand.to_act + 1} {'pb' if o.bring_in else 'cc'}"))
    while hand.phase.value == "showdown":
        hand.apply(parse_action(f"p{hand.to_act + 1} sm -"))
    pot = hand.result.pots[0]
    assert pot.net == 800 and pot.awards[3] == 400                 # the high half to the four queens
    assert sorted(pot.awards[p] for p in (0, 1, 2)) == [100, 150, 150]


@pytest.mark.parametrize("game, provision", [("omaha-hi-lo-8", "5324.42(j)(6)(ii)(a)"),
                                             ("seven-card-stud-hi-lo-8", "5324.42(h)(9)(iii)(a)-(c)"),
                                             ("seven-card-stud-hi-lo", "5324.42(h)(9)(iii)(a)-(c)")])
def test_a_chip_above_one_dollar_is_refused_where_the_text_caps_the_excess(tmp_path, game, provision):
    """(h)(9)(iii)(a)-(c), (j)(6)(ii)(a): the excess "shall not exceed $1": a $2 or $4 chip cannot pay it."""
    source = Path(CONFIG, f"{game}.toml").read_text()
    source = re.sub(MONEY, lambda m: f"{m[1]} = {int(m[2]) * 4}", source)   # the same table in chips four times larger
    bad = tmp_path / f"{game}.toml"
    bad.write_text(source)
    with pytest.raises(ConfigError) as refused:
        load_profile(bad)
    message = str(refused.value)
    line = next(i for i, row in enumerate(source.splitlines(), 1) if row.startswith("chip = "))
    assert provision in message and "chip" in message and f":{line}" in message, message


def test_a_chip_above_one_dollar_stays_allowed_where_the_text_sets_no_cap(tmp_path):
    """Hold'em (i)(10) shares the pot with no cap in the text: a $5 chip table is the room's choice."""
    source = Path(CONFIG, "texas-holdem.toml").read_text()
    for name, value in (("chip", 500), ("small_blind", 500), ("big_blind", 1000), ("straddle", 2000),
                        ("buy_in_min", 5000), ("cap", 500), ("contribution", 500)):
        source = re.sub(rf"(?m)^{name} = \d+", f"{name} = {value}", source)
    path = tmp_path / "holdem.toml"
    path.write_text(source)
    assert load_profile(path).poker.chip == 500
