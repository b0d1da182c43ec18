"""The shift report's lines: what the count room signs, laid out once for every paper it goes on.

`tablectl report --pdf` (pdf.py) and the print view of the supervisor's screen
(controller/ui/report_routes.py) both write these lines, each in its own way, so the PDF and
the screen's print cannot disagree: the period's figures, each wager, the table's books, the
result against the exact par, the significant events, and a line for each signature the
internal controls ask for.
"""

from __future__ import annotations

from typing import Any

from controller.journal.readback import money
from controller.report.formats import par_line, percent, pit_lines

SIGNERS = ("Dealer", "Floor supervisor", "Pit manager", "Count room")
MAX_EVENTS = 200   # a period's events past these are counted, not listed (the journal keeps them all)

# What each line is, for the writer to set it: a table's title (a page of its own), plain text, a
# line in bold, the period's figures (bold, after a gap), a heading, the signatures' heading, one
# significant event (small), and one signature line.
KINDS = ("title", "text", "strong", "figures", "heading", "signatures", "event", "signature")


def lines(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The shift report as (kind, text) lines, a table after another."""
    out: list[tuple[str, str]] = []
    period = report["period"]
    for t in report["tables"]:
        out.append(("title", f"Shift report: table {t['table']} ({t['game'] or 'no game'})"))
        out.append(("text", f"Period {period['from']} to {period['to']}"))
        if report.get("mode"):
            out.append(("strong", f"{report['mode']}: emulated devices, no play; these figures count nowhere"))
        out.append(("figures", f"{t['rounds']} rounds, {t['voided']} voided; handle {money(t['handle'])}, house win "
                               f"{money(t['house_win'])}, hold {percent(t['hold_bp'])} of the handle"))
        if t["wagers"]:
            out.append(("heading", "Wagers"))
            for name, m in t["wagers"].items():
                out.append(("text", f"  {name}: handle {money(m['handle'])}, paid {money(m['paid'])}, house win "
                                    f"{money(m['house_win'])}, hold {percent(m['hold_bp'])}"))
        out.append(("heading", "The table's books"))
        if t.get("pit"):
            out += [("text", text.strip()) for text in pit_lines(t["pit"])]
        else:
            out.append(("text", "No opener, closer, fill, credit, buy-in or drop entered for the period."))
        if t.get("par"):
            out.append(("heading", "Against the exact par"))
            out.append(("text", par_line(t["par"]).strip()))
        events = t.get("events") or []
        out.append(("heading", f"Significant events ({len(events)})"))
        for e in events[:MAX_EVENTS]:
            out.append(("event", f"  {e['at']}  {e['kind']}  {e.get('who') or '-'}  {e.get('detail') or ''}"))
        if len(events) > MAX_EVENTS:
            out.append(("event", f"  ... and {len(events) - MAX_EVENTS} more: tablectl events lists them all"))
        out.append(("signatures", "Signatures"))
        for who in SIGNERS:
            out.append(("signature", f"{who}: name ______________________  signature ______________________  "
                                     "date ________"))
    return out
