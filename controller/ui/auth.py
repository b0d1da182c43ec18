"""Supervisors' credentials: the secrets file, PIN checks, lock-out and signed-in sessions.

A progressive win is paid only after a supervisor validates it (5324.37(f)(2)), and
voids, fault clearing and meter corrections are a supervisor's too; the journal
records who did each. So the server, not the page, decides who is signed in: a
request for a supervisor's action carries a session cookie that only a good PIN
obtains, and the server looks the session up before anything reaches the table.

The secrets file (TOML, named by the profile's `[screen] secrets`) keeps no PIN,
only a salted scrypt hash of it, written by `tablectl supervisor add`:

    [supervisors.S1042]
    name = "Pat Jones"
    pin = "scrypt$16384$8$1$<salt, hex>$<hash, hex>"

A wrong PIN counts against the id tried at the door it came through (known or not,
so a guess cannot tell which ids exist) and against its source (the door and the
peer address); after MAX_FAILURES for one id at a door, or MAX_SOURCE_FAILURES from
one source within LOCK_SECONDS, sign-in is locked for LOCK_SECONDS, even with the
right PIN: the id at that door, or that source for every id. The lock-out is bound
by source (issue 26): wrong PINs from one client lock that client, never every
supervisor, and the kiosk's own door (ui/doors.py) counts its sign-ins apart, so
nobody but the person at the kiosk can lock the kiosk's sign-in. An id's count on
the screen's port is shared by every address there, so guessing from many addresses
still gets MAX_FAILURES tries per id. The check and the count are one step under a
lock, so PINs sent in parallel are tried one after another and none gets past a
lock-out that an earlier one set. The counts of known ids and of the sources are
kept in the data directory (LOCKOUT_FILE, replaced atomically), so a restart does
not wipe them; an unknown id's count stays in memory, because what was typed in
the id field may be a PIN, and no PIN is written down: not in that file and not in
the log, which names an id only when it is a supervisor's.

A session lasts while its supervisor is in the secrets file with the PIN signed in
with: each request stats the file (cheap) and reads it again when it changed, and
a supervisor removed or given a new PIN is signed out at their next request. It also
ends when the supervisor leaves their view (app.py: the dealer's page loading, a
request from another page, Sign out, Dealer's view) and after SESSION_IDLE_SECONDS unused.
"""

from __future__ import annotations

import argparse
import functools
import getpass
import hashlib
import hmac
import os
import re
import secrets
import json
import stat
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# scrypt's cost: 16 MiB and ~50 ms a check; a stolen file costs a guesser as much per PIN.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
MIN_SCRYPT_N = 2 ** 14
SALT_BYTES = 16
HASH_BYTES = 32
PIN = re.compile(r"\d{4,12}")
SUPERVISOR_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")

MAX_FAILURES = 5            # wrong PINs in a row for one id, at one door
MAX_SOURCE_FAILURES = 20    # wrong PINs from one source (door and address), any ids, within LOCK_SECONDS
LOCK_SECONDS = 15 * 60
SESSION_IDLE_SECONDS = 5 * 60   # a kiosk left signed in closes itself
LOCKOUT_FILE = "signin-lockout.json"   # in the table's data directory
SCREEN_DOOR, KIOSK_DOOR = "screen", "kiosk"   # the doors of ui/doors.py, as the counts name them
MAX_SOURCES = 256           # sources whose recent wrong PINs are kept (the memory and the file stay small)


def source_of(door: str, address: str | None) -> str:
    """Whose wrong PINs count together: the kiosk's door is one source (the kiosk), the screen's
    port one source per peer address."""
    return door if door == KIOSK_DOOR or address is None else f"{door} {address}"


class SecretsError(ValueError):
    """A secrets file that cannot be trusted; the message names the file and the key."""


class SignInRefused(Exception):
    """A sign-in refused: wrong id or PIN, or locked. The message is safe to show."""

    def __init__(self, message: str, *, locked_until: float | None = None) -> None:
        super().__init__(message)
        self.locked_until = locked_until


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


def check_pin_format(pin: str) -> None:
    if not isinstance(pin, str) or not PIN.fullmatch(pin):
        raise ValueError("a PIN is 4 to 12 digits")


def check_id_format(who: str) -> None:
    if not isinstance(who, str) or not SUPERVISOR_ID.fullmatch(who):
        raise ValueError(f"a supervisor id is 1 to 32 letters, digits, '.', '_' or '-', not {who!r}")


@functools.cache
def _dummy_hash() -> str:
    """A hash to check against when the id is unknown, so an unknown id costs the same time."""
    return hash_pin("0000", salt=b"\0" * SALT_BYTES)


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
    """Write the file atomically, readable by its owner only (it holds hashes, still secrets)."""
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
        try:
            # A file already in place keeps its mode and group (tmpfiles gives the service's
            # group read access, and a replaced file must not take that away).
            old = os.stat(path)
            os.fchmod(fd, stat.S_IMODE(old.st_mode) & 0o640)
            try:
                os.fchown(fd, -1, old.st_gid)
            except PermissionError:
                pass
        except FileNotFoundError:
            pass
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# -- sign-in, lock-out and sessions -----------------------------------------------------------

@dataclass
class Session:
    who: str
    name: str
    expires: float
    pin_hash: str = ""   # the secrets file's entry signed in with: a new PIN ends the session


@dataclass
class Authority:
    """Who may sign in, who is signed in, and who is locked out, for one table's screens."""

    supervisors: dict[str, Supervisor]
    clock: Callable[[], float] = time.monotonic
    idle_seconds: float = SESSION_IDLE_SECONDS
    failures: dict[tuple[str, str], int] = field(default_factory=dict)     # (door, id) -> wrong in a row
    locked: dict[tuple[str, str], float] = field(default_factory=dict)     # (door, id) -> until
    source_failures: dict[str, list[float]] = field(default_factory=dict)  # source -> times of recent failures
    source_locked: dict[str, float] = field(default_factory=dict)          # source -> until
    locked_everywhere_until: float = 0.0   # an unreadable LOCKOUT_FILE: every door, every source
    sessions: dict[str, Session] = field(default_factory=dict)
    log: Callable[..., None] | None = None
    path: Path | None = None
    _stamp: tuple | None = None
    state_path: Path | None = None          # LOCKOUT_FILE: the counts that outlive a restart
    wall: Callable[[], float] = time.time   # what the persisted times are measured in
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_file(cls, path: Path | str | None, *, state_dir: Path | str | None = None,
                  **options) -> "Authority":
        """No file: nobody can sign in (the profile named none). `state_dir` keeps the lock-out counts."""
        state = Path(state_dir) / LOCKOUT_FILE if state_dir is not None else None
        if path is None:
            return cls({}, state_path=state, **options)
        path = Path(path)
        a = cls(load_secrets(path), path=path, state_path=state, **options)
        a._stamp = a._file_stamp()
        a._load_counts()
        return a

    # -- the counts that outlive a restart ---------------------------------------------------

    def _load_counts(self) -> None:
        """Read LOCKOUT_FILE; a file that does not read is taken as a lock-out everywhere (someone
        or something damaged it), never as a clean slate."""
        if self.state_path is None:
            return
        try:
            data = json.loads(self.state_path.read_text(encoding="utf-8"))
            offset = self.clock() - self.wall()
            doors = data.get("doors", {})
            if "doors" not in data:   # written before the doors (issue 26): the screen's counts
                doors = {SCREEN_DOOR: {"failures": data.get("failures", {}), "locked": data.get("locked", {})}}
            failures, locked = {}, {}
            for door, counts in doors.items():
                failures.update({(str(door), str(k)): int(v) for k, v in counts.get("failures", {}).items()
                                 if str(k) in self.supervisors})
                locked.update({(str(door), str(k)): float(v) + offset for k, v in counts.get("locked", {}).items()
                               if str(k) in self.supervisors})
            sources = {str(k): [float(t) + offset for t in v][-MAX_SOURCE_FAILURES:]
                       for k, v in data.get("source_failures", {}).items()}
            source_locked = {str(k): float(v) + offset for k, v in data.get("source_locked", {}).items()}
            until = float(data.get("locked_everywhere_until", data.get("screen_locked_until", 0.0)))
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError, RecursionError):
            self.locked_everywhere_until = self.clock() + LOCK_SECONDS
            self._log("supervisor_lockout_state_unreadable", file=str(self.state_path))
            return
        self.failures.update(failures)
        self.locked.update(locked)
        self.source_failures.update(sources)
        self.source_locked.update(source_locked)
        self.locked_everywhere_until = until + offset if until else 0.0

    def _save_counts(self) -> None:
        if self.state_path is None:
            return
        offset = self.wall() - self.clock()
        known = self.supervisors
        doors: dict[str, dict[str, dict]] = {}
        for (door, who), n in self.failures.items():
            if who in known:
                doors.setdefault(door, {"failures": {}, "locked": {}})["failures"][who] = n
        for (door, who), until in self.locked.items():
            if who in known:
                doors.setdefault(door, {"failures": {}, "locked": {}})["locked"][who] = until + offset
        data = {"doors": doors,
                "source_failures": {k: [t + offset for t in v] for k, v in self.source_failures.items() if v},
                "source_locked": {k: v + offset for k, v in self.source_locked.items()},
                "locked_everywhere_until": (self.locked_everywhere_until + offset
                                            if self.locked_everywhere_until else 0.0)}
        try:
            from controller.journal.durable import write_atomic
            write_atomic(self.state_path, json.dumps(data, sort_keys=True).encode())
        except OSError as exc:
            self._log("supervisor_lockout_state_not_written", error=exc.strerror or str(exc))

    def _logged_id(self, who: str) -> dict:
        """How a typed id appears in the log: named only if it is a supervisor's (it may be a PIN)."""
        return {"supervisor": who} if who in self.supervisors else {"supervisor": None, "known_id": False}

    def _file_stamp(self) -> tuple | None:
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def reload_if_changed(self) -> None:
        """A supervisor added with `tablectl supervisor add` can sign in without a restart.

        A file that no longer reads is logged and the supervisors already known are kept,
        so a half-edited file cannot lock everyone out or let anyone in.
        """
        if self.path is None:
            return
        stamp = self._file_stamp()
        if stamp == self._stamp:
            return
        try:
            self.supervisors = load_secrets(self.path)
            self._stamp = stamp
            self._log("supervisor_secrets_reloaded", supervisors=len(self.supervisors))
        except SecretsError as exc:
            self._log("supervisor_secrets_unreadable", error=str(exc))

    def _log(self, event: str, **fields) -> None:
        if self.log is not None:
            self.log(event, **fields)

    def _lock_message(self, until: float) -> str:
        minutes = max(1, round((until - self.clock()) / 60))
        return f"sign-in locked after repeated wrong PINs; try again in {minutes} min or ask the shift manager"

    def check_locked(self, who: str, door: str = SCREEN_DOOR, address: str | None = None) -> None:
        now = self.clock()
        if self.locked_everywhere_until > now:
            raise SignInRefused(self._lock_message(self.locked_everywhere_until),
                                locked_until=self.locked_everywhere_until)
        source = source_of(door, address)
        until = self.source_locked.get(source, 0.0)
        if until > now:
            raise SignInRefused(self._lock_message(until), locked_until=until)
        if until:
            del self.source_locked[source]
        until = self.locked.get((door, who), 0.0)
        if until > now:
            raise SignInRefused(self._lock_message(until), locked_until=until)
        if until:
            del self.locked[(door, who)]
            self.failures.pop((door, who), None)

    def sign_in(self, who: str, pin: str, door: str = SCREEN_DOOR,
                address: str | None = None) -> tuple[str, Session]:
        """A new session token for a good PIN; SignInRefused otherwise (slow: run it off the loop).
        `door` and `address`: where the PIN came from, whose wrong PINs count together."""
        known = self._checked(who, pin, "give a supervisor id and a PIN", door, address)
        who = who.strip()
        token = secrets.token_urlsafe(32)
        session = Session(who, known.name, self.clock() + self.idle_seconds, known.pin_hash)
        self.sessions[token] = session
        self._log("supervisor_signed_in", supervisor=who)
        return token, session

    def countersign(self, who: str, pin: str, door: str = SCREEN_DOOR, address: str | None = None) -> Supervisor:
        """A second supervisor's PIN checked for one signature, with no session of their own: a large
        award is signed by two people at the box (issue 18); wrong PINs count towards the same
        lock-outs as at the sign-in (slow: run it off the loop)."""
        known = self._checked(who, pin, "give the second supervisor's id and PIN", door, address)
        self._log("supervisor_countersigned", supervisor=who.strip())
        return known

    def _checked(self, who: str, pin: str, missing: str, door: str = SCREEN_DOOR,
                 address: str | None = None) -> Supervisor:
        """The supervisor whose PIN this is, under the lock-outs; SignInRefused otherwise. The
        dummy hash keeps an unknown id as slow as a wrong PIN."""
        if not isinstance(who, str) or not isinstance(pin, str):
            raise SignInRefused(missing)
        who = who.strip()
        with self._lock:   # check, try and count as one step: parallel PINs take turns
            self.check_locked(who, door, address)
            self.reload_if_changed()
            known = self.supervisors.get(who)
            good = pin_matches(pin, known.pin_hash if known else _dummy_hash()) and known is not None
            if not good:
                try:
                    self._fail(who, door, address)
                finally:
                    self._save_counts()
            if self.failures.pop((door, who), None) is not None:
                self._save_counts()
            assert known is not None   # `good` holds only for a known supervisor
            return known

    def _fail(self, who: str, door: str, address: str | None):
        now = self.clock()
        count = self.failures.get((door, who), 0) + 1
        self.failures[(door, who)] = count
        source = source_of(door, address)
        self._forget_old_sources(now)
        recent = [t for t in self.source_failures.pop(source, []) if t > now - LOCK_SECONDS] + [now]
        self.source_failures[source] = recent   # the newest last: the oldest go first past MAX_SOURCES
        while len(self.source_failures) > MAX_SOURCES:
            del self.source_failures[next(iter(self.source_failures))]
        self._log("supervisor_sign_in_failed", failures=count, door=door, **self._logged_id(who))
        if len(recent) >= MAX_SOURCE_FAILURES:
            until = self.source_locked[source] = now + LOCK_SECONDS
            del self.source_failures[source]
            self._log("supervisor_sign_in_locked", scope="source", source=source, seconds=LOCK_SECONDS)
            raise SignInRefused(self._lock_message(until), locked_until=until)
        if count >= MAX_FAILURES:
            until = self.locked[(door, who)] = now + LOCK_SECONDS
            self._log("supervisor_sign_in_locked", scope="id", door=door, seconds=LOCK_SECONDS,
                      **self._logged_id(who))
            raise SignInRefused(self._lock_message(until), locked_until=until)
        left = MAX_FAILURES - count
        raise SignInRefused(f"wrong supervisor id or PIN ({left} tr{'y' if left == 1 else 'ies'} "
                            "left before sign-in locks)")

    def _forget_old_sources(self, now: float) -> None:
        for source, times in list(self.source_failures.items()):
            if not times or times[-1] <= now - LOCK_SECONDS:
                del self.source_failures[source]
        for source, until in list(self.source_locked.items()):
            if until <= now:
                del self.source_locked[source]

    def session(self, token: str | None) -> Session | None:
        """The signed-in session for a token, kept alive by use; None if none or expired."""
        if not token:
            return None
        s = self.sessions.get(token)
        now = self.clock()
        if s is None:
            return None
        if s.expires <= now:
            self.sessions.pop(token, None)
            return None
        self.reload_if_changed()   # a stat; the file is read again only when it changed
        entry = self.supervisors.get(s.who)
        if entry is None or (s.pin_hash and entry.pin_hash != s.pin_hash):
            self.sessions.pop(token, None)
            self._log("supervisor_session_ended", supervisor=s.who,
                      reason="removed from the secrets file" if entry is None else "PIN changed")
            return None
        s.expires = now + self.idle_seconds
        return s

    def sign_out(self, token: str | None, reason: str | None = None) -> None:
        """End a session: the supervisor signed out, or left their view (`reason` says how)."""
        s = self.sessions.pop(token or "", None)
        if s is not None:
            self._log("supervisor_signed_out", supervisor=s.who, **({"reason": reason} if reason else {}))


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
        good = pin_matches(pin, sup.pin_hash if sup else _dummy_hash()) and sup is not None
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
        raise SystemExit(str(exc)) from None


def _read_pin(args) -> str:
    if getattr(args, "pin_stdin", False) or not sys.stdin.isatty():
        return sys.stdin.readline().strip()
    first = getpass.getpass("PIN (4 to 12 digits): ")
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
    pin = _read_pin(args)
    try:
        check_pin_format(pin)
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


if __name__ == "__main__":  # until the cli has the command: python -m controller.ui.auth ID --secrets F
    _parser = argparse.ArgumentParser(prog="tablectl supervisor add")
    add_arguments(_parser)
    sys.exit(add_main(_parser.parse_args()))
