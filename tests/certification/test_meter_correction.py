"""A meter correction takes two different supervisors, like an integrity clearing (issue 28 item 8)."""

from __future__ import annotations

import asyncio

from controller.journal.store import Journal
from tests.table.table_helpers import deck_ready, running, stud_profile, until


async def _between_rounds(table) -> None:
    """The open round voided by a supervisor: a correction is made between rounds."""
    assert (await table.submit({"type": "void_round", "reason": "closing"}, source="supervisor", who="S-1"))["ok"]


def test_one_supervisor_twice_or_another_amount_corrects_nothing(tmp_path):
    async def scenario():
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded")
            await _between_rounds(table)
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


def _correct(table, who: str, amount: int):
    return table.submit({"type": "correct_meter", "amount": amount, "reason": "audit"}, source="supervisor", who=who)


def test_a_restart_between_the_two_supervisors_keeps_the_first_ones_ask(tmp_path):
    """The first's ask is journaled: after a power cut the second carries it out, and the first alone
    pressing again after the restart still corrects nothing (the restart is no way around the second)."""
    async def scenario():
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded")
            await _between_rounds(table)
            before = table.published()["meter"]["amount"]
            first = await _correct(table, "S-1", 2_700_000)
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded again")
            shown = table.published()["meter"].get("correction")   # every supervisor's screen, after the restart
            again = await _correct(table, "S-1", 2_700_000)   # the same supervisor: still only an ask
            unchanged = table.published()["meter"]["amount"]
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded a third time")
            done = await _correct(table, "S-2", 2_700_000)
            return before, first, shown, again, unchanged, done, table.published()["meter"]["amount"]
    before, first, shown, again, unchanged, done, after = asyncio.run(asyncio.wait_for(scenario(), 90))
    assert shown is not None and (shown["by"], shown["amount"]) == ("S-1", 2_700_000)
    assert "second" in first["awaits"] and "second" in again["awaits"] and unchanged == before != 2_700_000
    assert done["ok"] and "awaits" not in done and after == 2_700_000
    with Journal.open(tmp_path, readonly=True) as j:
        meter = [e.payload for e in j.entries_since(0) if e.kind == "meter" and e.payload.get("reason") == "correction"]
    assert [(m["by"], m["approved_by"], m["after"]) for m in meter] == [("S-2", "S-1", 2_700_000)]


def test_a_restart_after_the_correction_leaves_nothing_awaiting(tmp_path):
    """A correction carried out is not asked for again by the restart: one more supervisor's press is a
    new first ask, never the second half of the one already done."""
    async def scenario():
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded")
            await _between_rounds(table)
            await _correct(table, "S-1", 2_700_000)
            assert "awaits" not in await _correct(table, "S-2", 2_700_000)
        async with running(stud_profile(), tmp_path, emulate=True) as table:
            await until(lambda: deck_ready(table.published()), "the deck loaded again")
            pending = table.published()["meter"].get("correction")
            after_restart = await _correct(table, "S-3", 2_700_000)
            return pending, after_restart, table.published()["meter"]["amount"]
    pending, after_restart, amount = asyncio.run(asyncio.wait_for(scenario(), 90))
    assert pending is None   # the supervisors' screens show nothing awaiting
    assert "second" in after_restart["awaits"] and amount == 2_700_000
