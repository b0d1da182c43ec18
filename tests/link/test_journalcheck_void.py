"""The journal check of a voided linked round (controller/link/journalcheck.py, issue 10; 5324.37(h)).

A round voided at a restart because cards came out that the box did not record
is voided before any card is recorded; its record has no pool name, yet its
contribution went to the pool at the lock-out and stays there. A round voided
before its lock-out contributed nothing. The crash lane (test_crash_linked.py)
meets the first case at random; here each case is built once, with the pool's
rows given directly, so the check's answer for each is pinned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.link.journalcheck import compare_journal

RID = "CS-K-000016"


@dataclass
class Entry:
    seq: int
    kind: str
    payload: Any
    round_id: str | None = None


class FakeJournal:
    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries

    def entries_since(self, seq: int):
        return [e for e in self.entries if e.seq > seq]


class FakePool:
    """The pool's answers to the check's queries: its records, awards and contributions (no round
    closed, no claim refused: issue 26's refusals and closes are checked against the real pool,
    tests/link/test_live_claims.py)."""

    def __init__(self, contributions: dict[str, list[int]]) -> None:
        self.contributions = contributions

    def execute(self, query: str, params: tuple = ()):
        rows: list = []
        if "to_regclass" in query:
            rows = [("link.refusals",)]
        elif "closed_key" in query or "link.refusals" in query:
            rows = []
        elif "link.contributions" in query:
            rows = list(self.contributions.items())
        elif "admin_table_records" in query:
            rows = [("contribution", rid, f"key-{rid}", units(seats)) for rid, seats in self.contributions.items()]
        return type("Rows", (), {"fetchall": lambda self: rows, "fetchone": lambda self: rows[0] if rows else None})()


def journal(*, locked_out: bool, seats: list[int], asked: bool) -> FakeJournal:
    """A linked round with antes at seats 2, 5, 6 and progressive wagers at `seats`, voided at a restart."""
    entries = [Entry(1, "round-opened", {"game": "caribbean-stud", "link": {"pool": "cs", "table": "CS-K"}}, RID)]
    if locked_out:
        entries.append(Entry(2, "event", {"event": {"type": "no_more_bets"}, "source": "device"}, RID))
    if asked:
        entries += [Entry(3, "link-op", {"op": "contribution", "pool": "cs", "table": "CS-K", "ident": RID,
                                         "round": RID, "seats": seats}, RID),
                    Entry(4, "link-confirm", {"op": "contribution", "ident": RID, "round": RID, "confirmed": True,
                                              "key": f"key-{RID}", "result": {"units": units(seats)}}, RID)]
    wagers = [{"seat": s, "ante": 500, **({"progressive": 100} if s in seats else {})} for s in (2, 5, 6)]
    entries.append(Entry(5, "round-record", {"game": "caribbean-stud", "round": RID, "meter_after": 2500000,
                                             "carry_after": 0, "void": {"reason": "after a restart ...",
                                                                        "wagers": wagers}}, RID))
    return FakeJournal(entries)


def units(seats: list[int]) -> int:
    return 700_000 * len(seats)   # 70 percent of a 100-cent wager, in 1/10000 cent


def check(j: FakeJournal, contributions: dict[str, list[int]]) -> dict:
    return compare_journal(FakePool(contributions), "cs", "CS-K", j)


def test_a_round_voided_after_its_lockout_keeps_its_contribution_though_its_record_names_no_pool():
    found = check(journal(locked_out=True, seats=[2, 5], asked=True), {RID: [2, 5]})
    assert found["rounds"] == 1 and found["records"] == 1 and found["unconfirmed"] == []
    assert found["differences"] == [], found


def test_a_round_voided_after_its_lockout_without_its_contribution_in_the_pool_is_named():
    found = check(journal(locked_out=True, seats=[2, 5], asked=False), {})
    assert any(f"round {RID} (void): progressive wagers at seats [2, 5]" in d for d in found["differences"]), found


def test_a_round_voided_before_its_lockout_has_no_contribution_to_find():
    found = check(journal(locked_out=False, seats=[2], asked=False), {})
    assert found["differences"] == [], found


def test_a_contribution_for_a_round_voided_before_its_lockout_is_named():
    found = check(journal(locked_out=False, seats=[2], asked=True), {RID: [2]})
    assert any(f"round {RID} (void before its lock-out)" in d for d in found["differences"]), found
