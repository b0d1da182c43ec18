"""Accepting new software on the running table, from the supervisor's screen.

The power-up self-check (controller/journal/selfcheck.py) finds the software changed
since it was last accepted and puts the table in a fault. An upgrade (new
versions, every file as its wheel installed it) is accepted by one
supervisor; software that does not authenticate (files that differ from their
wheel, files no wheel installed, a release's files changed under the same
versions) by nobody until the files are put back; a developer's checkout
changed under the same versions by two different ones, each
signed in on the screen with their own PIN: the first one's approval is
journaled ("software-approval") and the table waits for the second, whose
acceptance journals both ids with the old and new versions and digests
("software-accepted"). Clearing the fault is accepting the software as it
stands, so the "clear fault" and "accept software" buttons obey the same rule.
"""

from __future__ import annotations

from typing import Any, TypedDict

import structlog

from controller.games.game import Json
from controller.journal.writer import JournalWriter

log = structlog.get_logger("controller.table")

# Any: the change and the problems are the self-check's JSON (controller/journal/selfcheck.py), read by key
Change = dict[str, Any]
Problems = list[dict[str, Any]]


class Approval(TypedDict):
    """The first supervisor's approval, kept until a second one accepts."""

    by: str
    digest: str | None
    accepting: Problems | None


class SoftwareAcceptance:
    """Held by the table: the software change found at power-up and its approvals.

    Its one dependency is the table's way into its journal (controller/journal/writer.py), which
    the first approval is journaled through: one the journal does not take faults the table."""

    def __init__(self, writer: JournalWriter, change: Change | None = None) -> None:
        self.writer = writer
        self.change: Change | None = change
        self.approval: Approval | None = None

    def second(self, who: str, accepting: Problems | None = None) -> str | None:
        """The supervisor who approved the change first, when that was someone else and approved
        what is now to be accepted (`accepting`: the problems a clearing accepts, selfcheck.to_accept)."""
        a = self.approval
        change = self.change or {}
        if a is None or a["by"] == who or a["digest"] != change.get("to", {}).get("digest"):
            return None
        if accepting is not None and a.get("accepting") != accepting:
            return None
        return a["by"]

    def approve(self, who: str, note: str, accepting: Problems | None = None) -> list[dict[str, Json]]:
        """The first of two supervisors: journaled, with what they accept, then the table waits for a
        second one (a fault's clearing without new software journals a "fault-approval")."""
        digest = (self.change or {}).get("to", {}).get("digest")
        # journaled first (a journal that does not open: the approval is kept in memory only); one the
        # journal does not take raises NotRecorded, and nobody's approval is kept
        self.writer.append("software-approval" if self.change is not None else "fault-approval",
                           {"by": who, "note": note, "digest": digest, "waiting_for": "a second supervisor",
                            **({"accepting": accepting} if accepting is not None else {})})
        self.approval = {"by": who, "digest": digest, "accepting": accepting}
        log.info("software_approved_once", by=who, digest=digest)
        return [{"type": "software_approval", "by": who}]

    def accepted(self) -> None:
        self.change, self.approval = None, None

    def view(self) -> dict[str, Any] | None:
        """What the supervisor's screen shows of a change waiting for acceptance."""
        if self.change is None:
            return None
        approval = self.approval
        return {**self.change, "approved_by": approval["by"] if approval else None}
