"""A meter correction on the supervisor's screen of a live table waits for a second supervisor (issue 28),
and the screen says so from the table's own word (issue 27): the first supervisor's correction is
published by the table (`meter.correction`: who asked, what amount, why), so a reload, or another
supervisor's screen, shows who signed first; the same amount from a second, different supervisor
carries it out and the note goes. Caribbean stud's part of the screen (its static/supervisor.js).
"""

from __future__ import annotations

import pytest

from controller.credentials import Supervisor, hash_pin, write_secrets
from controller.table import Table
from tests.software_hashes import seed_software_hashes
from tests.table.table_helpers import deck_ready
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import PROFILES, money, sign_in, wait_until

FIRST, SECOND = ("S8101", "481516", "Rosa Ng"), ("S8102", "234223", "Ivo Marsh")
AMOUNT = 1_234_00   # $1,234.00, typed on the keypad as 1 2 3 4


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One live Caribbean stud table on emulated devices, its first round voided: between rounds."""
    from controller.config import load_profile
    secrets = tmp_path_factory.mktemp("secrets-correction") / "supervisors.toml"
    write_secrets(secrets, {who: Supervisor(who, name, hash_pin(pin)) for who, pin, name in (FIRST, SECOND)})
    profile = load_profile(PROFILES / "caribbean-stud.toml")
    data = seed_software_hashes(tmp_path_factory.mktemp("correction") / "data")
    server = LiveServer(lambda: Table(profile, data_dir=data, seed=7, screen=False), secrets)
    try:
        wait_until(server, lambda s: s["round"]["state"] == "open" and deck_ready(s), "the first round open")
        assert server.submit({"type": "void_round", "reason": "test: between rounds"}, source="supervisor",
                             who=FIRST[0])["ok"]
        wait_until(server, lambda s: s["round"]["state"] == "void", "the round voided")
        yield server
    finally:
        server.close()


def _correct(page, reason: str) -> None:
    page.click("[data-test=correct-meter]")
    page.locator("#reason-dialog[open]").wait_for()
    for key in "1234":
        page.click(f"[data-test=meter-key-{key}]")
    page.fill("#reason", reason)
    page.click("#reason-ok")
    page.locator("#reason-dialog").wait_for(state="hidden")


def _signed_in(page, who) -> None:
    page.locator("#signin").wait_for()
    sign_in(page, who[0], who[1])
    page.locator("#desk").wait_for()


def test_a_first_correction_waits_for_a_second_supervisor_and_the_screen_says_who_signed_first(
        table, page_factory, screenshots):
    before = table.published()["meter"]["amount"]
    assert before != AMOUNT and "correction" not in table.published()["meter"]
    first = page_factory(table.url + "/supervisor")
    _signed_in(first, FIRST)
    note = first.locator("[data-test=meter-correction]")
    assert note.is_hidden()
    _correct(first, "Audit correction")
    note.wait_for()
    assert note.get_attribute("data-by") == FIRST[0] and f"asked by {FIRST[0]}" in note.inner_text()
    assert money(AMOUNT) in note.inner_text() and "second" in note.inner_text()
    # The table holds it: published, the meter not moved yet.
    asked = table.published()["meter"]
    assert asked["amount"] == before and (asked["correction"]["by"], asked["correction"]["amount"]) == (FIRST[0], AMOUNT)
    first.screenshot(path=screenshots / "supervisor-correction-awaits-second.png", full_page=True)

    # Signed out and the page loaded afresh, signed in again: the screen still says who signed first
    # (the table's word, not the page's).
    first.click("[data-test=sign-out]")
    first.locator("#signin").wait_for()
    first.reload()
    first.wait_for_function("document.body.dataset.connection === 'online'")
    _signed_in(first, FIRST)
    first.locator("[data-test=meter-correction]").wait_for()
    assert first.locator("[data-test=meter-correction]").get_attribute("data-by") == FIRST[0]

    # The second, different supervisor sees it too, and the same amount carries it out.
    second = page_factory(table.url + "/supervisor")
    _signed_in(second, SECOND)
    second.locator("[data-test=meter-correction]").wait_for()
    assert f"asked by {FIRST[0]}" in second.inner_text("[data-test=meter-correction]")
    _correct(second, "Audit correction")
    second.locator("[data-test=meter-correction]").wait_for(state="hidden")
    second.wait_for_function("t => document.getElementById('meter').textContent === t", arg=money(AMOUNT))
    done = wait_until(table, lambda s: s["meter"]["amount"] == AMOUNT, "the meter corrected")
    assert "correction" not in done["meter"]
    first.locator("[data-test=meter-correction]").wait_for(state="hidden")   # every screen: the note gone
    moves = [e.payload for e in _journal(table) if e.kind == "meter" and e.payload["reason"] == "correction"]
    assert (moves[-1]["by"], moves[-1]["approved_by"], moves[-1]["after"]) == (SECOND[0], FIRST[0], AMOUNT)


def _journal(server) -> list:
    async def read():
        return list(server.table.journal.entries_since(0))
    return server.call(read())


@pytest.mark.parametrize("path", ["/supervisor", "/"])
def test_a_page_follows_the_table_on_one_stream(table, browser, path):
    """Every part of a page (the shared screen's, the game's, the logbook's, the software's) listens on
    one event stream: five streams a supervisor's page took one address's share of the table's places
    (controller/ui/app.py MAX_STREAMS_PER_CLIENT), and a second supervisor's page found none."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        streams: list[str] = []
        page.on("request", lambda r: streams.append(r.url) if r.url.endswith("/api/events") else None)
        for _ in range(2):   # loaded, then loaded afresh
            streams.clear()
            page.goto(table.url + path)
            page.wait_for_function("document.body.dataset.connection === 'online'")
            page.evaluate("new Promise(r => setTimeout(r, 300))")   # every part of the page has started
            assert len(streams) == 1, streams
    finally:
        ctx.close()
