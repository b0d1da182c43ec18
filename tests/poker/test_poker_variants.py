"""The games as data: the table of variants and what the engine makes of a new row."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from controller.poker.errors import IllegalAction
from controller.poker.hand import Hand, HandSetup, Phase
from controller.poker.variants import VARIANTS, DeckOut, HandKind, OddChip, Opener, Street, Structure, Variant, variant
from tests.poker.poker_helpers import act

README = Path(__file__).parents[2] / "controller" / "poker" / "README.md"


def test_the_phh_standard_codes_of_the_regulations_games():
    standard = {code for code, v in VARIANTS.items() if v.standard}
    assert standard == {"FT", "NT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D"}


@pytest.mark.parametrize("code, seats, provision", [
    ("FT", 11, "(i)"), ("NT", 11, "(i)"), ("PT", 11, "(i)"), ("PO", 10, "(j)"), ("FO/8", 10, "(j)"),
    ("F7S", 8, "(h)"), ("FR", 8, "(h)"), ("F2L3D", 7, "(l)"),
])
def test_seats_per_game(code, seats, provision):
    """5324.42(h)(2), (i)(2), (j)(2), (l)(2)."""
    v = VARIANTS[code]
    assert v.max_players == seats and v.provision.endswith(provision)


def test_streets_as_the_regulation_deals_them():
    assert [s.hole for s in VARIANTS["F7S"].streets] == [(False, False, True), (True,), (True,), (True,), (False,)]
    assert [s.board for s in VARIANTS["NT"].streets] == [0, 3, 1, 1]
    assert [s.burn for s in VARIANTS["NT"].streets] == [False, True, True, True]     # (i)(7)-(9)
    assert [s.draw for s in VARIANTS["F2L3D"].streets] == [False, True, True, True]  # (l)(6)-(10)
    assert [s.big_bet for s in VARIANTS["F7S"].streets] == [False, False, True, True, True]
    assert VARIANTS["FR"].streets[0].opener is Opener.HIGH_CARD                         # (h)(4)(ii)
    assert VARIANTS["FR"].streets[1].opener is Opener.LOW_HAND                          # (h)(6)(ii)
    assert VARIANTS["F7S/8"].streets[0].opener is Opener.LOW_CARD                       # (h)(4)(iv)
    assert VARIANTS["F7S/8"].hands == (HandKind.HIGH, HandKind.LOW_8)
    assert VARIANTS["FO/8"].hands == (HandKind.OMAHA_HIGH, HandKind.OMAHA_LOW_8)
    assert VARIANTS["F7S"].odd_chip is OddChip.SUIT and VARIANTS["NT"].odd_chip is OddChip.BUTTON
    assert VARIANTS["F7S"].deck_out is DeckOut.COMMON_CARD and VARIANTS["F2L3D"].deck_out is DeckOut.RESHUFFLE_OWN


def test_every_code_is_documented():
    text = README.read_text()
    for code in VARIANTS:
        assert f"| `{code}` |" in text, code


def test_unknown_code():
    with pytest.raises(KeyError, match="'NS' is not a variant code here"):
        variant("NS")


def test_a_new_game_is_a_new_row():
    """Crazy pineapple as data (5324.42(n)): three hole cards, one thrown away once the flop is out."""
    flop = dataclasses.replace(VARIANTS["NT"].streets[1], discard=1, discard_after_deal=True)
    streets = (dataclasses.replace(VARIANTS["NT"].streets[0], hole=(False,) * 3), flop, *VARIANTS["NT"].streets[2:])
    crazy = Variant("XCP", "no-limit crazy pineapple", Structure.NO_LIMIT, streets, (HandKind.HIGH,), 11, True,
                    OddChip.BUTTON, DeckOut.NONE, "5324.42(n)", False)
    h = Hand(HandSetup(crazy, (100, 100, 100), (0, 0, 0), (1, 2, 0), 0, 2, 2))
    act(h, "d dh p1 AsKsQs, d dh p2 2c2d2h, d dh p3 7h8h9h, p3 cc, p1 cc, p2 cc, d db 3s4s5d")
    assert h.phase is Phase.DEAL and h.to_act == 0
    with pytest.raises(IllegalAction, match="p2 dd 2c: out of turn: p1 is to discard"):
        act(h, "p2 dd 2c")
    with pytest.raises(IllegalAction, match="discard exactly 1 card"):
        act(h, "p1 dd AsKs")
    act(h, "p1 dd Qs, p2 dd 2h, p3 dd 9h")
    assert h.phase is Phase.BET and [len(c) for c in h.hole] == [2, 2, 2]
    act(h, "p1 cc, p2 cc, p3 cc, d db 9c, p1 cc, p2 cc, p3 cc, d db Kd, p1 cc, p2 cc, p3 cc",
        "p1 sm AsKs, p2 sm 2c2d, p3 sm 7h8h")
    assert h.result.finishing_stacks == (104, 98, 98)


def test_plain_pineapple_discards_before_the_flop():
    flop = dataclasses.replace(VARIANTS["NT"].streets[1], discard=1)
    streets = (dataclasses.replace(VARIANTS["NT"].streets[0], hole=(False,) * 3), flop, *VARIANTS["NT"].streets[2:])
    pine = Variant("XP", "no-limit pineapple", Structure.NO_LIMIT, streets, (HandKind.HIGH,), 11, True,
                   OddChip.BUTTON, DeckOut.NONE, "5324.42(n)", False)
    h = Hand(HandSetup(pine, (100, 100), (0, 0), (1, 2), 0, 2, 2))
    act(h, "d dh p1 AsKsQs, d dh p2 2c2d2h, p2 cc, p1 cc")
    with pytest.raises(IllegalAction, match="p1 is to discard first"):
        act(h, "d db 3s4s5d")
    act(h, "p1 dd Qs, p2 dd 2h, d db 3s4s5d")
    assert h.phase is Phase.BET


def test_streets_are_frozen_rows():
    with pytest.raises(dataclasses.FrozenInstanceError):
        VARIANTS["NT"].streets[0].board = 1  # type: ignore[misc]
    assert isinstance(VARIANTS["NT"].streets[0], Street)
