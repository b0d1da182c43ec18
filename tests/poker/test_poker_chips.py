"""The table's smallest chip: pots are split in chips, and the odd chip is of that chip."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import load_profile
from controller.poker.errors import SetupError
from controller.poker.phh import loads
from controller.poker.replay import replay_text
from tests.rounds import table_event

CONFIG = Path(__file__).resolve().parents[2] / "config"

OMAHA8_25 = """variant = 'FO/8'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [250, 500, 0, 0, 0]
small_bet = 500
big_bet = 1000
starting_stacks = [1000, 1000, 1000, 1000, 1000]
actions = ['d dh p1 KhKc9s9h', 'd dh p2 Ah5cQsQh', 'd dh p3 7s7d8s8d', 'd dh p4 JsJdTsTd', 'd dh p5 QcQdJcTc',
  'p3 cc', 'p4 cc', 'p5 cc', 'p1 cc', 'p2 cc', 'd db 2c3d4h', 'p1 cc', 'p2 cc', 'p3 cc', 'p4 cc', 'p5 cc',
  'd db Kd', 'p1 cc', 'p2 cc', 'p3 cc', 'p4 cc', 'p5 cc', 'd db Ks', 'p1 cc', 'p2 cc', 'p3 cc', 'p4 cc', 'p5 cc',
  'p1 sm KhKc9s9h', 'p2 sm Ah5cQsQh', 'p3 sm 7s7d8s8d', 'p4 sm JsJdTsTd', 'p5 sm QcQdJcTc']
"""


def test_a_25_dollar_omaha_8_pot_at_a_1_dollar_chip_table_pays_13_and_12():
    """5324.42(j)(6)(ii)(a): the odd chip of a split between high and low goes to the high hand;
    with $1 chips the $25 pot is 13 chips to the high (quad kings), 12 to the low (the wheel)."""
    summary, _ = replay_text(OMAHA8_25 + "_chip = 100\n")
    assert summary["pots"][0]["awards"] == {"1": 1300, "2": 1200}
    assert summary["finishing_stacks"] == [1800, 1700, 500, 500, 500]
    cents, _ = replay_text(OMAHA8_25)                     # a table whose smallest chip is a cent
    assert cents["pots"][0]["awards"] == {"1": 1250, "2": 1250}


def test_the_chip_is_written_with_the_hand_and_read_back():
    from controller.poker.phh import hand_to_phh
    from controller.poker.replay import replay
    hand = replay(loads(OMAHA8_25 + "_chip = 100\n"))
    assert "_chip = 100" in hand_to_phh(hand)
    with pytest.raises(SetupError, match="_chip"):
        loads(OMAHA8_25 + "_chip = 0\n")


def test_every_poker_profile_names_its_smallest_chip_and_its_stakes_are_whole_chips(tmp_path):
    from controller.config import ConfigError
    for path in CONFIG.glob("*.toml"):
        profile = load_profile(path)
        if hasattr(profile, "poker"):
            assert "chip = " in path.read_text(), path.name
    text = (CONFIG / "omaha-hi-lo-8.toml").read_text().replace("small_blind = 200", "small_blind = 250")
    bad = tmp_path / "odd-chip.toml"
    bad.write_text(text)
    with pytest.raises(ConfigError, match="small_blind"):
        load_profile(bad)


def test_the_live_table_deals_with_the_profiles_chip():
    from controller.runtime.tablestate import TableState
    state = TableState(load_profile(CONFIG / "omaha-hi-lo-8.toml"))
    for seat in (1, 2):
        table_event(state, {"type": "sit", "seat": seat, "stack": 20_000}, None)
    state.open_round()
    assert state.round.setup.chip == 100
