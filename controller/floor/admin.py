"""The floor's side for people: install the schema, give a table its role, read the facts back."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources

import psycopg
from psycopg import sql


class FloorModeError(Exception):
    """A floor made live asked to be a test floor, or the other way round: never changed."""


def install(conn: psycopg.Connection, test: bool = False) -> str:
    """Create or update the floor's schema, roles and grants (idempotent); its mode, set the first time
    (live unless asked: `test`) and never changed after. The mode."""
    conn.execute(resources.files("controller.floor").joinpath("schema.sql").read_text())
    from controller.testmode import settle_mode
    mode, asked = settle_mode(conn, "floor", test)
    if mode != asked:
        raise FloorModeError(f"the floor is a {mode} floor; it stays one "
                             + ("(--test makes a test floor: another database)" if mode == "live"
                                else "(init it with --test)"))
    return mode


def add_table(conn: psycopg.Connection, table: str, role: str, password: str | None) -> None:
    """A login role for one table, member of floor_table only, and the table it speaks for.

    The password is hashed here (SCRAM) before it is sent, as the link does, so no server log
    can hold it."""
    _login_role(conn, role, password)
    conn.execute(sql.SQL("GRANT floor_table TO {}").format(sql.Identifier(role)))
    conn.execute("INSERT INTO floor.tables (table_id, role_name) VALUES (%s, %s) "
                 "ON CONFLICT (table_id) DO UPDATE SET role_name = excluded.role_name", (table, role))


def add_reader(conn: psycopg.Connection, role: str, password: str | None) -> None:
    """A login role that reads the floor and nothing more (floor_reader: the floor view, the report)."""
    _login_role(conn, role, password)
    conn.execute(sql.SQL("GRANT floor_reader TO {}").format(sql.Identifier(role)))


def _login_role(conn: psycopg.Connection, role: str, password: str | None) -> None:
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if exists is not None:
        return
    if password:   # hashed here (SCRAM) before it is sent, so no server log can hold it
        verifier = conn.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256").decode()
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(role),
                                                                         sql.Literal(verifier)))
    else:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))


def tables(conn: psycopg.Connection) -> list[tuple[str, str | None]]:
    """(table, game) of every table on the floor, in order of id."""
    return [(t, g) for t, g in conn.execute("SELECT table_id, game FROM floor.tables ORDER BY table_id")]


def facts(conn: psycopg.Connection, table: str, until: str) -> Iterator[dict]:
    """A table's facts before `until`, in journal order (the report needs the earlier ones for the
    meter at open), each stored with the others of its entry. A server-side cursor keeps a year of
    facts out of memory."""
    with conn.transaction(), conn.cursor(name="floor_facts") as cur:
        cur.itersize = 5000
        cur.execute("SELECT body FROM floor.facts WHERE table_id = %s AND at < %s ORDER BY seq", (table, until))
        for (body,) in cur:
            yield body
            yield from body.get("with") or ()   # read from the same journal entry (controller/floor/outbox.py)


def statuses(conn: psycopg.Connection) -> dict[str, tuple[dict, float]]:
    """What each table said it is doing, and how many seconds ago it said it (controller/floor/status.py)."""
    rows = conn.execute("SELECT table_id, body, extract(epoch FROM now() - received_at)::float8 "
                        "FROM floor.status").fetchall()
    return {t: (body, age) for t, body, age in rows}


def pars(conn: psycopg.Connection) -> dict[str, dict]:
    """Each table's exact par as it sent it (controller/par/hold.py `Unit`s); a table that sent none, or
    one that does not read, has none (its result is shown without a band, never against a guess)."""
    from controller.par.hold import units_read
    out = {}
    for table, (body, _) in statuses(conn).items():
        sent = body.get("par")
        if isinstance(sent, dict) and sent:
            try:
                out[table] = units_read(sent)
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                continue
    return out
