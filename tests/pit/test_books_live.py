"""Issue 34, items 1 and 2 at the live table: the books journaled with their signers, through the running
table (the screens' and the dealer's events) and `tablectl pit` on the stopped one (PINs on stdin), listed
by `tablectl events`, and the count room's win and hold in `tablectl report --json` beside the box's own
win from the settlements, each figure computed again here from the journal."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from controller.config import load_profile
from controller.journal.store import Journal
from tests.table.table_helpers import running

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = str(ROOT / ".venv" / "bin" / "tablectl")
PROFILE = ROOT / "tests" / "crash" / "war.toml"
PINS = {"S-1": "135790", "S-2": "246801"}
CARRIERS = {"R-17": "975310", "C-3": "864200"}   # a runner and a cage cashier, each with their own PIN


def tablectl(*args: str, stdin: str = "", code: int = 0) -> subprocess.CompletedProcess:
    done = subprocess.run([TABLECTL, *args], capture_output=True, text=True, timeout=180, input=stdin)
    assert done.returncode == code, done.stderr[-2000:] + done.stdout[-2000:]
    return done


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("books")
    data, secrets = tmp / "data", tmp / "secrets.toml"
    for who, pin in PINS.items():
        tablectl("supervisor", "add", who, "--secrets", str(secrets), "--pin-stdin", stdin=f"{pin}\n")
    carriers = tmp / "carriers.toml"
    for who, pin in CARRIERS.items():
        tablectl("carrier", "add", who, "--roster", str(carriers), "--pin-stdin", stdin=f"{pin}\n")
    seen: dict = {}

    async def at_the_table() -> None:
        async with running(load_profile(PROFILE), data) as table:
            seen["opener"] = await table.submit({"type": "pit_inventory", "inventory": "opener",
                                                 "chips": {"500": 200, "2500": 80}}, source="supervisor", who="S-1")
            seen["buy_in"] = await table.submit({"type": "buy_in", "seat": 2, "amount": 20_000}, source="panel")
            seen["self_carried"] = await table.submit({"type": "pit_fill", "chips": {"2500": 4}, "carrier": "S-1",
                                                       "slip": "F-1"}, source="supervisor", who="S-1")
            seen["dealer_fill"] = await table.submit({"type": "pit_fill", "chips": {"2500": 4}, "carrier": "R-1",
                                                      "slip": "F-1"}, source="panel")
            seen["busy"] = await asyncio.to_thread(
                tablectl, "pit", "credit", "--data-dir", str(data), "--secrets", str(secrets), "--chips",
                '{"500": 1}', "--carrier", "R-17", "--carriers", str(carriers), "--slip", "C-0",
                stdin=f"S-1\n{PINS['S-1']}\n{CARRIERS['R-17']}\n", code=2)

    asyncio.run(asyncio.wait_for(at_the_table(), 120))
    tablectl("run", "--config", str(PROFILE), "--data-dir", str(data), "--autoplay", "--rounds", "8", "--seed", "4")
    sign = f"S-1\n{PINS['S-1']}\n"
    pit = ("--data-dir", str(data), "--secrets", str(secrets))
    carry = ("--carriers", str(carriers))
    seen["carrier_wrong_pin"] = tablectl("pit", "fill", *pit, *carry, "--chips", '{"2500": 40}', "--carrier", "R-17",
                                         "--slip", "F-0041", stdin=sign + f"{CARRIERS['C-3']}\n", code=2)
    seen["no_roster"] = tablectl("pit", "fill", *pit, "--chips", '{"2500": 40}', "--carrier", "R-17",
                                 "--slip", "F-0041", stdin=sign + f"{CARRIERS['R-17']}\n", code=2)
    tablectl("pit", "fill", *pit, *carry, "--chips", '{"2500": 40}', "--carrier", "R-17", "--slip", "F-0042",
             stdin=sign + f"{CARRIERS['R-17']}\n")
    tablectl("pit", "credit", *pit, *carry, "--chips", '{"500": 30}', "--carrier", "C-3", "--slip", "C-0007",
             stdin=sign + f"{CARRIERS['C-3']}\n")
    tablectl("pit", "inventory", *pit, "--kind", "closer", "--chips", '{"500": 150, "2500": 90}', stdin=sign)
    seen["wrong_pin"] = tablectl("pit", "drop", *pit, "--amount", "61000", stdin=f"S-1\n{PINS['S-1']}\nS-2\n000000\n",
                                 code=2)
    seen["one_signer"] = tablectl("pit", "drop", *pit, "--amount", "61000",
                                  stdin=f"S-1\n{PINS['S-1']}\nS-1\n{PINS['S-1']}\n", code=2)
    tablectl("pit", "drop", *pit, "--amount", "61000", stdin=f"S-1\n{PINS['S-1']}\nS-2\n{PINS['S-2']}\n")
    seen["data"] = data
    return seen


def test_the_table_journals_the_books_and_refuses_what_they_do_not_take(books):
    assert books["opener"]["ok"] and books["buy_in"]["ok"]
    assert not books["self_carried"]["ok"] and "signed by two people" in books["self_carried"]["error"]
    assert not books["dealer_fill"]["ok"]                    # a fill is a supervisor's act, not the dealer's
    assert "alone writes its journal" in books["busy"].stderr
    assert "not right" in books["wrong_pin"].stderr and "different supervisors" in books["one_signer"].stderr
    # the carrier signs with their own PIN: another's is refused, and so is a fill with no roster to check it
    assert "carrier's badge or PIN is not right" in books["carrier_wrong_pin"].stderr
    assert "--carriers" in books["no_roster"].stderr
    with Journal.open(books["data"], readonly=True) as j:
        acts = [e.payload for e in j.entries_of(("pit",))]
        refused = [e.payload for e in j.entries_of(("refused",))]
    assert [a["act"] for a in acts] == ["opener", "buy-in", "fill", "credit", "closer", "drop"]
    assert acts[0]["by"] == "S-1" and acts[0]["amount"] == 200 * 500 + 80 * 2500
    assert acts[2]["carrier"] == "R-17" and acts[5]["second"] == "S-2"
    assert sum(1 for r in refused if (r.get("event") or {}).get("type") == "pit_fill") == 2   # both, bounded


def test_tablectl_events_lists_each_act_with_its_signers(books):
    out = json.loads(tablectl("events", "--data-dir", str(books["data"]), "--json").stdout)["events"]
    kinds = [e["kind"] for e in out if e["kind"] in ("opener", "closer", "fill", "credit", "buy-in", "drop")]
    assert kinds == ["opener", "buy-in", "fill", "credit", "closer", "drop"]
    fill = next(e for e in out if e["kind"] == "fill")
    assert fill["who"] == "S-1, R-17" and fill["amount"] == 100_000 and "F-0042" in fill["detail"]
    only = json.loads(tablectl("events", "--data-dir", str(books["data"]), "--json", "--kind", "drop").stdout)
    assert [e["who"] for e in only["events"]] == ["S-1, S-2"]


def test_the_report_gives_the_count_rooms_win_beside_the_settlements(books):
    data = books["data"]
    t = json.loads(tablectl("report", "--data-dir", str(data), "--config", str(PROFILE), "--demo", "--from",
                            "2000-01-01", "--json").stdout)["tables"][0]
    pit = t["pit"]
    # the same figures from the journal, computed here
    with Journal.open(data, readonly=True) as j:
        acts = [e.payload for e in j.entries_of(("pit",))]
        nets = [w["net"] for e in j.entries_of(("round-record",))
                for s in (e.payload.get("settlement") or {}).get("seats", [])
                for w in s.values() if isinstance(w, dict) and "net" in w]
    amount = {a["act"]: a["amount"] for a in acts}
    win = amount["closer"] - amount["opener"] + amount["credit"] - amount["fill"] + amount["drop"]
    assert (pit["opener"], pit["closer"], pit["fills"], pit["credits"], pit["drop"], pit["estimated_drop"]) == (
        amount["opener"], amount["closer"], amount["fill"], amount["credit"], amount["drop"], 20_000)
    assert pit["win"] == win and pit["hold_bp"] == (1 if win >= 0 else -1) * (abs(win) * 10_000 // amount["drop"])
    assert pit["measured_win"] == -sum(nets) == t["house_win"]
    assert pit["difference"] == win - pit["measured_win"]
    assert pit["theoretical_win"] == t["par"]["theoretical_win"] and pit["sigma"] == t["par"]["sigma"]
    assert ("agree" in pit["explained"]) is (pit["difference"] == 0)
    # per dealer: nobody signed in at this table, so every round and the buy-in are under no one's name
    (nobody,) = t["dealers"]
    assert nobody["dealer"] is None and nobody["estimated_drop"] == 20_000
    assert nobody["par"]["theoretical_win"] == t["par"]["theoretical_win"]
    text = tablectl("report", "--data-dir", str(data), "--demo", "--from", "2000-01-01").stdout
    assert "win by the books" in text and "estimated $200.00" in text


@pytest.mark.parametrize("paper, size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_the_shift_report_prints_to_sign(books, tmp_path, paper, size):
    """Item 5: `tablectl report --pdf` on A4 and letter, read back: the figures, the books, the par, the
    events and a line for each signer."""
    from pypdf import PdfReader
    out = tmp_path / f"shift-{paper}.pdf"
    data = books["data"]
    figures = json.loads(tablectl("report", "--data-dir", str(data), "--config", str(PROFILE), "--demo", "--from",
                                  "2000-01-01", "--json", "--pdf", str(out), "--paper", paper).stdout)
    reader = PdfReader(out)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size
    text = "\n".join(page.extract_text() for page in reader.pages)
    t = figures["tables"][0]
    assert f"Shift report: table {t['table']}" in text and "TEST MODE" in text
    assert f"{t['rounds']} rounds" in text
    pit = t["pit"]
    win = f"${abs(pit['win']) // 100:,}.{abs(pit['win']) % 100:02d}"
    assert "win by the books" in text and win in text
    assert "Against the exact par" in text and "standard deviation" in text
    assert f"Significant events ({len(t['events'])})" in text
    for who in ("Dealer", "Floor supervisor", "Pit manager", "Count room"):
        assert f"{who}: name" in text
