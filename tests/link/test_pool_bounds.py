"""What one table's credential can do to the pool, asked as the table's own role (issue 16).

- No table can stall the pool: a table role that holds the meter row in an open
  transaction (the issue's `BEGIN; SELECT link.open_table(..); SELECT pg_sleep(8)`,
  or a contribution left open with its own timeouts switched off) does not keep
  the other tables waiting: they carry on within the link's timeout (1 s), the
  holder is cut off, and the time is measured. A session only waiting for the row
  (behind a person's lock) is never cut off, and every cut-off is recorded in
  link.changes, whatever becomes of the operation that found it (issue 26).
- A claim is bound to what the pool knows: a round whose contribution the pool
  holds from that table, within the bound after it, once; cards that make the
  hand claimed, no card in two hands; a settlement carries the journal entry of
  the supervisor's validation; the pool-wide `tablectl link check` names a claim
  without its contribution.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from controller.link.errors import LinkRefused
from controller.link.pool import ProgressiveLink
from tests.link.test_pool_sql import ROYAL, Refused, call, claim, contribute, settle, validation

TABLECTL = Path(sys.executable).parent / "tablectl"
LINK_TIMEOUT = 1.0   # seconds: a table's default timeout_ms, past which its progressive goes unplayable


@pytest.fixture
def pool(env):
    env.create_pool("cs")
    conns = {}
    for t in ("A", "B"):
        env.add_table("cs", t)
        conns[t] = env.table_conn(t)
        call(conns[t], "SELECT link.open_table('cs', 'test')")
    yield env, conns["A"], conns["B"]
    for c in conns.values():
        c.close()


def holder_conn(env, table: str) -> psycopg.Connection:
    role = env.role(table)
    return psycopg.connect(host="127.0.0.1", port=env.pg.port, user=role, password=env.passwords[role],
                           dbname=env.db, autocommit=False)


def bounded_conn(env, table: str) -> psycopg.Connection:
    """A table's connection that gives up on a statement after 3 s (so a stall fails the test, not hangs it)."""
    role = env.role(table)
    return psycopg.connect(host="127.0.0.1", port=env.pg.port, user=role, password=env.passwords[role],
                           dbname=env.db, autocommit=True, options="-c statement_timeout=3000")


def hold(conn: psycopg.Connection, statements: list[str], outcome: dict) -> threading.Thread:
    def run():
        try:
            for s in statements:
                conn.execute(s)
            outcome["error"] = None
        except psycopg.Error as exc:
            outcome["error"] = exc
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def contributions_while_held(env, rounds: int) -> list[float]:
    """Table B's contributions through its client (what the table does at a lock-out), one after
    another, each timed (seconds): each is confirmed, a holder cut off on the way if need be."""
    async def run() -> list[float]:
        client = ProgressiveLink(env.config("cs", "B"), env.tmp / "outbox-held-B.sqlite")
        await client.start()
        times = []
        try:
            for n in range(rounds):
                t0 = time.perf_counter()
                sent = await client.contribute(f"held-{n}", [1, 2])
                times.append(time.perf_counter() - t0)
                assert sent.confirmed, client.status.reason
        finally:
            await client.stop()
        return times
    return asyncio.run(run())


def cut_offs(env) -> list[tuple]:
    return env.admin.execute("SELECT who, detail ->> 'role', (detail ->> 'pid')::int, detail ->> 'why' "
                             "FROM link.changes WHERE what = 'table session cut off' ORDER BY change_id").fetchall()


def backend(conn: psycopg.Connection) -> int:
    return conn.execute("SELECT pg_backend_pid()").fetchone()[0]


def wait_holding(env, table: str) -> None:
    """Until the holder's session is inside its transaction, holding a lock on the pool's row."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        n = env.admin.execute("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                              "WHERE a.usename = %s AND l.relation = 'link.pools'::regclass AND l.granted",
                              (env.role(table),)).fetchone()[0]
        if n:
            return
        time.sleep(0.02)
    raise AssertionError("the holder never took the pool's row")


def test_table_roles_carry_statement_lock_and_idle_in_transaction_timeouts(pool):
    env, a, _ = pool
    shown = {name: a.execute(f"SHOW {name}").fetchone()[0]
             for name in ("statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout")}
    assert shown == {"statement_timeout": "5s", "lock_timeout": "2s", "idle_in_transaction_session_timeout": "1s"}


def test_link_init_gives_an_existing_table_role_its_timeouts(env):
    from controller.link import admin
    role = f"{env.db}_old_box"
    env.admin.execute(f"CREATE ROLE {role} LOGIN IN ROLE link_table")   # a role made before issue 16
    settings = "SELECT coalesce(array_to_string(setconfig, ','), '') FROM pg_db_role_setting s " \
               "JOIN pg_roles r ON r.oid = s.setrole WHERE r.rolname = %s"
    assert env.admin.execute(settings, (role,)).fetchone() is None
    admin.install(env.admin, test=True)   # `tablectl link init --test`, run again
    (got,) = env.admin.execute(settings, (role,)).fetchone()
    assert set(got.split(",")) == {"statement_timeout=5s", "lock_timeout=2s", "idle_in_transaction_session_timeout=1s"}


def test_a_table_opening_in_a_long_transaction_does_not_stall_the_others(pool):
    """The issue's holder: BEGIN; SELECT link.open_table('cs', 'test'); SELECT pg_sleep(8)."""
    env, _, _ = pool
    holder = holder_conn(env, "A")
    outcome: dict = {}
    thread = hold(holder, ["SELECT link.open_table('cs', 'test')", "SELECT pg_sleep(8)"], outcome)
    try:
        wait_holding(env, "A")
        times = contributions_while_held(env, 5)
    finally:
        holder.cancel()
        thread.join(10)
        holder.close()
    print(f"B's contributions while A held the row (s): {[round(t, 3) for t in times]}")
    assert max(times) < LINK_TIMEOUT, times
    env.assert_books("cs")


def test_a_table_holding_the_meter_row_with_its_timeouts_off_is_cut_off(pool):
    """A contribution left open (the row taken FOR NO KEY UPDATE), its own timeouts set to none."""
    env, _, _ = pool
    holder = holder_conn(env, "A")
    pid = backend(holder)
    outcome: dict = {}
    thread = hold(holder, ["SET statement_timeout = 0", "SET idle_in_transaction_session_timeout = 0",
                           "SET lock_timeout = 0",
                           f"SELECT link.contribute('cs', 'a-held', '{uuid.uuid4()}', ARRAY[3], 1)",
                           "SELECT pg_sleep(8)"], outcome)
    try:
        wait_holding(env, "A")
        t0 = time.perf_counter()
        times = contributions_while_held(env, 5)
        thread.join(10)
        cut_after = time.perf_counter() - t0
    finally:
        holder.close()
    print(f"B's contributions while A held the row (s): {[round(t, 3) for t in times]}; "
          f"A cut off within {cut_after:.3f} s")
    assert max(times) < LINK_TIMEOUT, times
    assert isinstance(outcome.get("error"), psycopg.errors.AdminShutdown), outcome   # A's session was terminated
    assert cut_offs(env) == [("the pool", env.role("A"), pid, "held the row past the bound")]
    # A's open contribution never committed; the books balance
    assert env.admin.execute("SELECT count(*) FROM link.contributions WHERE round_id = 'a-held'").fetchone()[0] == 0
    env.assert_books("cs")


def test_a_table_idle_in_its_transaction_is_cut_off(pool):
    env, _, _ = pool
    holder = holder_conn(env, "A")
    pid = backend(holder)
    try:
        holder.execute("SET idle_in_transaction_session_timeout = 0")
        holder.execute(f"SELECT link.contribute('cs', 'a-idle', '{uuid.uuid4()}', ARRAY[3], 1)")
        time.sleep(0.4)   # past the pool's bound on holding the row (300 ms)
        times = contributions_while_held(env, 3)
        with pytest.raises(psycopg.OperationalError):
            holder.execute("SELECT 1")   # its session was ended
    finally:
        holder.close()
    assert max(times) < LINK_TIMEOUT, times
    assert cut_offs(env) == [("the pool", env.role("A"), pid, "idle in its transaction holding the row")]


def test_tables_waiting_behind_a_person_are_never_cut_off(pool):
    """The stress of issue 26: an administrator holds the pool's row (SELECT ... FOR UPDATE in a
    transaction left open) for 4 s, and five tables' sessions wait for it as a table calls the pool
    (its role's settings). A waiter is never taken for a holder, however long it waits: each one is
    answered (its contribution, or "lock not available" at the pool's 5 s) and its session goes on;
    no cut-off is recorded, because there was none. On main, sessions that had waited 2 s were
    terminated (a waiter is "active" between two tries, and a function read pg_stat_activity once)."""
    env, _, _ = pool
    tables = ("A", "B", "C", "D", "E")
    for t in tables[2:]:
        env.add_table("cs", t)
    person = psycopg.connect(**env.pg.admin_kwargs(env.db))
    outcomes: dict[str, dict] = {t: {} for t in tables}
    sessions = {t: env.table_conn(t) for t in tables}
    threads = []
    try:
        person.execute("SELECT 1 FROM link.pools WHERE name = 'cs' FOR UPDATE")
        for t in tables:
            threads.append(hold(sessions[t], [f"SELECT link.contribute('cs', 'w-{t}', '{uuid.uuid4()}', ARRAY[1], 1)"],
                                outcomes[t]))
            time.sleep(0.1)
        time.sleep(4.0)   # every one waits, past the 2 s after which a transaction was taken for a holder
    finally:
        person.rollback()
        person.close()
    for thread in threads:
        thread.join(10)
    answered = {t: getattr(o["error"], "sqlstate", None) for t, o in outcomes.items()}
    try:
        assert set(answered.values()) <= {None, "55P03"}, outcomes   # done, or "lock not available": waited
        for t, conn in sessions.items():
            assert conn.execute("SELECT 1").fetchone() == (1,), t   # every session goes on
    finally:
        for conn in sessions.values():
            conn.close()
    assert cut_offs(env) == []
    env.assert_books("cs")


def test_a_cut_off_is_recorded_though_the_operation_that_found_it_then_waits_behind_a_person(pool):
    """Table A holds the meter row idle in its transaction; an administrator's SELECT ... FOR UPDATE
    waits for it; table B's contribution finds A holding it. A is cut off and the record of it stays,
    whether the administrator then takes the row first and B's contribution waits behind the person
    (kept in B's outbox, sent once the row is free) or B's takes it first. On main B's own function
    cut A off and recorded it in its transaction, which ended in "lock not available" behind the
    administrator when the person came first: no record (issue 26). The next test pins it."""
    env, _, _ = pool
    holder = holder_conn(env, "A")
    pid = backend(holder)
    person = psycopg.connect(**env.pg.admin_kwargs(env.db))
    person_pid = backend(person)
    taken: dict = {}
    holder.execute("SET idle_in_transaction_session_timeout = 0")
    holder.execute(f"SELECT link.contribute('cs', 'a-idle', '{uuid.uuid4()}', ARRAY[3], 1)")
    queued = hold(person, ["SELECT 1 FROM link.pools WHERE name = 'cs' FOR UPDATE", "SELECT pg_sleep(3)", "ROLLBACK"],
                  taken)

    async def b_contributes() -> bool:
        client = ProgressiveLink(env.config("cs", "B"), env.tmp / "outbox-behind-B.sqlite")
        await client.start()
        try:
            sent = await client.contribute("b-1", [1, 2])
            await client.wait_playable(20)   # playable: nothing in the outbox unconfirmed
            return client.outbox.get(sent.key).status == "confirmed"
        finally:
            await client.stop()

    try:
        deadline = time.monotonic() + 10
        while not env.admin.execute("SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = %s",
                                    (person_pid,)).fetchone()[0]:
            assert time.monotonic() < deadline, "the administrator never queued for the row"
            time.sleep(0.02)
        time.sleep(0.4)   # A idle in its transaction past the bound
        in_the_end = asyncio.run(b_contributes())
        queued.join(10)
    finally:
        person.close()
        holder.close()
    assert taken == {"error": None}   # the person took the row once A was gone, and let go
    assert in_the_end   # at once, or after the person let go: the pool confirmed it
    assert cut_offs(env) == [("the pool", env.role("A"), pid, "idle in its transaction holding the row")]
    env.assert_books("cs")


def test_a_cut_off_is_recorded_though_the_operation_that_found_it_is_then_refused(pool):
    """Table A holds the meter row idle in its transaction; table B's client sends a contribution the
    pool refuses once it has the row (B's round already contributed under another key). A is cut
    off, and the record of it stays: it was made in a transaction of its own. On main the waiting
    function cut A off and recorded it in its own transaction, which the refusal rolled back."""
    env, _, b = pool
    contribute(b, "b-1", [1, 2])   # B's round, under a key its outbox below does not hold
    holder = holder_conn(env, "A")
    pid = backend(holder)
    holder.execute("SET idle_in_transaction_session_timeout = 0")
    holder.execute(f"SELECT link.contribute('cs', 'a-idle', '{uuid.uuid4()}', ARRAY[3], 1)")
    time.sleep(0.4)   # A idle in its transaction past the bound

    async def b_contributes() -> str:
        client = ProgressiveLink(env.config("cs", "B"), env.tmp / "outbox-refused-B.sqlite")
        await client.start()
        try:
            await client.contribute("b-1", [1, 2])
        except LinkRefused as exc:
            return exc.code
        finally:
            await client.stop()
        return "confirmed"

    try:
        assert asyncio.run(b_contributes()) == "LK002"
        with pytest.raises(psycopg.OperationalError):
            holder.execute("SELECT 1")   # A's session was ended
    finally:
        holder.close()
    assert cut_offs(env) == [("the pool", env.role("A"), pid, "idle in its transaction holding the row")]
    env.assert_books("cs")


# --- a claim bound to what the pool knows --------------------------------------------------------

def test_a_claim_for_a_round_contributed_twelve_minutes_ago_is_refused(pool):
    env, a, _ = pool
    contribute(a, "r1", [4])
    env.admin.execute("UPDATE link.contributions SET committed_at = committed_at - interval '12 minutes' "
                      "WHERE round_id = 'r1'")
    meter = env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0]
    with pytest.raises(Refused) as exc:
        claim(a, "r1", [(4, "royal-flush", ROYAL)])
    assert exc.value.sqlstate == "LK009" and "within 00:05:00" in str(exc.value)
    assert env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0] == meter   # the meter is whole
    assert env.admin.execute("SELECT count(*) FROM link.awards").fetchone()[0] == 0


def test_a_claim_is_only_for_a_round_the_table_contributed_and_only_once(pool):
    env, a, b = pool
    contribute(b, "r1", [4])
    with pytest.raises(Refused) as exc:
        claim(a, "r1", [(4, "royal-flush", ROYAL)])   # B's round: A holds no contribution for it
    assert exc.value.sqlstate == "LK007"
    claim(b, "r1", [(4, "flush", "2h5h9hJhKh")])
    with pytest.raises(Refused) as exc:
        claim(b, "r1", [(4, "royal-flush", ROYAL)])
    assert exc.value.sqlstate == "LK002"


def close_round(conn, round_id, key=None, pool="cs"):
    return call(conn, "SELECT link.close_round(%s, %s, %s)", pool, round_id, key or uuid.uuid4())


def refusals(env) -> list[tuple]:
    return env.admin.execute("SELECT table_name, kind, round_id, key, code FROM link.refusals ORDER BY refusal_id"
                             ).fetchall()


def test_a_claim_is_only_for_the_round_the_table_is_playing(pool):
    """The stress of issue 26: a table's own role claimed a royal for round 1 of the 15 it had just
    played, inside the 5-minute bound, and the pool moved the whole meter into the award. A claim is
    taken only for the table's latest contribution that it has not closed, once; any other is refused,
    the meter whole, and the refusal kept in the pool (link.refusals), a retry of it answered the same."""
    env, a, _ = pool
    for n in range(1, 16):   # fifteen rounds played (their closes: the next test)
        contribute(a, f"r{n}", [4])
    meter = env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0]
    key = uuid.uuid4()
    for _ in range(2):   # sent again (its outbox's retry): the same refusal, kept once
        with pytest.raises(Refused) as exc:
            claim(a, "r1", [(4, "royal-flush", ROYAL)], key=key)
        assert exc.value.sqlstate == "LK009" and "latest contribution is round r15" in str(exc.value)
    assert env.admin.execute("SELECT meter_units FROM link.pools").fetchone()[0] == meter   # the meter is whole
    assert env.admin.execute("SELECT count(*) FROM link.awards").fetchone()[0] == 0
    assert refusals(env) == [("A", "claim", "r1", key, "LK009")]
    with pytest.raises(Refused) as exc:
        claim(a, "r14", [(4, "royal-flush", ROYAL)])   # the round just before
    assert exc.value.sqlstate == "LK009"
    # the round in progress: its claim is paid, once
    assert claim(a, "r15", [(4, "royal-flush", ROYAL)])["awards"][0]["amount_cents"] == meter // 10000
    with pytest.raises(Refused) as exc:
        claim(a, "r15", [(4, "flush", "2h5h9hJhKh")])
    assert exc.value.sqlstate == "LK002"
    assert [r[2] for r in refusals(env)] == ["r1", "r14", "r15"]
    env.assert_books("cs")


def test_a_round_closed_with_the_pool_takes_no_claim(pool):
    env, a, b = pool
    contribute(a, "r1", [4])
    key = uuid.uuid4()
    assert close_round(a, "r1", key)["duplicate"] is False
    assert close_round(a, "r1", key)["duplicate"] is True   # the outbox's retry
    with pytest.raises(psycopg.Error) as exc:
        close_round(a, "r1")   # closed once
    assert exc.value.sqlstate == "LK002"
    with pytest.raises(psycopg.Error) as exc:
        close_round(b, "r1")   # a table closes only its own rounds
    assert exc.value.sqlstate == "LK007"
    with pytest.raises(Refused) as exc:
        claim(a, "r1", [(4, "royal-flush", ROYAL)])   # its latest contribution, but over
    assert exc.value.sqlstate == "LK009" and "was closed with the pool" in str(exc.value)
    assert env.admin.execute("SELECT count(*) FROM link.awards").fetchone()[0] == 0
    # the next round without a progressive wager contributes nothing: the closed round stays the
    # latest, and a claim for the round without a contribution is refused too
    with pytest.raises(Refused) as exc:
        claim(a, "r2", [(4, "royal-flush", ROYAL)])
    assert exc.value.sqlstate == "LK007"
    assert [(r[2], r[4]) for r in refusals(env)] == [("r1", "LK009"), ("r2", "LK007")]
    env.assert_books("cs")


def test_the_pool_wide_check_reports_a_refused_claim_and_a_claim_made_for_a_round_already_left(pool, monkeypatch):
    env, a, _ = pool
    contribute(a, "r1", [4])
    close_round(a, "r1")
    contribute(a, "r2", [4])
    with pytest.raises(Refused):
        claim(a, "r1", [(4, "royal-flush", ROYAL)])
    claim(a, "r2", [(4, "flush", "2h5h9hJhKh")])
    monkeypatch.setenv("PGPASSWORD", env.pg.password)
    monkeypatch.setenv("TABLECTL_LINK_DSN", f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}")
    done = subprocess.run([str(TABLECTL), "link", "check", "cs"], capture_output=True, text=True, timeout=60)
    assert "REFUSED: claim of table A round r1 at " in done.stdout, done.stdout + done.stderr
    assert f"as role {env.role('A')} (LK009: round r1 is not the round table A is playing" in done.stdout
    assert "CLAIM" not in done.stdout   # the claim paid was for the round in progress
    # a claim the pool took before claims were bound to the round (a pool of before issue 26, with no
    # closes), for a round its table had left: here r2's claim moved onto r1 behind the functions
    env.admin.execute("UPDATE link.contributions SET closed_key = NULL, closed_at = NULL")
    env.admin.execute("UPDATE link.claims SET round_id = 'r1' WHERE round_id = 'r2'")
    env.admin.execute("UPDATE link.awards SET round_id = 'r1' WHERE round_id = 'r2'")
    found = subprocess.run([str(TABLECTL), "link", "check", "cs"], capture_output=True, text=True, timeout=60)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "CLAIM: claim of table A round r1: made after the table's next contribution (round r2" in found.stdout, \
        found.stdout
    assert "books ok" in found.stdout


def test_link_init_upgrades_a_pool_of_before_rounds_were_closed(pool):
    """A pool made before issue 26 (no closes, no refusals kept) is upgraded by `tablectl link init`:
    its rounds are unclosed, and only each table's latest contribution can still be claimed."""
    from controller.link import admin
    env, a, _ = pool
    contribute(a, "old-1", [4])
    contribute(a, "old-2", [4])
    env.admin.execute("DROP TABLE link.refusals")
    env.admin.execute("DROP INDEX link.contributions_latest")
    env.admin.execute("ALTER TABLE link.contributions DROP COLUMN closed_key, DROP COLUMN closed_at")
    admin.install(env.admin, test=True)   # `tablectl link init --test`, run again
    with pytest.raises(Refused) as exc:
        claim(a, "old-1", [(4, "royal-flush", ROYAL)])
    assert exc.value.sqlstate == "LK009" and "latest contribution is round old-2" in str(exc.value)
    assert claim(a, "old-2", [(4, "flush", "2h5h9hJhKh")])["awards"]
    assert close_round(a, "old-2")["duplicate"] is False
    assert [r[2] for r in refusals(env)] == ["old-1"]
    env.assert_books("cs")


def test_the_cards_of_a_claim_must_make_the_hand_and_be_one_deck(pool):
    env, a, _ = pool
    contribute(a, "r1", [3, 4])
    for hits, says in (([(4, "royal-flush", "AhKhQhJh9h")], "make flush, not royal-flush"),
                       ([(4, "straight-flush", "AhKhQhJhTh")], "make royal-flush, not straight-flush"),
                       ([(4, "four-of-a-kind", "AhAhAhAh2c")], "no five-card hand"),
                       ([(4, "royal-flush", ROYAL), (3, "flush", "2h5h9hJhKh")], "Jh")):
        with pytest.raises(Refused) as exc:
            claim(a, "r1", hits)
        assert exc.value.sqlstate == "LK009" and says in str(exc.value), (hits, str(exc.value))
    assert claim(a, "r1", [(4, "royal-flush", ROYAL), (3, "flush", "2c5c9cJcKc")])["awards"]


def test_a_settlement_carries_the_journal_entry_of_its_validation(pool):
    env, a, _ = pool
    contribute(a, "r1", [4])
    claim(a, "r1", [(4, "royal-flush", ROYAL)])
    for record in ({}, {**validation(4), "who": "Nobody"}, {**validation(4), "source": "panel"},
                   {**validation(4), "event": "refuse"}, {**validation(4), "hash": "x"}):
        with pytest.raises(psycopg.Error) as exc:
            settle(a, "r1", 4, record=record)
        assert exc.value.sqlstate == "LK009", record
    settle(a, "r1", 4)
    kept = env.admin.execute("SELECT status, settled_by, validation FROM link.awards").fetchone()
    assert kept == ("paid", "Sam Supervisor", validation(4))


def test_the_pool_wide_check_names_a_claim_without_its_contribution(pool, monkeypatch):
    env, a, b = pool
    contribute(a, "r1", [4])
    claim(a, "r1", [(4, "flush", "2h5h9hJhKh")])
    for t, conn in (("A", a), ("B", b)):   # each table reports records that agree with the pool's
        n, dig = env.admin.execute("SELECT n, digest FROM link.table_digest('cs', %s)", (t,)).fetchone()
        assert call(conn, "SELECT link.report_reconcile('cs', %s, %s)", n, dig)["agreed"]
    monkeypatch.setenv("PGPASSWORD", env.pg.password)
    monkeypatch.setenv("TABLECTL_LINK_DSN", f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}")
    ok = subprocess.run([str(TABLECTL), "link", "check", "cs"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "CLAIM" not in ok.stdout, ok.stdout + ok.stderr
    # the claim's contribution moved to another round behind the functions (the meter untouched)
    env.admin.execute("UPDATE link.contributions SET round_id = 'elsewhere' WHERE round_id = 'r1'")
    found = subprocess.run([str(TABLECTL), "link", "check", "cs"], capture_output=True, text=True, timeout=60)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "CLAIM: claim of table A round r1: the pool holds no contribution of the round" in found.stdout
    assert "books ok" in found.stdout   # the meter balances: only the claim check finds it
