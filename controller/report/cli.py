"""`tablectl report`: one table's figures over a gaming day, a shift, or --from/--to.

Reads the journal read-only (as `tablectl rounds` does), so it runs beside the
live table and never changes the evidence.
"""

from __future__ import annotations

import itertools
import sys

from controller import paths
from controller.journal.store import Journal, JournalError, JournalUnreadable
from controller.report import facts as facts_mod
from controller.report import figures, formats
from controller.report.period import Period, PeriodError, resolve


def period_of(args, profile=None) -> Period:
    table = profile.table if profile is not None else None
    return resolve(day=args.day, shift=args.shift, start=args.start, end=args.end,
                   day_start=args.day_start or (table.gaming_day_start if table else "06:00"),
                   zone_name=args.tz or (table.timezone if table else "UTC"))


def load_profile_arg(path: str | None):
    if path is None:
        return None
    from controller.appliance import profile_path
    from controller.config import load_profile
    return load_profile(profile_path(path))   # a file, or a packaged profile by name


def par_units(profile, *, cached: bool = False) -> dict | None:
    """The profile's game's wagers priced by its exact par sheet (controller/par/hold.py), or None: no
    profile, a game with no banked wager to hold, or (`cached`: the screens, which never wait on a
    count) a sheet not yet in the cache."""
    if profile is None:
        return None
    from controller.par import sheet
    units = sheet.sheet_of(profile.game).units
    figures_ = sheet.cached(profile) if cached else sheet.compute(profile)
    return None if units is None or figures_ is None else dict(units(figures_))


def table_figures(journal: Journal, period: tuple[str, str], *, table: str | None = None,
                  game: str | None = None, series: bool = False, par: dict | None = None) -> dict:
    """One table's figures from its journal, the facts streamed (a year of them need not fit in memory);
    hours on the period's clock (a plain (from, to) is UTC's)."""
    facts = facts_mod.read(journal)
    head: list[dict] = []
    if table is None:   # the table's id is in its round ids: read on to the first round
        for f in facts:
            head.append(f)
            if f["fact"] == "round":
                break
        table = next((facts_mod.table_of(f["round"]) for f in head if f["fact"] == "round"), None) \
            or journal.data_dir.name
    return figures.table_report(itertools.chain(head, facts), table, game, *period, series=series,
                                zone=getattr(period, "zone", "UTC"), par=par)


def main(args) -> int:
    from controller.config import ConfigError
    try:
        profile = load_profile_arg(args.config)
        period = period_of(args, profile)
    except (ConfigError, PeriodError) as exc:
        print(f"tablectl report: {exc}", file=sys.stderr)
        return 2
    data_dir = args.data_dir or (profile.table.data_dir if profile is not None else None)
    try:
        journal = Journal.open(paths.data_dir(data_dir, create=False), readonly=True)
    except JournalUnreadable as exc:
        print(f"tablectl report: {exc}", file=sys.stderr)
        return 2
    from controller import testmode
    try:
        with journal:
            test = testmode.journal_mode(journal) == testmode.TEST
            if test and not args.demo:
                print(f"tablectl report: {journal.data_dir} is a test-mode journal (emulated devices): its rounds "
                      "are no play and count in no report; --demo prints them, labelled TEST MODE", file=sys.stderr)
                return 2
            t = table_figures(journal, period, table=profile.table.id if profile else None,
                              game=profile.game if profile else None, par=par_units(profile))
            # the significant events of the period (5317.26), as `tablectl events` lists them
            from controller.journal import events as significant
            listed = list(significant.of_journal(
                journal, since=significant.parse_time(period[0]), until=significant.parse_time(period[1])))
    except JournalError as exc:
        print(f"tablectl report: {exc}", file=sys.stderr)
        return 1
    report = figures.report(period, [t])
    if (args.format or "text") == "json":
        report["significant_events"] = listed
    if test:
        report["mode"] = testmode.LABEL
    if args.pdf:
        from pathlib import Path

        from controller.report import pdf
        try:
            pdf.write(report, Path(args.pdf), args.paper)
        except (pdf.PdfUnavailable, OSError) as exc:
            print(f"tablectl report: {exc}", file=sys.stderr)
            return 2
    sys.stdout.write(formats.write(report, args.format or "text"))
    return 0
