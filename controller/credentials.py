"""The supervisors' credentials: the secrets file, the PINs' hashes, the signatures at the terminal.

A progressive win is paid only after a supervisor validates it (5324.37(f)(2)), and
voids, fault clearing and meter corrections are a supervisor's too; the journal records
who did each. Who a supervisor is lives here, apart from any screen: the screens' sign-in
(controller/ui/auth.py), `tablectl fault clear` and `tablectl link reconcile` all check a
PIN against the same file, written by `tablectl supervisor add`.

The secrets file (TOML, named by the profile's `[screen] secrets`) keeps no PIN,
only a salted scrypt hash of it:

    [supervisors.S1042]
    name = "Pat Jones"
    pin = "scrypt$16384$8$1$<salt, hex>$<hash, hex>"
"""

from __future__ import annotations

import argparse
import functools
import getpass
import hashlib
import hmac
import os
import re
import stat
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

# scrypt's cost: 16 MiB and ~50 ms a check; a stolen file costs a guesser as much per PIN.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
MIN_SCRYPT_N = 2 ** 14
SALT_BYTES = 16
HASH_BYTES = 32
MIN_PIN_DIGITS = 6   # the floor; a profile may raise it: [screen] pin_digits
MAX_PIN_DIGITS = 12
PIN = re.compile(r"[0-9]+")
SUPERVISOR_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")


class SecretsError(ValueError):
    """A secrets file that cannot be trusted; the message names the file and the key."""


@dataclass(frozen=True)
class Supervisor:
    id: str
    name: str
    pin_hash: str


# -- hashing ---------------------------------------------------------------------------------

def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """The stored form of a PIN: scrypt with a fresh random salt and its parameters."""
    check_pin_format(pin)
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=HASH_BYTES)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def _parse_hash(stored: str, where: str) -> tuple[int, int, int, bytes, bytes]:
    parts = stored.split("$") if isinstance(stored, str) else []
    if len(parts) != 6 or parts[0] != "scrypt":
        raise SecretsError(f"{where}: not a PIN hash written by `tablectl supervisor add` "
                           "(scrypt$N$r$p$salt$hash); a PIN is never stored as it is")
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, digest = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError:
        raise SecretsError(f"{where}: the scrypt parameters, salt or hash are not numbers and hex") from None
    if n < MIN_SCRYPT_N or n & (n - 1) or r < 1 or p < 1:
        raise SecretsError(f"{where}: scrypt N={n} r={r} p={p} is weaker than N={MIN_SCRYPT_N} r=1 p=1")
    if len(salt) < SALT_BYTES or len(digest) < 16:
        raise SecretsError(f"{where}: salt or hash too short")
    return n, r, p, salt, digest


def pin_matches(pin: str, stored: str) -> bool:
    """Whether `pin` hashes to `stored`, compared in constant time."""
    n, r, p, salt, digest = _parse_hash(stored, "pin")
    got = hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r * p + 2 ** 20,
                         dklen=len(digest))
    return hmac.compare_digest(got, digest)


def check_pin_format(pin: str, digits: int = MIN_PIN_DIGITS) -> None:
    """A PIN of `digits` (the profile's [screen] pin_digits, never fewer than 6) to 12 digits: a
    four-digit PIN falls to a guesser with the secrets file in minutes (docs/SECURITY.md)."""
    digits = max(digits, MIN_PIN_DIGITS)
    if not isinstance(pin, str) or not PIN.fullmatch(pin) or not digits <= len(pin) <= MAX_PIN_DIGITS:
        raise ValueError(f"a PIN is {digits} to {MAX_PIN_DIGITS} digits")


def check_id_format(who: str) -> None:
    if not isinstance(who, str) or not SUPERVISOR_ID.fullmatch(who):
        raise ValueError(f"a supervisor id is 1 to 32 letters, digits, '.', '_' or '-', not {who!r}")


@functools.cache
def dummy_hash() -> str:
    """A hash to check against when the id is unknown, so an unknown id costs the same time."""
    return hash_pin("0" * MIN_PIN_DIGITS, salt=b"\0" * SALT_BYTES)


# -- the secrets file --------------------------------------------------------------------------

def load_secrets(path: Path | str) -> dict[str, Supervisor]:
    """Read and check the secrets file; SecretsError naming the file and key if anything is off."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SecretsError(f"{path}: no such secrets file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SecretsError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SecretsError(f"{path}: not TOML: {exc}") from None
    extra = set(data) - {"supervisors"}
    if extra:
        raise SecretsError(f"{path}: unknown key {sorted(extra)[0]!r} (only [supervisors.ID] tables)")
    table = data.get("supervisors", {})
    if not isinstance(table, dict):
        raise SecretsError(f"{path}: supervisors must be a table of [supervisors.ID]")
    out: dict[str, Supervisor] = {}
    for who, entry in table.items():
        where = f"{path}: supervisors.{who}"
        try:
            check_id_format(who)
        except ValueError as exc:
            raise SecretsError(f"{where}: {exc}") from None
        if not isinstance(entry, dict):
            raise SecretsError(f"{where}: must be a table with name and pin")
        unknown = set(entry) - {"name", "pin"}
        if unknown:
            raise SecretsError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        if "pin" not in entry:
            raise SecretsError(f"{where}.pin is missing")
        name = entry.get("name", who)
        if not isinstance(name, str) or not name.strip():
            raise SecretsError(f"{where}.name must be text")
        _parse_hash(entry["pin"], f"{where}.pin")
        out[who] = Supervisor(who, name.strip(), entry["pin"])
    return out


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    if any(ord(c) < 0x20 for c in escaped):
        raise ValueError("a name holds no control characters")
    return f'"{escaped}"'


def write_secrets(path: Path | str, supervisors: dict[str, Supervisor]) -> None:
    """Write the file atomically, readable by its owner and the service's group only (hashes, still secrets)."""
    path = Path(path)
    lines = ["# Supervisors of the table's screens, written by `tablectl supervisor add`.",
             "# Each PIN is kept only as a salted scrypt hash; no one can read a PIN back.", ""]
    for who in sorted(supervisors):
        s = supervisors[who]
        lines += [f'[supervisors."{who}"]', f"name = {_toml_string(s.name)}",
                  f"pin = {_toml_string(s.pin_hash)}", ""]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        mode, group = _mode_and_group(path)
        os.fchmod(fd, mode)
        try:
            os.fchown(fd, -1, group)
        except PermissionError:
            pass
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _mode_and_group(path: Path) -> tuple[int, int]:
    """The secrets file's mode and group: the service reads it as its group, nobody else does.

    Set here, by the step that writes the file, so the install's order cannot matter: a file in
    place keeps its mode (never more than 0640) and group; a new one is 0640 and takes the
    directory's group (/etc/tablectl is root:tablectl, systemd/tablectl.tmpfiles), or the
    service's group `tablectl` when the directory is not yet its (tmpfiles' `z` line sets it
    again either way, docs/INSTALL.md)."""
    try:
        old = os.stat(path)
        return stat.S_IMODE(old.st_mode) & 0o640, old.st_gid
    except FileNotFoundError:
        pass
    group = os.stat(path.parent).st_gid
    if group == 0:
        import grp
        try:
            group = grp.getgrnam(SERVICE_GROUP).gr_gid
        except KeyError:
            pass
    return 0o640, group


SERVICE_GROUP = "tablectl"   # systemd/tablectl.sysusers


# -- signatures at the box's terminal (tablectl link reconcile, tablectl fault clear) ---------------

class SignatureRefused(ValueError):
    """A signature at the terminal refused; nothing was changed. The message is safe to show."""


ORDINALS = ("first", "second", "third")


def signatures(secrets: Path | str, stdin, prompt, count: int = 2, ids: tuple[str | None, ...] = ()) -> list[str]:
    """`count` different supervisors, each PIN checked against the screens' secrets file.

    Read from the terminal (the id asked, the PIN with getpass) or, from a pipe, as
    lines: the id, then the PIN, for each supervisor. An id given in `ids` (ids are
    not secret) is not read again; a PIN never comes from the command line.
    """
    try:
        known = load_secrets(secrets)
    except SecretsError as exc:
        raise SignatureRefused(str(exc)) from None
    tty = stdin.isatty()
    signed: list[str] = []
    for i in range(count):
        n = ORDINALS[i]
        given = ids[i] if i < len(ids) else None
        if tty:
            who = given.strip() if given else input(f"{n} supervisor id: ").strip()
            pin = getpass.getpass(f"{who}'s PIN: ")
        else:
            who = given.strip() if given else stdin.readline().strip()
            pin = stdin.readline().strip()
        sup = known.get(who)
        # an unknown id costs the same time as a wrong PIN
        good = pin_matches(pin, sup.pin_hash if sup else dummy_hash()) and sup is not None
        if not good:
            raise SignatureRefused(f"the {n} supervisor's id or PIN is not right; nothing was changed")
        if who in signed:
            raise SignatureRefused(f"this needs {count} different supervisors; nothing was changed"
                                   if count > 2 else
                                   "a decision is signed by two different supervisors; nothing was changed")
        assert sup is not None   # `good` holds only for a known supervisor
        signed.append(who)
        print(f"{n} supervisor: {sup.name} ({who})", file=prompt)
    return signed


# -- tablectl supervisor add ---------------------------------------------------------------------

def secrets_file(args) -> Path:
    """The screens' secrets file a command names: --secrets, or the one the profile's [screen] names
    (`supervisor add`, `fault clear`, `link reconcile`). ValueError saying which to name."""
    if getattr(args, "secrets", None):
        return Path(args.secrets)
    if getattr(args, "config", None):
        from controller.config import load_profile
        profile = load_profile(args.config)
        if profile.screen.secrets is None:
            raise ValueError(f"{args.config}: [screen] names no secrets file; add secrets = \"...\" "
                             "or name it with --secrets")
        return Path(profile.screen.secrets)
    raise ValueError("name the supervisors' secrets file with --secrets FILE or the profile with --config FILE")


def _secrets_path(args) -> Path:
    try:
        return secrets_file(args)
    except ValueError as exc:
        raise SystemExit(f"tablectl supervisor add: {exc}") from None


def _pin_digits(args) -> int:
    """The fewest digits a PIN may have: the profile's [screen] pin_digits, else the floor (6)."""
    if getattr(args, "config", None):
        from controller.config import load_profile
        return max(load_profile(args.config).screen.pin_digits, MIN_PIN_DIGITS)
    return MIN_PIN_DIGITS


def _read_pin(args, digits: int) -> str:
    if getattr(args, "pin_stdin", False) or not sys.stdin.isatty():
        return sys.stdin.readline().strip()
    first = getpass.getpass(f"PIN ({digits} to {MAX_PIN_DIGITS} digits): ")
    if getpass.getpass("PIN again: ") != first:
        raise SystemExit("the two PINs differ; nothing written")
    return first


def add_main(args) -> int:
    """`tablectl supervisor add ID [--name NAME] (--secrets FILE | --config PROFILE) [--pin-stdin]`."""
    path = _secrets_path(args)
    try:
        check_id_format(args.supervisor_id)
    except ValueError as exc:
        print(f"tablectl supervisor add: {exc}", file=sys.stderr)
        return 2
    try:
        existing = load_secrets(path) if path.exists() else {}
    except SecretsError as exc:
        print(f"tablectl supervisor add: {exc}", file=sys.stderr)
        return 2
    digits = _pin_digits(args)
    pin = _read_pin(args, digits)
    try:
        check_pin_format(pin, digits)
    except ValueError as exc:
        print(f"tablectl supervisor add: {exc}; nothing written", file=sys.stderr)
        return 2
    name = args.name or (existing[args.supervisor_id].name if args.supervisor_id in existing
                         else args.supervisor_id)
    try:
        _toml_string(name)
    except ValueError as exc:
        print(f"tablectl supervisor add: {exc}", file=sys.stderr)
        return 2
    replaced = args.supervisor_id in existing
    existing[args.supervisor_id] = Supervisor(args.supervisor_id, name, hash_pin(pin))
    write_secrets(path, existing)
    print(f"{'replaced' if replaced else 'added'} supervisor {args.supervisor_id} ({name}) in {path}")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `tablectl supervisor add` (for controller/cli.py's _add_arguments)."""
    parser.add_argument("supervisor_id", help="the supervisor's id (badge number)")
    parser.add_argument("--name", help="the supervisor's name, as the journal shows it")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--secrets", help="the secrets file (TOML) to create or update")
    where.add_argument("--config", help="the table profile whose [screen] secrets names the file")
    parser.add_argument("--pin-stdin", action="store_true",
                        help="read the PIN from stdin (one line) instead of asking twice on the terminal")


if __name__ == "__main__":  # until the cli has the command: python -m controller.credentials ID --secrets F
    _parser = argparse.ArgumentParser(prog="tablectl supervisor add")
    add_arguments(_parser)
    sys.exit(add_main(_parser.parse_args()))
