"""Issue 29 on the live table (controller/table.py on emulated devices, its journal on disk), read back
through the installed command: a meter with a limit stops at it and its overflow takes the rest; a
refused royal flush (two signers) read back by `tablectl meters`, `rounds show`, `settle` and `report`,
all agreeing that it was not paid and not a hit; a changed rate held until the meter's next reset."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from controller.config import load_profile
from controller.journal.store import Journal
from controller.runtime.world import World
from tests.table.table_helpers import running, stacked_deck, until

TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")
RESET, LIMIT = 1_000_000, 1_000_020
ROYAL_AND_FLUSH = stacked_deck("As Ks Qs Js Ts", "2h 6h 9h Jh Kh", "2c 7d 9s 4s 3c")   # seat 1, seat 3, the dealer


def profile_file(tmp: Path, rate: int = 7000) -> Path:
    """Every device emulated; a $1 progressive wager at `rate`, its meter starting at its reset, with a
    limit $0.20 above it; an award above $5,000 signed by two."""
    path = tmp / f"profile-{rate}.toml"
    path.write_text(f"""game = "caribbean-stud"

[table]
id = "CS-29"
name = "Caribbean Stud (issue 29)"
minimum_wager = 500
maximum_wager = 50000

[caribbean_stud]
dealing = "automated"
second_signer_above = 500000

[caribbean_stud.progressive]
wager = 100
initial = {RESET}
reset = {RESET}
contribution_bp = {rate}
limit = {LIMIT}
overflow = "next-reset"

[logging]
level = "warning"
format = "json"
""")
    return path


def tablectl(*args: str) -> str:
    done = subprocess.run([TABLECTL, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


async def play_royal_round(table, decide) -> str:
    """Seats 1 and 3 with progressive wagers: seat 1's royal flush, seat 3's flush; `decide` the supervisors'."""
    emu = table.devices.world.progressive
    await until(lambda: table.published()["round"]["state"] == "open"
                and (table.published().get("deck") or {}).get("count") is not None
                and table.published()["deck"]["loaded"], "the round open, its deck counted and loaded")
    rid = table.published()["round"]["id"]
    for n in (1, 3):
        assert (await table.submit({"type": "ante", "seat": n, "amount": 1000}, source="panel"))["ok"]
        await asyncio.to_thread(emu.place_wager, n)
        await until(lambda n=n: "progressive" in table.published()["seats"][n - 1]["wagers"],
                    f"the wager of seat {n} in {rid}: {table.published()['seats'][n - 1]} {table.published()['alarms']}")
    await asyncio.to_thread(emu.press_and_release_lockout)
    await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
    assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
    await until(lambda: table.published()["round"]["state"] == "decisions", "the deal")
    for step in ({"type": "decision", "seat": 3, "decision": "bet"}, {"type": "decision", "seat": 1, "decision": "bet"},
                 {"type": "reveal"}, {"type": "settle"}):
        assert (await table.submit(step, source="panel"))["ok"], step
    await decide(table)
    assert table.published()["round"]["state"] == "closed"
    for n in (1, 3):   # the dealer takes the chips off the acceptors
        await asyncio.to_thread(emu.remove_wager, n)
    return rid


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One journal: a round whose royal is refused (by two), then a restart with a changed rate and
    a round whose royal is validated (by two), then one more round."""
    tmp = tmp_path_factory.mktemp("meters29")
    data = tmp / "data"
    mp = pytest.MonkeyPatch()
    mp.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(ROYAL_AND_FLUSH))
    seen: dict = {}

    async def refuse(table):
        seen["refusal"] = next(v for v in table.published()["validations"] if v["seat"] == 1)["on_refusal"]
        assert (await table.submit({"type": "refuse", "seat": 1, "reason": "the acceptor light was not lit",
                                    "second_signer": "S-7"}, source="supervisor", who="S-9"))["ok"]
        assert (await table.submit({"type": "validate", "seat": 3}, source="supervisor", who="S-9"))["ok"]

    async def validate(table):
        assert (await table.submit({"type": "validate", "seat": 1, "second_signer": "S-7"},
                                   source="supervisor", who="S-9"))["ok"]
        assert (await table.submit({"type": "validate", "seat": 3}, source="supervisor", who="S-9"))["ok"]
        # the royal is past the hand-pay threshold (issue 29 item 6): its tax form before it is paid
        assert (await table.submit({"type": "hand_pay", "seat": 1, "player_id": "D123-456-789", "form": "W2G-1"},
                                   source="supervisor", who="S-9"))["ok"]

    async def first():
        async with running(load_profile(profile_file(tmp)), data) as table:
            seen["refused_round"] = await play_royal_round(table, refuse)
            await table.submit({"type": "next_round"}, source="panel")

    async def second():
        async with running(load_profile(profile_file(tmp, rate=8000)), data) as table:
            await until(lambda: table.published()["round"]["state"] == "open", "the round open")
            seen["pending_at_start"] = tablectl("meters", "--json", "--data-dir", str(data))
            seen["royal_round"] = await play_royal_round(table, validate)
            await table.submit({"type": "next_round"}, source="panel")
            await until(lambda: table.published()["round"]["id"] != seen["royal_round"], "the next round open")

    try:
        run(first())
        seen["meters"] = json.loads(tablectl("meters", "--json", "--data-dir", str(data)))["meters"]
        run(second())
    finally:
        mp.undo()
    seen["data"] = data
    return seen


def record_of(data: Path, round_id: str) -> dict:
    with Journal.open(data, readonly=True) as j:
        entry = j.round_record(round_id)
    assert entry is not None
    return entry.payload


def test_the_meter_stops_at_its_limit_and_the_overflow_takes_the_rest(played):
    (m,) = played["meters"]
    # 2 wagers x 70 cents: 20 to the limit, 120 into the overflow; the royal's restart took 20 of the
    # overflow up to the limit (100 stayed); the refused share went back: to the limit, the rest overflow.
    assert (m["current"], m["limit"], m["base"]) == (LIMIT, LIMIT, RESET)
    assert m["contributions"] == 140 and m["to_overflow"] == 120 and m["from_overflow"] == 20
    assert m["overflow"] == 100 + LIMIT   # the refused share: the meter was at its limit
    assert m["exceeds_ten_digits"] == []


def test_a_refused_royal_is_not_a_hit_nor_paid_in_the_meters_and_both_signers_are_shown(played):
    (m,) = played["meters"]
    assert m["hits"] == 1 and m["levels"]["royal-flush"] == {"hits": 0, "paid": 0}
    assert m["wins"] == 0   # the flush is a fixed award, the house's; the royal was refused
    royal, flush = sorted(m["last_hits"], key=lambda h: h["seat"])
    assert royal["refused"] == "the acceptor light was not lit" and royal["amount"] == LIMIT
    assert (royal["validated_by"], royal["second_signer"]) == ("S-9", "S-7") and royal["at"]
    assert flush["hand"] == "flush" and "refused" not in flush and flush["validated_by"] == "S-9"
    text = tablectl("meters", "--data-dir", str(played["data"]))
    assert "REFUSED by S-9 and S-7: the acceptor light was not lit (not paid, not a hit)" in text
    # the refusal's confirmation said what it does to the meter before it was pressed
    assert "not paid, not a hit" in played["refusal"] and "the reset seed stays in the meter" in played["refusal"]
    assert "into the overflow" in played["refusal"]


def test_rounds_show_settle_and_report_agree_on_the_refused_royal(played, tmp_path):
    data, rid = played["data"], played["refused_round"]
    payload = record_of(data, rid)
    shown = tablectl("rounds", "show", rid, "--data-dir", str(data))
    assert "REFUSED by supervisor S-9 and second signer S-7" in shown
    assert "REFUSED seat 1 royal-flush $10,000.20 by S-9 and S-7: the acceptor light was not lit: not paid" in shown
    assert "progressive $1.00 refused -$1.00" in shown and "progressive $1.00 win" not in shown.split("seat 3")[0]
    net = sum(w["net"] for s in payload["settlement"]["seats"] for w in s.values() if isinstance(w, dict) and "net" in w)
    assert f"players' net {'-' if net < 0 else ''}${abs(net) // 100:,}.{abs(net) % 100:02d}" in shown
    # `tablectl settle` of the round's record: the refused win is no win
    (tmp_path / "record.json").write_text(json.dumps(payload["record"]))
    settled = json.loads(tablectl("settle", str(tmp_path / "record.json")))
    seat_1 = next(s for s in settled["seats"] if s["seat"] == 1)["progressive"]
    assert (seat_1["outcome"], seat_1["net"]) == ("refused", -100)
    assert settled == payload["settlement"]
    # the report: not paid, not a hit; listed as refused
    report = json.loads(tablectl("report", "--json", "--demo", "--data-dir", str(data), "--from", "2000-01-01T00:00:00",
                                 "--to", "2100-01-01T00:00:00"))
    prog = report["tables"][0]["progressive"]
    assert [r["round"] for r in prog["refused"]] == [rid] and prog["pending"] == []
    assert prog["hits"].get("royal-flush") == 1   # the validated one of the second round only
    assert prog["awards_meter"] == next(a["amount"] for a in record_of(data, played["royal_round"])["settlement"]
                                        ["progressive"]["awards"] if a["hand"] == "royal-flush")


def test_a_changed_rate_waits_for_the_next_reset(played):
    (m,) = json.loads(played["pending_at_start"])["meters"]
    change = m["pending_change"]
    assert change["contribution_bp"] == 8000 and "next reset" in change["applies"] and m["rate_bp"] == 7000
    royal = record_of(played["data"], played["royal_round"])
    assert royal["record"]["rules"]["progressive"]["contribution_bp"] == 7000   # the cycle's own rate
    assert royal["countersigned"] == {"1": "S-7"}
    with Journal.open(played["data"], readonly=True) as j:
        opened = [e.payload for e in j.entries_since(0) if e.kind == "round-opened"]
    after = opened[-1]
    assert after["rules"]["progressive"]["contribution_bp"] == 8000 and "pending" not in after["meter"]
    (now,) = json.loads(tablectl("meters", "--json", "--data-dir", str(played["data"])))["meters"]
    assert now["pending_change"] is None and now["rate_bp"] == 8000
    verify = subprocess.run([TABLECTL, "journal", "verify", "--data-dir", str(played["data"])],
                            capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0 and "ledger balances" in verify.stdout, verify.stdout
