"""A live poker table's seats across hands and a restart (controller/table.py, emulated devices)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.config import load_profile
from tests.table.table_helpers import running, until

HOLDEM = Path(__file__).resolve().parents[2] / "config" / "texas-holdem.toml"


def test_seats_stacks_and_a_seat_sitting_out_come_back_after_a_restart(tmp_path):
    """Stacks carried across hands and restarts; (c)(3)(v): a seat kept while its player is away."""
    profile = load_profile(HOLDEM)

    async def first():
        async with running(profile, tmp_path / "d") as table:
            for event in ({"type": "sit", "seat": 2, "stack": 5_000}, {"type": "sit", "seat": 4, "stack": 6_000},
                          {"type": "sit", "seat": 6, "stack": 7_000}, {"type": "top_up", "seat": 2, "amount": 1_000},
                          {"type": "next_round"}):
                assert (await table.submit(event, source="panel"))["ok"], event
            await until(lambda: (table.published()["poker"]["deck"] or {}).get("ok"), "the deck counted")
            for event in ({"type": "deal_hole"}, {"type": "fold", "seat": 6}, {"type": "fold", "seat": 2}):
                assert (await table.submit(event, source="panel"))["ok"], event
            assert table.published()["round"]["state"] == "closed"
            assert (await table.submit({"type": "sit_out", "seat": 4}, source="panel"))["ok"]
            assert (await table.submit({"type": "leave", "seat": 2}, source="panel"))["ok"]
            return table.published()["seating"]

    async def second():
        async with running(profile, tmp_path / "d") as table:
            return table.published()["seating"]

    before = asyncio.run(first())
    assert [(s["seat"], s["stack"], s["away"]) for s in before["seats"]] == [(4, 6_100, True), (6, 7_000, False)]
    after = asyncio.run(second())
    assert after == before
