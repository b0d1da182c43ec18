"""Today's figures of one table, read from its journal: what the supervisor's screen shows.

Here, not in controller/ui, so that the screens never open the journal themselves
(docs/ARCHITECTURE.md, "Layers"): the screen asks the report for the figures.
"""

from __future__ import annotations

from pathlib import Path


def today(data_dir: Path, profile, *, labelled: bool = False) -> dict:
    """The report of the gaming day now under way, with the meter's readings for its chart.

    `labelled`: a test-mode journal's report says so (its "mode"), as `tablectl report --demo`'s does;
    the shift report printed from the supervisor's screen asks for it."""
    from controller import testmode
    from controller.journal.store import Journal
    from controller.report import figures
    from controller.report.cli import par_units, table_figures
    from controller.report.period import resolve
    table = getattr(profile, "table", None)
    period = resolve(day_start=getattr(table, "gaming_day_start", "06:00"), zone_name=getattr(table, "timezone", "UTC"))
    with Journal.open(data_dir, readonly=True) as journal:
        t = table_figures(journal, period, table=getattr(table, "id", None), game=getattr(profile, "game", None),
                          series=True, par=par_units(profile, cached=True) if hasattr(profile, "game") else None)
        test = labelled and testmode.journal_mode(journal) == testmode.TEST
    report = figures.report(period, [t])
    if test:
        report["mode"] = testmode.LABEL
    return report
