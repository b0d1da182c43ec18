"""`tablectl floor init|add|reader|send|report`: the floor's database, a table's and a reader's roles,
sending, the report (`floor serve` is serve.py's)."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path


def _connect(args):
    from controller.floor.sender import FloorTarget
    return FloorTarget(args.url, Path(args.password_file) if args.password_file else None).connect()


def _fail(command: str, exc: Exception) -> int:
    print(f"tablectl floor {command}: {str(exc).strip() or type(exc).__name__}", file=sys.stderr)
    return 1


def init_main(args) -> int:
    import psycopg
    from controller.floor import admin
    try:
        with _connect(args) as conn:
            mode = admin.install(conn, test=bool(getattr(args, "test", False)))
    except (psycopg.Error, admin.FloorModeError) as exc:
        return _fail("init", exc)
    print(f"floor schema installed ({mode} floor)")
    return 0


def add_main(args) -> int:
    import psycopg
    from controller.floor import admin
    password = Path(args.role_password_file).read_text().strip()
    try:
        with _connect(args) as conn:
            admin.add_table(conn, args.table, args.role, password)
    except psycopg.Error as exc:
        return _fail("add", exc)
    print(f"table {args.table} sends as role {args.role}")
    return 0


def reader_main(args) -> int:
    import psycopg
    from controller.floor import admin
    password = Path(args.role_password_file).read_text().strip()
    try:
        with _connect(args) as conn:
            admin.add_reader(conn, args.role, password)
    except psycopg.Error as exc:
        return _fail("reader", exc)
    print(f"role {args.role} reads the floor (floor_reader: it changes nothing)")
    return 0


def send_main(args) -> int:
    """Send once (exit 1 while the floor is unreachable, the facts kept), or --follow until stopped."""
    from controller.floor.sender import FloorTarget, Sender
    target = FloorTarget(args.url, Path(args.password_file) if args.password_file else None)
    sender = Sender(Path(args.data_dir), target, Path(args.outbox) if args.outbox else None)
    try:
        if args.follow:
            stopped = threading.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, lambda *_: stopped.set())
            sender.follow(args.retry_ms / 1000, stopped.is_set)
            return 0
        ok = sender.step()
        counts = sender.outbox.counts()
        print(f"{counts['sent']} of {counts['facts']} facts stored on the floor"
              + ("" if ok else f"; {counts['unsent']} wait in the outbox: {sender.last_error}"))
        return 0 if ok else 1
    finally:
        sender.close()


def floor_report(conn, period: tuple[str, str]) -> dict:
    """Every table's figures from the facts it sent, held against the par its paytable gives (as the
    table last said it, controller/floor/status.py), and their total."""
    from controller.floor import admin
    from controller.report import figures
    zone = getattr(period, "zone", "UTC")   # the hours of the casino's clock (--tz)
    par = admin.pars(conn)
    tables = [figures.table_report(admin.facts(conn, table, period[1]), table, game, *period, zone=zone,
                                   par=par.get(table))
              for table, game in admin.tables(conn)]
    return figures.report(period, tables)


def report_main(args) -> int:
    import psycopg
    from controller.report import formats
    from controller.report.cli import period_of
    from controller.report.period import PeriodError
    try:
        period = period_of(args)
    except PeriodError as exc:
        print(f"tablectl floor report: {exc}", file=sys.stderr)
        return 2
    try:
        with _connect(args) as conn:
            report = floor_report(conn, period)
    except psycopg.Error as exc:
        return _fail("report", exc)
    sys.stdout.write(formats.write(report, args.format or "text"))
    return 0
