"""A meter correction takes two different supervisors, like an integrity clearing (issue 28 item 8)."""

from __future__ import annotations

import asyncio

from controller.journal.store import Journal
from tests.table.table_helpers import deck_ready, running, stud_profile, until


def test_one_supervisor_twice_or_another_amount_corrects_nothing(tmp_path):
    async def scenario():
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded")
            assert (await table.submit({"type": "void_round", "reason": "closing"}, source="supervisor",
                                       who="S-1"))["ok"]
            before = table.published()["meter"]["amount"]
            said = []
            for who, amount in (("S-1", 2_700_000), ("S-1", 2_700_000), ("S-2", 2_650_000)):
                said.append(await table.submit({"type": "correct_meter", "amount": amount, "reason": "audit"},
                                               source="supervisor", who=who))
            unchanged = table.published()["meter"]["amount"]
            done = await table.submit({"type": "correct_meter", "amount": 2_650_000, "reason": "audit"},
                                      source="supervisor", who="S-1")
            return before, said, unchanged, done, table.published()["meter"]["amount"]
    before, said, unchanged, done, after = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert all(s["ok"] and "second" in s["awaits"] for s in said) and unchanged == before
    assert done["ok"] and "awaits" not in done and after == 2_650_000
    with Journal.open(tmp_path, readonly=True) as j:
        approvals = [e.payload for e in j.entries_since(0) if e.kind == "meter-approval"]
        meter = [e.payload for e in j.entries_since(0) if e.kind == "meter" and e.payload.get("reason") == "correction"]
    assert [(a["by"], a["amount"]) for a in approvals] == [("S-1", 2_700_000), ("S-1", 2_700_000), ("S-2", 2_650_000)]
    assert [(m["by"], m["approved_by"], m["after"]) for m in meter] == [("S-1", "S-2", 2_650_000)]
