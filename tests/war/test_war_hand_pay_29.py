"""Issue 29 item 6 at casino war: a wager settled past the round's hand-pay threshold holds its seat (its
pays "held" on the dealer's list, from the settlement that decided it) and, once every wager is settled,
the round waits in `hand_pay` until a supervisor fills in each such seat's form; through the installed
`tablectl run --autoplay` too, its emulated supervisor filling in each form."""

from __future__ import annotations

import copy
import json
import subprocess

import pytest

from controller.games.base import EventRefused
from controller.games.casino_war.machine import CasinoWarRound, State
from controller.games.casino_war.paylist import HELD, pay_list
from controller.games.casino_war.rules import Rules
from controller.games.handpay import Threshold, masked
from controller.journal.store import Journal
from tests.rounds import apply
from tests.war.test_war_machine import SCRIPT

LOW = Threshold(min_amount=500, multiple=1)   # seat 3's $5 initial win and seat 1's $10 on its $1 tie wager
PLAYER = "CA-D7741-0001"


def form(seat: int, number: str) -> dict:
    return {"type": "hand_pay", "seat": seat, "player_id": PLAYER, "form": number, "supervisor": "pat"}


def played(threshold: Threshold | None, steps: int = len(SCRIPT), rules: Rules | None = None) -> CasinoWarRound:
    r = CasinoWarRound(rules, hand_pay=threshold)
    for event, _ in SCRIPT[:steps]:
        apply(r, copy.deepcopy(event))
    return r


def steps_of(r: CasinoWarRound, seat: int) -> set[str]:
    return {s["step"] for s in pay_list(r.first, r.settlement, held=frozenset(r.forms_due())) or [] if s["seat"] == seat}


def test_a_seat_is_held_from_the_settlement_that_decided_it_and_the_round_waits_for_each_form():
    r = played(LOW, steps=8)   # the original deal settled: seat 1 tied (its tie wager won), seat 3 won
    assert r.state is State.DECISIONS and r.forms_due() == [1, 3]
    assert steps_of(r, 3) == {HELD} and steps_of(r, 1) == {HELD}
    assert "hand_pay" not in r.allowed()   # a form covers the whole of the seat's wins: after its war
    r = played(LOW)
    assert r.state is State.HAND_PAY and sorted(r.allowed()) == ["hand_pay"] and r.forms_due() == [1, 3]
    assert [w["wager"] for w in r.hand_pays_due()[1]] == ["tie", "war"]   # its war won too
    assert HELD in steps_of(r, 1) and "pay" not in steps_of(r, 1)   # (its lost war tie wager collected)
    before = r.snapshot()
    for bad, why in (({"seat": 2}, "no hand-pay waiting"), ({"supervisor": ""}, "signs its form")):
        with pytest.raises(EventRefused, match=why):
            apply(r, {**form(1, "W2G-1"), **bad})
    assert r.snapshot() == before
    (paid,) = apply(r, form(3, "W2G-3"))
    assert paid == {"type": "hand_paid", "seat": 3, "amount": 500, "form": "W2G-3", "paid_by": "pat",
                    "player": masked(PLAYER), "wagers": [{"wager": "initial", "stake": 500, "win": 500}]}
    assert r.state is State.HAND_PAY and steps_of(r, 3) == {"pay"}
    with pytest.raises(EventRefused, match="already another seat's"):
        apply(r, form(1, "W2G-3"))
    effects = apply(r, form(1, "W2G-1"))
    assert r.state is State.CLOSED and any(e["type"] == "round_closed" for e in effects)
    assert PLAYER not in repr(r.snapshot()) and PLAYER not in repr(effects)


def test_without_a_threshold_or_below_it_the_round_closes_as_it_did():
    assert played(None).state is State.CLOSED
    assert played(Threshold()).state is State.CLOSED   # $600 and 300 times: no casino war win at 10:1 reaches it


def test_a_tie_paid_at_300_to_1_is_a_hand_pay_at_the_default_threshold():
    """A facility's tie odds of 300:1 (5324.22(j) sets only the least): a $2 tie wager wins $600."""
    r = CasinoWarRound(Rules(tie_odds=300), hand_pay=Threshold())
    for event in ({"type": "wager", "seat": 1, "wager": "initial", "stake": 1000},
                  {"type": "wager", "seat": 1, "wager": "tie", "stake": 200}, {"type": "no_more_bets"},
                  {"type": "card", "card": "9s"}, {"type": "card", "card": "9h"}, {"type": "settle"}):
        apply(r, event)
    assert r.state is State.DECISIONS and r.hand_pays_due() == {1: [{"wager": "tie", "stake": 200, "win": 60_000}]}
    apply(r, {"type": "decision", "seat": 1, "decision": "surrender"})
    assert r.state is State.HAND_PAY   # every wager settled: the form, then the round closes
    apply(r, form(1, "W2G-9"))
    assert r.state is State.CLOSED


def test_autoplay_fills_in_each_form_at_a_casino_war_table_that_hand_pays_every_win(tmp_path):
    from tests.certification.cert_helpers import TABLECTL, data_dir, screenless, tablectl
    profile = screenless("casino-war", tmp_path)
    text = profile.read_text()
    assert "[hand_pay]" in text
    profile.write_text(text.replace("min_amount = 60000", "min_amount = 1").replace("multiple = 300", "multiple = 1"))
    data = data_dir(tmp_path / "data")
    done = subprocess.run([str(TABLECTL), "run", "--config", str(profile), "--data-dir", str(data), "--emulate",
                           "--autoplay", "--rounds", "3", "--seed", "5"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    closed = [json.loads(x) for x in done.stdout.splitlines() if x.startswith('{"round"')]
    assert len(closed) == 3
    with Journal.open(data, readonly=True) as j:
        forms = [e.payload for e in j.entries_of(("hand-pay",))]
    won = sorted((c["round"], s["seat"]) for c in closed for s in c["settlement"]["seats"]
                 if any(isinstance(w, dict) and w.get("net", 0) > 0 for w in s.values()))
    assert won and sorted((p["round"], p["seat"]) for p in forms) == won   # a form for every winning seat
    assert all(p["player_id"] == f"EMULATED-{p['seat']}" for p in forms)
    listed = json.loads(tablectl("events", "--json", "--kind", "hand-pay", "--data-dir", data).stdout)["events"]
    assert len(listed) == len(forms)
    report = json.loads(tablectl("report", "--json", "--demo", "--data-dir", data, "--from", "2000-01-01",
                                 "--to", "2100-01-01").stdout)
    assert sorted((h["round"], h["seat"]) for h in report["tables"][0]["hand_pays"]) == won
    for p in forms:   # in the journal, never in the table's output or logs, nor the report's
        assert p["player_id"] not in done.stdout + done.stderr and p["player_id"] not in json.dumps(report)
