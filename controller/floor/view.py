"""The floor view's figures: every table's books from the floor's facts, beside what it is doing now.

The books are `tablectl floor report`'s own adding-up (controller/report/figures.py `TableTally`,
kept up to date fact by fact by controller/floor/books.py), so the page and the report cannot disagree; each table's row adds its status as it
last sent it (controller/floor/status.py) and how old that is, and the faults the facts still
hold open when its status is old (a table that stopped in a fault, or lost its link to the floor).
"""

from __future__ import annotations

from typing import Any

STALE_SECONDS = 30.0   # a status older than this is shown as such: the table or its link to the floor is down


def open_faults(events: list[dict[str, Any]]) -> list[str]:
    """The faults the period's events leave open: each `fault` until a `fault-cleared` after it."""
    opened: list[str] = []
    for e in events:
        if e.get("kind") == "fault":
            opened.append(str(e.get("detail") or "a fault"))
        elif e.get("kind") == "fault-cleared":
            opened = []
    return opened


def row(report: dict[str, Any], status: dict[str, Any] | None, age: float | None) -> dict[str, Any]:
    """One table's row: its report's figures as they are, what it is doing, and what needs the pit."""
    pit = report.get("pit") or {}
    par = report.get("par") or {}
    said = dict(status or {})
    said.pop("par", None)
    stale = age is None or age > STALE_SECONDS
    # a table reporting says its own fault (the fresher word); one that is not, what its facts left open
    faults = ([said["fault"]] if said.get("fault") else []) if not stale else open_faults(report.get("events") or [])
    return {"table": report["table"], "game": report["game"], "status": said or None,
            "age_s": None if age is None else round(age, 1), "stale": stale,
            "faults": faults, "alarms": list(said.get("alarms") or []),
            "validations": list(said.get("validations") or []),
            "rounds": report["rounds"], "handle": report["handle"], "house_win": report["house_win"],
            "hold_bp": report["hold_bp"],
            "drop": pit.get("drop"), "estimated_drop": pit.get("estimated_drop"), "win": pit.get("win"),
            "pit_hold_bp": pit.get("hold_bp"),
            "theoretical_win": par.get("theoretical_win"), "sigma": par.get("sigma"),
            "beyond_band": bool(par.get("beyond_band"))}


def floor_view(conn: Any, period: Any, books: Any = None) -> dict[str, Any]:
    """The page's figures for the period (today's gaming day by default): a row a table, the total.
    `books` (controller/floor/books.py) keeps them between reads; without, the report is added up anew."""
    from controller.floor import admin
    from controller.floor.cli import floor_report
    report = floor_report(conn, period) if books is None else books.read(conn, period)
    statuses = admin.statuses(conn)
    rows = []
    for t in report["tables"]:
        status, age = statuses.get(t["table"], (None, None))
        rows.append(row(t, status, age))
    total = report["total"]
    return {"period": report["period"], "tables": rows,
            "total": {k: total.get(k) for k in ("tables", "rounds", "handle", "house_win", "hold_bp")},
            "attention": sum(1 for r in rows if r["faults"] or r["validations"] or r["stale"])}
