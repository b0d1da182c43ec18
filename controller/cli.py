"""`tablectl`: one entry point for the table, its records and its tools.

Each command's module is imported only when that command runs, so a one-shot
command (settling a record, replaying a hand) starts in a fraction of the time
the live table needs; see benchmarks/startup.py.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# command path -> (module, function, help). The function takes the parsed args
# and returns the exit status. A game's own commands (poker's `tablectl poker replay`) are its
# `commands` (controller/games/game.py GameCommand), added by `commands()`.
COMMANDS: dict[tuple[str, ...], tuple[str, str, str]] = {
    ("settle",): ("controller.settle", "main", "settle one round record (docs/ROUNDS.md)"),
    ("config", "check"): ("controller.config", "check_main", "validate a table profile"),
    ("config", "show"): ("controller.appliance", "show_main", "print a packaged profile, to copy and edit"),
    ("system", "install"): ("controller.appliance", "install_main",
                            "install the systemd units, udev rules, sysusers and tmpfiles files"),
    ("run",): ("controller.run_cli", "run_main", "run the table"),
    ("sim",): ("controller.pairing", "sim_main",
                 "run one device emulator alone, or attach to a running table's (--table)"),
    ("rounds", "list"): ("controller.journal.readback", "list_main", "list journaled rounds"),
    ("rounds", "show"): ("controller.journal.readback", "show_main", "reconstruct one round"),
    ("journal", "verify"): ("controller.journal.archive", "verify_main",
                            "verify the journal's chain (or an exported archive: --archive FILE)"),
    ("journal", "export"): ("controller.journal.archive", "export_main",
                            "write a portable archive of the journal (a consistent backup, its seal and anchor)"),
    ("meters",): ("controller.journal.readback", "meters_main", "show the progressive meters"),
    ("link",): ("controller.link.cli", "main", "linked progressives and jackpot pools (PostgreSQL)"),
    ("supervisor", "add"): ("controller.credentials", "add_main",
                            "add or replace a supervisor's PIN in the screens' secrets file"),
    ("dealer", "add"): ("controller.roster", "add_main", "add or replace a dealer (badge, name, PIN) in the roster"),
    ("carrier", "add"): ("controller.roster", "carrier_add_main",
                         "add or replace a runner or cage cashier (badge, name, PIN): they sign fills and credits"),
    ("fault", "status"): ("controller.journal.selfcheck", "status_main", "show the table's fault state"),
    ("fault", "clear"): ("controller.journal.selfcheck", "clear_main", "a supervisor clears the fault (table stopped)"),
    ("software", "verify"): ("controller.software.verify", "main",
                             "a seeded digest (HMAC) over every file the table runs, as a lab asks for it"),
    ("software", "history"): ("controller.software.history", "main",
                              "every version and digest the table has run, who accepted it and when"),
    ("par",): ("controller.par.cli", "main", "the par sheet (exact house edge) of a profile's game"),
    ("report",): ("controller.report.cli", "main", "a table's figures over a gaming day, a shift or a period"),
    ("events",): ("controller.journal.events", "main", "the significant events from the journal (5317.26)"),
    ("entry", "add"): ("controller.journal.entrylog", "add_main", "journal an entry into the box or a maintenance act"),
    ("device", "pair"): ("controller.pairing", "pair_main", "a supervisor pairs a device with the table: a new key for its link"),
    ("pit", "inventory"): ("controller.pit.cli", "main", "the tray's opener or closer, by denomination"),
    ("pit", "fill"): ("controller.pit.cli", "main", "chips brought from the cage, signed by two"),
    ("pit", "credit"): ("controller.pit.cli", "main", "chips sent to the cage, signed by two"),
    ("pit", "drop"): ("controller.pit.cli", "main", "the count room's drop, signed by two supervisors"),
    ("pit", "buy-in"): ("controller.pit.cli", "main", "cash changed for chips at a seat"),
    ("floor", "report"): ("controller.floor.cli", "report_main", "every table's figures, from the floor's database"),
    ("floor", "init"): ("controller.floor.cli", "init_main", "install the floor's schema in PostgreSQL"),
    ("floor", "add"): ("controller.floor.cli", "add_main", "give a table its own role on the floor's database"),
    ("floor", "send"): ("controller.floor.cli", "send_main", "send a table's closed rounds to the floor's database"),
    ("floor", "reader"): ("controller.floor.cli", "reader_main", "give the floor view or a reader a read-only role"),
    ("floor", "serve"): ("controller.floor.serve", "serve_main", "serve the pit's floor view (read-only, supervisors signed in)"),
}
# The commands that open a data directory's journal: run as root on the table's directory they
# act for the table, with its key and as its user (controller/journal/custody.py); the readers too, which
# need the key as much and root's powers no more than the table does.
JOURNAL_COMMANDS = frozenset({
    ("fault", "clear"), ("fault", "status"), ("journal", "verify"), ("journal", "export"),
    ("rounds", "list"), ("rounds", "show"), ("meters",), ("software", "history"), ("events",), ("entry", "add"),
    ("pit", "inventory"), ("pit", "fill"), ("pit", "credit"), ("pit", "drop"), ("pit", "buy-in"),
})
# The reading commands whose words are said as JSON by controller/readings.py when --json is asked
# (meters, events, software history, config check, report, par say their own).
JSON_READINGS = {
    ("rounds", "list"): "rounds_list", ("rounds", "show"): "rounds_show",
    ("journal", "verify"): "journal_verify", ("fault", "status"): "fault_status",
}
# One table for every command (docs/INSTALL.md "Exit codes"); `tablectl --help` shows it.
EXIT_CODES = """exit codes:
  0    done; the journal sound; no fault
  1    a problem found (journal verify, rounds show, fault status: in a fault), or an internal error
       (one line on stderr, the details in the system log)
  2    refused: a usage error or a bad input (a profile, a file, a PIN, a missing journal or key);
       nothing was changed
  3    tablectl run: the table stopped in a fault (a supervisor clears it)
  130  interrupted (Ctrl-C);  141  the output's reader went away (a closed pipe)
every error is one line on stderr that begins with "tablectl COMMAND: ";
--json on a command that reads prints one JSON document on stdout"""


def commands() -> dict[tuple[str, ...], tuple[str, str, str]]:
    """Ours and every registered game's commands (a game's may not take one of ours)."""
    from controller.games.registry import games
    every = dict(COMMANDS)
    for g in games():
        for c in g.commands:
            if c.path in every:
                raise LookupError(f"the game {g.key} brings the command {' '.join(c.path)}, which is taken")
            every[c.path] = (c.module, c.function, c.help)
    return every


def _game_arguments(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    from controller.games.registry import games
    for g in games():
        for c in g.commands:
            if c.path == path:
                c.arguments(parser)


def _add_arguments(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    """Arguments are declared here, not in the command modules, so --help stays cheap."""
    if path == ("settle",):
        parser.add_argument("file", nargs="?", default="-", help="round record (JSON), or - for stdin")
        from pathlib import Path
        parser.epilog = ("The round record and its settlement are set out in docs/ROUNDS.md, installed with the "
                         f"command at {Path(__file__).resolve().parent / 'data' / 'ROUNDS.md'}.")
    elif path == ("config", "check"):
        parser.add_argument("files", nargs="+", help="table profile(s) (TOML)")
        parser.add_argument("--json", action="store_true", help="each profile's result and refusals as JSON")
    elif path == ("run",):
        parser.add_argument("--config", required=True,
                            help="table profile (TOML), or a packaged profile's name (tablectl config show)")
        parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
        parser.add_argument("--emulate", action="store_true",
                            help="test mode: emulate the devices the profile does not name (never play)")
        parser.add_argument("--autoplay", action="store_true", help="emulated players and dealer (implies --emulate)")
        parser.add_argument("--rounds", type=int, default=None, help="stop after N rounds")
        parser.add_argument("--seed", type=int, default=None, help="seed the emulated shuffle")
    elif path == ("sim",):
        parser.add_argument("device", choices=["shoe", "manual-shoe", "shuffler", "progressive"])
        parser.add_argument("--dir", help="directory for the port link or socket (default: a new temporary one)")
        parser.add_argument("--seed", type=int, help="seed of the emulated deck")
        parser.add_argument("--table", metavar="PORT_OR_DIR",
                            help="attach to the emulator of a running table on emulated devices: its data directory "
                                 "(or the emulator's port in it)")
        from drivers.sim.cli import add_key_arguments
        add_key_arguments(parser)
    elif path == ("device", "pair"):
        from controller.pairing import add_arguments as pairing_arguments
        pairing_arguments(parser)
    elif path == ("supervisor", "add"):
        parser.add_argument("supervisor_id", help="the supervisor's id (badge number)")
        parser.add_argument("--name", help="the supervisor's name, as the journal shows it")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--secrets", help="the secrets file (TOML) to create or update")
        where.add_argument("--config", help="the table profile whose [screen] secrets names the file")
        parser.add_argument("--pin-stdin", action="store_true", help="read the PIN from stdin (one line)")
    elif path in (("dealer", "add"), ("carrier", "add")):
        from controller.roster import add_arguments as roster_arguments
        roster_arguments(parser, path[0])
    elif path == ("par",):
        parser.add_argument("--config", help="table profile (TOML)")
        parser.add_argument("--json", action="store_true", help="every exact figure as numerator/denominator")
        parser.add_argument("--recount", action="store_true",
                            help="count every Caribbean stud deal again (the lab extra) and compare with the "
                                 "count table the package ships")
        parser.add_argument("--out", help="with --recount: write the recounted table to this file")
    elif path == ("config", "show"):
        parser.add_argument("name", help="a packaged profile, e.g. caribbean-stud")
    elif path == ("system", "install"):
        parser.add_argument("--root", default="/", help="install under this directory (default: /)")
        parser.add_argument("--linked", action="store_true",
                            help="the table plays a linked pool: start it after network-online.target")
        parser.add_argument("--prefix", help="the venv the units run tablectl from (default: this one's)")
        parser.add_argument("--config", help="the profile whose kiosk door the kiosk opens "
                                             "(default: /etc/tablectl/table.toml under --root, when there)")
    elif path == ("journal", "export"):
        parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--to", help="the archive file to write")
        where.add_argument("--into", help="a directory: a dated archive in it (the daily timer)")
        parser.add_argument("--keep", type=int, default=None, help="with --into: keep only the newest N archives")
    elif path == ("journal", "verify"):
        parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
        parser.add_argument("--archive", help="an archive written by `tablectl journal export`")
        parser.add_argument("--anchor", help="with --archive: the head hash recorded off the box, to match")
        parser.add_argument("--no-key", action="store_true",
                            help="check a keyed journal without its key: nothing is authenticated (said so)")
        parser.add_argument("--json", action="store_true", help="the result as JSON (the same exit status)")
    elif path[0] == "software":
        from controller.software.options import add_arguments as software_arguments
        software_arguments(path, parser)
    elif path == ("events",):
        parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
        parser.add_argument("--json", action="store_true", help="the events as JSON")
        parser.add_argument("--since", help="from this time on (ISO time, UTC without an offset)")
        parser.add_argument("--kind", help="one kind of event (power-up, fault, entry, ...)")
    elif path == ("entry", "add"):
        parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
        parser.add_argument("--who", required=True, help="who entered (their id)")
        parser.add_argument("--licence", required=True, help="their licence (registration) number")
        parser.add_argument("--reason", required=True, help="why: the maintenance done, the fault looked at")
        parser.add_argument("--place", default="box", help="what was opened: box, shoe, shuffler, progressive")
    elif path[0] == "pit":
        from controller.pit.cli import add_arguments as pit_arguments
        parser.set_defaults(act=path[1])
        pit_arguments(path, parser)
    elif path == ("report",) or path[0] == "floor":
        from controller.report.options import add_arguments
        add_arguments(path, parser)
    elif path[0] in ("rounds", "journal", "meters", "fault"):
        parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
        if path == ("rounds", "show"):
            parser.add_argument("round_id")
        if path in JSON_READINGS:
            parser.add_argument("--json", action="store_true", help="as JSON (the same exit status)")
        if path == ("meters",):
            parser.add_argument("--json", action="store_true", help="the meters of 9 NYCRR 5320.8 as JSON")
            parser.add_argument("action", nargs="?", choices=["apply-pending"],
                                help="apply-pending: a pending change now, by two supervisors (table stopped)")
            parser.add_argument("--config", help="with apply-pending: the table's profile")
            parser.add_argument("--secrets", help="with apply-pending: the screens' secrets file")
        if path == ("fault", "clear"):
            where = parser.add_mutually_exclusive_group()
            where.add_argument("--secrets", help="the screens' secrets file, against which each PIN is checked")
            where.add_argument("--config", help="the table profile whose [screen] secrets names that file")
            parser.add_argument("--supervisor", help="who clears the fault (else asked); the PIN is always asked")
            parser.add_argument("--second-supervisor",
                                help="a second, different supervisor: needed for an integrity fault")
            parser.add_argument("--note", default="", help="why")


class _Version(argparse.Action):
    """--version: the installed distribution's version, looked up only when asked (startup stays cheap)."""

    def __init__(self, option_strings, dest, **kw) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the installed version and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version("tablectl")
        except PackageNotFoundError:
            v = "unknown (not installed)"
        print(f"tablectl {v}")
        parser.exit()


def _named(every: dict[tuple[str, ...], tuple[str, str, str]],
           words: list[str]) -> dict[tuple[str, ...], tuple[str, str, str]]:
    """The commands whose parsers `words` needs: the one it names, else its group's, else all.

    Building all 31 subparsers costs more than a poker hand's replay (most of it argparse's
    gettext look-ups), so a command builds only its own; a word that names nothing, an option
    first (--help, --version) or a group alone build the whole tree or group, for the usage."""
    first = [p for p in every if p[:1] == tuple(words[:1])]
    if not first:
        return every
    exact = [p for p in first if p == tuple(words[:len(p)])]
    return {p: every[p] for p in (exact or first)}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablectl", description="Table controller (9 NYCRR 5324)",
                                     epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version)
    words = sys.argv[1:] if argv is None else argv
    sub = parser.add_subparsers(dest="command", required=True)
    groups: dict[str, argparse._SubParsersAction] = {}
    for path, (_, _, help_text) in _named(commands(), words).items():
        if len(path) == 1:
            p = sub.add_parser(path[0], help=help_text)
        else:
            if path[0] not in groups:
                g = sub.add_parser(path[0], help=f"{path[0]} commands")
                groups[path[0]] = g.add_subparsers(dest="subcommand", required=True)
            p = groups[path[0]].add_parser(path[1], help=help_text)
        p.set_defaults(_command=path)
        _add_arguments(path, p)
        if path not in COMMANDS:
            _game_arguments(path, p)
        if path == ("link",) and words[:1] == ["link"]:
            from controller.link.cli import add_commands   # only when asked: it is a big tree
            add_commands(p)
    return parser


def _input_of(args: argparse.Namespace) -> str | None:
    """The file (or stdin) the command was handed, to name it in an error."""
    for name in ("file", "config", "archive"):
        value = getattr(args, name, None)
        if isinstance(value, str):
            return "stdin" if value == "-" else value
    files = getattr(args, "files", None)
    return ", ".join(files) if isinstance(files, list) else None


def _refuse(args: argparse.Namespace, exc: BaseException) -> int:
    """No traceback for the user (issue 15): exit 2 and one line for what a bad input causes;
    exit 1, one line and the details in the system log for anything else (a bug).
    TABLECTL_TRACEBACK=1 lets a developer see the traceback instead."""
    import os
    if os.environ.get("TABLECTL_TRACEBACK") == "1":
        raise exc
    from controller.inputs import describe
    command = " ".join(args._command)
    what = describe(exc)
    if what is not None:
        where = _input_of(args)
        named = where is not None and str(what).startswith(where)
        print(f"tablectl {command}: {what if named or where is None else f'{where}: {what}'}", file=sys.stderr)
        return 2
    import traceback
    detail = "".join(traceback.format_exception(exc)).replace("\n", " | ")
    try:
        import syslog
        syslog.openlog("tablectl", syslog.LOG_PID, syslog.LOG_USER)
        syslog.syslog(syslog.LOG_ERR, f"tablectl {command}: internal error: {detail}"[:8000])
        logged = "details in the system log"
    except (ImportError, OSError):
        logged = "no system log to write the details to"
    print(f"tablectl {command}: internal error ({type(exc).__name__}: {str(exc)[:200]}); {logged}",
          file=sys.stderr)
    return 1


class _Named:
    """stderr for one command: a line a module begins with a bare `tablectl: ` names the command,
    so every error has the one prefix `tablectl COMMAND: ` (EXIT_CODES)."""

    def __init__(self, stream, command: str) -> None:
        self._stream, self._prefix, self._at_start = stream, f"tablectl {command}: ", True

    def write(self, text: str) -> int:
        lines = text.split("\n")
        out = []
        for i, line in enumerate(lines):
            if (i > 0 or self._at_start) and line.startswith("tablectl: "):
                line = self._prefix + line[len("tablectl: "):]
            out.append(line)
        if text:
            self._at_start = text.endswith("\n")
        return self._stream.write("\n".join(out))

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if not words:   # bare `tablectl`: its commands, as --help says them
        build_parser([]).print_help()
        return 0
    args = build_parser(argv).parse_args(argv)
    module_name, function, _ = commands()[args._command]
    if getattr(args, "json", False) and args._command in JSON_READINGS:
        module_name, function = "controller.readings", JSON_READINGS[args._command]
    if args._command in (("run",), ("sim",)):   # the table's own log and the consoles: left as they are
        return _call(args, module_name, function)
    stderr = sys.stderr
    sys.stderr = _Named(stderr, " ".join(args._command))
    try:
        return _call(args, module_name, function)
    finally:
        sys.stderr = stderr


def _call(args: argparse.Namespace, module_name: str, function: str) -> int:
    try:
        handler = getattr(importlib.import_module(module_name), function)
        if args._command in JOURNAL_COMMANDS:
            from controller.journal.custody import Refused, for_the_table
            try:
                for_the_table(args)   # as root: the table's key, then the table's user (controller/journal/custody.py)
            except Refused as exc:
                print(f"tablectl {' '.join(args._command)}: refused: {exc}", file=sys.stderr)
                return 2
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141
    except Exception as exc:
        return _refuse(args, exc)


if __name__ == "__main__":
    sys.exit(main())
