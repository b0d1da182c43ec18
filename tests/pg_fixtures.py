"""A real PostgreSQL for the tests: one cluster per session, one database per test (a pytest plugin
registered by tests/conftest.py; a test that asks for `pg`, directly or through `env` or the
report's `floor`, is marked `postgres` there).

The cluster is started by testsupport.pgserver (initdb + pg_ctl on a free 127.0.0.1 port, run
as the `postgres` user when the tests run as root, Debian's postgresql installed with apt-get when
its binaries are missing). The link's schema is installed once in a template database; each `env`
gets a copy, and roles (which are cluster-wide) are named after the test's database.
"""

from __future__ import annotations

import itertools
import os

import pytest

_counter = itertools.count(1)


@pytest.fixture(scope="session")
def pg():
    from testsupport.pgserver import PgServer

    # fsync off: the tests crash the server process, never the machine, so the kernel keeps
    # every committed page; benchmarks/link.py runs with the durable defaults
    server = PgServer(settings={"fsync": "off"}).start()
    server.wait_ready()
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def link_template(pg) -> str:
    """A database with the link's schema, copied by every `env`."""
    from controller.link import admin
    with admin.connect(**pg.admin_kwargs()) as conn:
        conn.execute("CREATE DATABASE link_template")
    with admin.connect(**pg.admin_kwargs("link_template")) as conn:
        admin.install(conn, test=True)   # the tests play emulated tables: test links (issue 28)
    return "link_template"


@pytest.fixture
def env(pg, link_template, tmp_path):
    """A LinkEnv (tests/link/link_helpers.py) on a fresh copy of the template."""
    from controller.link import admin
    from tests.link.link_helpers import LinkEnv
    db = f"t{os.getpid()}_{next(_counter)}"
    with admin.connect(**pg.admin_kwargs()) as conn:
        conn.execute(f"CREATE DATABASE {db} TEMPLATE {link_template}")
    e = LinkEnv(pg, db, tmp_path)
    yield e
    e.close()  # the database goes with the cluster at the end of the session
