"""`tablectl link`: create and inspect linked pools, and check every table's records against them.

    tablectl link init
    tablectl link pool create NAME [--kind progressive|jackpot] [--params JSON|FILE] [--seed CENTS] --who NAME
    tablectl link pool set NAME --params JSON|FILE --who NAME        (refused while a table is live)
    tablectl link pool retire NAME (--to OTHER | --liability TEXT) --reason TEXT --secrets FILE
                                   (two supervisors' ids and PINs from the terminal or stdin)
    tablectl link table add POOL TABLE --role ROLE [--password-file F | --existing-role] --who NAME
    tablectl link table close POOL TABLE --reason TEXT --who NAME
    tablectl link table remove POOL TABLE --who NAME
    tablectl link period close POOL --who NAME                        (jackpot: announce and pay, or roll over)
    tablectl link show [POOL] [--last N] [--json]
    tablectl link check [POOL ...] [--outbox TABLE=PATH ...] [--journal TABLE=DIR ...] [--json]
    tablectl link reconcile TABLE --config PROFILE [--data-dir DIR] [--void KEY ...] [--record KEY ...] [--reason TEXT]
                                   (two supervisors' ids and PINs from the terminal or stdin)

The database is named by --dsn or TABLECTL_LINK_DSN (a libpq URL or key=value
string without a password); the password comes from PGPASSWORD, ~/.pgpass or
PGPASSFILE, and TLS from sslmode in the DSN or PGSSLMODE, so no credential is
typed on a command line. The role used needs link_admin (and CREATEROLE for
`table add`). Every change is journaled in the pool with --who and the database
role (5321.18(b)(4)). `check` exits 0 when every pool balances, its history
replays through the project's rules, and every table's records agree; 1 when
not; 2 on a usage or database error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from controller.link.errors import LinkError

EXIT_OK, EXIT_DISAGREE, EXIT_ERROR = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    return add_commands(argparse.ArgumentParser(prog="tablectl link",
                                                description="linked progressives and jackpot pools"))


def add_commands(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The link commands on `p`: this module's own parser, or `tablectl link` of controller/cli.py's tree."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dsn", default=argparse.SUPPRESS,
                        help="database (default: $TABLECTL_LINK_DSN, then libpq's PG* variables)")
    p.add_argument("--dsn", default=argparse.SUPPRESS,
                   help="database (default: $TABLECTL_LINK_DSN, then libpq's PG* variables)")
    sub = _Sub(p.add_subparsers(dest="cmd", required=True), common)
    init = sub.add_parser("init", help="install or update the link schema, roles and grants")
    init.add_argument("--test", action="store_true",
                      help="a test link: only test-mode tables join its pools (live unless asked)")

    pool = _Sub(sub.add_parser("pool", help="create a pool or set its parameters").add_subparsers(dest="sub", required=True), common)
    c = pool.add_parser("create", help="create a pool")
    c.add_argument("name")
    c.add_argument("--kind", choices=["progressive", "jackpot"], default="progressive")
    c.add_argument("--params", help="JSON, or a .json/.toml file (a profile's [progressive] or [jackpot] names)")
    c.add_argument("--seed", type=int, help="initial meter in cents (default: the params' initial, else reset)")
    c.add_argument("--who", required=True, help="the person making the change")
    s = pool.add_parser("set", help="new parameters (refused while a table of the pool is live)")
    s.add_argument("name")
    s.add_argument("--params", required=True)
    s.add_argument("--who", required=True)
    r = pool.add_parser("retire", help="retire a pool: its amount to another pool or a recorded liability, signed "
                                       "by two supervisors; its tables offer the wager no more")
    r.add_argument("name")
    where = r.add_mutually_exclusive_group(required=True)
    where.add_argument("--to", help="the pool that takes the amount (its meter up to its limit, the rest its overflow)")
    where.add_argument("--liability", help="where the casino records the amount as a liability")
    r.add_argument("--reason", required=True)
    r.add_argument("--secrets", required=True, help="the screens' secrets file the supervisors' PINs are checked against")

    table = _Sub(sub.add_parser("table", help="tables of a pool").add_subparsers(dest="sub", required=True), common)
    a = table.add_parser("add", help="add a table with its own database role")
    a.add_argument("pool")
    a.add_argument("table")
    a.add_argument("--role", required=True, help="the table's login role (created unless --existing-role)")
    g = a.add_mutually_exclusive_group()
    g.add_argument("--password-file", help="file holding the new role's password (else: certificate login)")
    g.add_argument("--existing-role", action="store_true", help="the role exists already (member of link_table)")
    a.add_argument("--who", required=True)
    cl = table.add_parser("close", help="close a table that went dark without closing")
    cl.add_argument("pool")
    cl.add_argument("table")
    cl.add_argument("--reason", required=True)
    cl.add_argument("--who", required=True)
    rm = table.add_parser("remove", help="take a closed table out of a pool")
    rm.add_argument("pool")
    rm.add_argument("table")
    rm.add_argument("--who", required=True)

    period = _Sub(sub.add_parser("period", help="jackpot qualifying periods").add_subparsers(dest="sub", required=True), common)
    pc = period.add_parser("close", help="end the period: announce and pay the best hand, or roll over")
    pc.add_argument("pool")
    pc.add_argument("--who", required=True)

    sh = sub.add_parser("show", help="meters, pending and last awards, hits per level, contributions per table")
    sh.add_argument("pool", nargs="?")
    sh.add_argument("--last", type=int, default=10)
    sh.add_argument("--json", action="store_true")

    ck = sub.add_parser("check", help="do the books balance and every table's records agree with the pool?")
    ck.add_argument("pools", nargs="*")
    ck.add_argument("--outbox", action="append", default=[], metavar="TABLE=PATH",
                    help="a table's outbox to compare with the pool (repeatable)")
    ck.add_argument("--journal", action="append", default=[], metavar="TABLE=DIR",
                    help="a table's journal (its data directory) to compare with the pool (repeatable)")
    ck.add_argument("--json", action="store_true")

    rc = sub.add_parser("reconcile", help="show a table's differences with its pool; two supervisors void or "
                                          "record a stray operation")
    rc.add_argument("table")
    rc.add_argument("--config", required=True, help="the table's profile (its [link], [screen] secrets)")
    rc.add_argument("--data-dir", help="the table's data directory (default: the profile's)")
    rc.add_argument("--secrets", help="the screens' secrets file (default: the profile's)")
    rc.add_argument("--void", action="append", default=[], metavar="KEY", help="void this stray operation")
    rc.add_argument("--record", action="append", default=[], metavar="KEY", help="record it as the table's")
    rc.add_argument("--reason", help="why (journaled with the decision)")
    return p


class _Sub:
    """Subparsers whose commands all take --dsn too, wherever it is written."""

    def __init__(self, subparsers, common: argparse.ArgumentParser) -> None:
        self._sub, self._common = subparsers, common

    def add_parser(self, name: str, **kw) -> argparse.ArgumentParser:
        kw.setdefault("parents", [self._common])
        return self._sub.add_parser(name, **kw)


class UsageError(ValueError):
    pass


def _dsn(args: argparse.Namespace) -> str:
    from psycopg import conninfo
    dsn = getattr(args, "dsn", None)
    dsn = dsn if dsn is not None else os.environ.get("TABLECTL_LINK_DSN", "")
    try:
        params = conninfo.conninfo_to_dict(dsn)
    except Exception:
        raise UsageError("--dsn: not a PostgreSQL URL or key=value string") from None
    if "password" in params:
        raise UsageError("--dsn: must not carry a password (use PGPASSWORD, ~/.pgpass or PGPASSFILE)")
    return dsn


def _params(text: str | None, kind: str) -> dict:
    if text is None:
        return {}
    path = Path(text)
    if not text.lstrip().startswith("{") and path.exists():
        raw = path.read_text()
        if path.suffix == ".toml":
            data = tomllib.loads(raw)
        else:
            data = json.loads(raw)
        where = str(path)
    else:
        data, where = json.loads(text), "--params"
    if not isinstance(data, dict):
        raise UsageError(f"{where}: must be an object")
    from controller.link import admin   # psycopg: loaded only by the commands that reach the pool
    game = admin.pool_game(kind)
    if isinstance(data.get(game.key), dict):   # a whole profile: take the game's rules
        data = data[game.key]
    section = game.profiles.pools[kind].section
    if isinstance(data.get(section), dict):
        data = data[section]
    return data


def _db_params(kind: str, data: dict) -> tuple[dict, int]:
    from controller.link import admin   # as _params
    return admin.pool_params(kind, data)


def main(args: argparse.Namespace) -> int:
    """Entry from controller/cli.py: `args.rest` holds the words after `tablectl link`."""
    rest = list(getattr(args, "rest", None) or [])
    if rest[:1] == ["--"]:
        rest = rest[1:]
    ns = args if hasattr(args, "cmd") else None   # already parsed by tablectl's one tree (controller/cli.py)
    if ns is None and (not rest or rest[0] == "help"):
        build_parser().print_help()
        return EXIT_OK
    try:
        ns = ns or build_parser().parse_args(rest)
    except SystemExit as exc:
        return EXIT_OK if exc.code == 0 else EXIT_ERROR
    try:
        return run(ns)
    except (UsageError, ValueError, OSError, LinkError) as exc:
        print(f"tablectl link: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # psycopg: connection refused, permission denied...
        import psycopg
        if isinstance(exc, psycopg.Error):
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            print(f"tablectl link: database: {first}", file=sys.stderr)
            return EXIT_ERROR
        raise


def run(ns: argparse.Namespace) -> int:
    from controller.link import admin
    conn = admin.connect(_dsn(ns))
    try:
        if ns.cmd == "init":
            try:
                mode = admin.install(conn, test=bool(getattr(ns, "test", False)))
            except admin.LinkModeError as exc:
                print(f"tablectl link init: {exc}", file=sys.stderr)
                return 1
            print("link schema installed" + (" (test link)" if mode == "test" else ""))
            return EXIT_OK
        if ns.cmd == "pool":
            if ns.sub == "create":
                params, initial = _db_params(ns.kind, _params(ns.params, ns.kind))
                seed = ns.seed if ns.seed is not None else initial
                _print(admin.create_pool(conn, ns.name, ns.kind, params, seed, ns.who))
            elif ns.sub == "retire":
                return _retire(conn, ns)
            else:
                kind = conn.execute("SELECT kind FROM link.pools WHERE name = %s", (ns.name,)).fetchone()
                if kind is None:
                    raise UsageError(f"no pool named {ns.name!r}")
                params, _ = _db_params(kind[0], _params(ns.params, kind[0]))
                _print(admin.set_params(conn, ns.name, params, ns.who))
            return EXIT_OK
        if ns.cmd == "table":
            if ns.sub == "add":
                if not ns.existing_role:
                    password = Path(ns.password_file).read_text().strip() if ns.password_file else None
                    admin.create_table_role(conn, ns.role, password)
                _print(admin.add_table(conn, ns.pool, ns.table, ns.role, ns.who))
            elif ns.sub == "close":
                _print(admin.force_close(conn, ns.pool, ns.table, ns.who, ns.reason))
            else:
                _print(admin.remove_table(conn, ns.pool, ns.table, ns.who))
            return EXIT_OK
        if ns.cmd == "period":
            _print(admin.close_period(conn, ns.pool, ns.who))
            return EXIT_OK
        if ns.cmd == "reconcile":
            from controller.link import reconcile
            try:
                return reconcile.main(ns, conn)
            except reconcile.ReconcileError as exc:
                raise UsageError(str(exc)) from None
        if ns.cmd == "show":
            names = [ns.pool] if ns.pool else admin.pools(conn)
            shown = [admin.show(conn, n, ns.last) for n in names]
            if ns.json:
                print(admin.dumps(shown if not ns.pool else shown[0]))
            else:
                print("\n\n".join(render(s) for s in shown) or "no pools")
            return EXIT_OK
        return check(conn, ns)
    finally:
        conn.close()


def _retire(conn, ns: argparse.Namespace) -> int:
    """Two different supervisors sign the retirement with their PINs (read from stdin, never the command
    line); the pool journals it with both names (link.changes) and its tables learn it at their next call."""
    from controller.credentials import SignatureRefused, signatures
    from controller.link import admin
    if not ns.reason.strip():
        raise UsageError("--reason: retiring a pool needs the reason")
    try:
        first, second = signatures(Path(ns.secrets), sys.stdin, sys.stderr, 2)
    except SignatureRefused as exc:
        raise UsageError(str(exc)) from None
    done = admin.retire_pool(conn, ns.name, to=ns.to, liability=ns.liability, first=first, second=second,
                             reason=ns.reason.strip())
    where = f"pool {done['to']}" if done.get("to") else f"the liability {done['liability']!r}"
    print(f"retired {done['pool']}: meter {admin.money(done['meter_units'] // 10_000)} and overflow "
          f"{admin.money(done['overflow_units'] // 10_000)} to {where}, signed by {first} and {second}; "
          f"tables {', '.join(done['tables']) or 'none'} offer its wager no more")
    return EXIT_OK


def _print(data: Any) -> None:
    from controller.link import admin
    print(admin.dumps(data))


def check(conn, ns: argparse.Namespace) -> int:
    from controller.link import admin
    from controller.link.outbox import Outbox
    outboxes: dict[str, Path] = {}
    for item in ns.outbox:
        table, sep, path = item.partition("=")
        if not sep or not table or not path:
            raise UsageError(f"--outbox {item!r}: TABLE=PATH")
        if not Path(path).exists():
            raise UsageError(f"--outbox {item!r}: no such file")
        outboxes[table] = Path(path)
    journals: dict[str, Path] = {}
    for item in ns.journal:
        table, sep, path = item.partition("=")
        if not sep or not table or not path:
            raise UsageError(f"--journal {item!r}: TABLE=DIR (the table's data directory)")
        if not (Path(path) / "journal.db").exists():
            raise UsageError(f"--journal {item!r}: no journal.db in {path}")
        journals[table] = Path(path)
    report: list[dict] = []
    ok = True
    for name in ns.pools or admin.pools(conn):
        books = admin.check_pool(conn, name)
        problems = admin.audit(conn, name)
        entry: dict[str, Any] = {"pool": name, "balanced": books["balanced"], "meter_units": books["meter_units"],
                                 "seed_units": books["seed_units"], "contribution_units": books["contribution_units"],
                                 "award_units": books["award_units"], "replay": problems,
                                 "claims": books.get("claim_problems") or [],
                                 "refusals": books.get("refusals") or [], "tables": []}
        ok &= books["balanced"] and not problems and not entry["claims"]
        for t in books["tables"]:
            row = {"table": t["table"], "live": t["live"], "records": t["count"], "reported_at": t["reported_at"],
                   "agreed_at_last_report": bool(t["agreed"])}
            if t["table"] in outboxes:
                box = Outbox(outboxes[t["table"]])
                try:
                    diffs = admin.compare_records(conn, name, t["table"], box.records(name))
                    unconfirmed = len(box.pending(name))
                finally:
                    box.close()
                row["outbox_differences"] = diffs
                row["outbox_unconfirmed"] = unconfirmed
                ok &= not diffs and not unconfirmed
            elif t["table"] not in journals:
                ok &= bool(t["agreed"])
            if t["table"] in journals:
                row["journal"] = _journal_check(conn, name, t["table"], journals[t["table"]])
                ok &= not row["journal"]["differences"] and not row["journal"]["unconfirmed"]
            entry["tables"].append(row)
        report.append(entry)
    if ns.json:
        print(admin.dumps({"ok": ok, "pools": report}))
    else:
        for e in report:
            mark = "ok" if e["balanced"] and not e["replay"] else "WRONG"
            print(f"{e['pool']}: books {mark}: meter {e['meter_units']} = seeds {e['seed_units']} + contributions "
                  f"{e['contribution_units']} - awards {e['award_units']} (1/10000 cent)")
            for p in e["replay"]:
                print(f"  replay: {p}")
            for p in e["claims"]:
                print(f"  CLAIM: {p}")
            for r in e["refusals"]:
                print(f"  REFUSED: {r['kind']} of table {r['table']} round {r['round']} at {r['at']} as role "
                      f"{r['db_role']} ({r['code']}: {r['reason']})")
            for t in e["tables"]:
                if "outbox_differences" in t:
                    state = "agrees" if not t["outbox_differences"] and not t["outbox_unconfirmed"] else "DISAGREES"
                    print(f"  {t['table']}: outbox {state} ({t['records']} records in the pool, "
                          f"{t['outbox_unconfirmed']} unconfirmed at the table)")
                    for d in t["outbox_differences"][:20]:
                        print(f"    {d}")
                if "journal" in t:
                    j = t["journal"]
                    state = "agrees" if not j["differences"] and not j["unconfirmed"] else "DISAGREES"
                    print(f"  {t['table']}: journal {state} ({j['records']} confirmed operations, {j['rounds']} "
                          f"round records on the pool, {len(j['unconfirmed'])} never confirmed)")
                    for rid in j.get("in_progress") or []:
                        print(f"    round {rid} in progress: it resumes (or is voided) when the table starts")
                    for r in j.get("refused") or []:
                        print(f"    {r}: held at the table until a supervisor acknowledges it")
                    for d in (j["differences"] + [f"never confirmed: {u}" for u in j["unconfirmed"]])[:20]:
                        print(f"    {d}")
                elif "journal" not in t:
                    state = "agreed" if t["agreed_at_last_report"] else "NOT AGREED"
                    print(f"  {t['table']}: {state} at its last reconcile ({t['reported_at'] or 'never'}), "
                          f"{t['records']} records in the pool")
        print("all records agree" if ok else "records do not agree")
    return EXIT_OK if ok else EXIT_DISAGREE


def _journal_check(conn, pool: str, table: str, directory: Path) -> dict:
    from controller.journal.store import Journal, JournalError
    from controller.link.journalcheck import compare_journal
    try:
        journal = Journal.open(directory, readonly=True)
    except JournalError as exc:
        raise UsageError(f"--journal {table}={directory}: {exc}") from None
    try:
        return compare_journal(conn, pool, table, journal)
    finally:
        journal.close()


def render(s: dict) -> str:
    from controller.link.admin import money
    lines = [f"pool {s['name']} ({s['kind']}, parameters v{s['version']})",
             f"  meter {money(s['meter_cents'])}" + (f" + {s['meter_fraction']}/10000 cent carried"
                                                     if s["meter_fraction"] else "")]
    if s.get("limit_cents") is not None or s.get("overflow_cents"):   # 5320.8 (issue 29)
        lines.append(f"  limit {money(s.get('limit_cents'))}, overflow {money(s.get('overflow_cents'))}"
                     + (f" + {s['overflow_fraction']}/10000 cent" if s.get("overflow_fraction") else ""))
    if s.get("retired"):
        r = s["retired"]
        where = f"pool {r['to']}" if r.get("to") else f"the liability {r.get('liability')!r}"
        lines.append(f"  RETIRED at {r.get('at')} by {' and '.join(r.get('supervisors') or [])}: its amount to {where}; "
                     "its tables offer no progressive wager")
    lines.append(f"  parameters {json.dumps(s['params'], sort_keys=True)}")
    lines.append("  tables:")
    for t in s["tables"]:
        live = "live" if t["live"] else "closed"
        agreed = {True: "records agree", False: "RECORDS DISAGREE", None: "never reconciled"}[t["agreed"]]
        lines.append(f"    {t['table']:<12} {live:<6} role {t['role']}, last seen {t['last_seen'] or '-'}, {agreed}")
    if s["kind"] == "progressive":
        lines.append(f"  pending awards ({len(s['pending'])}):")
        for a in s["pending"]:
            lines.append(f"    #{a['seq']} {a['table']} round {a['round']} seat {a['seat']} {a['hand']} "
                         f"{money(a['amount_cents'])}")
        lines.append("  last awards:")
        for a in s["last_awards"]:
            lines.append(f"    #{a['seq']} {a['table']} round {a['round']} seat {a['seat']} {a['hand']} {a['cards']} "
                         f"{money(a['amount_cents'])} ({'meter' if a['from_meter'] else 'house'}, meter "
                         f"{money(a['meter_before_cents'])} -> {money(a['meter_after_cents'])}) {a['status']}"
                         + (f" by {a['settled_by']}" if a["settled_by"] else ""))
        lines.append("  hits per level:")
        for h in s["hits_per_level"]:
            lines.append(f"    {h['hand']:<15} {h['hits']:>6} hits  {money(h['paid_cents'])} paid")
        lines.append("  contributions per table:")
        for c in s["contributions_per_table"]:
            cents, frac = divmod(c["units"], 10_000)
            lines.append(f"    {c['table']:<12} {c['rounds']:>6} rounds {c['wagers']:>7} wagers  stakes "
                         f"{money(c['stake_cents'])}  to the meter {money(cents)}"
                         + (f" + {frac}/10000 cent" if frac else ""))
    else:
        lines.append("  periods:")
        for p in s["periods"]:
            lines.append(f"    #{p['number']} {p['status']:<6} opened {p['opened_at']}"
                         + (f", closed by {p['closed_by']}: {money(p['total_cents'])}" if p["closed_at"] else "")
                         + f" (rolled in {money(p['rollover_in_cents'])})")
        lines.append("  leading hands of the open period:")
        for q in s["leading"]:
            lines.append(f"    #{q['seq']} {q['table']} hand {q['hand_id']} seat {q['seat']} {q['hand']} {q['cards']}")
        lines.append("  last awards:")
        for a in s["last_awards"]:
            lines.append(f"    period {a['period']} {a['table']} hand {a['hand_id']} seat {a['seat']} {a['player']} "
                         f"{money(a['amount_cents'])} (shared by {a['shared_by']})")
        lines.append("  contributions per table and period:")
        for c in s["contributions_per_table"]:
            lines.append(f"    #{c['period']} {c['table']:<12} {c['hands']:>6} hands {money(c['amount_cents'])}")
    lines.append("  changes:")
    for c in s["changes"]:
        lines.append(f"    {c['at']} {c['what']} by {c['who']} (role {c['db_role']})")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(argparse.Namespace(rest=sys.argv[1:])))
