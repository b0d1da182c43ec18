"""The floor view (issue 34 item 4): `tablectl floor serve` (the installed command, a read-only role)
shows three live tables sending to the PostgreSQL the tests start, one in a fault and one with a royal
flush waiting for its validation, to a supervisor signed in, in headless Chromium, with the figures
`tablectl floor report --json` gives; nobody signed in, and no request naming another host, gets any."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from controller.config import parse_profile
from tests.report.report_helpers import TABLECTL, tablectl
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_NAME, SUPERVISOR_PIN, deal_progressive_hand, http, wait_until

ROYAL_ALONE = "Ah Kh Qh Jh Th  As Kd 7h 4c 2s".split()   # seat 1's royal flush, the dealer's ace-king
JACK_HIGH = "2c 5d 8h Jc 9s  As Kd 7h 4c 3s".split()     # seat 1's jack high against the dealer's ace-king
CONFIG = Path(__file__).resolve().parents[2] / "config"
GAMES = {"CS-01": "caribbean-stud", "CW-01": "casino-war", "PK-01": "texas-holdem"}


def _profile(game: str, table: str, url: str, password: Path):
    text = (CONFIG / f"{game}.toml").read_text()
    assert f'id = "{table}"' in text
    return parse_profile(text + f'\n[floor]\nurl = "{url}"\npassword_file = "{password}"\nretry_ms = 200\n')


@pytest.fixture(scope="module")
def pit(floor, secrets_file, tmp_path_factory):
    """Three live tables sending to the floor, and the floor view serving it to the pit."""
    from controller.report.cli import par_units
    from controller.table import Table
    base = tmp_path_factory.mktemp("floorview")
    servers = {}
    for table, game in GAMES.items():
        url, pw = floor.add(table)
        profile = _profile(game, table, url, pw)
        par_units(profile)   # the par sheet counted into the cache, so the table can send its par
        servers[table] = LiveServer(lambda p=profile, t=table: Table(p, data_dir=base / t, seed=11, screen=False),
                                    secrets_file)
    reader_pw = base / "reader.pass"
    reader_pw.write_text("a reader's password\n")
    role = f"{floor.db}_view"
    tablectl("floor", "reader", role, "--role-password-file", str(reader_pw),
             "--url", floor.admin_url, "--password-file", str(floor.admin_pw))
    view = subprocess.Popen([TABLECTL, "floor", "serve", "--url", floor.pg.url(role, floor.db), "--password-file",
                             str(reader_pw), "--secrets", str(secrets_file), "--port", "0",
                             "--state-dir", str(base / "view-state")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = view.stdout.readline().strip()   # the URL, once it answers (or nothing: it failed)
    try:
        assert line.startswith("http://127.0.0.1:"), view.stderr.read() if view.poll() is not None else line
        yield servers, line.rstrip("/")
    finally:
        view.terminate()
        try:
            view.wait(20)
        except subprocess.TimeoutExpired:
            view.kill()
        for s in servers.values():
            if not s.loop.is_closed():   # a test may have stopped one already
                s.close()


def _settled_floor(floor, servers, want) -> dict:
    """`tablectl floor report --json` once every table's facts and status are in (bounded)."""
    deadline = time.monotonic() + 60
    while True:
        with floor.connect() as conn:
            status = dict(conn.execute("SELECT table_id, body FROM floor.status").fetchall())
        if want(status):
            return json.loads(tablectl("floor", "report", "--url", floor.admin_url, "--password-file",
                                       str(floor.admin_pw), "--json").stdout)   # today's gaming day, as the view
        if time.monotonic() > deadline:
            raise AssertionError(f"the floor never heard every table: {status}")
        time.sleep(0.1)


def test_the_pit_sees_each_table_its_fault_and_its_pending_royal(pit, floor, browser, screenshots):
    servers, url = pit
    stud, war = servers["CS-01"], servers["CW-01"]
    deal_progressive_hand(stud, JACK_HIGH)   # a round the house wins, so the figures are not all naught
    assert stud.submit({"type": "settle"})["ok"]
    wait_until(stud, lambda s: s["round"]["state"] == "closed", "the first round closed")
    assert stud.submit({"type": "next_round"})["ok"]
    deal_progressive_hand(stud, ROYAL_ALONE)
    assert stud.submit({"type": "settle"})["ok"]
    wait_until(stud, lambda s: s["round"]["state"] == "validation", "the royal waiting for a supervisor")
    # the table's own fault path, as the journal's scrub takes it (runtime/workers.py `scrub`): journaled, shown
    async def fault():
        war.table.raise_fault("device", "the shoe's reader stopped answering")
        war.table.after_batch()
    war.call(fault())
    wait_until(war, lambda s: s["fault"] is not None, "the war table in its fault")

    def heard(status):
        return (len(status) == 3 and status["CS-01"]["state"] == "validation" and status["CW-01"]["fault"]
                and status["CS-01"]["par"] is not None
                and _closed(floor, "CS-01") == 1)
    report = _settled_floor(floor, servers, heard)

    # nobody signed in gets no figure; a request naming another host gets nothing at all
    assert http(url + "/api/floor")[0] == 401
    assert http(url + "/api/floor", headers={"Host": "floor.example:80"})[0] == 421
    assert http(url + "/api/sign-in", body={"id": SUPERVISOR_ID, "pin": SUPERVISOR_PIN},
                headers={"Origin": "http://elsewhere.example", "X-Tablectl": "1"})[0] == 403

    ctx = browser.new_context(viewport={"width": 1024, "height": 768})   # a pit tablet
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(url + "/")
        page.fill("#sid", SUPERVISOR_ID)
        page.fill("#pin", "000000")
        page.click("#sign-in button[type=submit]")
        page.wait_for_function("document.getElementById('sign-in-error').textContent.length > 0")
        assert page.locator("[data-test=table]").count() == 0   # a wrong PIN shows nothing of the floor
        page.fill("#pin", SUPERVISOR_PIN)
        page.click("#sign-in button[type=submit]")
        page.locator("[data-test=table]").nth(2).wait_for()
        assert SUPERVISOR_NAME in page.locator("[data-test=who]").inner_text()
        card = {t: page.locator(f"[data-test=table][data-table='{t}']") for t in GAMES}
        card["CS-01"].locator("[data-test=validation]").wait_for()
        assert "Validate seat 1: royal flush" in card["CS-01"].locator("[data-test=validation]").inner_text()
        assert card["CS-01"].locator("[data-test=state]").inner_text() == "validation"
        card["CW-01"].locator("[data-test=fault]").wait_for()
        assert "the shoe's reader stopped answering" in card["CW-01"].locator("[data-test=fault]").inner_text()
        assert card["CW-01"].locator("[data-test=state]").inner_text() == "fault"
        assert card["PK-01"].locator("[data-test=fault], [data-test=validation]").count() == 0
        assert "2 tables need the pit" in page.locator("[data-test=attention]").inner_text()
        for t in GAMES:
            assert card[t].locator("[data-test=game]").inner_text() == GAMES[t]
            assert "Dealer" in card[t].locator("[data-test=dealer]").inner_text()
        # the page's figures are the report's, table by table
        page.wait_for_function("(n) => document.querySelector(\"[data-test=total-rounds]\")"
                               ".textContent.startsWith(n + ' round')", arg=report["total"]["rounds"])
        by_table = {t["table"]: t for t in report["tables"]}
        assert by_table["CS-01"]["rounds"] == 1 and by_table["CS-01"]["house_win"] > 0
        for t in GAMES:
            for key in ("rounds", "handle", "house_win"):
                want = str(by_table[t][key]) if key == "rounds" else _money(by_table[t][key])
                assert card[t].locator(f"[data-test={key}]").inner_text() == want, (t, key)
        par = by_table["CS-01"]["par"]
        assert par is not None and card["CS-01"].locator("[data-test=theoretical_win]").inner_text() == (
            f"{_money(par['theoretical_win'])} ± {_money(3 * par['sigma'])}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")   # a tablet: no sideways scroll
        small = page.evaluate("[...document.querySelectorAll('button')].filter(b => b.offsetParent && "
                              "b.getBoundingClientRect().height < 44).length")
        assert small == 0
        page.screenshot(path=screenshots / "floor-view.png", full_page=True)
        page.click("[data-test=sign-out]")
        page.locator("[data-test=sign-in]").wait_for()
        assert http(url + "/api/floor", headers={"Cookie": "; ".join(
            f"{c['name']}={c['value']}" for c in ctx.cookies())})[0] == 401
    finally:
        ctx.close()


def _closed(floor, table: str) -> int:
    with floor.connect() as conn:
        return conn.execute("SELECT count(*) FROM floor.facts WHERE table_id = %s AND fact = 'round'",
                            (table,)).fetchone()[0]


def _money(cents: int) -> str:
    sign, a = ("-" if cents < 0 else ""), abs(cents)
    return f"{sign}${a // 100:,}.{a % 100:02d}"


def test_the_views_folds_take_only_new_facts_and_agree_with_the_report(pit, floor):
    """The floor view's books (controller/floor/books.py) equal `floor report`'s adding-up, at the first
    read and after more facts arrive, which are all a second read takes."""
    import psycopg
    from psycopg.types.json import Jsonb

    from controller.floor.books import FloorBooks
    from controller.floor.cli import floor_report
    from controller.report.period import resolve
    period = resolve(day=None, shift=None, start=None, end=None, day_start="06:00", zone_name="UTC")
    books = FloorBooks()
    with floor.connect() as conn:
        first = books.read(conn, period)
        assert first == floor_report(conn, period)
        (body,) = conn.execute("SELECT body FROM floor.facts WHERE table_id = 'CS-01' AND fact = 'round' "
                               "ORDER BY seq DESC LIMIT 1").fetchone()
        last = dict(books.last)
    url, pw = floor.add("PK-01")   # the hold'em table's own role sends one more round (a copy, a later entry)
    with psycopg.connect(url, password=pw.read_text().strip(), autocommit=True) as table:
        later = {**body, "seq": 10**9}
        assert table.execute("SELECT floor.put('texas-holdem', %s, 'test')", (Jsonb([later]),)).fetchone()[0] == 1
    with floor.connect() as conn:
        second = books.read(conn, period)
        assert second == floor_report(conn, period)
        conn.execute("DELETE FROM floor.facts WHERE table_id = 'PK-01' AND seq = %s", (10**9,))
    # a table that never sent a status (so no par) keeps its fold from read to read: only new facts are taken
    floor.add("XX-02")   # a table on the floor that has sent nothing yet: no facts, no status
    with floor.connect() as conn:
        books.read(conn, period)
        folds = dict(books.tallies)
        books.read(conn, period)
    assert [t for t in ("CS-01", "CW-01", "XX-02") if books.tallies[t] is not folds[t]] == []
    by_table = {t["table"]: t for t in second["tables"]}
    assert by_table["PK-01"]["rounds"] == 1 + {t["table"]: t for t in first["tables"]}["PK-01"]["rounds"]
    assert books.last["PK-01"] == 10**9 and {t: s for t, s in books.last.items() if t in last and t != "PK-01"} == \
        {t: s for t, s in last.items() if t != "PK-01"}


def test_a_table_stopped_says_so_to_the_floor(pit, floor):
    """The orderly stop's last attempt tells the floor the table stopped: the pit does not read its last
    state as still playing."""
    servers, _ = pit
    servers["PK-01"].close()
    with floor.connect() as conn:
        body = conn.execute("SELECT body FROM floor.status WHERE table_id = 'PK-01'").fetchone()[0]
    assert body["state"] == "stopped" and body["fault"] is None


def test_a_tables_status_is_its_own_and_of_the_floors_mode(pit, floor):
    """floor.put_status takes a status only from a table's own role and of the floor's mode (a test floor
    here): a live table's is refused, and a role that is no table's gets nothing in."""
    import psycopg
    from psycopg.types.json import Jsonb
    url, pw = floor.add("CW-01")
    with psycopg.connect(url, password=pw.read_text().strip(), autocommit=True) as table:
        with pytest.raises(psycopg.Error, match="live table's status is refused by a test floor"):
            table.execute("SELECT floor.put_status(%s, 'live')", (Jsonb({"state": "open"}),))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            table.execute("SELECT floor.caller('test', 'status is')")   # the check is put's, not a table's
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            table.execute("SELECT count(*) FROM floor.status")
