"""The options of `tablectl report` and `tablectl floor ...`; imported by controller/cli.py when it
builds its parser, so it imports nothing else (see benchmarks/startup.py)."""


def add_arguments(path: tuple[str, ...], parser) -> None:
    if path in (("report",), ("floor", "report")):
        _period(parser)
    if path == ("report",):
        parser.add_argument("--data-dir", help="journal directory (default: the profile's, or the user state dir)")
        parser.add_argument("--config", help="table profile (TOML): its table, game, gaming day and data_dir")
        parser.add_argument("--pdf", metavar="FILE", help="also write the shift report to sign, as a PDF")
        parser.add_argument("--paper", choices=["letter", "a4"], default="letter", help="the PDF's paper")
        parser.add_argument("--demo", action="store_true",
                            help="print a test-mode journal's figures too (labelled TEST MODE; they count nowhere)")
    if path[0] == "floor":
        parser.add_argument("--url", required=True, help="postgresql://ROLE@HOST:PORT/DB (no password)")
        parser.add_argument("--password-file", help="file holding the role's password (one line)")
    if path == ("floor", "init"):
        parser.add_argument("--test", action="store_true",
                            help="a test floor: it takes only test-mode tables' facts (live unless asked)")
    if path == ("floor", "add"):
        parser.add_argument("table", help="the table's id (as in its profile)")
        parser.add_argument("--role", required=True, help="the table's own database role")
        parser.add_argument("--role-password-file", required=True, help="the new role's password (one line)")
    if path == ("floor", "reader"):
        parser.add_argument("role", help="the reader's own database role (the floor view's)")
        parser.add_argument("--role-password-file", required=True, help="the new role's password (one line)")
    if path == ("floor", "send"):
        parser.add_argument("--data-dir", required=True, help="the table's journal directory")
        parser.add_argument("--outbox", help="the sender's outbox (default: floor-outbox.sqlite in --data-dir)")
        parser.add_argument("--follow", action="store_true", help="keep sending as the table journals rounds")
        parser.add_argument("--retry-ms", type=int, default=2000, help="between attempts while unreachable")
    if path == ("floor", "serve"):   # always today's gaming day, on the casino's clock
        parser.set_defaults(day=None, shift=None, start=None, end=None)
        parser.add_argument("--day-start", help="when the gaming day starts (HH:MM; default: 06:00)")
        parser.add_argument("--tz", help="the casino's time zone (default: UTC)")
        parser.add_argument("--secrets", help="the screens' secrets file: the supervisors who may sign in")
        parser.add_argument("--bind", default="127.0.0.1", help="the address to serve on (an IP literal)")
        parser.add_argument("--port", type=int, default=8090, help="the port (0: any free one, printed)")
        parser.add_argument("--state-dir", help="where the sign-in lock-outs are kept (default: the user state dir)")


def _period(parser) -> None:
    parser.add_argument("--day", help="gaming day (YYYY-MM-DD; default: today's)")
    parser.add_argument("--shift", type=int, choices=[1, 2, 3], help="a third of the gaming day")
    parser.add_argument("--from", dest="start", help="from (ISO time; without offset, the casino's clock)")
    parser.add_argument("--to", dest="end", help="to (ISO time), not included")
    parser.add_argument("--day-start", help="when the gaming day starts (HH:MM; default: the profile's, 06:00)")
    parser.add_argument("--tz", help="the casino's time zone (default: the profile's, UTC)")
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument("--json", dest="format", action="store_const", const="json", help="the JSON contract")
    fmt.add_argument("--csv", dest="format", action="store_const", const="csv", help="CSV, one figure a line")
