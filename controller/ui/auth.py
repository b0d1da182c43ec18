"""Signing in at the screens: the PIN checks, the lock-out and the signed-in sessions.

A progressive win is paid only after a supervisor validates it (5324.37(f)(2)), and
voids, fault clearing and meter corrections are a supervisor's too; the journal
records who did each. So the server, not the page, decides who is signed in: a
request for a supervisor's action carries a session cookie that only a good PIN
obtains, and the server looks the session up before anything reaches the table.

The supervisors and their PINs' hashes are controller/credentials.py's (the secrets file).

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

import os
import secrets
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.credentials import SecretsError, Supervisor, dummy_hash, load_secrets, pin_matches

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



class SignInRefused(Exception):
    """A sign-in refused: wrong id or PIN, or locked. The message is safe to show."""

    def __init__(self, message: str, *, locked_until: float | None = None) -> None:
        super().__init__(message)
        self.locked_until = locked_until



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

    def verify(self, who: str, pin: str, door: str = SCREEN_DOOR, address: str | None = None) -> Supervisor:
        """A PIN checked for one act with no session (a dealer's sign-in against the dealers' roster,
        controller/roster.py), under the same lock-outs (slow: run it off the loop)."""
        known = self._checked(who, pin, "give the badge and the PIN", door, address)
        self._log("pin_checked", who=who.strip())
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
            good = pin_matches(pin, known.pin_hash if known else dummy_hash()) and known is not None
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
