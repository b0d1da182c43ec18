"""`--json` of the commands that read the journal and say what they found in words.

A casino's monitoring and a regulator's scripts read the same facts as the
technician: `rounds list`, `rounds show`, `journal verify` and `fault status`
say them as one JSON document on stdout, with the same exit status as their
words (docs/INSTALL.md's table of exit codes). Apart from the commands' own
modules so each stays the words it was; `tablectl` sends a command here when
`--json` is asked (controller/cli.py JSON_READINGS).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from typing import Any


def _out(document: dict[str, Any]) -> None:
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False, sort_keys=False)
    sys.stdout.write("\n")


def _open(args):
    from controller.journal.readback import _open as open_readonly
    return open_readonly(args)


def rounds_list(args) -> int:
    """Every journaled round: its id, when it opened, its number of entries and its status."""
    from controller.journal.readback import _status
    journal = _open(args)
    if journal is None:
        return 2
    rounds = []
    with journal:
        for round_id, first, last, count in journal.round_ids():
            opened = journal.get(first)
            rounds.append({"round": round_id, "opened": opened.at if opened else None, "entries": count,
                           "status": _status(journal.get(last), journal.round_record(round_id))})
    _out({"rounds": rounds})
    return 0


def rounds_show(args) -> int:
    """One round's entries as journaled, its record, and the problems its retelling found."""
    journal = _open(args)
    if journal is None:
        return 2
    with journal:
        entries = journal.round_entries(args.round_id)
        if not entries:
            print(f"tablectl rounds show: no round {args.round_id} in the journal", file=sys.stderr)
            return 1
        problems: list[str] = []
        from controller.runtime import retell
        from controller.games.handpay import redacted   # a hand-pay's player id: masked (issue 29)
        if retell.is_table_round(entries):
            problems = [str(p) for p in retell.render(entries, io.StringIO())]
    record = next((e for e in entries if e.kind == "round-record"), None)
    _out({"round": args.round_id,
          "entries": [{"seq": e.seq, "at": e.at, "kind": e.kind, "source": getattr(e, "source", None),
                       "payload": redacted(e.payload)} for e in entries if e.kind != "round-record"],
          "record": None if record is None else {"seq": record.seq, "at": record.at, "payload": record.payload},
          "problems": problems})
    return 1 if problems else 0


# `journal verify`'s words, one kind a line (controller/journal/readback.py verify_main, archive.py)
_LINES = (
    ("journal", re.compile(r"^journal (?P<id>\S+) in (?P<dir>.+)$")),
    ("entries", re.compile(r"^entries: (?P<n>\d+); head (?P<head>[0-9a-f]+)$")),
)


def journal_verify(args) -> int:
    """The check's result as fields: sound or not, the head, the MACs, the anchor, each problem.

    The check itself is `journal verify`'s own (of the data directory or of an archive), run
    unchanged; its words are read back into fields, and every line is kept under "said"."""
    from controller.journal.archive import verify_main
    words, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(words), contextlib.redirect_stderr(errors):
        status = verify_main(args)
    said = [line for line in words.getvalue().splitlines() if line.strip()]
    document: dict[str, Any] = {"sound": status == 0, "status": status, "journal": None, "data_dir": None,
                                "entries": None, "head": None, "macs": None, "anchor": None,
                                "problems": [], "acknowledged": [], "verified": None}
    for line in said:
        if (m := _LINES[0][1].match(line)) is not None:
            document["journal"], document["data_dir"] = m["id"], m["dir"]
        elif (m := _LINES[1][1].match(line)) is not None:
            document["entries"], document["head"] = int(m["n"]), m["head"]
        elif line.startswith("MACs: "):
            document["macs"] = line[len("MACs: "):]
        elif line.startswith("anchor"):
            document["anchor"] = line
        elif line.startswith("PROBLEM: "):
            document["problems"].append(line[len("PROBLEM: "):])
        elif line.startswith("acknowledged: "):
            document["acknowledged"].append(line[len("acknowledged: "):])
        elif "verified" in line and document["verified"] is None:
            document["verified"] = line
    document["said"] = said
    refused = errors.getvalue().strip()
    if refused:
        print(refused, file=sys.stderr)   # a refusal stays on stderr, as in words
        if not said:
            return status
    _out(document)
    return status


def fault_status(args) -> int:
    """The open faults, each with its source, entry, time and problems; exit 1 when in a fault."""
    from controller import paths
    from controller.journal.readback import anchoring
    from controller.journal.selfcheck import open_faults
    from controller.journal.store import Journal, JournalUnreadable
    directory = paths.data_dir(getattr(args, "data_dir", None), create=False)
    unreadable = None
    try:
        journal = Journal.open(directory, readonly=True)
    except JournalUnreadable as exc:
        journal, unreadable = None, str(exc)
    try:
        faults = open_faults(journal, directory)
        anchor = anchoring(journal) if journal is not None else None
    finally:
        if journal is not None:
            journal.close()
    in_fault = bool(faults) or journal is None
    _out({"fault": in_fault, "journal": unreadable or "readable", "anchor": anchor,
          "faults": [{"source": f.get("source"), "seq": f.get("seq"), "at": f.get("at"),
                      "problems": [{"where": p.get("where"), "detail": p.get("detail")}
                                   for p in f.get("problems", [])]} for f in faults]})
    return 1 if in_fault else 0
