"""PHH files: strict reading that names the field at fault, and writing that reads back the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.poker.actions import ActionSyntaxError, parse_action
from controller.poker.errors import SetupError
from controller.poker.hand import Hand
from controller.poker.phh import dumps, hand_to_phh, loads, phh_actions
from tests.poker.poker_helpers import new

NT = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 2c2d', 'p3 f', 'p1 f']
"""


def field_error(text: str) -> str:
    with pytest.raises(SetupError) as exc:
        loads(text)
    return str(exc.value)


def test_reads_a_hand():
    phh = loads(NT)
    assert phh.setup.variant.code == "NT"
    assert phh.setup.starting_stacks == (100, 100, 100)
    assert phh.setup.small_bet == phh.setup.big_bet == 2
    assert [str(a) for a in phh.actions] == ["d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 2c2d", "p3 f", "p1 f"]


@pytest.mark.parametrize("edit, message", [
    (("min_bet = 2\n", ""), "min_bet: is required for NT"),
    (("variant = 'NT'", "variant = 'NS'"), "variant: 'NS' is not a game of 5324.42(g) here"),
    (("min_bet = 2", "min_bet = 2.505"), "min_bet: 2.505 is finer than a cent"),
    (("min_bet = 2", "min_bet = 2\nsmall_bet = 2"), "small_bet: is not a field of NT"),
    (("min_bet = 2", "min_bet = 2\nbring_in = 1"), "bring_in: is not a field of NT"),
    (("min_bet = 2", "min_bet = 2\nrake = 1"), "rake: unknown field (user-defined fields start with an underscore)"),
    (("antes = [0, 0, 0]", "antes = [0, 0]"), "antes: has 2 entries for 3 players"),
    (("[100, 100, 100]", "[100, 0, 100]"), "starting_stacks[1]: 0 is below 1"),
    (("[100, 100, 100]", "[100, '100', 100]"), "starting_stacks[1]: must be a whole number of chips or cents"),
    (("'p3 f'", "'p3 fold'"), "actions[3]: 'p3 fold': 'p3 fold' is not a PHH action"),
    (("'p3 f'", "'p3 cbr 2.505'"), "actions[3]: 2.505 is finer than a cent"),
    (("'p3 f'", "'p3 cbr 2x'"), "actions[3]: 'p3 cbr 2x': '2x' is not an amount"),
    (("'d dh p1 AsKs'", "'d dh p1 AsK'"), "actions[0]: 'd dh p1 AsK': 'AsK' is not a list of cards"),
    (("'d dh p1 AsKs'", "'d dh p0 AsKs'"), "actions[0]: 'd dh p0 AsKs': 'p0' is not a player"),
    (("variant = 'NT'", "variant = 'NT'\nante_trimming_status = 1"), "ante_trimming_status: must be true or false"),
    (("'p1 f']\n", "'p1 f']\n[2]\nx = 1\n"), "2: a PHH file here holds one hand"),
    (("actions = [", "actions = ["), None),
])
def test_refusals_name_the_field(edit, message):
    text = NT.replace(*edit)
    if message is None:
        assert loads(text)
        return
    assert field_error(text).startswith(message)


def test_not_toml():
    assert field_error("variant = ").startswith("not a PHH file (TOML)")


def test_stud_fields_and_seats():
    text = """variant = 'F7S'
antes = [1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [50, 50]
actions = []
"""
    assert loads(text).setup.bring_in == 2
    assert field_error(text.replace("bring_in = 2\n", "")) == "bring_in: is required for F7S"
    nine = text.replace("[1, 1]", "[1] * 9").replace("[1] * 9", "[" + ", ".join(["1"] * 9) + "]")
    nine = nine.replace("[50, 50]", "[" + ", ".join(["50"] * 9) + "]")
    with pytest.raises(SetupError, match=r"starting_stacks: 9 players; limit seven-card stud seats at most 8 "
                                         r"\(5324.42\(h\)\)"):
        Hand(loads(nine).setup)
    assert field_error(text.replace("bring_in = 2", "bring_in = 5")) == \
        "bring_in: 5 must be below the small bet of 5"


def test_zero_fields_of_another_game_are_accepted():
    text = NT.replace("min_bet = 2", "min_bet = 2\nbring_in = 0")
    assert loads(text).setup.bring_in == 0


def test_optional_and_user_fields_are_kept():
    text = NT + "table = 7\nplayers = ['a', 'b', 'c']\n_note = 'x'\nfinishing_stacks = [99, 98, 103]\n"
    phh = loads(text)
    assert phh.fields["table"] == 7 and phh.fields["_note"] == "x"
    assert phh.finishing_stacks == [99, 98, 103]


def test_raise_cap_field_and_no_cap_without_it_as_the_standard_says():
    text = NT.replace("'NT'", "'FT'").replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
    assert loads(text).setup.raise_cap is None
    assert loads(text + "_raise_cap = 3\n").setup.raise_cap == 3
    assert loads(text + "_raise_cap = 0\n").setup.raise_cap is None


@pytest.mark.parametrize("text, kind", [
    ("p1 cbr 20 # a raise", "cbr"), ("   ", None), ("# only a comment", None), ("p2 sm -", "sm"),
    ("p2 sm", "sm"), ("p3 sd", "sd"), ("p3 sd AsKs", "sd"), ("p1 pb", "pb"), ("d db AsKsQs", "db"),
    ("p1 dd As", "dd"),
])
def test_action_notation(text, kind):
    action = parse_action(text)
    assert (action.kind if action else None) == kind
    if action is not None:
        assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["d", "d dh AsKs", "p1", "x1 f", "p1 cbr", "p1 cbr -3", "p1 sm As Ks",
                                  "d db 1s"])
def test_bad_action_notation(text):
    with pytest.raises(ActionSyntaxError):
        parse_action(text)


def test_written_hand_reads_back_the_same():
    h = new("FT", [100] * 3, "d dh p1 AsKs, d dh p2 QhQd, d dh p3 2c2d, p3 cbr 4, p1 cc, p2 cc",
            "d db 3s4s5d, p1 cc, p2 cc, p3 cc, d db 9h, p1 cc, p2 cc, p3 cc, d db Tc, p1 cc, p2 cc, p3 cc",
            "p1 sm AsKs, p2 sm QhQd, p3 sm 2c2d", cap=3)
    text = hand_to_phh(h, fields={"table": 7, "_note": 'a "quoted" note'}, comment="hand 1")
    assert text.startswith("# hand 1\nvariant = \"FT\"\n")
    phh = loads(text)
    assert phh.setup == h.setup
    assert [str(a) for a in phh.actions] == h.actions()
    assert phh.finishing_stacks == list(h.result.finishing_stacks)
    assert phh.fields["_note"] == 'a "quoted" note'
    assert "_raise_cap = 3" in text


def test_draws_are_written_discards_first():
    h = new("F2L3D", [100] * 2, "d dh p1 2c3c4c5c7d, d dh p2 9s9hKsKhAd, p2 cc, p1 cc",
            "p1 sd 7d, d dh p1 8d, p2 sd KsKh, d dh p2 6h6d")
    assert h.actions()[-4:] == ["p1 sd 7d", "d dh p1 8d", "p2 sd KsKh", "d dh p2 6h6d"]
    assert phh_actions(h)[-4:] == ["p1 sd 7d", "p2 sd KsKh", "d dh p1 8d", "d dh p2 6h6d"]
    text = dumps(h.setup, phh_actions(h))
    again = Hand.replay(loads(text).setup, [a for a in loads(text).actions if a])
    assert again.hole == h.hole


# --- the reader of the usual file shape agrees with tomllib -------------------------------

def test_simple_reader_agrees_with_tomllib_on_the_cases_and_on_mutations():
    """phh.loads reads the usual shape itself and leaves the rest to tomllib: never a different reading."""
    import glob
    import random
    import tomllib
    from decimal import Decimal

    from controller.poker.phh import _simple_toml

    texts = [Path(f).read_text() for f in sorted(glob.glob("tests/data/phh/*.phh"))]
    for text in texts:
        assert _simple_toml(text) == tomllib.loads(text)
    rng = random.Random(20)
    alphabet = "=[]'\"#,.\\-+0123456789abcdefx truefalse\t\n_{}:"
    read_simply = 0
    for _ in range(4000):
        text = rng.choice(texts)
        at = rng.randrange(len(text))
        text = text[:at] + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3))) + \
            text[at + rng.randint(0, 3):]
        fast = _simple_toml(text)
        if fast is None:
            continue
        read_simply += 1
        reference = tomllib.loads(text, parse_float=Decimal)
        assert fast == reference and all(type(fast[k]) is type(reference[k]) for k in fast), text
    assert read_simply > 1000


@pytest.mark.parametrize("text", [
    "a = 1_000.5", "a = 1.5e3", "a = 07:32:00.5", "a = 24:00:00", "a = [1.5, 2]", "a = 1e3", "a = inf", "a = 0x10", "a = 01", "a = 'x' 'y'", 'a = "x\\ty"', "a.b = 1", "'a' = 1",
    "[t]\na = 1", "a = [1,\n2]", "a = [1, 'x']", "a = {b = 1}", "a = 1\na = 2", "a = 1979-05-27", 'a = """x"""',
    "a = '''x'''", "a = [[1]]", "a = 1 2", "a = tru",
])
def test_simple_reader_leaves_other_toml_to_tomllib(text):
    from controller.poker.phh import _simple_toml
    assert _simple_toml(text) is None


LIMIT_SIX_BETS = """variant = 'FT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 cbr 4', 'p1 cbr 6', 'p2 cbr 8', 'p1 cbr 10', 'p2 cbr 12',
  'p1 cbr 14', 'p2 cc', 'd db 2c3d9h', 'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', 'd db 7s', 'p1 cc', 'p2 cc',
  'p1 sm AsKs', 'p2 sm QhQd']
"""


def test_a_standard_limit_file_without_a_cap_replays_six_bets_a_round():
    """PHH has no cap: a file means what the standard says; `_raise_cap` caps it when given."""
    from controller.poker.replay import replay_text
    summary, _ = replay_text(LIMIT_SIX_BETS)
    assert summary["finishing_stacks"] == [86, 114]
    with pytest.raises(Exception, match=r"cap|raise"):
        replay_text(LIMIT_SIX_BETS + "_raise_cap = 4\n")


DOLLARS = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1.00, 0]
min_bet = 1.00
starting_stacks = [581.70, 100.00, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 2c2d', 'p3 f', 'p1 cbr 5.25', 'p2 cc', 'd db 2h3d9h', 'p1 cc',
  'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', 'd db 7s', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm QhQd']
finishing_stacks = [576.45, 105.25, 100.00]
"""


def test_amounts_in_dollars_and_cents_are_read_as_whole_cents_and_the_replay_says_so():
    from controller.poker.replay import replay_text
    phh = loads(DOLLARS)
    assert phh.setup.starting_stacks == (58170, 10000, 10000) and phh.setup.blinds == (50, 100, 0)
    summary, expected = replay_text(DOLLARS)
    assert summary["amounts"] == "cents"
    assert summary["finishing_stacks"] == expected == [57645, 10525, 10000]


def test_whole_numbers_written_as_floats_are_those_numbers():
    text = NT.replace("[100, 100, 100]", "[10000.0, 100, 100.0]")
    from controller.poker.replay import replay_text
    assert loads(text).setup.starting_stacks == (10000, 100, 100)
    assert "amounts" not in replay_text(text)[0]


def test_a_player_all_in_for_less_than_the_ante_is_eligible_only_for_what_he_put_in():
    """5324.42(c)(3)(iv)(a), whatever ante_trimming_status says: p3, all in with 5 of a 25 ante,
    has the best hand and wins 5 from each player (15), not every ante (55)."""
    from controller.poker.replay import replay_text
    text = """variant = 'FT'
ante_trimming_status = false
antes = [25, 25, 25]
blinds_or_straddles = [50, 100, 0]
small_bet = 100
big_bet = 200
starting_stacks = [1000, 1000, 5]
actions = ['d dh p1 7c2d', 'd dh p2 8h3s', 'd dh p3 AsAd', 'p1 cc', 'p2 cc', 'd db KcQd4h', 'p1 cc', 'p2 cc',
  'd db 9s', 'p1 cc', 'p2 cc', 'd db Jh', 'p1 cc', 'p2 cc', 'p3 sm AsAd', 'p1 sm 7c2d', 'p2 sm 8h3s']
"""
    summary, _ = replay_text(text)
    assert summary["finishing_stacks"][2] == 15
    assert sum(summary["finishing_stacks"]) == 2005
