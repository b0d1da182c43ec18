"""`tablectl report --pdf FILE`: the shift report the count room signs, on A4 or US letter.

The same figures as the terminal's and the JSON's (controller/report/figures.py), laid out for paper: the
period's rounds, handle and win, each wager, the table's books (controller/pit), the result against the
exact par, the significant events, and lines for the signatures the internal controls ask for. Written
with fpdf2 (the `print` extra: the table itself needs no PDF writer), in its core Helvetica, so any PDF
reader, and a test, reads the text back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.journal.readback import money
from controller.report.formats import par_line, percent, pit_lines

PAPERS = {"a4": "A4", "letter": "Letter"}
SIGNERS = ("Dealer", "Floor supervisor", "Pit manager", "Count room")
MAX_EVENTS = 200   # a period's events past these are counted, not listed (the journal keeps them all)


class PdfUnavailable(RuntimeError):
    """fpdf2 is not installed (the `print` extra)."""


def _latin(text: str) -> str:
    """The core fonts' characters: anything else said plainly."""
    return (text.replace("\u2014", "-").replace("\u2013", "-").replace("\u00d7", "x").replace("\u2019", "'")
            .encode("latin-1", "replace").decode("latin-1"))


def write(report: dict[str, Any], path: Path, paper: str = "letter") -> None:
    try:
        from fpdf import FPDF
    except ImportError:
        raise PdfUnavailable("--pdf needs the print extra: pip install 'tablectl[print]'") from None
    pdf = FPDF(format=PAPERS[paper])
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_title("Table shift report")
    width = pdf.w - pdf.l_margin - pdf.r_margin

    def line(text: str, size: float = 10, bold: bool = False, gap: float = 5.5) -> None:
        pdf.set_font("Helvetica", "B" if bold else "", size)
        pdf.multi_cell(width, gap, _latin(text), new_x="LMARGIN", new_y="NEXT")

    period = report["period"]
    for t in report["tables"]:
        pdf.add_page()
        line(f"Shift report: table {t['table']} ({t['game'] or 'no game'})", 15, bold=True, gap=8)
        line(f"Period {period['from']} to {period['to']}")
        if report.get("mode"):
            line(f"{report['mode']}: emulated devices, no play; these figures count nowhere", bold=True)
        pdf.ln(2)
        line(f"{t['rounds']} rounds, {t['voided']} voided; handle {money(t['handle'])}, house win "
             f"{money(t['house_win'])}, hold {percent(t['hold_bp'])} of the handle", bold=True)
        if t["wagers"]:
            line("Wagers", 12, bold=True, gap=7)
            for name, m in t["wagers"].items():
                line(f"  {name}: handle {money(m['handle'])}, paid {money(m['paid'])}, house win "
                     f"{money(m['house_win'])}, hold {percent(m['hold_bp'])}")
        line("The table's books", 12, bold=True, gap=7)
        if t.get("pit"):
            for text in pit_lines(t["pit"]):
                line(text.strip())
        else:
            line("No opener, closer, fill, credit, buy-in or drop entered for the period.")
        if t.get("par"):
            line("Against the exact par", 12, bold=True, gap=7)
            line(par_line(t["par"]).strip())
        events = t.get("events") or []
        line(f"Significant events ({len(events)})", 12, bold=True, gap=7)
        for e in events[:MAX_EVENTS]:
            line(f"  {e['at']}  {e['kind']}  {e.get('who') or '-'}  {e.get('detail') or ''}", 8, gap=4.2)
        if len(events) > MAX_EVENTS:
            line(f"  ... and {len(events) - MAX_EVENTS} more: tablectl events lists them all", 8, gap=4.2)
        pdf.ln(6)
        line("Signatures", 12, bold=True, gap=7)
        for who in SIGNERS:
            pdf.ln(7)
            line(f"{who}: name ______________________  signature ______________________  date ________")
    path.write_bytes(bytes(pdf.output()))
