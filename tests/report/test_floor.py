"""Across the floor: each table's facts in PostgreSQL under its own role, sent idempotently, and
`tablectl floor report` equal to the sum of the tables' own reports, also after an outage."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import psycopg
import pytest

from tests.report.report_helpers import TABLECTL, profile_without_screen, report_json, tablectl
from tests.software_hashes import seed_software_hashes

TABLE_KEYS = ("table", "game", "rounds", "voided", "wagers", "handle", "house_win", "hold_bp", "by_hour",
              "progressive", "poker", "events")


def send(floor, table: str, data: Path, outbox: Path, check: bool = True) -> subprocess.CompletedProcess:
    url, pw = floor.add(table)
    return tablectl("floor", "send", "--data-dir", str(data), "--outbox", str(outbox), "--url", url,
                    "--password-file", str(pw), check=check)


def test_the_floor_report_is_the_sum_of_the_tables_own_reports(played, floor, tmp_path):
    own = {}
    for game, data in played.items():
        table = report_json(data)["tables"][0]
        own[table["table"]] = table
        first = send(floor, table["table"], data, tmp_path / f"{game}.outbox")
        again = send(floor, table["table"], data, tmp_path / f"{game}.outbox")
        assert first.stdout == again.stdout   # nothing new the second time
    # an outbox lost (a box restored from an older copy) sends every fact again: stored once
    send(floor, "CS-01", played["caribbean-stud"], tmp_path / "fresh.outbox")

    report = floor.report()
    assert {t["table"]: t for t in report["tables"]} == own
    total = report["total"]
    assert total["tables"] == 3
    for key in ("rounds", "handle", "house_win"):
        assert total[key] == sum(t[key] for t in own.values())
    for name in ("ante", "bet", "progressive", "initial", "tie", "war"):
        assert total["wagers"][name]["house_win"] == sum(t["wagers"].get(name, {}).get("house_win", 0)
                                                         for t in own.values())
    assert total["progressive"]["contributions"] == own["CS-01"]["progressive"]["contributions"]
    assert total["poker"]["rake"] == own["PK-01"]["poker"]["rake"] > 0
    # the CSV carries the same cents
    csv_lines = tablectl("floor", "report", "--url", floor.admin_url, "--password-file", str(floor.admin_pw),
                         "--from", "2000-01-01", "--csv").stdout.splitlines()
    assert f"TOTAL,,table,house_win,{total['house_win']}" in csv_lines
    with floor.connect() as conn:
        stored = conn.execute("SELECT count(*) FROM floor.facts WHERE table_id = 'CS-01'").fetchone()[0]
        rounds = conn.execute("SELECT count(*) FROM floor.facts WHERE table_id = 'CS-01' AND fact = 'round'"
                              ).fetchone()[0]
    assert rounds == own["CS-01"]["rounds"] and stored > rounds


def test_a_table_role_adds_only_its_own_facts_and_reads_nothing(played, floor, tmp_path):
    url, pw = floor.add("CW-01")
    role = floor.role("CW-01")
    fact = {"fact": "event", "seq": 999_999, "at": "2001-01-01T00:00:00.000000Z", "round": None,
            "kind": "alarm", "who": "device", "detail": "test"}
    with floor.connect(role, pw) as conn:
        from psycopg.types.json import Jsonb
        assert conn.execute("SELECT floor.put('casino-war', %s, 'test')", (Jsonb([fact]),)).fetchone()[0] == 1
        assert conn.execute("SELECT floor.put('casino-war', %s, 'test')", (Jsonb([fact]),)).fetchone()[0] == 0
        with pytest.raises(psycopg.Error, match="differs from the one sent again"):
            conn.execute("SELECT floor.put('casino-war', %s, 'test')", (Jsonb([{**fact, "detail": "changed"}]),))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT count(*) FROM floor.facts")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO floor.facts (table_id, seq, fact, at, body) VALUES "
                         "('CS-01', 1, 'event', '2001', '{}')")
    with floor.connect() as conn:
        assert conn.execute("SELECT table_id FROM floor.facts WHERE seq = 999999").fetchall() == [("CW-01",)]
        conn.execute("DELETE FROM floor.facts WHERE seq = 999999")   # leave the floor as the table sent it


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def _wait(predicate, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _unsent(outbox: Path) -> int:
    if not outbox.exists():
        return 0
    conn = sqlite3.connect(f"file:{outbox}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM facts WHERE sent = 0").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def _floor_rounds(floor, table: str) -> int:
    with floor.connect() as conn:
        return conn.execute("SELECT count(*) FROM floor.facts WHERE table_id = %s AND fact = 'round'",
                            (table,)).fetchone()[0]


def test_a_table_cut_off_from_the_floor_plays_on_and_catches_up(floor, pg, tmp_path):
    """`tablectl run` with a [floor] block: the server down, the table plays on and keeps its facts;
    the server back, the table's own sender catches up; the floor's report then equals the table's."""
    url, pw = floor.add("CS-07")
    profile = profile_without_screen("caribbean-stud", tmp_path, "CS-07")   # its own meter: readings too
    outbox = tmp_path / "floor.outbox"
    profile.write_text(profile.read_text() + f'\n[floor]\nurl = "{url}"\npassword_file = "{pw}"\n'
                       f'outbox = "{outbox}"\nretry_ms = 200\n')
    tablectl("par", "--config", str(profile))   # its par sheet cached, so the table sends the floor its par
    data, out = tmp_path / "data", tmp_path / "rounds.jsonl"
    pg.stop("immediate")   # the floor's server is down before the table starts
    try:
        with open(out, "w") as sink:
            table = subprocess.Popen([TABLECTL, "run", "--config", str(profile), "--data-dir", str(data),
                                      "--autoplay", "--seed", "11"], stdout=sink, stderr=subprocess.DEVNULL)
        try:
            _wait(lambda: _lines(out) >= 8, "8 rounds played with the floor down", 120)
            assert table.poll() is None and _unsent(outbox) > 0
        finally:
            pg.start()
            pg.wait_ready()
        played_while_down = _lines(out)
        _wait(lambda: _floor_rounds(floor, "CS-07") >= played_while_down, "the floor to catch up", 60)
        assert table.poll() is None   # still playing
    finally:
        if table.poll() is None:
            table.send_signal(signal.SIGTERM)
        table.wait(30)
    assert table.returncode == 0
    assert _unsent(outbox) == 0   # what it journaled after its sender's last attempt went at the stop
    own = _own(data, profile)
    assert own["par"] is not None
    assert own["rounds"] == _lines(out) >= played_while_down
    ours = [t for t in floor.report()["tables"] if t["table"] == "CS-07"]
    assert ours == [own] and own["progressive"]["contributions"] > 0


def _outbox_rounds(outbox: Path) -> int:
    conn = sqlite3.connect(f"file:{outbox}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM facts WHERE json_extract(body, '$.fact') = 'round'").fetchone()[0]
    finally:
        conn.close()


def _floor_table(floor, table: str, tmp_path: Path, retry_ms: int = 600_000) -> tuple[Path, Path]:
    """A Caribbean stud profile sending to the floor, whose sender tries once at the start and then
    only every `retry_ms` (ten minutes: in these tests, at the start and at the stop alone)."""
    url, pw = floor.add(table)
    profile = profile_without_screen("caribbean-stud", tmp_path, table)
    outbox = tmp_path / f"{table}.outbox"
    profile.write_text(profile.read_text() + f'\n[floor]\nurl = "{url}"\npassword_file = "{pw}"\n'
                       f'outbox = "{outbox}"\nretry_ms = {retry_ms}\n')
    tablectl("par", "--config", str(profile))   # its par sheet cached, so the table sends the floor its par
    return profile, outbox


def _own(data: Path, profile: Path) -> dict:
    """The table's own report, held against its profile's par as the floor holds it against the par the
    table sent (controller/floor/status.py), on the floor report's clock (UTC)."""
    return report_json(data, "--config", str(profile), "--tz", "UTC")["tables"][0]


def _play_until(profile: Path, data: Path, out: Path, rounds: int) -> subprocess.Popen:
    """`tablectl run --autoplay` until `rounds` rounds closed (its stdout's lines), still running."""
    seed_software_hashes(data)
    with open(out, "a") as sink:
        table = subprocess.Popen([TABLECTL, "run", "--config", str(profile), "--data-dir", str(data), "--autoplay",
                                  "--seed", "3"], stdout=sink, stderr=subprocess.DEVNULL)
    try:
        _wait(lambda: _lines(out) >= rounds, f"{rounds} rounds played", 120)
    except BaseException:
        table.kill()
        table.wait(30)
        raise
    return table


def _terminate(table: subprocess.Popen) -> int:
    """SIGTERM, the orderly stop systemd sends, and its exit status (bounded)."""
    table.send_signal(signal.SIGTERM)
    return table.wait(60)


def test_an_orderly_stop_sends_the_floor_every_round_journaled_before_it(floor, tmp_path):
    """The stress of issue 26: right after an orderly stop the floor was short of the rounds played
    since the sender's last attempt until `tablectl floor send` was run by hand. Here the sender's
    only attempt while playing is the one at the start: every round reaches the floor at the stop."""
    profile, outbox = _floor_table(floor, "CS-08", tmp_path)
    data, out = tmp_path / "data", tmp_path / "rounds.jsonl"
    table = _play_until(profile, data, out, 5)
    assert _floor_rounds(floor, "CS-08") == 0   # nothing closed when it tried at the start
    assert _terminate(table) == 0
    own = _own(data, profile)
    assert own["rounds"] >= 5 and _floor_rounds(floor, "CS-08") == own["rounds"] + own["voided"]
    assert _unsent(outbox) == 0
    assert [t for t in floor.report()["tables"] if t["table"] == "CS-08"] == [own]


def test_an_orderly_stop_with_the_floor_down_keeps_every_fact_for_the_next_start(floor, pg, tmp_path):
    """The floor's server down at the stop: what the table journaled before it is read into the
    outbox all the same (the stop is not held up), and the next start sends it; nothing lost."""
    profile, outbox = _floor_table(floor, "CS-09", tmp_path)
    data, out = tmp_path / "data", tmp_path / "rounds.jsonl"
    table = _play_until(profile, data, out, 5)
    pg.stop("immediate")
    try:
        t0 = time.monotonic()
        assert _terminate(table) == 0
        stopped_in = time.monotonic() - t0
    finally:
        pg.start()
        pg.wait_ready()
    own = report_json(data)["tables"][0]
    assert _outbox_rounds(outbox) == own["rounds"] + own["voided"] and own["rounds"] >= 5, stopped_in
    assert _unsent(outbox) > 0
    assert _floor_rounds(floor, "CS-09") == 0
    again = _play_until(profile, data, out, _lines(out) + 1)   # the next start's first attempt sends it
    try:
        _wait(lambda: _floor_rounds(floor, "CS-09") >= own["rounds"] + own["voided"], "the kept rounds on the floor",
              60)
    finally:
        assert _terminate(again) == 0
    own = _own(data, profile)
    assert _unsent(outbox) == 0 and _floor_rounds(floor, "CS-09") == own["rounds"] + own["voided"]
    assert [t for t in floor.report()["tables"] if t["table"] == "CS-09"] == [own]


def test_a_voided_rounds_event_reaches_the_floor_with_the_round(floor, tmp_path):
    """A round's record that voids it is two facts of one journal entry, the round and the event
    (who voided it, why); the floor keys a fact by its entry, so the event rode on nothing and was
    dropped as a double: the floor's events were short of the table's (issue 26)."""
    import asyncio

    from tests.table.table_helpers import deck_ready, running, stud_profile, until

    data = tmp_path / "data"

    async def void_one() -> None:
        async with running(stud_profile(), data) as table:
            await until(lambda: deck_ready(table.published()), "the deck counted and loaded", 30)
            done = await table.submit({"type": "void_round", "reason": "table closing"}, source="supervisor",
                                      who="S-3")
            assert done["ok"], done
    asyncio.run(void_one())
    own = report_json(data)["tables"][0]
    assert own["voided"] == 1 and any(e["kind"] == "void" for e in own["events"]), own["events"]
    assert send(floor, own["table"], data, tmp_path / "void.outbox").returncode == 0
    assert [t for t in floor.report()["tables"] if t["table"] == own["table"]] == [own]


def test_send_keeps_the_facts_when_the_floor_cannot_be_reached(played, tmp_path):
    from testsupport.pgserver import free_port
    pw = tmp_path / "x.pass"
    pw.write_text("nothing\n")
    outbox = tmp_path / "o.sqlite"
    done = tablectl("floor", "send", "--data-dir", str(played["casino-war"]), "--outbox", str(outbox),
                    "--url", f"postgresql://nobody@127.0.0.1:{free_port()}/floor", "--password-file", str(pw),
                    check=False)
    assert done.returncode == 1 and "wait in the outbox" in done.stdout
    assert _unsent(outbox) > 0   # read from the journal and kept, to be sent when the floor is back
