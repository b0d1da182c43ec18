"""The dealers' roster (issue 30): who may sign in as the dealer, by badge, with their name and PIN.

A casino knows its dealers: the roster names each badge, and (where the profile's `[dealers] pin` is
"required") the dealer signs in with a PIN as a supervisor does, checked by the screens' server under
the same lock-outs (controller/ui/auth.py) and never sent on to the table. The file has the
supervisors' file's format (controller/credentials.py: a salted scrypt hash per PIN, owner-only), so
one set of code reads and writes both; `tablectl dealer add` writes it.

The runners and cage cashiers who carry fills and credits (issue 34) have a roster of the same kind
(the profile's `[pit] carriers`, `tablectl carrier add`): each signs what they carry with their PIN.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from controller.credentials import (SecretsError, Supervisor, _pin_digits, _read_pin, _toml_string,
                                    check_id_format, check_pin_format, hash_pin, load_secrets, write_secrets)


# whose roster: the profile's section and key that name it, and who is in it
ROSTERS = {"dealer": ("dealers", "roster", "dealers' roster"),
           "carrier": ("pit", "carriers", "runners' and cashiers' roster")}


def roster_file(args: Any, whose: str = "dealer") -> Path:
    """The roster a command names: --roster, or the one the profile names ([dealers] roster, [pit] carriers)."""
    section, key, what = ROSTERS[whose]
    if getattr(args, "roster", None):
        return Path(args.roster)
    if getattr(args, "config", None):
        from controller.config import load_profile
        profile = load_profile(args.config)
        named = getattr(getattr(profile, section), key)
        if named is None:
            raise ValueError(f"{args.config}: [{section}] names no {what}; add {key} = \"...\" or name it with --roster")
        return Path(named)
    raise ValueError(f"name the {what} with --roster FILE or the profile with --config FILE")


def add_main(args: Any) -> int:
    """`tablectl dealer add BADGE [--name NAME] (--roster FILE | --config PROFILE) [--pin-stdin]`."""
    return _add(args, "dealer")


def carrier_add_main(args: Any) -> int:
    """`tablectl carrier add BADGE ...`: a runner or cage cashier, who signs the fills and credits they carry."""
    return _add(args, "carrier")


def _add(args: Any, whose: str) -> int:
    name_ = f"tablectl {whose} add"
    try:
        path = roster_file(args, whose)
        check_id_format(args.badge)
        existing = load_secrets(path) if path.exists() else {}
    except (ValueError, SecretsError) as exc:
        print(f"{name_}: {exc}", file=sys.stderr)
        return 2
    digits = _pin_digits(args)   # the profile's [screen] pin_digits, as for a supervisor
    pin = _read_pin(args, digits)
    try:
        check_pin_format(pin, digits)
        name = args.name or (existing[args.badge].name if args.badge in existing else args.badge)
        _toml_string(name)
    except ValueError as exc:
        print(f"{name_}: {exc}; nothing written", file=sys.stderr)
        return 2
    replaced = args.badge in existing
    existing[args.badge] = Supervisor(args.badge, name, hash_pin(pin))
    write_secrets(path, existing)
    print(f"{'replaced' if replaced else 'added'} {whose} {args.badge} ({name}) in {path}")
    return 0


def add_arguments(parser: Any, whose: str = "dealer") -> None:
    section, key, what = ROSTERS[whose]
    parser.add_argument("badge", help=f"the {whose}'s badge id, as keyed on the screen")
    parser.add_argument("--name", help=f"the {whose}'s name, as the journal and the report show it")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--roster", help=f"the {what} (TOML) to create or update")
    where.add_argument("--config", help=f"the table profile whose [{section}] {key} names the file")
    parser.add_argument("--pin-stdin", action="store_true", help="read the PIN from stdin (one line)")
