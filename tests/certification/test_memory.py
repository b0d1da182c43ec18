"""Critical memory checked continually (issue 28 item 8): a byte flipped under a running table faults it,
before the next round when it is in the round just closed, within the scrub's period otherwise."""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.journal.store import canonical_payload
from tests.table.table_helpers import running, stud_profile, until


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 90))


def flip(path: Path, needle: bytes, offset: int = 2) -> bool:
    """One byte changed where `needle` is written in `path` (as a disk returning other bytes would)."""
    data = path.read_bytes()
    at = data.rfind(needle)
    if at < 0:
        return False
    with open(path, "r+b") as f:
        f.seek(at + offset)
        f.write(bytes([data[at + offset] ^ 0x01]))
    return True


def test_a_byte_flipped_in_the_round_just_closed_faults_before_the_next_opens(tmp_path):
    async def scenario():
        async with running(stud_profile(), tmp_path, autoplay=True, seed=6) as table:
            journal = table.journal
            original = journal.reread
            flipped: list[str] = []

            def reread(first):
                # the disk gives back another byte of the round just closed, between its commit and its check
                if not flipped:
                    r = table.state.round
                    needle = canonical_payload(r.record).encode()[:48]
                    if any(flip(journal.db_path.with_name(n), needle, 30) for n in ("journal.db-wal", "journal.db")):
                        flipped.append(r.round_id)
                return original(first)
            journal.reread = reread
            await until(lambda: table.fault is not None, "the fault", timeout=60)
            opened = [rid for rid, *_ in journal.round_ids()]
            return flipped, table.fault, opened
    flipped, fault, opened = run(scenario())
    assert flipped, "the round's record was not found on the disk to change"
    assert any(p["code"] == "chain-hash" for p in fault["problems"]), fault
    assert opened[-1] == flipped[0]   # no round opened after the one whose bytes changed


def test_the_journal_is_scrubbed_again_while_the_table_runs(tmp_path):
    async def played():
        async with running(stud_profile(), tmp_path, autoplay=True, seed=7, rounds=2) as table:
            await until(lambda: table.stopped, "two rounds", timeout=60)
    run(played())

    async def scenario():
        async with running(stud_profile(), tmp_path, scrub_every_s=0.05, emulate=True) as table:
            journal = table.journal
            passes: list[int] = []
            original = journal.scrub

            def scrub(**kw):
                found = original(**kw)
                passes.append(len(found))
                return found
            journal.scrub = scrub
            await until(lambda: len(passes) >= 1, "the first scrub")
            assert table.fault is None and passes[0] == 0   # the first pass found the journal sound
            assert flip(journal.db_path, b'"journal_id":"', 16)   # the first entry's bytes, sealed long ago
            await until(lambda: table.fault is not None, "the scrub's fault", timeout=30)
            return len(passes), table.fault
    count, fault = run(scenario())
    assert count >= 2 and any("seal" in p["code"] or "scrub" in p.get("detail", "") for p in fault["problems"]), fault
