"""The table's fault state: set at the self-check or on a journal that fails, cleared by a supervisor.

A fault stops play until a supervisor clears it (controller/journal/selfcheck.py). It is
its own object, held by the table, so what may set it is plain: the power-up
check, the consumer meeting a journal it cannot write or a bug, and the scrub.
Its dependencies are named in its constructor: where the fault marker is kept,
the journal as it stands (it may be reopened when a fault is cleared), and what
to do when a fault is set.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog

if TYPE_CHECKING:
    from controller.journal.sealing import Problem

log = structlog.get_logger("controller.table")


class FaultState:
    """The fault the table is in (`current`, None when it plays) and how one is raised."""

    def __init__(self, data_dir: Path, journal: Callable[[], Any], on_fault: Callable[[], None]) -> None:
        self.data_dir = data_dir
        self._journal = journal     # the journal as it stands now (None: too damaged to open)
        self._on_fault = on_fault   # an autoplayed table stops: nobody is there to clear it
        self.current: dict[str, Any] | None = None   # Any: the screens' JSON of the fault (reason, since, problems...)

    def set(self, faults: list[dict[str, Any]], problems: list[Problem]) -> None:
        """The table is in the fault the self-check found (`faults` as journaled, `problems` its causes).

        What the screens show to be accepted is what is known now, worst first
        (controller/journal/severity.py); a clearing finds it afresh and shows that (`asking`)."""
        from controller.journal import severity
        known = severity.worst_first([*(p.to_json() for p in problems),
                                      *(p for f in faults for p in f.get("problems", []) if isinstance(p, dict))])
        first = known[0] if known else {"detail": "fault"}   # the worst
        reason = f"{first.get('where', '')}: {first.get('detail', '')}".strip(": ")
        since = faults[0].get("at") if faults else None
        self.current = {"reason": reason, "since": since, "open": len(faults) or 1,
                        "problems": known, "supervisors": severity.supervisors_needed(known)}
        log.error("fault", **{k: v for k, v in self.current.items() if k != "problems"},
                  codes=[p["code"] for p in known])
        self._on_fault()

    def asking(self, problems: list[dict[str, Any]], needed: int | None) -> None:
        """What a clearing found to accept, at the moment of clearing: what the screens now list."""
        if self.current is not None:
            self.current = {**self.current, "problems": problems, "supervisors": needed}

    def approved(self, who: str) -> None:
        """The first of two supervisors has accepted it; the screens say a second one must."""
        if self.current is not None:
            self.current = {**self.current, "approved_by": who}

    def raise_(self, source: str, detail: str) -> None:
        """A fault found while running: journaled (and its marker written) before the table stops playing."""
        from controller.journal.sealing import Problem
        from controller.journal.selfcheck import raise_fault
        problem = Problem(source, "table", detail)
        try:
            entry = raise_fault(self.data_dir, self._journal(), source, [problem])
        except Exception:  # noqa: BLE001 - the marker is written even when the journal is not
            entry = None
        self.set([{"at": entry.at if entry else None, "problems": [problem.to_json()]}], [problem])

    def found_by_scrub(self, problems: list[Problem]) -> None:
        """The journal's scrub found sealed bytes changed (controller/journal/store.py): a fault, once."""
        if not problems or self.current:
            return
        from controller.journal.selfcheck import raise_fault
        entry = raise_fault(self.data_dir, self._journal(), "journal", problems)
        self.set([{"at": entry.at if entry else None}], problems)

    def cleared(self) -> None:
        self.current = None
