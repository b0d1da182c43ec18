"""`tablectl report --pdf FILE`: the shift report the count room signs, on A4 or US letter.

The same figures as the terminal's and the JSON's (controller/report/figures.py), laid out for paper: the
period's rounds, handle and win, each wager, the table's books (controller/pit), the result against the
exact par, the significant events, and lines for the signatures the internal controls ask for. The lines
are shift.py's, which the supervisor's screen prints too (its print view), so the two cannot disagree.
Written with fpdf2 (the `print` extra: the table itself needs no PDF writer), in its core Helvetica, so
any PDF reader, and a test, reads the text back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.report import shift

PAPERS = {"a4": "A4", "letter": "Letter"}


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

    for kind, text in shift.lines(report):
        if kind == "title":   # each table on a page of its own
            pdf.add_page()
            line(text, 15, bold=True, gap=8)
        elif kind == "figures":
            pdf.ln(2)
            line(text, bold=True)
        elif kind == "strong":
            line(text, bold=True)
        elif kind == "heading":
            line(text, 12, bold=True, gap=7)
        elif kind == "signatures":
            pdf.ln(6)
            line(text, 12, bold=True, gap=7)
        elif kind == "signature":
            pdf.ln(7)
            line(text)
        elif kind == "event":
            line(text, 8, gap=4.2)
        else:
            line(text)
    path.write_bytes(bytes(pdf.output()))
