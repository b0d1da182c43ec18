"""The running table's one way into its journal, with one failure policy: an append that fails faults the table.

Why one door. The consumer (controller/table.py) journals each batch before its effects and
faults the table when the journal will not take it; the link's worker, the software's first
approval, the anchors' records and a fault's clearing used to append beside it, each catching
its own failure, logging it and going on. A table that keeps playing while part of what it did
is not on disk breaks the rule the consumer keeps (the journal before every effect), so every
append the running table makes goes through a `JournalWriter`: on a failure (a full disk, a
damaged page, a payload the journal cannot store) the table is put in a fault, wherever the
append was made, and the caller gets `NotRecorded`, so it cannot carry on as if it were.

Not made here: the fault's own record (controller/journal/selfcheck.py `raise_fault`), which
is what this policy writes and which falls back to the fault marker beside the journal when the
journal cannot take it; the power-up self-check's entries, made before the table holds the
journal, whose failure raises out of `power_up` so the table starts in a fault (Table.start);
and a command's on a stopped table (`tablectl fault clear`, `tablectl link reconcile`), whose
failure is the command's error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

import structlog

from controller.journal.store import JournalError, PayloadError

if TYPE_CHECKING:
    from controller.journal.store import Entry, Journal

log = structlog.get_logger("controller.journal.writer")

Row = tuple[str, object, "str | None"]   # (kind, payload, round id): one entry to append


class Appends(Protocol):
    """What appends an entry: the journal itself (a command's, raising JournalError) or a table's writer."""

    def append(self, kind: str, payload: object = ..., *, round_id: str | None = ...) -> Entry | None: ...


class NotRecorded(JournalError):
    """The journal did not take an append; the table is in a fault for it (`JournalWriter`)."""


class JournalWriter:
    """Appends to the journal as it stands; a failed append faults the table and raises `NotRecorded`.

    Its dependencies: the journal as it stands (None: one too damaged to open, which is a fault
    already, so nothing is appended and nothing raised) and what faults the table (a detail in
    the journal's words, e.g. the table's `raise_fault("journal", ...)`).
    """

    def __init__(self, journal: Callable[[], Journal | None], fault: Callable[[str], None]) -> None:
        self._journal = journal
        self._fault = fault

    def append(self, kind: str, payload: object = None, *, round_id: str | None = None) -> Entry | None:
        """The entry journaled; None when there is no journal to append to."""
        journal = self._journal()
        if journal is None:
            return None
        try:
            return journal.append(kind, payload, round_id=round_id)
        except (JournalError, PayloadError) as exc:
            raise self._failed(exc, kind) from exc

    def append_many(self, rows: Iterable[Row]) -> bool:
        """Every row journaled in one durable transaction: True; False when there is no journal."""
        journal = self._journal()
        rows = list(rows)
        if journal is None:
            return False
        if not rows:
            return True
        try:
            journal.append_many(rows)
            return True
        except (JournalError, PayloadError) as exc:
            raise self._failed(exc, ", ".join(sorted({kind for kind, _, _ in rows}))) from exc

    def _failed(self, exc: Exception, what: str) -> NotRecorded:
        log.error("journal_failed", what=what, error=str(exc))
        self._fault(f"the journal could not record events: {exc}")
        return NotRecorded(str(exc))
