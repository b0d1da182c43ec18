"""What the report leaves out of a round record before decoding it (facts.UNREAD) is what no game's
books read: every game's facts are the same with it and without it, on autoplayed tables' journals."""

from __future__ import annotations

import sqlite3

import pytest

from controller.journal.store import Journal
from controller.report.facts import KINDS, SUPERVISOR_MARK, UNREAD, facts_of
from tests.report.report_helpers import ROUNDS


@pytest.mark.parametrize("game", list(ROUNDS))
def test_the_facts_are_the_same_without_what_the_report_leaves_unread(played, game):
    data = played[game]
    with Journal.open(data, readonly=True) as journal:
        whole = list(facts_of(journal.report_entries(KINDS, SUPERVISOR_MARK)))
        trimmed = list(facts_of(journal.report_entries(KINDS, SUPERVISOR_MARK, unread=UNREAD)))
    assert [f for f in whole if f["fact"] == "round"], "the table played rounds"
    assert trimmed == whole
    conn = sqlite3.connect(f"file:{data / 'journal.db'}?mode=ro", uri=True)
    try:
        paths = ", ".join("?" * len(UNREAD))
        left_out = conn.execute(f"SELECT sum(length(payload) - length(json_remove(payload, {paths}))) "
                                "FROM entries WHERE kind = 'round-record'", UNREAD).fetchone()[0]
    finally:
        conn.close()
    if game != "texas-holdem":   # a poker hand's record is its PHH text: nothing of it is left out
        assert left_out > 0, "the banked games' records hold cards and rules the report does not decode"
