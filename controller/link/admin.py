"""The pool's side for people: install, create pools and tables, show, check (sync psycopg).

Parameters are validated by the table profile's own models (the pools of the game's
profile part, controller/games/game.py ProfilePart.pools), so a pool refuses what a
single table would refuse, with the same provision named; the database checks them
again (schema.sql).

`audit` replays a progressive pool's whole history in commit order through the
pure rules of controller/progressive.py (`contribute`, `pay_awards`) and the hand
evaluator, and compares every amount and meter the database recorded: the SQL
that pays awards is checked against the one reference arithmetic of the project.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb
from pydantic import ValidationError

from controller.games import registry
from controller.games.game import Game
from controller.link.digest import Record, differences, digest
from controller.link.errors import translate

UNITS_PER_CENT = 10_000


class AdminError(ValueError):
    """A pool operation refused before it reached the database; the message names the field."""


def schema_sql() -> str:
    return resources.files("controller.link").joinpath("schema.sql").read_text()


def connect(conninfo: str = "", **kwargs: Any) -> psycopg.Connection:
    """An autocommit admin connection (PG* environment variables and ~/.pgpass apply)."""
    return psycopg.connect(conninfo, autocommit=True, **kwargs)


class LinkModeError(Exception):
    """A link made live asked to be a test link, or the other way round: never changed."""


def install(conn: psycopg.Connection, test: bool = False) -> str:
    """Create or update the link schema, its roles and grants (idempotent); its mode, set the first time
    (live unless asked: `test`) and never changed after (controller/testmode.py). The mode."""
    conn.execute(schema_sql())
    from controller.testmode import settle_mode
    mode, asked = settle_mode(conn, "link", test)
    if mode != asked:
        raise LinkModeError(f"the link is a {mode} link; it stays one "
                            + ("(--test makes a test link: another database)" if mode == "live"
                               else "(init it with --test)"))
    return mode


def _call(conn: psycopg.Connection, query: str, params: tuple) -> Any:
    try:
        row = conn.execute(query, params).fetchone()
    except psycopg.errors.Error as exc:
        raise translate(exc) from None
    return row[0] if row else None


# --- parameters -----------------------------------------------------------------------------

def pool_game(kind: str) -> Game:
    """The game whose tables join a pool of `kind` (its profile part's `pools`)."""
    for game in registry.games():
        if kind in game.profiles.pools:
            return game
    raise AdminError(f"no game's tables join a {kind} pool")


def pool_params(kind: str, data: Mapping[str, Any]) -> tuple[dict, int]:
    """DB parameters and the initial meter of a `kind` pool, from the names of the table of a profile's
    rules that posts it, validated by that game's own model."""
    try:
        params, initial = pool_game(kind).profiles.pools[kind].params(dict(data))
    except ValidationError as exc:
        err = exc.errors()[0]
        raise AdminError(f"params.{'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None
    except ValueError as exc:
        raise AdminError(str(exc)) from None
    return dict(params), initial


def progressive_params(data: Mapping[str, Any]) -> tuple[dict, int]:
    """DB parameters and the initial meter, from the names of a profile's `progressive` table."""
    return pool_params("progressive", data)


def jackpot_params(data: Mapping[str, Any]) -> dict:
    """DB parameters of a room's jackpot pool from a profile's `jackpot` table (5324.42(r)(2))."""
    return pool_params("jackpot", data)[0]


# --- changes (each journaled with who) -----------------------------------------------------

def create_pool(conn, name: str, kind: str, params: Mapping[str, Any], seed: int, who: str) -> dict:
    return _call(conn, "SELECT link.create_pool(%s, %s, %s, %s, %s)", (name, kind, Jsonb(dict(params)), seed, who))


def set_params(conn, name: str, params: Mapping[str, Any], who: str) -> dict:
    return _call(conn, "SELECT link.set_params(%s, %s, %s)", (name, Jsonb(dict(params)), who))


def retire_pool(conn, name: str, *, to: str | None, liability: str | None, first: str, second: str,
                reason: str) -> dict:
    """The pool's amount (meter and overflow) to pool `to` or to a recorded `liability`, by two supervisors."""
    return _call(conn, "SELECT link.retire_pool(%s, %s, %s, %s, %s, %s)", (name, to, liability, first, second, reason))


def create_table_role(conn, role: str, password: str | None) -> None:
    """A login role for one table, member of link_table only.

    The password is hashed here (SCRAM) before it is sent, so no server log,
    even one of a failed statement, can hold it.
    """
    if password:
        verifier = conn.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256").decode()
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE link_table").format(
            sql.Identifier(role), sql.Literal(verifier)))
    else:  # a client certificate (or the server's own rules) authenticates it
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN IN ROLE link_table").format(sql.Identifier(role)))
    limit_table_role(conn, role)


def limit_table_role(conn, role: str) -> None:
    """Statement, lock and idle-in-transaction timeouts for a table's role (schema.sql, issue 16)."""
    _call(conn, "SELECT link.limit_table_role(%s)", (role,))


def add_table(conn, pool: str, table: str, role: str, who: str) -> dict:
    added = _call(conn, "SELECT link.add_table(%s, %s, %s, %s)", (pool, table, role, who))
    limit_table_role(conn, role)   # an existing role too: no table role without its timeouts
    return added


def reconcile_decision(conn, pool: str, table: str, key: str, decision: str, first: str, second: str,
                       reason: str) -> dict:
    """Void a table's stray operation in the pool, or keep it as the table's (two supervisors)."""
    return _call(conn, "SELECT link.reconcile_decision(%s, %s, %s, %s, %s, %s, %s)",
                 (pool, table, key, decision, first, second, reason))


def remove_table(conn, pool: str, table: str, who: str) -> dict:
    return _call(conn, "SELECT link.remove_table(%s, %s, %s)", (pool, table, who))


def force_close(conn, pool: str, table: str, who: str, reason: str) -> dict:
    return _call(conn, "SELECT link.force_close(%s, %s, %s, %s)", (pool, table, who, reason))


def close_period(conn, pool: str, who: str) -> dict:
    return _call(conn, "SELECT link.close_period(%s, %s)", (pool, who))


# --- reading ----------------------------------------------------------------------------------

def pools(conn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM link.pools ORDER BY name")]


def check_pool(conn, pool: str) -> dict:
    """The database's own check: meter = seeds + contributions - awards, and each table's report."""
    return _call(conn, "SELECT link.check_pool(%s)", (pool,))


def table_records(conn, pool: str, table: str) -> list[Record]:
    rows = conn.execute("SELECT kind, round_id, key::text, amount FROM link.admin_table_records(%s, %s)",
                        (pool, table)).fetchall()
    return [(k, i, key, a) for k, i, key, a in rows]


def compare_records(conn, pool: str, table: str, records: list[Record]) -> list[str]:
    """The differences between a table's records (its outbox's, or rebuilt from its journal) and the pool's."""
    theirs = table_records(conn, pool, table)
    if digest(records) == digest(theirs):
        return []
    return differences(records, theirs)


def _rows(conn, query: str, params: tuple) -> list[dict]:
    cur = conn.execute(query, params)
    names = [d.name for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def show(conn, pool: str, last: int = 10) -> dict:
    """Meter, tables, pending awards, last awards, hits per level, contributions per table, changes."""
    info = _rows(conn, "SELECT pool_id, name, kind, version, params, meter_units, overflow_units, retired, "
                       "created_at FROM link.pools WHERE name = %s", (pool,))
    if not info:
        raise AdminError(f"no pool named {pool!r}")
    p = info[0]
    pid = p.pop("pool_id")
    units = p.pop("meter_units")
    overflow = p.pop("overflow_units")
    out: dict[str, Any] = {**p, "meter_cents": units // UNITS_PER_CENT, "meter_fraction": units % UNITS_PER_CENT,
                           "overflow_cents": overflow // UNITS_PER_CENT, "overflow_fraction": overflow % UNITS_PER_CENT,
                           "limit_cents": (p["params"] or {}).get("limit")}
    out["tables"] = _rows(conn, "SELECT table_name AS table, role_name AS role, live, live_since, last_seen, "
                                "reported_at, agreed FROM link.pool_tables WHERE pool_id = %s ORDER BY table_name",
                          (pid,))
    out["changes"] = _rows(conn, "SELECT at, who, db_role, what, detail FROM link.changes WHERE pool_id = %s "
                                 "ORDER BY change_id DESC LIMIT %s", (pid, last))
    if p["kind"] == "progressive":
        out["pending"] = _rows(conn, "SELECT seq, table_name AS table, round_id AS round, seat, hand, amount_cents, "
                                     "committed_at FROM link.awards WHERE pool_id = %s AND status = 'pending' "
                                     "ORDER BY seq", (pid,))
        out["last_awards"] = _rows(conn, "SELECT seq, table_name AS table, round_id AS round, seat, hand, cards, "
                                         "amount_cents, from_meter, meter_before_cents, meter_after_cents, shared_by, "
                                         "status, settled_by, committed_at FROM link.awards WHERE pool_id = %s "
                                         "ORDER BY seq DESC LIMIT %s", (pid, last))
        out["hits_per_level"] = _rows(conn, "SELECT hand, count(*) AS hits, sum(amount_cents)::bigint AS paid_cents, "
                                            "coalesce(sum(amount_cents) FILTER (WHERE from_meter), 0)::bigint AS from_meter_cents "
                                            "FROM link.awards WHERE pool_id = %s AND status <> 'voided' "
                                            "GROUP BY hand ORDER BY min(amount_cents) DESC, hand", (pid,))
        out["contributions_per_table"] = _rows(
            conn, "SELECT table_name AS table, count(*) AS rounds, sum(cardinality(seats))::bigint AS wagers, "
                  "sum(stake_cents)::bigint AS stake_cents, sum(units)::bigint AS units FROM link.contributions "
                  "WHERE pool_id = %s GROUP BY table_name ORDER BY table_name", (pid,))
    else:
        out["periods"] = _rows(conn, "SELECT number, status, opened_at, closed_at, rollover_in_cents, total_cents, "
                                     "closed_by FROM link.periods WHERE pool_id = %s ORDER BY number DESC LIMIT %s",
                               (pid, last))
        out["leading"] = _rows(conn, "SELECT q.seq, q.table_name AS table, q.hand_id AS hand_id, q.seat, q.hand, "
                                     "q.cards, q.value FROM link.qualifying_hands q JOIN link.periods per "
                                     "ON per.pool_id = q.pool_id AND per.number = q.period AND per.status = 'open' "
                                     "WHERE q.pool_id = %s ORDER BY q.value DESC, q.seq LIMIT %s", (pid, last))
        out["last_awards"] = _rows(conn, "SELECT seq, period, table_name AS table, hand_id, seat, player, "
                                         "amount_cents, shared_by, committed_at FROM link.jackpot_awards "
                                         "WHERE pool_id = %s ORDER BY seq DESC LIMIT %s", (pid, last))
        out["contributions_per_table"] = _rows(
            conn, "SELECT table_name AS table, period, count(*) AS hands, sum(amount_cents)::bigint AS amount_cents "
                  "FROM link.jackpot_contributions WHERE pool_id = %s GROUP BY table_name, period "
                  "ORDER BY period DESC, table_name", (pid,))
    return out


# --- the replay audit ---------------------------------------------------------------------------

def _awards_of(params: Mapping[str, Any]):
    from controller.progressive import Fixed, PercentOfMeter, WholeMeter
    sf = params["straight-flush"]
    return {
        "flush": Fixed(params["flush"]), "full-house": Fixed(params["full-house"]),
        "four-of-a-kind": Fixed(params["four-of-a-kind"]),
        "straight-flush": Fixed(sf["fixed"]) if "fixed" in sf else PercentOfMeter(sf["percent_of_meter"]),
        "royal-flush": WholeMeter(),
    }


def audit(conn, pool: str) -> list[str]:
    """Replay a progressive pool through controller/progressive.py; every disagreement, one line each.

    The meter is replayed in units (1/10000 cent) with its overflow (9 NYCRR 5320.8): what passes the
    limit of the operation's parameters goes to the overflow (`split_at_limit`), and a royal's restart
    takes from the overflow in whole cents up to the limit (`pay_awards`); a retirement (issue 29)
    empties both, and the pool that takes its amount gets it as the move recorded."""
    from controller.cards import parse_cards
    from controller.hands import high
    from controller.progressive import pay_awards, split_at_limit

    p = _rows(conn, "SELECT pool_id, kind, meter_units, overflow_units FROM link.pools WHERE name = %s", (pool,))
    if not p:
        raise AdminError(f"no pool named {pool!r}")
    pid, kind, meter_units, overflow_units = (p[0]["pool_id"], p[0]["kind"], p[0]["meter_units"],
                                              p[0]["overflow_units"])
    if kind != "progressive":
        return []
    versions = {r["version"]: r["params"] for r in
                _rows(conn, "SELECT version, params FROM link.param_versions WHERE pool_id = %s", (pid,))}
    seed = conn.execute("SELECT units FROM link.meter_moves WHERE pool_id = %s AND kind = 'seed'", (pid,)).fetchone()[0]
    events: list[tuple[int, str, Any]] = []
    for c in _rows(conn, "SELECT * FROM link.contributions WHERE pool_id = %s", (pid,)):
        events.append((c["seq"], "contribution", c))
        if c["voided_by"] is not None:   # a two-supervisor decision took it back (link reconcile)
            events.append((c["voided_by"]["seq"], "void-contribution", c))
    claims: dict[str, list[dict]] = {}
    for a in _rows(conn, "SELECT a.*, c.hits, c.version FROM link.awards a JOIN link.claims c ON c.key = a.claim_key "
                         "WHERE a.pool_id = %s ORDER BY a.seq", (pid,)):
        claims.setdefault(str(a["claim_key"]), []).append(a)
        if a["status"] == "voided":
            events.append((a["settled_seq"], "void", a))
    for rows in claims.values():
        events.append((rows[0]["seq"], "claim", rows))
    for m in _rows(conn, "SELECT op_seq, kind, units, overflow_units FROM link.meter_moves WHERE pool_id = %s "
                         "AND kind IN ('retire', 'transfer-in') ORDER BY move_id", (pid,)):
        events.append((m["op_seq"], m["kind"], m))
    events.sort(key=lambda e: e[0])

    def limit_of(version: int) -> int | None:
        lim = versions[version].get("limit")
        return None if lim is None else lim * UNITS_PER_CENT

    problems: list[str] = []
    units, overflow = seed, 0
    for seq, what, ev in events:
        if what == "contribution":
            to_meter, to_overflow = split_at_limit(units, ev["stake_cents"] * ev["rate_bp"], limit_of(ev["version"]))
            units, overflow = units + to_meter, overflow + to_overflow
            if ev["meter_units_after"] != units:
                problems.append(f"seq {seq}: contribution of {ev['table_name']} round {ev['round_id']} left the meter "
                                f"at {ev['meter_units_after']} units; the rules say {units}")
            params = versions[ev["version"]]
            if ev["stake_cents"] != len(ev["seats"]) * params["wager"] or ev["rate_bp"] != params["contribution_bp"]:
                problems.append(f"seq {seq}: contribution stake or rate differs from parameters v{ev['version']}")
        elif what == "void":
            if ev["from_meter"]:
                to_meter, to_overflow = split_at_limit(units, ev["amount_cents"] * UNITS_PER_CENT,
                                                       limit_of(ev["version"]))
                units, overflow = units + to_meter, overflow + to_overflow
        elif what == "void-contribution":
            units -= ev["units"]
        elif what == "retire":
            units, overflow = 0, 0
        elif what == "transfer-in":
            units, overflow = units + ev["units"], overflow + ev["overflow_units"]
        else:
            rows = ev
            params = versions[rows[0]["version"]]
            hits = [(h["seat"], h["hand"]) for h in rows[0]["hits"]]
            cents, carry = divmod(units, UNITS_PER_CENT)
            payout = pay_awards(cents, hits, _awards_of(params), params["reset"], overflow // UNITS_PER_CENT,
                                params.get("limit"))
            for paid, row in zip(payout.awards, rows, strict=False):
                if (paid.seat, paid.hand, paid.amount, paid.from_meter) != (
                        row["seat"], row["hand"], row["amount_cents"], row["from_meter"]):
                    problems.append(f"seq {row['seq']}: {row['table_name']} round {row['round_id']} seat {row['seat']} "
                                    f"{row['hand']} was paid {row['amount_cents']}; the rules pay {paid.amount}")
                try:
                    named = high.category(high.value(parse_cards([row["cards"][i:i + 2]
                                                                  for i in range(0, len(row["cards"]), 2)])))
                except Exception as exc:  # a card the evaluator refuses
                    named = f"unreadable ({exc})"
                if named != row["hand"]:
                    problems.append(f"seq {row['seq']}: cards {row['cards']} make {named}, not {row['hand']}")
            if len(payout.awards) != len(rows):
                problems.append(f"seq {rows[0]['seq']}: {len(rows)} awards recorded, the rules pay {len(payout.awards)}")
            units = payout.meter_after * UNITS_PER_CENT + carry
            overflow -= payout.from_overflow * UNITS_PER_CENT
    if units != meter_units:
        problems.append(f"meter is {meter_units} units; replaying its history gives {units}")
    if overflow != overflow_units:
        problems.append(f"overflow is {overflow_units} units; replaying its history gives {overflow}")
    return problems


def money(cents: int | None) -> str:
    if cents is None:
        return "-"
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=False, default=str)
