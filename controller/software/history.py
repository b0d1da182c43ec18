"""`tablectl software history`: the record of changes to the control program, read from the journal.

9 NYCRR 5319.14(a)(3)(ii) asks for a record of at least the last ten changes to the control
program. The journal keeps every one (each "software-accepted" entry: the digest, the versions,
who accepted it and why, and the digest it replaced), and each start names the software it ran
("power-up"), so the history is every acceptance in order, each with the starts under it, and
any software a start ran that nobody accepted (a fault: the table did not play on it). Nothing is
cut: the journal holds them all, so the last ten are there with the rest.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from controller import paths
from controller.journal.store import Journal, JournalUnreadable


def _row(digest: str, versions: Any, seq: int) -> dict[str, Any]:
    return {"digest": digest, "versions": versions if isinstance(versions, dict) else {}, "accepted_at": None,
            "seq": seq, "by": None, "second": None, "reason": "not accepted: the table did not play on it",
            "kind": None, "previous": None, "starts": 0, "first_start": None, "last_start": None}


def history(journal: Journal) -> list[dict[str, Any]]:
    """Each software the table ran, oldest first: digest, versions, accepted (when, by, second, why, kind,
    the digest it replaced), the starts under it, its first and last start."""
    rows: list[dict[str, Any]] = []
    by_digest: dict[str, dict[str, Any]] = {}
    for e in journal.entries_since(0):
        p = e.payload if isinstance(e.payload, dict) else {}
        if e.kind == "software-accepted":
            digest = str(p.get("digest"))
            previous = p.get("previous")
            accepted = {
                "accepted_at": e.at, "by": p.get("by"), "second": p.get("second"), "reason": p.get("reason"),
                "kind": p.get("kind") or ("first start" if p.get("by") is None else None),
                "previous": previous.get("digest") if isinstance(previous, dict) else None}
            waiting = by_digest.get(digest)
            if waiting is not None and waiting["accepted_at"] is None:
                waiting.update(accepted)   # the starts that found it, then its acceptance: one change
            else:   # a new change (or a return to software accepted before: a change again)
                by_digest[digest] = _row(digest, p.get("versions"), e.seq) | accepted
                rows.append(by_digest[digest])
        elif e.kind == "power-up":
            digest = str(p.get("software"))
            if digest not in by_digest:
                by_digest[digest] = _row(digest, p.get("versions"), e.seq)
                rows.append(by_digest[digest])
            ran = by_digest[digest]
            ran["starts"] += 1
            ran["first_start"] = ran["first_start"] or e.at
            ran["last_start"] = e.at
    return rows


def main(args) -> int:
    directory = paths.data_dir(getattr(args, "data_dir", None), create=False)
    try:
        journal = Journal.open(directory, readonly=True)
    except JournalUnreadable as exc:
        print(f"tablectl software history: journal: {exc}", file=sys.stderr)
        return 1
    try:
        rows = history(journal)
    finally:
        journal.close()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    if not rows:
        print("no software recorded in this journal")
    for r in rows:
        version = (r["versions"] or {}).get("tablectl", "?")
        who = " and ".join(x for x in (r["by"], r["second"]) if x) or ("nobody" if r["accepted_at"] is None
                                                                           else "the first start")
        when = r["accepted_at"] or "never"
        print(f"{r['digest'][:16]}  tablectl {version}  accepted {when} by {who} ({r['reason']}); "
              f"{r['starts']} start(s), last {r['last_start'] or 'never'}")
    return 0
