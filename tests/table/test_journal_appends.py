"""Every append the running table makes has one failure policy: one the journal does not take faults the table.

Issue 27: the consumer faulted the table when the journal would not take a batch, while the link's
worker, the software's first approval, the anchors and a clearing on the running table appended
beside it and logged a failure and went on. Now each goes through the table's writer
(controller/journal/writer.py). Here the journal refuses every append (a full disk: sqlite's
"database or disk is full") and each former path is shown to fault the table, and not to carry on
as if the entry were on disk.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from controller.journal.anchor import Keeper
from controller.journal.selfcheck import read_marker
from controller.journal.store import Journal, JournalError
from controller.journal.writer import NotRecorded
from controller.runtime.linked import LinkedTable
from controller.table import Table
from tests.table.table_helpers import running, until, war_profile

FULL = "database or disk is full"


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def fill_the_disk(journal: Journal) -> list[str]:
    """From now on the journal takes nothing (Journal.append goes through append_many); what was refused."""
    refused: list[str] = []

    def append_many(items):
        refused.extend(kind for kind, _, _ in items)
        raise JournalError(FULL)
    journal.append_many = append_many  # type: ignore[method-assign]
    return refused


def journal_fault(table: Table) -> None:
    assert table.fault is not None, "the table plays on although the journal did not take an entry"
    assert f"the journal could not record events: {FULL}" in table.fault["reason"]
    assert any(FULL in p["detail"] for f in read_marker(table.data_dir) for p in f["problems"])   # kept beside it


@pytest.fixture
def table(tmp_path):
    """A table with its journal open (not started: the paths are driven one at a time)."""
    t = Table(war_profile(), data_dir=tmp_path, screen=False)
    t.journal = Journal.open(tmp_path)
    yield t
    t.journal.close()


def test_the_consumers_batch_not_taken_faults_the_table(tmp_path):
    async def scenario():
        async with running(war_profile(), tmp_path) as table:
            await until(lambda: table.published()["round"]["id"] is not None, "the first round")
            refused = fill_the_disk(table.journal)
            answer = await table.submit({"type": "wager", "seat": 1, "amount": 1000}, source="panel")
            return table, answer, refused
    table, answer, refused = run(scenario())
    assert answer == {"ok": False, "error": f"not recorded: {FULL}"}
    assert refused == ["refused", "fault"]   # the batch (a refusal for the audit), then the fault's own record
    journal_fault(table)


def test_a_link_operation_not_journaled_faults_the_table_and_is_not_asked(table):
    refused = fill_the_disk(table.journal)
    status = SimpleNamespace(playable=True, reason="", retired="")
    link = LinkedTable(table, SimpleNamespace(pool="P", table="T-1"), SimpleNamespace(status=status))  # type: ignore[arg-type]
    link._ask("contribution", "T-1-000001", {"round": "T-1-000001", "seats": [1]})
    assert refused == ["link-op", "fault"]   # then the fault\'s own record, kept in its marker
    journal_fault(table)
    assert link.queue.empty() and not link.asked and not link.open_ops   # not on disk as asked: not asked


def test_a_link_status_not_journaled_faults_the_table(table):
    refused = fill_the_disk(table.journal)
    status = SimpleNamespace(playable=True, reason="", retired="")
    link = LinkedTable(table, SimpleNamespace(pool="P", table="T-1"), SimpleNamespace(status=status))  # type: ignore[arg-type]
    link._on_status(SimpleNamespace(playable=False, reason="the pool is out of reach", retired=""))  # type: ignore[arg-type]
    assert refused == ["link-status", "fault"]   # then the fault\'s own record, kept in its marker
    journal_fault(table)


def test_a_link_confirmation_not_journaled_faults_the_table_and_stays_open(table):
    sent = SimpleNamespace(key="k", confirmed=True, result=None)

    class Link(LinkedTable):
        async def operation(self, kind, args, *, send=True):
            return sent

    link = Link(table, SimpleNamespace(pool="P", table="T-1"),  # type: ignore[arg-type]
                SimpleNamespace(status=SimpleNamespace(playable=True, reason="", retired="")))
    link._ask("close", "T-1-000001", {"round": "T-1-000001"})   # journaled as asked
    refused = fill_the_disk(table.journal)
    run(link._send("close", "T-1-000001", {"round": "T-1-000001"}))
    assert refused == ["link-confirm", "fault"]   # then the fault\'s own record, kept in its marker
    journal_fault(table)
    assert ("close", "T-1-000001") in link.open_ops   # asked again at the next start, from the journal


def test_a_first_approval_not_journaled_faults_the_table_and_approves_nothing(table):
    refused = fill_the_disk(table.journal)
    with pytest.raises(NotRecorded):
        table.software.approve("S-1", "new release checked")
    assert refused == ["fault-approval", "fault"]   # then the fault\'s own record, kept in its marker
    journal_fault(table)
    assert table.software.approval is None


def test_an_anchor_check_not_journaled_faults_the_table(table):
    refused = fill_the_disk(table.journal)
    keeper = Keeper(table, [])
    assert run(keeper.check_at_start()) == []   # the fault is the writer's: nothing more to fault on
    assert refused == ["anchor-check", "fault"]   # then the fault\'s own record, kept in its marker
    journal_fault(table)
    assert not keeper.checked


def test_anchor_records_not_journaled_fault_the_table(table):
    keeper = Keeper(table, [])
    keeper._unrecorded.append(("anchor-written", {"sink": "progressive controller", "seq": 1, "hash": "00"}, None))
    refused = fill_the_disk(table.journal)
    keeper.flush()
    assert refused == ["anchor-written", "fault"]   # then the fault\'s own record, kept in its marker
    journal_fault(table)


def test_a_clearing_not_journaled_on_the_running_table_leaves_it_in_a_fault(tmp_path):
    async def scenario():
        async with running(war_profile(), tmp_path) as table:
            await until(lambda: table.published()["round"]["id"] is not None, "the first round")
            table.raise_fault("internal", "an internal error (raised by the test)")
            refused = fill_the_disk(table.journal)
            answer = await table.submit({"type": "clear_fault", "reason": "checked"}, source="supervisor",
                                        who="S-1")
            return table, answer, refused
    table, answer, refused = run(scenario())
    assert answer == {"ok": False, "error": f"not recorded: {FULL}"}
    assert refused[-1] == "fault" and refused[-2] in ("fault-cleared", "software-accepted")
    journal_fault(table)
