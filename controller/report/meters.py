"""The meters of 9 NYCRR 5320.8 read from a table's journal directory, for the supervisor's screen
(controller/ui/meter_routes.py): the journal opened read-only, the figures of `tablectl meters --json`."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def meters_of(data_dir: Path) -> list[dict[str, Any]]:
    from controller.journal.readback import meter_figures
    from controller.journal.store import Journal
    with Journal.open(data_dir, readonly=True) as journal:
        return meter_figures(journal)
