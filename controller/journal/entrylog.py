"""The entry and maintenance log (9 NYCRR 5321.9(e)-(f)): who opened the box or a device, when, why, with which licence.

Kept in the journal like everything else a regulator reads, so it cannot be
rewritten apart from the rounds it sits between; `tablectl events --kind entry`
lists it. The command writes while the table is stopped (the box is opened with
the table down); while it runs, the supervisor's screen journals the same entry
through the table, which alone writes its journal.
"""

from __future__ import annotations

import sys
from typing import Any

PLACES = ("box", "shoe", "shuffler", "controller", "reader", "panel", "screen", "network")
MAX_TEXT = 500


def entry_payload(who: Any, licence: Any, reason: Any, place: Any = "box", source: str = "cli") -> dict:
    """The journaled entry, or ValueError naming what is missing (every field is said, in bounds)."""
    fields = {"who": who, "licence": licence, "reason": reason}
    for name, value in fields.items():
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"--{name}: an entry names {name}")
        if len(value) > MAX_TEXT:
            raise ValueError(f"--{name}: at most {MAX_TEXT} characters")
    if place not in PLACES:
        raise ValueError(f"--place {place}: one of {', '.join(PLACES)}")
    return {"who": who.strip(), "licence": licence.strip(), "reason": reason.strip(), "place": place,
            "source": source}


def add_main(args: Any) -> int:
    """`tablectl entry add`: journal one entry (the table stopped; running, its supervisor's screen does)."""
    from controller import paths
    from controller.journal.store import Journal, JournalBusy, JournalError
    try:
        payload = entry_payload(args.who, args.licence, args.reason, args.place)
    except ValueError as exc:
        print(f"tablectl entry add: {exc}", file=sys.stderr)
        return 2
    directory = paths.data_dir(args.data_dir, create=False)
    if not (directory / "journal.db").exists():
        print(f"tablectl entry add: {directory} holds no journal", file=sys.stderr)
        return 2
    try:
        journal = Journal.open(directory, wait=2.0)
    except JournalBusy:
        print("tablectl entry add: the table is running and alone writes its journal: "
              "enter it on the supervisor's screen (Entry log)", file=sys.stderr)
        return 2
    try:
        with journal:
            if journal.problems:
                print(f"tablectl entry add: the journal has problems ({journal.problems[0].detail}); "
                      "nothing was written", file=sys.stderr)
                return 1
            entry = journal.append("entry", payload)
    except JournalError as exc:
        print(f"tablectl entry add: {exc}", file=sys.stderr)
        return 1
    print(f"entry #{entry.seq} at {entry.at}: {payload['who']} ({payload['licence']}) {payload['place']}: "
          f"{payload['reason']}")
    return 0
