"""What each problem the table finds takes to accept: its rank, who may accept it, and what it means.

A fault is cleared by accepting the problems behind it (controller/journal/selfcheck.py
`to_accept`), and who may do that is decided by the problem, never by which
faults happen to be journaled already or which page a kiosk shows: the terminal
(`tablectl fault clear`) and the supervisor's screen read this one table.

`SEVERITIES` lists every problem code worst first, one line each: the code,
how many different supervisors may accept it (1, 2, or NOBODY: no number of
signatures makes an entry the key did not write authentic, so the table stays
out of play until a technician restores an authentic copy), and a plain
sentence for the supervisor. A code's place in the list is its rank. Adding a
code is adding its line where it ranks; a code not listed (a new check whose
line was forgotten) ranks as the worst that two supervisors may accept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

NOBODY: int | None = None   # no supervisor may accept it: a technician restores an authentic copy

SEVERITIES: tuple[tuple[str, int | None, str], ...] = (
    # -- entries the journal key did not write: nobody may accept them
    ("entry-forged", NOBODY, "an entry's MAC is not the journal key's: someone without the key wrote it"),
    ("entry-unauthenticated", NOBODY, "entries carry no MAC although the journal has a key: someone without "
                                      "the key wrote them"),
    ("journal-key", NOBODY, "the journal key is missing or unreadable, so nothing could be authenticated"),
    # -- the journal rewritten, replaced or rolled back: two supervisors
    ("seal-forged", 2, "the journal's seal was not made with the journal key"),
    ("anchor-forged", 2, "the anchor kept off the box was not made with the journal key"),
    ("anchor-foreign", 2, "the anchor kept off the box is another journal's: the data directory was replaced, "
                          "or the progressive controller came from another table"),
    ("journal-replaced", 2, "the journal is not the one anchored off the box: the data directory was replaced"),
    ("journal-rewritten", 2, "the entry anchored off the box is not in the journal: the journal was rewritten"),
    ("journal-behind-anchor", 2, "the journal ends before the entry anchored off the box: an older copy was "
                                 "put back, or its log lost"),
    ("anchor-missing", 2, "the progressive controller (or the pool) holds no anchor where the journal says it "
                          "was anchored: a controller wiped or swapped, or an older copy put back with it; "
                          "clearing puts it into service"),
    ("journal-missing", 2, "there is no journal where one was kept"),
    ("chain-hash", 2, "an entry's contents do not match its hash: the entry was edited"),
    ("chain-link", 2, "an entry does not follow the entry before it"),
    ("chain-gap", 2, "entries are missing from the journal, or out of order"),
    ("chain-genesis", 2, "the journal does not begin with the entry that created it"),
    ("entry-malformed", 2, "an entry's columns are not of their types"),
    ("seal-mismatch", 2, "bytes of the journal's file differ from its seal"),
    ("file-size", 2, "the journal's file is not the size its seal says"),
    ("wal-lost-commits", 2, "transactions the journal committed were lost from its log"),
    ("seal-foreign", 2, "the journal's seal belongs to another journal"),
    ("seal-corrupt", 2, "the journal's seal is damaged"),
    ("seal-missing", 2, "the journal's seal is missing or cannot be read"),
    ("journal-unreadable", 2, "the journal cannot be read: clearing moves it to quarantine and begins a new one"),
    ("integrity-check", 2, "SQLite's own check of the journal's file found damage"),
    ("schema", 2, "the journal's tables or triggers differ from its schema: a guard against edits was removed"),
    ("marker-unreadable", 2, "the fault marker beside the journal cannot be read"),
    ("journal", 2, "the journal could not be read or written while the table ran"),
    # -- the software
    ("software-changed", 2, "the software's files changed without a new version (an integrity change)"),
    ("software-unauthentic", NOBODY, "the release's files changed without a new version: they do not "
                                     "authenticate as the release accepted"),
    ("software-integrity", NOBODY, "an installed file differs from what its wheel installed, or is missing"),
    ("software-unexpected", NOBODY, "a file is in the install's tree that no wheel installed"),
    ("software-version", 1, "a new version of the software was installed (an upgrade)"),
    ("software-digest", 1, "a file of the software changed"),
    # -- operational
    ("anchor-unwritten", 1, "the progressive controller did not take a settlement's anchor: the round is not "
                            "recorded off the box; clearing with the controller working writes it"),
    ("journal-io", 1, "the disk was full or failed while the journal was written"),
    ("recovery", 1, "the journal did not rebuild the table's state"),
    ("internal", 1, "an internal error stopped play"),
)

RESTORE = ("a technician must restore an authentic copy of the journal (an exported archive that verifies "
           "with the key); no supervisor may accept it")
RESTORE_KEY = ("a technician must give the table its journal key ($TABLECTL_JOURNAL_KEY names the key file; "
               "at the box's terminal, run the command as root: it reads /etc/tablectl/journal.key); "
               "no supervisor may accept it")

# 9 NYCRR 5319.14(a)(2)(ii): a failed authentication does not clear until the files authenticate again
SOFTWARE_UNAUTHENTIC = frozenset({"software-unauthentic", "software-integrity", "software-unexpected"})
REINSTALL = ("a technician must put the files back as the release installed them (reinstall the wheel, "
             "remove what no wheel installed); then one supervisor clears the fault")


@dataclass(frozen=True)
class Severity:
    rank: int                  # 0 is the worst
    supervisors: int | None    # how many different supervisors may accept it; None: nobody
    says: str                  # for the supervisor, in plain words


_BY_CODE = {code: Severity(rank, n, says) for rank, (code, n, says) in enumerate(SEVERITIES)}
_UNKNOWN_RANK = next(rank for rank, (_, n, _) in enumerate(SEVERITIES) if n == 2)


def severity(code: str) -> Severity:
    """The code's line; an unlisted code is the worst two supervisors may accept."""
    known = _BY_CODE.get(code)
    if known is not None:
        return known
    return Severity(_UNKNOWN_RANK, 2, f"a problem this table has no words for ({code})")


def worst_first(problems: Iterable[dict]) -> list[dict]:
    """Problems (as journaled: code, where, detail) by rank, each with what it means and who accepts it;
    the first of each (code, where) only."""
    seen: set[tuple[Any, Any]] = set()
    out = []
    for p in problems:
        key = (p.get("code"), p.get("where"))
        if key in seen:
            continue
        seen.add(key)
        s = severity(str(p.get("code")))
        out.append({"code": p.get("code"), "where": p.get("where", ""), "detail": p.get("detail", ""),
                    "says": s.says, "supervisors": s.supervisors})
    return sorted(out, key=lambda p: severity(str(p["code"])).rank)


def supervisors_needed(problems: Iterable[dict]) -> int | None:
    """How many different supervisors accept all of these: what the worst needs (one at least);
    None when any of them nobody may accept."""
    needed = 1
    for p in problems:
        n = severity(str(p.get("code"))).supervisors
        if n is None:
            return None
        needed = max(needed, n)
    return needed


def remedy(code: str) -> str:
    """What a technician does about a problem nobody may accept."""
    if code in SOFTWARE_UNAUTHENTIC:
        return REINSTALL
    return RESTORE_KEY if code == "journal-key" else RESTORE


def who_accepts(n: int | None) -> str:
    return {None: "nobody may accept it", 1: "one supervisor", 2: "two supervisors"}.get(n, f"{n} supervisors")


def signers(clearing: dict) -> int:
    """How many different supervisors signed a journaled clearing ("fault-cleared")."""
    second = clearing.get("second")
    return 1 + (isinstance(second, str) and bool(second.strip()) and second != clearing.get("by"))


def acknowledged(clearings: Iterable[Any]) -> dict[tuple[str, str], Any]:
    """(code, where) -> the journaled clearing that accepted it with the supervisors it needs.

    A problem accepted by fewer supervisors than its line asks (a clearing from
    before this table, by one supervisor) is not acknowledged, nor is one that
    nobody may accept. `clearings`: the journal's "fault-cleared" entries.
    """
    out: dict[tuple[str, str], Any] = {}
    for e in clearings:
        payload = e.payload if isinstance(e.payload, dict) else {}
        count = signers(payload)
        for p in payload.get("accepted", []):
            if not (isinstance(p, dict) and isinstance(p.get("code"), str) and isinstance(p.get("where"), str)):
                continue
            needed = severity(p["code"]).supervisors
            if needed is not None and count >= needed:
                out.setdefault((p["code"], p["where"]), e)
    return out
