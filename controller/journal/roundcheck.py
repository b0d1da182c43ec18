"""Critical memory checked at each round's close (GLI-11's continual checks; NZ 1.15.6; issue 28 item 8).

Once a round's close is journaled, and before the next round opens, its entries
are read again from the disk (not from any page the process holds) and checked:
each entry's hash and MAC, the chain from the entry before the round's first,
the head where the table wrote it, the round record the same as the one the
table holds, and the meter the table carries the same as the journal's last movement
of it. A byte changed under the running table in the round just closed
faults it here; older bytes are the background scrub's (controller/table.py,
hourly). Pure but for the read: the journal's `reread`.
"""

from __future__ import annotations

import json
from typing import Any

from controller.journal.sealing import Problem


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, separators=(",", ":")) == json.dumps(b, sort_keys=True, separators=(",", ":"))


def check_closed(journal: Any, round_id: str, record: Any, meter: int | None) -> list[Problem]:
    """The problems found reading the closed round `round_id` again (none: memory and journal agree).

    `record`: the round record the table holds; `meter`: the amount of the meter it carries (None at a
    game without one), against the journal's last movement of it."""
    first = journal.first_of_round(round_id)
    if first is None:
        return [Problem("round-missing", f"round {round_id}", "has no entries in the journal")]
    problems, entries = journal.reread(first)
    if problems:
        return problems
    # a round closed without a record of its own (a void before any wager, a game that records otherwise):
    # its entries' chain is what is checked
    records = [e for e in entries if e.kind == "round-record" and e.round_id == round_id]
    if records and record is not None and not _same(records[-1].payload, record):
        return [Problem("round-record", f"entry {records[-1].seq}",
                        "the round record read again is not the one the table holds")]
    moves = [e for e in entries if e.kind == "meter" and isinstance(e.payload, dict)
             and e.payload.get("meter") == "progressive" and isinstance(e.payload.get("after"), int)]
    if meter is not None and moves and moves[-1].payload["after"] != meter:
        last = moves[-1]
        return [Problem("meter-state", f"entry {last.seq}", f"the meter the table carries ({meter}) is not the "
                        f"one the journal last moved it to ({last.payload['after']})")]
    return []
