"""Issue 29 item 6 on the live table (controller/table.py on emulated devices, its journal on disk), read back
through the installed command: a royal flush past the hand-pay threshold is held after its validation until
a supervisor fills in the form; the player's identification is in the journal and, after it is entered,
nowhere else in full (the table's view and answers, its log lines, `tablectl events`, `report`, `rounds show`)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import subprocess
from pathlib import Path

import pytest

from controller import logs
from controller.config import load_profile
from controller.games.handpay import masked
from controller.journal.store import Journal
from controller.runtime.world import World
from tests.table.table_helpers import running, stacked_deck, until

TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")
ROYAL = stacked_deck("As Ks Qs Js Ts", "2c 7d 9s 4s 3c")   # seat 1's royal flush, then the dealer's
PLAYER = "NY-D0471-2291-77"   # the player's identification, as the supervisor keys it in
FORM = "W2G-2026-0042"


def profile_file(tmp: Path) -> Path:
    path = tmp / "profile.toml"
    path.write_text("""game = "caribbean-stud"

[table]
id = "CS-HP"
name = "Caribbean Stud (hand-pays)"
minimum_wager = 500
maximum_wager = 50000

[caribbean_stud]
dealing = "automated"

[caribbean_stud.progressive]
wager = 100
initial = 1000000
reset = 1000000

[hand_pay]
min_amount = 60000
multiple = 300
""")
    return path


def forget_logging() -> None:
    """The process's logging as it was before the fixture caught every line (as tests/config/test_logs.py)."""
    logs.reset()
    for handler in [h for h in logging.getLogger().handlers if getattr(h, "_tablectl", False)]:
        logging.getLogger().removeHandler(handler)


def tablectl(*args: str) -> str:
    done = subprocess.run([TABLECTL, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One round: seat 1's royal flush validated, then held for its hand-pay's form, refused at the door
    as the dealer's, malformed, before its validation, then filled in by the signed-in supervisor."""
    tmp = tmp_path_factory.mktemp("handpay29")
    data = tmp / "data"
    mp = pytest.MonkeyPatch()
    mp.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(ROYAL))
    out = io.StringIO()
    logs.configure("debug", "json", stream=out, table="CS-HP", force=True)   # every line the table logs
    seen: dict = {"data": data, "answers": []}

    async def play():
        async with running(load_profile(profile_file(tmp)), data) as table:
            emu = table.devices.world.progressive
            await until(lambda: table.published()["round"]["state"] == "open"
                        and (table.published().get("deck") or {}).get("count") is not None
                        and table.published()["deck"]["loaded"], "the round open, its deck counted and loaded")
            seen["round"] = table.published()["round"]["id"]
            assert (await table.submit({"type": "ante", "seat": 1, "amount": 1000}, source="panel"))["ok"]
            await asyncio.to_thread(emu.place_wager, 1)
            await until(lambda: "progressive" in table.published()["seats"][0]["wagers"], "seat 1's wager")
            await asyncio.to_thread(emu.press_and_release_lockout)
            await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["state"] == "decisions", "the deal")
            for step in ({"type": "decision", "seat": 1, "decision": "bet"}, {"type": "reveal"}, {"type": "settle"}):
                assert (await table.submit(step, source="panel"))["ok"], step
            form = {"type": "hand_pay", "seat": 1, "player_id": PLAYER, "form": FORM}

            async def ask(event, source="supervisor", who="S-9"):
                answer = await table.submit(event, source=source, who=who)
                seen["answers"].append(answer)
                return answer
            seen["before_validation"] = await ask(form)
            assert (await table.submit({"type": "validate", "seat": 1}, source="supervisor", who="S-9"))["ok"]
            seen["held"] = json.loads(json.dumps(table.published()))
        # a stop while the seat is held: the round comes back held, from its journaled events
        async with running(load_profile(profile_file(tmp)), data) as table:
            emu = table.devices.world.progressive
            seen["held_again"] = json.loads(json.dumps(table.published()))

            async def ask(event, source="supervisor", who="S-9"):
                answer = await table.submit(event, source=source, who=who)
                seen["answers"].append(answer)
                return answer
            seen["from_the_dealer"] = await ask(form, source="panel", who=None)
            seen["short_id"] = await ask({**form, "player_id": "12"})
            seen["named_payer"] = await ask({**form, "supervisor": "S-1"})
            seen["next_round_held"] = await ask({"type": "next_round"}, source="panel", who=None)
            seen["done"] = await ask(form)
            seen["after"] = json.loads(json.dumps(table.published()))
            await asyncio.to_thread(emu.remove_wager, 1)
            assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["id"] != seen["round"], "the next round open")

    try:
        asyncio.run(asyncio.wait_for(play(), 120))
    finally:
        mp.undo()
        forget_logging()
    seen["log"] = out.getvalue()
    return seen


def test_the_win_is_held_until_the_supervisor_fills_in_the_form(played):
    held = played["held"]
    assert held["round"]["state"] == "validation" and "Hand-pay: seat 1" in held["round"]["next_step"]
    (hp,) = held["hand_pays"]
    assert hp["seat"] == 1 and not hp["done"] and hp["wagers"][0]["wager"] == "progressive"
    assert hp["threshold"] == {"min_amount": 60000, "multiple": 300} and hp["amount"] >= 60000
    again = played["held_again"]   # after a restart: the same round, still held for its form
    assert again["round"]["id"] == held["round"]["id"] and again["round"]["state"] == "validation"
    assert again["hand_pays"] == held["hand_pays"] and again["settlement"] == held["settlement"]
    # the dealer pays nothing of seat 1 before the form: its pays are held
    steps = {s["step"] for s in held["settlement"] if s["seat"] == 1}
    assert "held" in steps and "pay" not in steps   # (its bet returned: the dealer did not qualify)
    assert not played["next_round_held"]["ok"]
    after = played["after"]
    assert after["round"]["state"] == "closed"
    (done,) = after["hand_pays"]
    assert done["done"] and done["form"] == FORM and done["paid_by"] == "S-9" and done["player"] == masked(PLAYER)
    steps = {s["step"] for s in after["settlement"] if s["seat"] == 1}
    assert "pay" in steps and "held" not in steps


def test_refusals_at_the_door_and_in_the_round_are_journaled_bounded(played):
    assert not played["before_validation"]["ok"] and "hand_pay" in played["before_validation"]["error"]
    assert "only a signed-in supervisor" in played["from_the_dealer"]["error"]
    assert "player_id" in played["short_id"]["error"]
    assert "supervisor" in played["named_payer"]["error"]
    for answer in played["answers"]:   # no answer to a screen says the identification in full
        assert PLAYER not in json.dumps(answer)
    with Journal.open(played["data"], readonly=True) as j:
        refused = [e.payload for e in j.entries_of(("refused",)) if e.payload["event"].get("type") == "hand_pay"]
        forms = [e.payload for e in j.entries_of(("hand-pay",))]
        events = [e.payload for e in j.entries_of(("event",)) if e.payload["event"]["type"] == "hand_pay"]
    assert len(refused) == 4 and all(len(json.dumps(r["event"])) <= 300 for r in refused)
    assert {r["source"] for r in refused} == {"supervisor", "panel"}
    # the form's record, in the journal in full (the only place): the event and the hand-pay entry
    (form,) = forms
    assert form["player_id"] == PLAYER and form["form"] == FORM and form["paid_by"] == "S-9"
    assert form["round"] == played["round"] and form["seat"] == 1 and form["amount"] >= 60000
    assert events[0]["event"]["player_id"] == PLAYER and events[0]["who"] == "S-9"


def test_the_logs_never_carry_the_identification(played):
    lines = [json.loads(x) for x in played["log"].splitlines() if x.startswith("{")]
    assert any(x["event"] == "round_closed" for x in lines)   # the table's lines were caught
    assert PLAYER not in played["log"]


def test_events_report_and_rounds_show_list_it_masked(played):
    data, rid = str(played["data"]), played["round"]
    (ev,) = json.loads(tablectl("events", "--json", "--kind", "hand-pay", "--data-dir", data))["events"]
    assert ev["kind"] == "hand-pay" and ev["who"] == "S-9" and ev["form"] == FORM and ev["round"] == rid
    assert ev["player"] == masked(PLAYER) and ev["seat"] == 1
    text = tablectl("events", "--data-dir", data)
    assert "hand-pay" in text and f"form {FORM}" in text and PLAYER not in text
    period = ("--from", "2000-01-01T00:00:00", "--to", "2100-01-01T00:00:00")
    report = json.loads(tablectl("report", "--json", "--demo", "--data-dir", data, *period))
    (hp,) = report["tables"][0]["hand_pays"]
    assert hp == {"at": hp["at"], "round": rid, "seat": 1, "amount": ev["amount"], "form": FORM, "paid_by": "S-9",
                  "player": masked(PLAYER)}
    assert any(e["kind"] == "hand-pay" for e in report["significant_events"])
    assert PLAYER not in json.dumps(report)
    text = tablectl("report", "--demo", "--data-dir", data, *period)
    assert f"hand-pay: round {rid} seat 1" in text and f"form {FORM}" in text and PLAYER not in text
    shown = tablectl("rounds", "show", rid, "--data-dir", data)
    assert "hand-pay of seat 1" in shown and f"tax form {FORM}" in shown and masked(PLAYER) in shown
    assert PLAYER not in shown
    as_json = tablectl("rounds", "show", rid, "--json", "--data-dir", data)
    assert PLAYER not in as_json
    read = json.loads(as_json)
    (entry,) = [e for e in read["entries"] if e["kind"] == "hand-pay"]
    assert entry["payload"]["player_id"] == masked(PLAYER) and entry["payload"]["form"] == FORM
    assert read["record"]["payload"]["hand_pays"]["1"]["player"] == masked(PLAYER)
    # and the journal's chain, seal and ledger hold with the form in it
    verify = subprocess.run([TABLECTL, "journal", "verify", "--data-dir", data], capture_output=True, text=True,
                            timeout=120)
    assert verify.returncode == 0 and "ledger balances" in verify.stdout, verify.stdout + verify.stderr


def test_autoplay_fills_in_each_form_at_a_table_that_hand_pays_every_win(tmp_path):
    """The installed `tablectl run --emulate --autoplay`: with a threshold every winning wager meets, each
    round is held and its emulated supervisor fills in a form for each winning seat before it closes."""
    from tests.certification.cert_helpers import data_dir, screenless
    profile = screenless("caribbean-stud", tmp_path)
    text = profile.read_text()
    assert "min_amount = 60000" in text and "multiple = 300" in text
    profile.write_text(text.replace("min_amount = 60000", "min_amount = 1").replace("multiple = 300", "multiple = 1"))
    data = data_dir(tmp_path / "data")
    done = subprocess.run([TABLECTL, "run", "--config", str(profile), "--data-dir", str(data), "--emulate",
                           "--autoplay", "--rounds", "4", "--seed", "3"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    closed = [json.loads(x) for x in done.stdout.splitlines() if x.startswith('{"round"')]
    assert len(closed) == 4
    with Journal.open(data, readonly=True) as j:
        forms = [(e.round_id, e.payload) for e in j.entries_of(("hand-pay",))]
    won = [(c["round"], s["seat"]) for c in closed for s in c["settlement"]["seats"]
           if any(isinstance(w, dict) and w.get("net", 0) > 0 for w in s.values())]
    assert won and sorted((rid, p["seat"]) for rid, p in forms) == sorted(won)   # a form for every winning seat
    assert all(p["player_id"] == f"EMULATED-{p['seat']}" and p["paid_by"] == "autoplay-supervisor" for _, p in forms)
    listed = json.loads(tablectl("events", "--json", "--kind", "hand-pay", "--data-dir", str(data)))["events"]
    assert len(listed) == len(forms)
    for _, p in forms:   # the emulated player's id is in the journal, never in the table's output or logs
        assert p["player_id"] not in done.stdout and p["player_id"] not in done.stderr
