"""Every invalid Caribbean stud record is refused with the field named first (shared/spec/rounds.md).

Each case starts from a valid record, breaks one thing, and names the path the
first line of the error must start with. The valid record itself is settled
first, so a case can only pass because of the one thing it breaks.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.games.caribbean_stud.record import settle_record
from controller.records import RecordError

BASE = {
    "game": "caribbean-stud",
    "rules": {
        "bet_multiple": 2, "bet_payout_limit": None,
        "paytable": {"pair-or-less": 1, "two-pair": 2, "three-of-a-kind": 3, "straight": 4, "flush": 5,
                     "full-house": 7, "four-of-a-kind": 20, "straight-flush": 50, "royal-flush": 100},
        "progressive": {"wager": 100, "meter": 2500000, "reset": 1000000, "contribution_bp": 7000,
                        "flush": 5000, "full-house": 10000, "four-of-a-kind": 50000,
                        "straight-flush": {"percent_of_meter": 10}},
    },
    "dealer": ["As", "Kd", "7h", "4c", "2s"],
    "seats": [
        {"seat": 1, "ante": 1000, "progressive": True, "decision": "bet",
         "cards": ["Ah", "Kh", "Qh", "Jh", "Th"]},
        {"seat": 4, "ante": 500, "decision": "fold", "cards": ["2d", "7s", "9c", "Jd", "3h"]},
    ],
}
SHOE = ["Ad", "Ac", "8s", "6d", "2h", "Th", "Jd", "Qs", "Kh", "Ah", "4c", "4d", "7h", "8c", "9c",
        "Kc", "Qc", "9d", "5h", "3h"]
SHOE_BASE = {
    "game": "caribbean-stud", "shoe": SHOE, "dealing": "automated",
    "seats": [{"seat": 1, "ante": 1000, "decision": "bet"},
              {"seat": 3, "ante": 1000, "decision": "fold", "progressive": True},
              {"seat": 5, "ante": 500, "decision": "bet"}],
}


def with_(base: dict, path: tuple, value=None, *, delete: bool = False) -> dict:
    r = copy.deepcopy(base)
    target = r
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return r


R, P, S = ("rules",), ("rules", "progressive"), ("seats",)
CASES = [
    # top level
    ("unknown top field", with_(BASE, ("table",), 3), "table"),
    ("game missing", with_(BASE, ("game",), delete=True), "game"),
    ("wrong game", with_(BASE, ("game",), "casino-war "), "game"),
    ("seats missing", with_(BASE, ("seats",), delete=True), "seats"),
    ("seats not a list", with_(BASE, ("seats",), {"seat": 1}), "seats"),
    ("no seats", with_(BASE, ("seats",), []), "seats"),
    ("dealer missing", with_(BASE, ("dealer",), delete=True), "dealer"),
    ("dealer not a list", with_(BASE, ("dealer",), "As Kd 7h 4c 2s"), "dealer"),
    ("rules null", with_(BASE, ("rules",), None), "rules"),
    # rules
    ("unknown rule", with_(BASE, R + ("decks",), 1), "rules.decks"),
    ("bet_multiple 0", with_(BASE, R + ("bet_multiple",), 0), "rules.bet_multiple"),
    ("bet_multiple text", with_(BASE, R + ("bet_multiple",), "2"), "rules.bet_multiple"),
    ("payout limit 0", with_(BASE, R + ("bet_payout_limit",), 0), "rules.bet_payout_limit"),
    ("payout limit bool", with_(BASE, R + ("bet_payout_limit",), True), "rules.bet_payout_limit"),
    ("paytable unknown hand", with_(BASE, R + ("paytable", "pair"), 1), "rules.paytable.pair"),
    ("paytable not an object", with_(BASE, R + ("paytable",), [1, 2]), "rules.paytable"),
    *[(f"paytable {hand} below (g)(2)", with_(BASE, R + ("paytable", hand), odds - 1), f"rules.paytable.{hand}")
      for hand, odds in BASE["rules"]["paytable"].items()],
    ("paytable odds text", with_(BASE, R + ("paytable", "flush"), "5"), "rules.paytable.flush"),
    # progressive
    ("unknown progressive field", with_(BASE, P + ("royal-flush",), 1), "rules.progressive.royal-flush"),
    ("progressive wager 0", with_(BASE, P + ("wager",), 0), "rules.progressive.wager"),
    ("progressive wager negative", with_(BASE, P + ("wager",), -100), "rules.progressive.wager"),
    ("meter negative", with_(BASE, P + ("meter",), -1), "rules.progressive.meter"),
    ("reset negative", with_(BASE, P + ("reset",), -1), "rules.progressive.reset"),
    ("contribution below 70%", with_(BASE, P + ("contribution_bp",), 6999), "rules.progressive.contribution_bp"),
    ("contribution above 100%", with_(BASE, P + ("contribution_bp",), 10001), "rules.progressive.contribution_bp"),
    ("flush award below (g)(4)", with_(BASE, P + ("flush",), 4999), "rules.progressive.flush"),
    ("full house award below (g)(4)", with_(BASE, P + ("full-house",), 9999), "rules.progressive.full-house"),
    ("four award below (g)(4)", with_(BASE, P + ("four-of-a-kind",), 49999), "rules.progressive.four-of-a-kind"),
    ("straight flush fixed below $5,000", with_(BASE, P + ("straight-flush",), {"fixed": 499999}),
     "rules.progressive.straight-flush"),
    ("straight flush percent below 10", with_(BASE, P + ("straight-flush",), {"percent_of_meter": 9}),
     "rules.progressive.straight-flush"),
    ("straight flush percent above 100", with_(BASE, P + ("straight-flush",), {"percent_of_meter": 101}),
     "rules.progressive.straight-flush"),
    ("straight flush both kinds", with_(BASE, P + ("straight-flush",), {"percent_of_meter": 10, "fixed": 500000}),
     "rules.progressive.straight-flush"),
    ("straight flush neither", with_(BASE, P + ("straight-flush",), {}), "rules.progressive.straight-flush"),
    ("straight flush unknown kind", with_(BASE, P + ("straight-flush",), {"percent": 10}),
     "rules.progressive.straight-flush.percent"),
    ("straight flush a number", with_(BASE, P + ("straight-flush",), 10), "rules.progressive.straight-flush"),
    # seats
    ("unknown seat field", with_(BASE, S + (0, "bet"), 2000), "seats[0].bet"),
    ("seat not an object", with_(BASE, S + (1,), 4), "seats[1]"),
    ("seat number missing", with_(BASE, S + (1, "seat"), delete=True), "seats[1].seat"),
    ("seat 0", with_(BASE, S + (0, "seat"), 0), "seats[0].seat"),
    ("seat 8", with_(BASE, S + (1, "seat"), 8), "seats[1].seat"),
    ("seat as text", with_(BASE, S + (1, "seat"), "4"), "seats[1].seat"),
    ("seat twice", with_(BASE, S + (1, "seat"), 1), "seats[1].seat"),
    ("ante missing", with_(BASE, S + (0, "ante"), delete=True), "seats[0].ante"),
    ("ante zero", with_(BASE, S + (0, "ante"), 0), "seats[0].ante"),
    ("ante negative", with_(BASE, S + (1, "ante"), -500), "seats[1].ante"),
    ("ante as text", with_(BASE, S + (1, "ante"), "500"), "seats[1].ante"),
    ("ante a float", with_(BASE, S + (1, "ante"), 500.5), "seats[1].ante"),
    ("ante a whole float", with_(BASE, S + (1, "ante"), 500.0), "seats[1].ante"),
    ("ante a bool", with_(BASE, S + (1, "ante"), True), "seats[1].ante"),
    ("progressive not a bool", with_(BASE, S + (0, "progressive"), 1), "seats[0].progressive"),
    ("decision missing", with_(BASE, S + (1, "decision"), delete=True), "seats[1].decision"),
    ("decision unknown", with_(BASE, S + (1, "decision"), "raise"), "seats[1].decision"),
    ("cards missing", with_(BASE, S + (1, "cards"), delete=True), "seats[1].cards"),
    ("cards not a list", with_(BASE, S + (1, "cards"), "2d 7s 9c Jd 3h"), "seats[1].cards"),
    # cards
    ("bad card 10h", with_(BASE, S + (1, "cards", 2), "10h"), "seats[1].cards"),
    ("bad card lower case", with_(BASE, S + (1, "cards", 0), "as"), "seats[1].cards"),
    ("bad card number", with_(BASE, S + (0, "cards", 4), 12), "seats[0].cards"),
    ("bad dealer card", with_(BASE, ("dealer", 3), "1c"), "dealer"),
    ("card twice in a hand", with_(BASE, S + (1, "cards", 4), "7s"), "seats[1].cards"),
    ("seat card in the dealer's hand", with_(BASE, S + (1, "cards", 0), "Kd"), "seats[1].cards"),
    ("card in two seats", with_(BASE, S + (1, "cards", 0), "Qh"), "seats[1].cards"),
    ("card twice in a void hand", with_(BASE, S + (1, "cards"), ["2d", "2d"]), "seats[1].cards"),
    ("card twice in the dealer's hand", with_(BASE, ("dealer", 4), "As"), "dealer"),
    # shoe
    ("dealing missing with a shoe", with_(SHOE_BASE, ("dealing",), delete=True), "dealing"),
    ("dealing unknown", with_(SHOE_BASE, ("dealing",), "shuffler"), "dealing"),
    ("dealing without a shoe", with_(BASE, ("dealing",), "manual"), "dealing"),
    ("dealer with a shoe", with_(SHOE_BASE, ("dealer",), ["As", "Kd", "7h", "4c", "2s"]), "dealer"),
    ("seat cards with a shoe", with_(SHOE_BASE, S + (0, "cards"), ["As", "Kd", "7h", "4c", "3s"]),
     "seats[0].cards"),
    ("shoe too short", with_(SHOE_BASE, ("shoe",), SHOE[:19]), "shoe"),
    ("shoe not a list", with_(SHOE_BASE, ("shoe",), " ".join(SHOE)), "shoe"),
    ("bad card in the shoe", with_(SHOE_BASE, ("shoe", 7), "Qx"), "shoe"),
    ("duplicate in the dealt part of the shoe", with_(SHOE_BASE, ("shoe", 19), "Ad"), "shoe"),
    ("duplicate beyond the deal", with_(SHOE_BASE, ("shoe",), SHOE + ["2c", "Ad"]), "shoe"),
    ("decision missing with a shoe", with_(SHOE_BASE, S + (2, "decision"), delete=True), "seats[2].decision"),
]


def test_the_bases_are_valid():
    settle_record(copy.deepcopy(BASE))
    settle_record(copy.deepcopy(SHOE_BASE))


@pytest.mark.parametrize("name,record,field", CASES, ids=[c[0] for c in CASES])
def test_invalid_record_names_the_field(name, record, field):
    with pytest.raises(RecordError) as err:
        settle_record(record)
    line = str(err.value).splitlines()[0]
    assert line.startswith(field), line
    # the path is followed by the reason, not by more of another field's name
    assert line[len(field)] in ":[." and ": " in line


def test_the_duplicate_names_the_card_and_both_places():
    with pytest.raises(RecordError) as err:
        settle_record(with_(BASE, S + (1, "cards", 0), "Kd"))
    assert str(err.value) == "seats[1].cards[0]: Kd appears twice (also at dealer[1])"


def test_the_later_of_two_places_is_named_in_record_order():
    # A record that lists its seats before the dealer names the dealer's copy.
    r = with_(BASE, S + (1, "cards", 0), "Kd")
    reordered = {"game": r["game"], "seats": r["seats"], "dealer": r["dealer"]}
    with pytest.raises(RecordError) as err:
        settle_record(reordered)
    assert str(err.value).startswith("dealer[1]: Kd appears twice")


def test_a_void_hand_needs_no_decision_but_a_full_hand_does():
    r = with_(BASE, S + (1, "cards"), ["2d", "7s", "9c", "Jd"])
    del r["seats"][1]["decision"]
    out = settle_record(r)
    assert out["seats"][1]["void"] is True
    with pytest.raises(RecordError, match=r"^seats\[1\]\.decision"):
        settle_record(with_(BASE, S + (1, "decision"), delete=True))


TABLECTL = Path(sys.executable).with_name("tablectl")


@pytest.mark.parametrize("name,record,field", [c for c in CASES if c[0] in (
    "seat twice", "paytable flush below (g)(2)", "contribution below 70%", "card in two seats",
    "shoe too short", "unknown seat field")], ids=lambda v: v if isinstance(v, str) else "")
def test_tablectl_exits_2_naming_the_field(name, record, field):
    p = subprocess.run([str(TABLECTL), "settle", "-"], input=json.dumps(record),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.splitlines()[0].startswith(field)


@pytest.mark.parametrize("text,field", [
    ('"ante": 1000.5', "seats[0].ante"),
    ('"ante": 1e3', "seats[0].ante"),
    ('"ante": NaN', "seats[0].ante"),
    ('"ante": 1000, "progressive": 1.0', "seats[0].progressive"),
])
def test_tablectl_names_the_field_of_a_float(text, field):
    record = ('{"game": "caribbean-stud", "dealer": ["As", "Kd", "7h", "4c", "2s"], "seats": [{"seat": 1, '
              + text + ', "decision": "bet", "cards": ["Ah", "Kh", "Qh", "Jh", "Th"]}]}')
    p = subprocess.run([str(TABLECTL), "settle", "-"], input=record, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines()[0].startswith(field + ": ")
