"""A linked table's anchor is kept in the pool's PostgreSQL too (issue 15, item 3; issue 26).

The second copy of the journal's head off the box (controller/journal/anchor.py
PoolSink): written and read through the table's own link client as the
table's own database role, one row per role. The journal here is rolled
back and rewritten, and the pool's anchor names both.

Then through a live linked table (`tablectl run --autoplay` with a `[link]` to a
pool in the tests' PostgreSQL, tests/pg_fixtures.py), restarted on a data
directory emptied or put back: the pool's anchor is checked at start like the
controller's, and an empty one where the journal says it anchored is a fault.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import shutil

import pytest

from controller.journal import anchor
from controller.journal.store import Journal, load_key
from controller.link import admin
from controller.link.config import LinkConfig
from testsupport.pgserver import PgServer
from controller.link.pool import LinkClient
from tests.link.link_helpers import profile, run
from tests.security.anchor_helpers import make_key


def test_the_pool_database_holds_a_linked_tables_anchor(tmp_path):
    server = PgServer(settings={"fsync": "off"}).start()
    try:
        server.wait_ready()
        with admin.connect(**server.admin_kwargs()) as conn:
            conn.execute("CREATE DATABASE anchors")
        with admin.connect(**server.admin_kwargs("anchors")) as conn:
            admin.install(conn, test=True)   # the live table below is autoplayed: a test link
            params, initial = admin.progressive_params({})
            admin.create_pool(conn, "cs", "progressive", params, initial, "test-admin")
            password = secrets.token_urlsafe(12)
            admin.create_table_role(conn, "anchors_t1", password)
            admin.add_table(conn, "cs", "T1", "anchors_t1", "test-admin")
        (tmp_path / "t1.pass").write_text(password + "\n")
        (tmp_path / "t1.pass").chmod(0o600)
        config = LinkConfig.model_validate({
            "pool": "cs", "table": "T1", "url": server.url("anchors_t1", "anchors"),
            "password_file": tmp_path / "t1.pass", "sslmode": "disable", "outbox": tmp_path / "outbox.sqlite"})
        key = load_key(make_key(tmp_path / "keys"))
        data = tmp_path / "data"
        with Journal.open(data, key=key) as j:
            j.append("event", {"n": 1})
        shutil.copytree(data, tmp_path / "older")
        with Journal.open(data, key=key) as j:
            j.append("event", {"n": 2})
            head = anchor.of_journal(j)

        async def scenario() -> None:
            client = LinkClient(config, config.outbox)
            sink = anchor.PoolSink(client)
            try:
                assert await sink.read() is None   # a new table: nothing anchored yet
                await sink.write(head)
                assert await sink.read() == head
                with Journal.open(data, readonly=True, key=key) as j:
                    assert anchor.check(j, await sink.read(), key, sink.name) == []
                with Journal.open(tmp_path / "older", readonly=True, key=key) as old:
                    found = anchor.check(old, await sink.read(), key, sink.name)
                assert [p.code for p in found] == ["journal-behind-anchor"]
                forged = anchor.Anchor(head.journal_id, head.seq, head.hash, bytes(32))
                await sink.write(forged)
                with Journal.open(data, readonly=True, key=key) as j:
                    assert [p.code for p in anchor.check(j, await sink.read(), key, sink.name)] == ["anchor-forged"]
            finally:
                if client._conn is not None:
                    await client._conn.close()

        asyncio.run(scenario())
    finally:
        server.cleanup()


# -- a live linked table (issue 26, item 4) ----------------------------------------------------

POOL_TABLE = "CS-ANCHOR"


def _play(env, path, rounds: int) -> tuple[int, str]:
    """`tablectl run --autoplay` of the linked table: its exit status and its stdout (round and fault lines)."""
    proc = run(env, path, POOL_TABLE, rounds, 5)
    out, _ = proc.communicate(timeout=240)
    return proc.returncode, out


def _fault_problems(data) -> list[dict]:
    return [p for f in json.loads((data / "fault.json").read_text())["faults"] for p in f["problems"]]


def _pool_anchor(env) -> tuple | None:
    return env.admin.execute("SELECT journal_id, seq FROM link.journal_anchors WHERE role_name = %s",
                             (env.role(POOL_TABLE),)).fetchone()


@pytest.fixture
def linked(env):
    """A linked Caribbean stud table that played a round, an older copy of its data directory
    (journal and emulated devices, the controller's memory among them), and another round after it."""
    env.create_pool("cs")
    cfg = env.add_table("cs", POOL_TABLE)
    path = profile(env, cfg, POOL_TABLE)
    data = env.tmp / f"data-{POOL_TABLE}"
    rc, out = _play(env, path, 1)
    assert rc == 0, (out[-800:], (env.tmp / f"table-{POOL_TABLE}.err").read_text()[-2000:])
    shutil.copytree(data, env.tmp / "older", symlinks=True)
    rc, out = _play(env, path, 1)
    assert rc == 0, out[-800:]
    with Journal.open(data, readonly=True) as j:
        jid = j.journal_id
    assert _pool_anchor(env)[0] == jid          # the pool holds the journal's head as the table's own role
    return env, path, data


def test_a_linked_tables_emptied_data_directory_under_a_wiped_controller_is_noticed_by_the_pool(linked):
    """The data directory emptied with the emulated controller's memory in it: the box alone sees a
    new table, but the pool still holds the old journal's anchor."""
    env, path, data = linked
    shutil.rmtree(data)
    rc, out = _play(env, path, 1)
    assert rc == 3 and '"fault"' in out, out[-800:]
    problems = _fault_problems(data)
    assert [(p["code"], p["where"].split(" anchor")[0]) for p in problems] == [("anchor-foreign", "pool database")]
    assert "is not the one the pool database anchored" in problems[0]["detail"]


def test_a_linked_tables_older_data_directory_with_both_anchors_gone_is_a_fault_naming_the_entries(linked):
    """An older data directory put back, the controller wiped and the pool's row deleted: both said
    nothing on main and the older rounds were dealt again. The journal says where each was anchored."""
    env, path, data = linked
    shutil.rmtree(data)
    shutil.copytree(env.tmp / "older", data, symlinks=True)
    (data / "sim" / "progressive-nvram.json").unlink(missing_ok=True)   # the controller wiped
    env.admin.execute("DELETE FROM link.journal_anchors WHERE role_name = %s", (env.role(POOL_TABLE),))
    with Journal.open(data, readonly=True) as j:
        last = {}
        for e in j.entries_since(0):
            if e.kind == "anchor-written":
                last[e.payload["sink"]] = e.payload["seq"]
    rc, out = _play(env, path, 1)
    assert rc == 3 and '"fault"' in out, out[-800:]
    assert sorted(last) == ["pool database", "progressive controller"]   # the journal recorded both writes
    details = {p["code"]: [] for p in _fault_problems(data)}
    for p in _fault_problems(data):
        details[p["code"]].append(p["detail"])
    assert sorted(details) == ["anchor-missing"]
    for sink in ("progressive controller", "pool database"):
        assert any(f"the {sink} holds no anchor; the journal was anchored at entry {last[sink]}" in d
                   for d in details["anchor-missing"]), details
    assert _pool_anchor(env) is None             # nothing was anchored over the evidence
