"""The dealer is someone (issue 30): a dealer signs in by badge at the start and at each rotation, every
event from the panel and the dealer's screen is journaled with the dealer on duty, a restart keeps
them, and `tablectl rounds show` names them. A live casino war table on emulated devices.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

from controller.journal.store import Journal
from tests.table.table_helpers import running, until, war_profile

TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")


def test_a_dealer_rotation_is_journaled_and_each_event_names_the_dealer_on_duty(tmp_path):
    data = tmp_path / "d"

    async def first():
        async with running(war_profile(), data) as table:
            await until(lambda: table.published()["round"]["id"] is not None, "the first round")
            before = table.published()["dealer_on_duty"]
            anonymous = await table.submit({"type": "wager", "seat": 1, "wager": "initial", "stake": 1000},
                                           source="panel")
            bad = await table.submit({"type": "dealer_on_duty", "badge": "D 101; drop"}, source="panel")
            assert (await table.submit({"type": "dealer_on_duty", "badge": "D-101"}, source="panel"))["ok"]
            assert (await table.submit({"type": "wager", "seat": 2, "wager": "initial", "stake": 500},
                                       source="panel"))["ok"]
            # the rotation: "New dealer" after the new dealer signed in (5324.22(h)(1): a card burned)
            assert (await table.submit({"type": "dealer_on_duty", "badge": "D-202"}, source="panel"))["ok"]
            rotated = await table.submit({"type": "new_dealer"}, source="panel")
            assert (await table.submit({"type": "wager", "seat": 3, "wager": "initial", "stake": 500},
                                       source="panel"))["ok"]
            return before, anonymous, bad, rotated, table.published()["round"]["id"]

    async def second():   # after a restart, the same dealer deals on (the emulated players' round)
        async with running(war_profile(), data, autoplay=True, rounds=2, seed=3) as table:
            on_duty = table.published()["dealer_on_duty"]
            await until(lambda: table.closed_rounds >= 2, "two rounds dealt", timeout=60)
            # who dealt a round, read from the journal after the restart (a jackpot form's dealer): the one
            # on duty when it opened; the first round opened before anyone signed in
            dealt = {rid: table.dealer.of_round(table.journal, rid)
                     for rid in (round_id, table.published()["round"]["id"])}
            return on_duty, dealt

    before, anonymous, bad, rotated, round_id = asyncio.run(asyncio.wait_for(first(), 60))
    after_restart, dealt = asyncio.run(asyncio.wait_for(second(), 90))
    assert before is None and anonymous["ok"] and not bad["ok"] and rotated["ok"], rotated
    assert after_restart == "D-202"
    assert list(dealt.values()) == [None, {"badge": "D-202", "name": None}], dealt
    with Journal.open(data, readonly=True) as j:
        entries = list(j.entries_since(0))
    signed = [e.payload for e in entries if e.kind == "dealer"]
    assert [(s["dealer"], s["relieves"]) for s in signed] == [("D-101", None), ("D-202", "D-101")]
    by = [(e.payload["event"]["type"], e.payload["event"].get("seat"), e.payload["who"]) for e in entries
          if e.kind == "event" and e.payload["source"] == "panel"]
    assert ("wager", 1, None) in by and ("wager", 2, "D-101") in by
    assert ("new_dealer", None, "D-202") in by and ("wager", 3, "D-202") in by
    refused = [e.payload for e in entries if e.kind == "refused"]
    assert any(r.get("event", {}).get("type") == "dealer_on_duty" for r in refused)
    shown = subprocess.run([TABLECTL, "rounds", "show", round_id, "--data-dir", str(data)], capture_output=True,
                           text=True, timeout=60)
    assert "panel/D-101" in shown.stdout and "panel/D-202" in shown.stdout, shown.stdout + shown.stderr
    report = subprocess.run([TABLECTL, "report", "--json", "--demo", "--data-dir", str(data), "--config",
                             str(Path(__file__).resolve().parents[1] / "crash" / "war.toml")],
                            capture_output=True, text=True, timeout=60)
    assert report.returncode == 0, report.stderr
    dealers = {d["dealer"]: d for d in json.loads(report.stdout)["tables"][0]["dealers"]}
    assert set(dealers) == {"D-101", "D-202"}, dealers
    assert dealers["D-202"]["rounds"] == 2 and dealers["D-101"]["rounds"] == 0
    assert dealers["D-202"]["handle"] > 0 and len(dealers["D-202"]["signed_in"]) == 1
