"""A poker hand read by someone who never saw the table (issue 30): `tablectl rounds show` tells the
seats, the actions and the pots in words, and the PHH the table wrote carries `seats`, by which
`tablectl poker replay` answers. A live hold'em table on emulated devices, the installed command.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

from controller.config import load_profile
from controller.journal.store import Journal
from tests.table.table_helpers import running, until

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = str(ROOT / ".venv" / "bin" / "tablectl")
HOLDEM = ROOT / "config" / "texas-holdem.toml"


def test_a_hand_at_seats_2_5_7_reads_by_seat_in_rounds_show_and_in_the_replay(tmp_path):
    data = tmp_path / "d"

    async def play():
        async with running(load_profile(HOLDEM), data) as table:
            for event in ({"type": "sit", "seat": 2, "stack": 10_000}, {"type": "sit", "seat": 5, "stack": 10_000},
                          {"type": "sit", "seat": 7, "stack": 10_000}, {"type": "next_round"}):
                assert (await table.submit(event, source="panel"))["ok"], event
            await until(lambda: (table.published()["poker"]["deck"] or {}).get("ok"), "the deck counted")
            assert (await table.submit({"type": "deal_hole"}, source="panel"))["ok"]
            first = table.published()["poker"]["to_act"]
            assert (await table.submit({"type": "bet_raise", "seat": first, "amount": 600}, source="panel"))["ok"]
            second = table.published()["poker"]["to_act"]
            assert (await table.submit({"type": "fold", "seat": second}, source="panel"))["ok"]
            third = table.published()["poker"]["to_act"]
            assert (await table.submit({"type": "fold", "seat": third}, source="panel"))["ok"]
            view = table.published()
            assert view["round"]["state"] == "closed"
            return view["round"]["id"], first, second, third

    round_id, first, second, third = asyncio.run(asyncio.wait_for(play(), 60))
    shown = subprocess.run([TABLECTL, "rounds", "show", round_id, "--data-dir", str(data)],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "seats 2 ($100.00), 5 ($100.00), 7 ($100.00)" in out
    assert f"Seat {first} raises to $6.00" in out and f"Seat {second} folds" in out and f"Seat {third} folds" in out
    assert f"seat {first} takes" in out and "Main pot" in out
    events = out.split("round record")[0]
    assert f"Seat {first} bets or raises to $6.00  (by panel" in events and "The dealer deals the hole cards" in events
    assert not [line for line in events.splitlines() if '"type":"fold"' in line or '"type":"bet_raise"' in line]
    with Journal.open(data, readonly=True) as j:
        record = next(e.payload for e in j.entries_since(0) if e.kind == "round-record")
    assert "seats = [2, 5, 7]" in record["phh"]
    hand = tmp_path / "hand.phh"
    hand.write_text(record["phh"])
    replayed = subprocess.run([TABLECTL, "poker", "replay", str(hand)], capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stderr
    summary = json.loads(replayed.stdout)
    assert summary["seats"] == [2, 5, 7]
    assert sorted(summary["pots"][0]["eligible"]) == [first]
    assert list(summary["pots"][0]["awards"]) == [str(first)]
    # without `seats` the same hand answers by PHH's player numbers, as phh-std has it
    hand.write_text(record["phh"].replace("seats = [2, 5, 7]\n", ""))
    plain = json.loads(subprocess.run([TABLECTL, "poker", "replay", str(hand)], capture_output=True, text=True,
                                      timeout=60).stdout)
    assert "seats" not in plain and list(plain["pots"][0]["awards"]) == [str([2, 5, 7].index(first) + 1)]
    # a `seats` naming a seat twice is refused by name
    hand.write_text(record["phh"].replace("seats = [2, 5, 7]", "seats = [2, 2, 7]"))
    bad = subprocess.run([TABLECTL, "poker", "replay", str(hand)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("seats")
