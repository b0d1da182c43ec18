"""`tablectl pit inventory|fill|credit|drop|buy-in`: the table's books for automation, on a stopped table.

The same acts the supervisor's screen journals through the running table (which alone writes its
journal), with the same checks (books.py); each supervisor signs with their PIN on stdin (the id, then
the PIN, a line each, for an id not named), checked against the screens' secrets file, never from the
command line. A fill or a credit is signed too by the runner or cashier who carries it (`--carrier`,
their PIN on stdin after the supervisor's, checked against the carriers' roster: `--carriers` or the
profile's [pit] carriers); the drop takes two different supervisors.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from controller.pit.books import BooksRefused, act


def add_arguments(path: tuple[str, ...], parser: Any) -> None:
    parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--secrets", help="the screens' secrets file, against which each PIN is checked")
    where.add_argument("--config", help="the table profile whose [screen] secrets names that file")
    parser.add_argument("--supervisor", help="who signs (else read from stdin); the PIN is always read")
    parser.add_argument("--note", default="", help="a note kept with the act")
    if path[1] in ("inventory", "fill", "credit"):
        parser.add_argument("--chips", required=True,
                            help='the count by denomination in cents, as JSON: \'{"2500": 40, "10000": 10}\'')
    if path[1] == "inventory":
        parser.add_argument("--kind", required=True, choices=["opener", "closer"], help="the count in or out")
    if path[1] in ("fill", "credit"):
        parser.add_argument("--carrier", required=True, help="the runner's or cage cashier's badge id (their PIN on stdin)")
        parser.add_argument("--carriers", help="the runners' and cashiers' roster (default: the profile's [pit] carriers)")
        parser.add_argument("--slip", required=True, help="the fill or credit slip's number")
    if path[1] == "drop":
        parser.add_argument("--amount", required=True, type=int, help="the count room's count of the box, in cents")
        parser.add_argument("--second-supervisor", help="the second, different supervisor (else read from stdin)")
    if path[1] == "buy-in":
        parser.add_argument("seat", type=int, help="the seat whose cash was changed for chips")
        parser.add_argument("amount", type=int, help="the cash, in cents")


def carried_by(args: Any, stdin: Any) -> str:
    """The carrier's badge, once their PIN (the next line of stdin, or asked at a terminal) matches the
    carriers' roster; SignatureRefused otherwise, ValueError when no roster is named."""
    import getpass
    from pathlib import Path

    from controller.credentials import SecretsError, SignatureRefused, dummy_hash, load_secrets, pin_matches
    roster = args.carriers
    if roster is None and getattr(args, "config", None):
        from controller.config import load_profile
        roster = load_profile(args.config).pit.carriers
    if roster is None:
        raise ValueError("--carriers: name the runners' and cashiers' roster (or the profile's [pit] carriers): "
                         "the carrier signs the fill or credit with their PIN")
    try:
        known = load_secrets(Path(roster))
    except SecretsError as exc:
        raise SignatureRefused(str(exc)) from None
    who = args.carrier.strip()
    pin = getpass.getpass(f"carrier {who}'s PIN: ") if stdin.isatty() else stdin.readline().strip()
    person = known.get(who)
    if not pin_matches(pin, person.pin_hash if person else dummy_hash()) or person is None:
        raise SignatureRefused(f"the carrier's badge or PIN is not right ({who}); nothing was changed")
    print(f"carrier: {person.name} ({who})", file=sys.stderr)
    return who


def main(args: Any) -> int:
    from controller import paths
    from controller.credentials import SignatureRefused, secrets_file, signatures
    from controller.journal.store import Journal, JournalBusy, JournalError
    name = f"tablectl pit {args.act}"
    kind = args.kind if args.act == "inventory" else args.act
    fields: dict[str, Any] = {"note": args.note}
    try:
        if hasattr(args, "chips"):
            fields["chips"] = json.loads(args.chips)
    except ValueError:
        print(f"{name}: --chips: not JSON (e.g. '{{\"2500\": 40}}')", file=sys.stderr)
        return 2
    for key in ("carrier", "slip", "amount", "seat"):
        if hasattr(args, key):
            fields[key] = getattr(args, key)
    try:
        secrets = secrets_file(args)
        count = 2 if kind == "drop" else 1
        ids = (args.supervisor, getattr(args, "second_supervisor", None))[:count]
        signed = signatures(secrets, sys.stdin, sys.stderr, count, ids)
        if kind == "drop":
            fields["second"] = signed[1]
        if kind in ("fill", "credit"):   # the carrier signs what they carry, with their own PIN
            fields["carrier"] = carried_by(args, sys.stdin)
        payload = act(kind, fields, signed[0], source="cli")
    except (ValueError, SignatureRefused) as exc:   # BooksRefused is a ValueError
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    directory = paths.data_dir(args.data_dir, create=False)
    if not (directory / "journal.db").exists():
        print(f"{name}: {directory} holds no journal", file=sys.stderr)
        return 2
    try:
        journal = Journal.open(directory, wait=2.0)
    except JournalBusy:
        print(f"{name}: the table is running and alone writes its journal: enter it on the supervisor's "
              "screen (Books)", file=sys.stderr)
        return 2
    try:
        with journal:
            if journal.problems:
                print(f"{name}: the journal has problems ({journal.problems[0].detail}); nothing was written",
                      file=sys.stderr)
                return 1
            entry = journal.append("pit", payload)
    except JournalError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps({"entry": entry.seq, "at": entry.at, **payload}))
    return 0


__all__ = ["BooksRefused", "add_arguments", "main"]
