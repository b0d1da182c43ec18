"""A linked table's anchor is kept in the pool's PostgreSQL too (issue 15, item 3).

The second copy of the journal's head off the box (controller/anchor.py
PoolSink): written and read through the table's own link client as the
table's own database role, one row per role. The journal here is rolled
back and rewritten, and the pool's anchor names both.
"""

from __future__ import annotations

import asyncio
import secrets
import shutil

from controller import anchor
from controller.journal import Journal, load_key
from controller.link import admin
from controller.link.config import LinkConfig
from testsupport.pgserver import PgServer
from controller.link.pool import LinkClient
from tests.security.anchor_helpers import make_key


def test_the_pool_database_holds_a_linked_tables_anchor(tmp_path):
    server = PgServer(settings={"fsync": "off"}).start()
    try:
        server.wait_ready()
        with admin.connect(**server.admin_kwargs()) as conn:
            conn.execute("CREATE DATABASE anchors")
        with admin.connect(**server.admin_kwargs("anchors")) as conn:
            admin.install(conn)
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
