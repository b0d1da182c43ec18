"""The report written out: a table for the terminal, JSON (the contract), CSV for a spreadsheet.

JSON and CSV carry integer cents; only the terminal's table writes dollars.
"""

from __future__ import annotations

import csv
import io
import json

from controller.journal.readback import money
from controller.report.figures import sections


def percent(bp: int | None) -> str:
    if bp is None:
        return "-"
    return f"{'-' if bp < 0 else ''}{abs(bp) // 100}.{abs(bp) % 100:02d}%"


def to_json(report: dict) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("table", "game", "section", "item", "value")


def to_csv(report: dict) -> str:
    """One line per figure: table, game, section, item, value (cents, counts, or text)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    w.writerow(("", "", "period", "from", report["period"]["from"]))
    w.writerow(("", "", "period", "to", report["period"]["to"]))
    if report.get("mode"):
        w.writerow(("", "", "mode", "mode", report["mode"]))
    for t in report["tables"] + [dict(report["total"], table="TOTAL", game="")]:
        def row(section: str, item: str, value: object, t: dict = t) -> None:
            w.writerow((t["table"], t["game"] or "", section, item, value))
        for k in ("rounds", "voided", "handle", "house_win", "hold_bp"):
            row("table", k, "" if t.get(k) is None else t[k])
        for name, m in t["wagers"].items():
            for k in ("handle", "paid", "house_win", "hold_bp"):
                row(f"wager:{name}", k, "" if m.get(k) is None else m[k])
        for h in t.get("by_hour", []):
            for k in ("rounds", "handle", "house_win"):
                row(f"hour:{h['hour']}", k, h[k])
        for section in (s.name for s in sections()):
            for k, v in (t.get(section) or {}).items():
                if isinstance(v, dict):
                    for sub, x in v.items():
                        row(section, f"{k}:{sub}", x)
                elif not isinstance(v, list):
                    row(section, k, "" if v is None else v)
        for block in ("par", "pit"):
            for k, v in (t.get(block) or {}).items():
                if not isinstance(v, dict):
                    row(block, k, "" if v is None else v)
        if isinstance(t["events"], list):
            for e in t["events"]:
                row("event", e["kind"], f"{e['at']} {e['who'] or ''}: {e['detail'] or ''}".strip())
    return out.getvalue()


def pit_lines(pit: dict) -> list[str]:
    """The books as the count room reads them, and the box's own win beside them."""
    def m(cents: int | None) -> str:
        return "-" if cents is None else money(cents)
    return [f"  books: opener {m(pit['opener'])}, closer {m(pit['closer'])}, fills {m(pit['fills'])}, "
            f"credits {m(pit['credits'])}, drop {m(pit['drop'])} (estimated {m(pit['estimated_drop'])})",
            f"  win by the books {m(pit['win'])}, hold {percent(pit['hold_bp'])} of the drop; by the settlements "
            f"{m(pit['measured_win'])}; difference {m(pit['difference'])}: {pit['explained']}"]


def par_line(par: dict) -> str:
    """The period's result beside what the exact par expects and the band chance allows."""
    h = par["sigmas_hundredths"]
    off = "-" if h is None else f"{'-' if h < 0 else '+'}{abs(h) // 100}.{abs(h) % 100:02d}"
    flag = (f"  BEYOND {par['band_sigmas']} STANDARD DEVIATIONS: more than chance allows"
            if par["beyond_band"] else f"  within {par['band_sigmas']} standard deviations")
    return (f"  against par: theoretical win {money(par['theoretical_win'])}, standard deviation "
            f"{money(par['sigma'])}; measured {money(par['measured_win'])} ({off} sd){flag}")


def to_text(report: dict) -> str:
    """What the pit reads on a terminal."""
    lines = [f"period {report['period']['from']} to {report['period']['to']}"]
    if report.get("mode"):   # a test-mode journal's, printed only when asked (--demo)
        lines.insert(0, f"{report['mode']}: emulated devices, no play; these figures count nowhere")
    for t in report["tables"]:
        lines += ["", f"== {t['table']} ({t['game']}): {t['rounds']} rounds, {t['voided']} voided; "
                      f"handle {money(t['handle'])}, house win {money(t['house_win'])}, "
                      f"hold {percent(t['hold_bp'])}"]
        if t["wagers"]:
            lines.append(f"  {'WAGER':<14}{'HANDLE':>16}{'PAID':>16}{'HOUSE WIN':>16}{'HOLD':>9}")
            for name, m in t["wagers"].items():
                lines.append(f"  {name:<14}{money(m['handle']):>16}{money(m['paid']):>16}"
                             f"{money(m['house_win']):>16}{percent(m['hold_bp']):>9}")
        if t["by_hour"]:
            lines.append(f"  {'HOUR FROM (UTC)':<22}{'ROUNDS':>8}{'HANDLE':>16}{'HOUSE WIN':>16}")
            for h in t["by_hour"]:
                lines.append(f"  {h['hour']:<22}{h['rounds']:>8}{money(h['handle']):>16}{money(h['house_win']):>16}")
        for section in sections():
            block = t.get(section.name)
            if block:
                lines += section.text(block)
        for h in t.get("hand_pays") or []:   # issue 29: each hand-pay's form (the player's id masked)
            lines.append(f"  hand-pay: round {h['round']} seat {h['seat']} {money(h['amount'])}, form {h['form']}, "
                         f"player id {h['player']}, paid by {h['paid_by']} at {h['at']}")
        if t.get("par"):   # the period against the exact par (controller/par/hold.py)
            lines.append(par_line(t["par"]))
        if t.get("pit"):   # the count room's books (controller/pit/books.py)
            lines += pit_lines(t["pit"])
        if t.get("dealers"):   # who dealt (controller/report/dealers.py)
            from controller.report.dealers import text as dealers_text
            lines += dealers_text(t["dealers"], money)
        if t["events"]:
            lines.append(f"  significant events ({len(t['events'])}):")
            for e in t["events"]:
                lines.append(f"    {e['at']}  {e['kind']:<24} {e['who'] or '-':<16} {e['detail'] or ''}")
    if len(report["tables"]) != 1:
        s = report["total"]
        lines += ["", f"== all {s['tables']} tables: {s['rounds']} rounds; handle {money(s['handle'])}, "
                      f"house win {money(s['house_win'])}, hold {percent(s['hold_bp'])}"]
    return "\n".join(lines) + "\n"


def write(report: dict, fmt: str) -> str:
    return {"json": to_json, "csv": to_csv, "text": to_text}[fmt](report)
