"""Issue 34, item 5 on the supervisor's screen: "Print the shift report" opens the print view of today's
shift report at the live table (a Caribbean stud table autoplayed on emulated devices, with its books
entered), which asks the browser to print itself. Its text is the `tablectl report --pdf` of the same
journal and period, word for word (the two write controller/report/shift.py's lines), and its figures
are `tablectl report --json`'s; Chromium prints it to A4 and to US letter, and pypdf reads the figures
and the signature lines back, the paper chosen on the page being the paper printed. Without a supervisor
signed in (none, or a cookie sent by a page other than the supervisor's) the page gives no figures (401).
"""

from __future__ import annotations

import io
import json
import re
import time
import urllib.error
import urllib.request

import pytest
from pypdf import PdfReader

from tests.report.report_helpers import tablectl
from tests.software_hashes import seed_software_hashes
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, SUPERVISOR_ID, SUPERVISOR_NAME, SUPERVISOR_PIN, money, sign_in

ROUNDS = 4
PROFILE = PROFILES / "caribbean-stud.toml"
POINTS = {"A4": (595.3, 841.9), "Letter": (612, 792)}   # the papers in PDF points
COUNTED = "window.__printed = 0; const print_ = window.print.bind(window); " \
          "window.print = () => { window.__printed += 1; return print_(); };"   # the real print, counted
# Headless Chromium's print never ends (it has no dialog to close), and a page being printed is not printed
# to PDF again: the page printed to PDF has its asking to print counted only.
ASKED = "window.__printed = 0; window.print = () => { window.__printed += 1; };"


@pytest.fixture(scope="module")
def played(tmp_path_factory, secrets_file):
    from controller.config import load_profile
    from controller.table import Table
    tablectl("par", "--config", str(PROFILE), "--json")   # the par sheet in the cache: the screen never counts
    profile = load_profile(PROFILE)
    data = seed_software_hashes(tmp_path_factory.mktemp("shift-print") / "data")
    server = LiveServer(lambda: Table(profile, data_dir=data, autoplay=True, rounds=ROUNDS, seed=7, screen=False),
                        secrets_file)
    deadline = time.monotonic() + 120
    while server.table.closed_rounds < ROUNDS:
        assert time.monotonic() < deadline, f"only {server.table.closed_rounds} rounds played"
        time.sleep(0.1)
    for event in ({"type": "pit_inventory", "inventory": "opener", "chips": {"500": 200, "2500": 80}},
                  {"type": "pit_fill", "chips": {"2500": 40}, "carrier": "R-17", "slip": "F-0042"},
                  {"type": "pit_inventory", "inventory": "closer", "chips": {"500": 150, "2500": 110}},
                  # the second supervisor's PIN is the screens' to check (app.py); the table journals the name
                  {"type": "pit_drop", "amount": 61_000, "second_signer": "S2077"}):
        assert server.submit(event, source="supervisor", who=SUPERVISOR_ID)["ok"]
    assert server.submit({"type": "buy_in", "seat": 2, "amount": 20_000})["ok"]
    yield server, data
    server.close()


def flat(text: str) -> str:
    """Text without its white space (where a line wraps is the paper's, not the report's), in the PDF's
    core font's characters (controller/report/pdf.py)."""
    from controller.report.pdf import _latin
    return re.sub(r"\s+", "", _latin(text))


def pdf_text(data: bytes) -> tuple[list[tuple[float, float]], str]:
    reader = PdfReader(io.BytesIO(data))
    sizes = [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]
    return sizes, "\n".join(p.extract_text() for p in reader.pages)


def on(sizes: list[tuple[float, float]], paper: tuple[float, float]) -> bool:
    """Every page is of the paper (to the point: Chromium writes whole points, fpdf2 their fractions)."""
    return bool(sizes) and all(abs(w - paper[0]) <= 1 and abs(h - paper[1]) <= 1 for w, h in sizes)


def test_the_print_view_is_the_shift_report(played, browser, tmp_path, screenshots):
    server, data = played
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        ctx.add_init_script(COUNTED)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(server.url + "/supervisor")
        page.wait_for_function("document.body.dataset.connection === 'online'")
        assert not page.locator("[data-test=print-report]").is_visible()   # nobody signed in: no control
        sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
        page.wait_for_selector(f"#figures[data-rounds='{ROUNDS}']")
        page.select_option("[data-test=print-paper]", "a4")
        with page.expect_popup() as opened:
            page.click("[data-test=print-report]")
        sheet = opened.value
        sheet.wait_for_load_state("load")
        sheet.wait_for_function("window.__printed === 1")                  # it asked the browser to print
        assert sheet.evaluate("document.body.dataset.paper") == "a4"
        period = {k: sheet.evaluate(f"document.body.dataset.{k}") for k in ("from", "to")}
        out = tmp_path / "shift.pdf"
        cli = json.loads(tablectl("report", "--demo", "--config", str(PROFILE), "--data-dir", str(data),
                                  "--from", period["from"], "--to", period["to"], "--json", "--pdf", str(out),
                                  "--paper", "a4").stdout)["tables"][0]
        shown = sheet.inner_text("[data-test=shift-report]")
        # the same lines as the PDF's, word for word
        sizes, written = pdf_text(out.read_bytes())
        assert on(sizes, POINTS["A4"]) and flat(shown) == flat(written)
        # and the figures `tablectl report --json` gives
        assert f"{cli['rounds']} rounds, {cli['voided']} voided; handle {money(cli['handle'])}, house win " \
               f"{money(cli['house_win'])}" in shown and cli["rounds"] == ROUNDS
        for name, w in cli["wagers"].items():
            assert f"{name}: handle {money(w['handle'])}, paid {money(w['paid'])}" in shown
        pit = cli["pit"]
        assert pit["opener"] == 200 * 500 + 80 * 2500 and pit["fills"] == 40 * 2500 and pit["drop"] == 61_000
        assert f"win by the books {money(pit['win'])}" in shown and pit["win"] is not None
        for word in ("opener", "closer", "fills", "drop"):
            assert f"{word} {money(pit[word])}" in shown
        assert f"estimated {money(pit['estimated_drop'])}" in shown and pit["estimated_drop"] == 20_000
        par = cli["par"]
        assert f"theoretical win {money(par['theoretical_win'])}, standard deviation {money(par['sigma'])}; " \
               f"measured {money(par['measured_win'])}" in shown
        assert f"Significant events ({len(cli['events'])})" in shown and cli["events"]
        for e in cli["events"]:
            assert f"{e['at']}  {e['kind']}" in shown
        assert "TEST MODE" in shown
        assert f"{SUPERVISOR_NAME} ({SUPERVISOR_ID})" in sheet.inner_text("[data-test=printed-by]")

        # Printed by Chromium on each paper: the figures and the signature lines read back, no controls.
        paper_page = ctx.new_page()
        paper_page.add_init_script(ASKED)
        paper_page.goto(server.url + "/supervisor/print?paper=a4", referer=server.url + "/supervisor")
        paper_page.wait_for_function("window.__printed === 1")
        assert paper_page.inner_text("[data-test=shift-report]") == shown
        for paper, size in POINTS.items():
            sizes, text = pdf_text(paper_page.pdf(format=paper))
            assert on(sizes, size), (paper, sizes)
            assert flat(shown) in flat(text)
            for who in ("Dealer", "Floor supervisor", "Pit manager", "Count room"):
                assert f"{who}: name" in text
            assert money(pit["win"]) in text and "US letter" not in text   # the controls stay off the paper
        # The paper chosen on the page is the one the browser prints on (its @page size).
        for choice, size in (("letter", POINTS["Letter"]), ("a4", POINTS["A4"])):
            paper_page.select_option("[data-test=paper]", choice)
            sizes, _ = pdf_text(paper_page.pdf(prefer_css_page_size=True))
            assert on(sizes, size), (choice, sizes)
        paper_page.screenshot(path=str(screenshots / "shift-print.png"), full_page=True)
        paper_page.click("[data-test=print]")
        paper_page.wait_for_function("window.__printed === 2")
        with sheet.expect_event("close"):   # Close: back to the supervisor's screen, still signed in
            sheet.click("[data-test=close]")
        assert page.is_visible("[data-test=print-report]")
        # The print view asked for by another page (the dealer's, with the cookie) ends the session: no figures.
        other = ctx.request.get(server.url + "/supervisor/print", headers={"Referer": server.url + "/"})
        assert other.status == 401 and "Shift report: table" not in other.text()
        assert ctx.request.get(server.url + "/api/supervisor/me").status == 401
    finally:
        ctx.close()


def test_no_figures_without_a_supervisor(played):
    server, _ = played
    req = urllib.request.Request(server.url + "/supervisor/print?paper=a4")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=10)
    assert refused.value.code == 401
    body = refused.value.read().decode()
    assert "supervisor signed in" in body and "Shift report: table" not in body and "rounds" not in body
