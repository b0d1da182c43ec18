"""The journal: the table's durable, append-only, hash-chained record.

Contract with the runtime (controller/table.py):

- `append()` returns only after its transaction is committed and synced to
  the disk (SQLite WAL mode, `synchronous=FULL`: the log is fsync'd at every
  commit). Whatever the table does because of an event it does *after*
  `append()` returns: a lock-out is durable before the acceptor lights
  change, a settlement before any screen says "pay", a meter change before
  the meter display moves (DESIGN.md, "How data flows"). If `append()`
  raises, nothing was recorded and the effect must not happen.
- Entries are never changed or removed (triggers refuse UPDATE and DELETE).
  Each carries `seq` (1, 2, 3, ... without gaps), `kind`, the round it
  belongs to (or none), a JSON payload, the UTC time, the previous entry's
  hash and its own: SHA-256(prev hash || canonical bytes of the entry), so a
  changed, removed, inserted or reordered entry breaks the chain.
- Per round, the journal holds every event of the round (the round machines
  are pure functions of their events, controller/games/base.py) and, when
  the round ends, its record (kind "round-record": the record of
  shared/spec/rounds.md and its settlement; for a poker hand the PHH text).
- `snapshot(state)` writes the table's state (meters, the round in progress);
  recovery is `latest_snapshot()` then `entries_since(snapshot.seq)`, so it
  replays a bounded tail however long the journal grows. Snapshot at the end
  of every round.

Authenticated entries (issue 15). The chain alone proves order, not
authorship: anyone who can write the data directory can edit an amount and
recompute every SHA-256 after it and the seal. So each entry also carries
`mac` = HMAC-SHA256(key, tag || its chain hash), and the seal carries an HMAC
of its body, under a key the data directory does not hold: 32 random bytes
in a root-only file (`tablectl system install` makes /etc/tablectl/journal.key;
systemd hands the service a copy; $TABLECTL_JOURNAL_KEY names it, see
`load_key`). Why the MAC is over the chain hash: the hash already covers the
entry and, through `prev`, every entry before it, so one 32-byte HMAC per
entry (about a microsecond) authenticates the entry and its place; the
start-up check, which trusts the sealed part because the seal says so, now
trusts only a seal the key made. Why HMAC and not signatures: the one party
that writes is the one that verifies (the table, and root's `tablectl journal
verify`); a signature's advantage, verifying without the power to sign,
buys nothing on a box where the verifier is root, and Ed25519 would cost
tens of microseconds per append and a dependency outside the standard
library. What the key does not stop: root, or whoever reads the running
table's memory, holds the key and can write a journal that verifies; and
anyone can put back an older, authentic journal. Both are caught by the
anchor instead (controller/journal/anchor.py: the head, MACed, kept in the
progressive controller at every settlement, before anyone is told to pay), within the limits
docs/SECURITY.md states. A reader without the key checks no MACs and says so
(`tablectl journal verify`); a writer without it, on a journal whose entries
carry MACs, finds that a problem ("journal-key": no silent downgrade); one opened with a key finds every entry
without a valid MAC ("entry-unauthenticated", "entry-forged") and a seal the
key did not make ("seal-forged").

Start-up check (`Journal.open`): the database file against its seal
(controller/journal/sealing.py: every byte when the file was written since it was
sealed, its fingerprint otherwise), the log for committed frames SQLite
dropped, and the chain from the sealed head to the end. The chain up to the
sealed head was verified when it was sealed and the seal proves those bytes
unchanged since, so start-up work is bounded by the unsealed tail, not by the
journal's length. Once the table is up it runs `scrub()` in a thread (every
sealed byte re-read); `verify()` (`tablectl journal verify`) re-walks the whole
chain and runs SQLite's integrity check as well. Problems found at start are kept in
`problems`: the self-check (controller/journal/selfcheck.py) turns them into a fault,
and while there are problems the journal keeps appending but never re-seals,
so the evidence stays in the file until a supervisor accepts it.

A full disk or an I/O error (issue 15). The writer keeps RESERVE_BYTES set
aside in journal.reserve; when SQLite or a seal step meets ENOSPC or EIO the
journal frees it, records the problem ("journal-io", which stops sealing)
and raises JournalIOError, so the table's fault record (selfcheck.raise_fault)
still fits on the disk and the restart finds the fault. Reading never harms
the writer: the journal reads its own files only through descriptors held
for its whole life (sealing.Held), because closing any descriptor of a file
drops the process's POSIX locks on it, SQLite's included.

Cost (benchmarks/journal.py): an append is one fsync'd commit, within 2x of a
bare SQLite commit of the same bytes; every SEAL_FRAMES log frames it also
checkpoints and re-seals (a few fsyncs, milliseconds). It blocks its caller
for that long; at the pace of a dealer's buttons the table can call it from
its event loop and keep the order of events trivially.

The journal is written by one process (an exclusive lock on journal.lock) and
one thread at a time (an internal lock); the table calls it from its single
consumer. Readers in other processes (`tablectl rounds`, `tablectl journal
verify`) open it read-only, which never writes the file. Inspect it by hand
only with `sqlite3 -readonly`: a read-write connection closing last
checkpoints the log into the file, and the seal will (rightly) call that a
change made outside the journal.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import re
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from controller import paths
from controller.journal.sealing import (
    CHUNK_PAGES,
    Held,
    PAGE_SIZE,
    Problem,
    Seal,
    SealError,
    SealForged,
    SealSteps,
    fingerprint,
    scrub_file,
    hash_chunks,
    read_seal,
    read_wal,
    shm_max_frame,
    check_file,
    fsync_dir,
    write_atomic,
)

FORMAT = 2                  # 2: every entry carries a MAC (issue 15)
APPLICATION_ID = 0x54424C4A  # "TBLJ" in the database header, so a stray file is told apart
GENESIS_PREV = bytes(32)
DB_NAME = "journal.db"
SEAL_NAME = "journal.seal"
LOCK_NAME = "journal.lock"
RESERVE_NAME = "journal.reserve"
RESERVE_BYTES = 1 << 20     # freed when the disk is full, so the fault's own record still fits
NEW_DB_NAME = "journal-new.db"
SEAL_FRAMES = 1000          # re-seal when the log holds this many frames (SQLite's own default)
BATCH = 2000                # rows fetched per query when walking the journal

SCHEMA = (
    "CREATE TABLE entries (\n"
    "    seq      INTEGER PRIMARY KEY,\n"
    "    kind     TEXT NOT NULL,\n"
    "    round_id TEXT,\n"
    "    at       TEXT NOT NULL,\n"
    "    payload  TEXT NOT NULL,\n"
    "    prev     BLOB NOT NULL,\n"
    "    hash     BLOB NOT NULL,\n"
    "    mac      BLOB NOT NULL\n"
    ")",
    # Each entry lands in exactly one of the two partial indexes, so an append
    # touches one index page: a round's entries, or the table's own (snapshots,
    # faults, software digests) by kind.
    "CREATE INDEX entries_round ON entries(round_id, seq) WHERE round_id IS NOT NULL",
    "CREATE INDEX entries_table ON entries(kind, seq) WHERE round_id IS NULL",
    "CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries "
    "BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END",
    "CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries "
    "BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END",
)

_KIND_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-")
_ROUND_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:")


class JournalError(Exception):
    """The journal cannot do what was asked; nothing was recorded."""


class JournalUnreadable(JournalError):
    """The journal cannot be opened at all (missing, not a journal, malformed)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(map(str, problems)))


class JournalIOError(JournalError):
    """The disk refused a write (full, or an I/O error). `committed`: the entries asked for
    were durable before the failure (it came in the seal step after their commit)."""

    def __init__(self, message: str, committed: bool = False) -> None:
        self.committed = committed
        super().__init__(message)


class JournalBusy(JournalError):
    """Another process holds the journal for writing."""


KEY_ENV = "TABLECTL_JOURNAL_KEY"   # the path of the key file (tablectl system install makes it)
_ENTRY_TAG = b"tablectl journal entry\0"


class KeyFileError(JournalError):
    """The journal key file is named but cannot be used."""


_GIVEN: list[bytes] = []   # give_key: read by root before the command became the table's user


def give_key(key: bytes | None) -> None:
    """Hold the key for this process: root read it before becoming the data directory's owner
    (controller/journal/custody.py), who cannot read the key file; load_key returns it from then on."""
    _GIVEN[:] = [] if key is None else [key]


def load_key(path: str | os.PathLike | None = None) -> bytes | None:
    """The journal's MAC key from `path`, else the key given to the process (give_key), else from
    the file $TABLECTL_JOURNAL_KEY names; None if none.

    The file holds 32 or more random bytes as hex (one line). KeyFileError when
    it is named but unreadable or too short: a table told to authenticate its
    journal does not quietly stop doing so.
    """
    if path is None and _GIVEN:
        return _GIVEN[0]
    path = path if path is not None else os.environ.get(KEY_ENV) or None
    if path is None:
        return None
    try:
        text = Path(path).read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except OSError as exc:
        raise KeyFileError(f"the journal key {path} cannot be read: {exc.strerror}") from None
    except ValueError:
        raise KeyFileError(f"the journal key {path} is not hex") from None
    if len(key) < 32:
        raise KeyFileError(f"the journal key {path} holds {len(key)} bytes; 32 or more are needed")
    return key


def entry_mac(key: bytes, entry_hash_: bytes) -> bytes:
    """HMAC-SHA256 over an entry's chain hash, which already covers the entry and every one before it."""
    return hmac.digest(key, _ENTRY_TAG + entry_hash_, "sha256")


class PayloadError(ValueError):
    """A payload that is not plain JSON of whole numbers; says which field."""


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    round_id: str | None
    at: str
    payload: Any
    prev: bytes
    hash: bytes
    mac: bytes = b""

    def to_json(self) -> dict:
        return {"seq": self.seq, "kind": self.kind, "round": self.round_id, "at": self.at,
                "payload": self.payload, "prev": self.prev.hex(), "hash": self.hash.hex(), "mac": self.mac.hex()}


# --------------------------------------------------------------------------
# Canonical bytes and the chain
# --------------------------------------------------------------------------

def _plain(value: Any) -> bool:
    """True when a payload is plain JSON without floats: the fast path of every append."""
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        v = pop()
        t = type(v)
        if t is dict:
            for k, x in v.items():
                if type(k) is not str:
                    return False
                push(x)
        elif t is list or t is tuple:
            stack.extend(v)
        elif not (t is str or t is int or t is bool or v is None):
            return False
    return True


def _check_payload(value: Any, path: str) -> None:
    """Find and name the first field that is not plain JSON (the slow path, for the error)."""
    t = type(value)
    if t is dict:
        for k, v in value.items():
            if type(k) is not str:
                raise PayloadError(f"{path}: key {k!r} is not a string")
            _check_payload(v, f"{path}.{k}")
    elif t is list or t is tuple:
        for i, v in enumerate(value):
            _check_payload(v, f"{path}[{i}]")
    elif t is float:
        raise PayloadError(f"{path}: {value!r} is a float; money and counts are whole numbers")
    elif not (value is None or t is str or t is int or t is bool):
        raise PayloadError(f"{path}: {t.__name__} is not plain JSON (write it as a string or number)")


def canonical_payload(payload: Any) -> str:
    """The one text a payload is stored and hashed as: sorted keys, no spaces."""
    if not _plain(payload):
        _check_payload(payload, "payload")
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_SAFE = re.compile(rb'[\x20\x21\x23-\x5b\x5d-\x7e]*\Z')  # JSON needs no escape for these


def _quoted(value: bytes | None) -> bytes:
    """The JSON string of a stored column: quoted as is when plain ASCII (every
    entry the journal writes), else exactly as json.dumps writes it."""
    if value is None:
        return b"null"
    if _SAFE.match(value):
        return b'"' + value + b'"'
    return json.dumps(value.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")


def _entry_bytes(seq: int, kind: bytes, round_id: bytes | None, at: bytes, payload: bytes) -> bytes:
    return b"[%d,%s,%s,%s,%s]" % (seq, _quoted(kind), _quoted(round_id), _quoted(at), payload)


def entry_bytes(seq: int, kind: str, round_id: str | None, at: str, payload: bytes) -> bytes:
    """The canonical bytes of an entry: the JSON array [seq, kind, round, at, payload].

    `payload` is the stored canonical JSON text (UTF-8), hashed as stored.
    """
    return b"[%d,%s,%s,%s,%s]" % (seq, json.dumps(kind).encode(), json.dumps(round_id).encode(),
                                  json.dumps(at).encode(), payload)


def entry_hash(prev: bytes, seq: int, kind: str, round_id: str | None, at: str, payload: bytes) -> bytes:
    return hashlib.sha256(prev + entry_bytes(seq, kind, round_id, at, payload)).digest()


def _text(value: bytes | None) -> str | None:
    # Columns are read as bytes so a damaged row is reported, not a decoding error.
    return None if value is None else value.decode("utf-8", "surrogateescape")


def _text_of(value: bytes | None) -> str:
    """A NOT NULL column's text (a damaged NULL reads as empty, for the checks to report)."""
    return _text(value) or ""


def _ranges(seqs: list[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for s in seqs:
        if out and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return [(a, b) for a, b in out]


def check_chain(rows: Iterable[tuple], seq: int, prev: bytes,
                key: bytes | None = None) -> tuple[list[Problem], int, bytes]:
    """Walk rows (seq, kind, round_id, at, payload, prev, hash, mac) expecting `seq` next after `prev`.

    Returns the problems and the last seq and hash seen. A bad entry is
    reported once; the walk goes on from its stored hash, so one changed
    entry does not bury the rest of the report. With `key`, every entry's MAC
    is checked too (a run of entries without one, or with a wrong one, is one
    problem). This loop is what `tablectl journal verify` spends its time in,
    hence the plain locals.
    """
    problems = []
    last_seq, last = seq - 1, prev
    sha256, raw, bytes_ = hashlib.sha256, _entry_bytes, bytes
    unsigned: list[int] = []
    forged: list[int] = []
    mac_of = (lambda h: hmac.digest(key, _ENTRY_TAG + h, "sha256")) if key is not None else None
    for row in rows:
        s, kind, round_id, at, payload, p, h = row[:7]
        if mac_of is not None and type(h) is bytes_:
            m = row[7] if len(row) > 7 else b""
            if not m:
                unsigned.append(s)
            elif type(m) is not bytes_ or not hmac.compare_digest(m, mac_of(h)):
                forged.append(s)
        if not (type(s) is int and type(kind) is bytes_ and (round_id is None or type(round_id) is bytes_)
                and type(at) is bytes_ and type(payload) is bytes_ and type(p) is bytes_
                and type(h) is bytes_):
            problems.append(Problem("entry-malformed", f"entry {s}", "a column has the wrong type"))
            last_seq, last = (s if type(s) is int else last_seq + 1), (h if type(h) is bytes_ else last)
            continue
        if s != last_seq + 1:
            what = (f"entries {last_seq + 1}-{s - 1} are missing" if s > last_seq + 1
                    else f"comes after entry {last_seq}")
            problems.append(Problem("chain-gap", f"entry {s}", what))
        if p != last:
            problems.append(Problem("chain-link", f"entry {s}", "does not carry the previous entry's hash"))
        if sha256(p + raw(s, kind, round_id, at, payload)).digest() != h:
            problems.append(Problem("chain-hash", f"entry {s}", "its contents do not match its hash"))
        last_seq, last = s, h
    for a, b in _ranges(unsigned):
        problems.append(Problem("entry-unauthenticated", f"entries {a}-{b}" if b > a else f"entry {a}",
                                "carries no MAC although the journal has a key"))
    for a, b in _ranges(forged):
        problems.append(Problem("entry-forged", f"entries {a}-{b}" if b > a else f"entry {a}",
                                "its MAC is not the journal key's: written by someone without the key"))
    return problems, last_seq, last


def _is_io(exc: sqlite3.Error) -> bool:
    """A full disk or an I/O error, as SQLite words them (SQLITE_FULL, SQLITE_IOERR)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (10, 13)   # SQLITE_IOERR, SQLITE_FULL
    text = str(exc)
    return "disk is full" in text or "disk I/O error" in text


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _format_time(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --------------------------------------------------------------------------
# The journal
# --------------------------------------------------------------------------

_COLUMNS = "seq, kind, round_id, at, payload, prev, hash, mac"


def _entry(row: tuple[Any, ...]) -> Entry:
    s, kind, round_id, at, payload, prev, h, m = row
    try:
        value = json.loads(payload)
    except ValueError:
        raise JournalError(f"entry {s}: its payload is not JSON (run tablectl journal verify)") from None
    return Entry(s, _text_of(kind), _text(round_id), _text_of(at), value, prev, h, m)


class Journal(SealSteps):
    """One table's journal in one data directory. Use `Journal.open`.

    Appending and reading are here; the seal steps (intent, checkpoint,
    re-seal) are controller/journal/sealing.py's SealSteps."""

    def __init__(self, data_dir: Path, conn: sqlite3.Connection, *, readonly: bool,
                 clock: Callable[[], datetime], seal_frames: int, held: Held | None = None) -> None:
        self.data_dir = data_dir
        # Our own files are read only through descriptors held for the journal's life
        # (sealing.hold: closing one would drop SQLite's locks on the file).
        self._held = held if held is not None else Held(data_dir)
        self.db_path = data_dir / DB_NAME
        self.wal_path = data_dir / (DB_NAME + "-wal")
        self.shm_path = data_dir / (DB_NAME + "-shm")
        self.seal_path = data_dir / SEAL_NAME
        self.readonly = readonly
        self.problems: list[Problem] = []
        self._conn = conn
        self._guard: sqlite3.Connection | None = None
        self._lock_fd: int | None = None
        self._mutex = threading.RLock()
        self._clock = clock
        self._seal_frames = seal_frames
        self.key: bytes | None = None   # the MAC key (load_key); None: entries are not authenticated
        self.replica: Any = None   # controller/journal/replica.py Replica: every batch written there too
        self._seal: Seal | None = None
        self._sealing = False
        self._appends_since_try = 0
        self._backoff = 0
        self._closed = False
        self._load_problems: list[Problem] = []
        self._file_read = False
        self.journal_id = ""
        self._published: int | None = None
        self.head_seq = 0
        self.head_hash = GENESIS_PREV

    # ---- opening and closing ------------------------------------------------

    @classmethod
    def open(cls, data_dir: str | os.PathLike | None = None, *, readonly: bool = False,
             verify: bool = True, file_check: str = "auto", clock: Callable[[], datetime] = utc_now,
             seal_frames: int = SEAL_FRAMES, wait: float = 5.0, key: Any = "env",
             mode: str | None = None) -> Journal:
        """Open (creating when absent) and check the journal in `data_dir`.

        Read-write opens run the start-up check (unless verify=False, for tests
        and tools) and leave its findings in `problems`; read-only opens never
        write anything and check nothing until `verify()` is called.
        `file_check`: "full" reads every byte of the file at start; "auto" (the
        default) reads it only if the file was written since it was sealed, and
        leaves the bytes to `scrub()` once the table is up (sealing.check_file).
        `key`: the MAC key, None for none, or "env" (the default) for the file
        $TABLECTL_JOURNAL_KEY names (load_key). A writer whose key file cannot be
        read finds that a problem; a reader without it checks no MACs and says so.
        Raises JournalUnreadable when there is no usable journal, JournalBusy
        when another process still writes it after `wait` seconds (a `journal
        verify` holds writers off for the moment it reads the file).
        """
        if file_check not in ("auto", "full"):
            raise ValueError(f"file_check: {file_check!r} is not 'auto' or 'full'")
        directory = paths.data_dir(data_dir, create=not readonly)
        db = directory / DB_NAME
        key_problem = None
        if isinstance(key, str) and key == "env":
            try:
                key = load_key()
            except KeyFileError as exc:
                key = None
                key_problem = Problem("journal-key", os.environ.get(KEY_ENV, ""), str(exc))
        if readonly:
            if not db.exists():
                raise JournalUnreadable([Problem("journal-missing", str(directory), "holds no journal")])
            conn = cls._connect(db, readonly=True)
            reader = cls(directory, conn, readonly=True, clock=clock, seal_frames=seal_frames)
            reader.key = key
            try:
                reader._load()
            except BaseException:
                reader._release()
                raise
            return reader
        lock_fd = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(lock_fd)
                    raise JournalBusy(f"another process is writing the journal in {directory}") from None
                time.sleep(0.05)
        j: Journal | None = None
        held = Held(directory)
        try:
            if not db.exists():
                cls._create(directory, clock, key, mode)
            # What the last writer had published in its wal-index, read before our
            # connection recovers the log and rewrites it (Wal.lost_commits).
            published = shm_max_frame(held.fd(DB_NAME + "-shm"))
            j = cls(directory, cls._connect(db, readonly=False), readonly=False, clock=clock,
                    seal_frames=seal_frames, held=held)
            j.key = key
            j._published = published
            j._lock_fd = lock_fd
            j._guard = cls._connect(db, readonly=True)
            j._load()
            if verify:
                j.problems = j._startup_check(full=file_check == "full")
            else:
                try:
                    j._seal = read_seal(j.seal_path, key)
                except SealError as exc:
                    j.problems = [Problem("seal-missing", SEAL_NAME, str(exc))]
            if key_problem is not None:
                j.problems.insert(0, key_problem)
            elif key is None and j._keyed():
                j.problems.insert(0, Problem("journal-key", KEY_ENV, (
                    "the journal's entries carry MACs but no key is configured: "
                    f"${KEY_ENV} must name the journal key file")))
            j.problems += j._reserve()
            j._sealing = not j.problems
            if j._sealing:
                if verify and j._file_read and j._seal is not None and not j._seal.pending \
                        and j._seal.file != fingerprint(j.db_path):
                    # every byte was just read and found sealed (a copied or moved
                    # journal, a new seal): remember the file as it is now
                    j._seal = replace(j._seal, file=fingerprint(j.db_path))
                    write_atomic(j.seal_path, j._seal.dumps(key))
                j._seal_step()
            return j
        except BaseException:
            if j is not None:
                j._release()
            else:
                held.close()
                os.close(lock_fd)
            raise

    @staticmethod
    def _connect(db: Path, *, readonly: bool) -> sqlite3.Connection:
        try:
            if readonly:
                conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None,
                                       check_same_thread=False)
            else:
                conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout=5000")
            if not readonly:
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if mode != "wal":
                    raise JournalError(f"{db} could not be put in WAL mode ({mode})")
                conn.execute("PRAGMA synchronous=FULL")
                conn.execute("PRAGMA wal_autocheckpoint=0")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.text_factory = bytes
            return conn
        except sqlite3.DatabaseError as exc:
            raise JournalUnreadable([Problem("journal-unreadable", db.name, str(exc))]) from None

    @classmethod
    def _create(cls, directory: Path, clock: Callable[[], datetime], key: bytes | None = None,
                mode: str | None = None) -> None:
        """Make a new journal beside the real name, seal it, then move it in place.

        A crash part-way leaves journal-new.db, never a journal.db without a
        seal; a seal without a journal.db means the journal was removed, a fault.
        """
        seal_path, new = directory / SEAL_NAME, directory / NEW_DB_NAME
        if seal_path.exists():
            if new.exists() and not new.with_name(NEW_DB_NAME + "-wal").exists():
                try:
                    if read_seal(seal_path, key).journal_id == cls._genesis_id(new):
                        cls._move_in(directory)
                        return
                except (SealError, sqlite3.DatabaseError, JournalError):
                    pass
            raise JournalUnreadable([Problem(
                "journal-missing", str(directory / DB_NAME),
                "is gone but its seal is there: the journal was removed or moved")])
        for name in (NEW_DB_NAME, NEW_DB_NAME + "-wal", NEW_DB_NAME + "-shm"):
            (directory / name).unlink(missing_ok=True)
        conn = sqlite3.connect(new, isolation_level=None)
        try:
            conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            conn.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={FORMAT}")
            journal_id = uuid.uuid4().hex
            at = _format_time(clock())
            genesis: dict[str, Any] = {"journal_id": journal_id, "format": FORMAT}
            if mode == "test":   # a test table's journal from its first entry (controller/testmode.py)
                genesis["mode"] = "test"
            payload = canonical_payload(genesis)
            h = entry_hash(GENESIS_PREV, 1, "journal-created", None, at, payload.encode())
            conn.execute(f"INSERT INTO entries({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)",
                         (1, "journal-created", None, at, payload, GENESIS_PREV, h,
                          entry_mac(key, h) if key is not None else b""))
            conn.execute("COMMIT")
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if busy:
                raise JournalError(f"{new} is in use by another process")
        finally:
            conn.close()
        size = os.path.getsize(new)
        seal = Seal(journal_id=journal_id, pages=size // PAGE_SIZE,
                    chunks=hash_chunks(new, size, PAGE_SIZE * CHUNK_PAGES), head_seq=1, head_hash=h)
        fd = os.open(new, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        write_atomic(seal_path, seal.dumps(key))
        cls._move_in(directory)

    @staticmethod
    def _move_in(directory: Path) -> None:
        os.replace(directory / NEW_DB_NAME, directory / DB_NAME)
        for name in (NEW_DB_NAME + "-wal", NEW_DB_NAME + "-shm"):
            (directory / name).unlink(missing_ok=True)
        fsync_dir(directory)

    @staticmethod
    def _genesis_id(db: Path) -> str:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT payload FROM entries WHERE seq = 1").fetchone()
        finally:
            conn.close()
        if row is None:
            raise JournalError("no genesis entry")
        return json.loads(row[0])["journal_id"]

    def _load(self) -> None:
        """Check that the file is our journal and find its head and identity."""
        c = self._conn
        try:
            app_id = c.execute("PRAGMA application_id").fetchone()[0]
            version = c.execute("PRAGMA user_version").fetchone()[0]
            if app_id != APPLICATION_ID:
                raise JournalUnreadable([Problem("journal-unreadable", DB_NAME,
                                                 "is not a tablectl journal (application id)")])
            if version != FORMAT:
                raise JournalUnreadable([Problem("journal-unreadable", DB_NAME,
                                                 f"is journal format {version}, not {FORMAT}")])
            schema = [_text_of(r[0]) for r in c.execute(
                "SELECT sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY rowid")]
            if sorted(schema) != sorted(SCHEMA):
                # Still readable, so still worth verifying and reporting in full.
                self._load_problems = [Problem("schema", DB_NAME,
                                               "its tables or triggers differ from the journal's schema")]
            first = c.execute("SELECT kind, payload FROM entries WHERE seq = 1").fetchone()
            last = c.execute("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.DatabaseError as exc:
            raise JournalUnreadable([Problem("journal-unreadable", DB_NAME, str(exc))]) from None
        try:
            if first is None or first[0] != b"journal-created":
                raise ValueError
            self.journal_id = str(json.loads(first[1])["journal_id"])
        except (ValueError, KeyError, TypeError):
            self.journal_id = ""
        if last is not None and type(last[0]) is int and type(last[1]) is bytes:
            self.head_seq, self.head_hash = last

    def attach_replica(self, path: str | os.PathLike) -> int:
        """Keep a second copy at `path` from now on, the entries it lacks written first; how many were."""
        from controller.journal.replica import Replica
        replica = Replica(path, SCHEMA, APPLICATION_ID, FORMAT)
        try:
            count = replica.catch_up(self._rows(f"SELECT {_COLUMNS} FROM entries WHERE seq > ? ORDER BY seq",
                                                (replica.head(),)))
        except BaseException:
            replica.close()
            raise
        self.replica = replica
        return count

    @classmethod
    def restore_from_replica(cls, data_dir: str | os.PathLike, replica: str | os.PathLike,
                             key: bytes | None = None) -> tuple[int, Path | None]:
        """The journal rebuilt from its replica: what was there moved aside (a directory beside it), the copy
        sealed anew and moved in. (head seq, where the damaged files went, None if there were none)."""
        from controller.journal.replica import ReplicaError, copy_into
        directory = Path(data_dir)
        if not Path(replica).exists():
            raise ReplicaError(f"the journal's replica {replica} is not there")
        names = [n for n in (DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm", SEAL_NAME) if (directory / n).exists()]
        aside = None
        if names:
            aside = directory / f"damaged-{_format_time(utc_now()).replace(':', '')}"
            aside.mkdir()
            for n in names:
                os.replace(directory / n, aside / n)
        new = directory / NEW_DB_NAME
        for n in (NEW_DB_NAME, NEW_DB_NAME + "-wal", NEW_DB_NAME + "-shm"):
            (directory / n).unlink(missing_ok=True)
        head = copy_into(Path(replica), new)
        conn = sqlite3.connect(new)
        try:
            conn.text_factory = bytes
            row = conn.execute("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        finally:
            conn.close()
        if row is None:
            raise ReplicaError(f"the journal's replica {replica} holds no entries")
        for n in (NEW_DB_NAME + "-wal", NEW_DB_NAME + "-shm"):
            (directory / n).unlink(missing_ok=True)
        fd = os.open(new, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        size = os.path.getsize(new)
        seal = Seal(journal_id=cls._genesis_id(new), pages=size // PAGE_SIZE,
                    chunks=hash_chunks(new, size, PAGE_SIZE * CHUNK_PAGES), head_seq=row[0], head_hash=row[1])
        write_atomic(directory / SEAL_NAME, seal.dumps(key))
        cls._move_in(directory)
        return head, aside

    def close(self) -> None:
        """Seal what was appended (when the journal is sound) and let go of the files."""
        with self._mutex:
            if self._closed:
                return
            try:
                if not self.readonly and self._sealing:
                    self._seal_step(final=True)
            except (OSError, sqlite3.Error) as exc:   # the full disk's fault is already recorded, or will be at start
                self._io_failed(f"the journal could not be sealed on closing: {exc}")
            finally:
                self._release()

    def _release(self) -> None:
        self._closed = True
        if getattr(self, "replica", None) is not None:
            self.replica.close()
        # The guard (read-only) closes last: SQLite's checkpoint-on-close needs the
        # last connection to be read-write, so no close ever writes the main file.
        for conn in (self._conn, self._guard):
            if conn is not None:
                conn.close()
        self._held.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if not getattr(self, "_closed", True):
            with contextlib.suppress(Exception):   # a finalizer never raises; close() reports
                self._release()

    # ---- appending ----------------------------------------------------------

    def append(self, kind: str, payload: Any = None, *, round_id: str | None = None) -> Entry:
        """Record one entry; returns once it is durable (see the module's contract)."""
        return self.append_many([(kind, payload, round_id)])[0]

    def append_many(self, items: Iterable[tuple[str, Any, str | None]]) -> list[Entry]:
        """Record several entries in one transaction: all durable on return, or none."""
        given = []
        prepared = []
        for kind, payload, round_id in items:
            payload = {} if payload is None else payload
            given.append(payload)
            prepared.append((self._check_kind(kind), canonical_payload(payload), self._check_round(round_id)))
        if not prepared:
            return []
        with self._mutex:
            if self.readonly or self._closed:
                raise JournalError("the journal is closed" if self._closed else "the journal is open read-only")
            at = _format_time(self._clock())
            seq, prev = self.head_seq, self.head_hash
            rows = []
            key = self.key
            for kind, payload, round_id in prepared:
                seq += 1
                h = entry_hash(prev, seq, kind, round_id, at, payload.encode())
                rows.append((seq, kind, round_id, at, payload, prev, h,
                             hmac.digest(key, _ENTRY_TAG + h, "sha256") if key is not None else b""))
                prev = h
            c = self._conn
            try:
                c.execute("BEGIN IMMEDIATE")
                try:
                    c.executemany(f"INSERT INTO entries({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)", rows)
                    c.execute("COMMIT")
                except BaseException:
                    if c.in_transaction:
                        c.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                if _is_io(exc):
                    raise self._io_failed(f"the journal could not record {prepared[0][0]}: {exc}") from None
                raise JournalError(f"the journal could not record {prepared[0][0]}: {exc}") from None
            self.head_seq, self.head_hash = seq, prev
            if self.replica is not None:   # the second copy, before anything is carried out (journal/replica.py)
                from controller.journal.replica import ReplicaError
                try:
                    self.replica.write(rows)
                except ReplicaError as exc:
                    raise self._io_failed(str(exc), committed=True) from None
            try:
                self._maybe_seal()
            except (OSError, sqlite3.Error) as exc:
                raise self._io_failed(f"the journal recorded {prepared[0][0]} (entry {seq}) but could not "
                                      f"seal it: {exc}", committed=True) from None
        # The entries carry the payloads as given (the caller's objects, not copies).
        return [Entry(s, k, r, a, v, pv, h, m) for (s, k, r, a, _, pv, h, m), v in zip(rows, given, strict=True)]

    @staticmethod
    def _check_kind(kind: Any) -> str:
        if type(kind) is not str or not kind or len(kind) > 40 or not set(kind) <= _KIND_CHARS \
                or not kind[0].isalpha():
            raise PayloadError(f"kind: {kind!r} is not a lower-case word like 'round-record'")
        return kind

    @staticmethod
    def _check_round(round_id: Any) -> str | None:
        if round_id is None:
            return None
        if type(round_id) is not str or not round_id or len(round_id) > 64 \
                or not set(round_id) <= _ROUND_CHARS:
            raise PayloadError(f"round_id: {round_id!r} is not letters, digits and -_.:")
        return round_id

    def snapshot(self, state: Mapping[str, Any]) -> Entry:
        """Record the table's state; recovery starts from the latest one."""
        return self.append("snapshot", dict(state))

    def record_round(self, round_id: str, record: Mapping[str, Any], settlement: Mapping[str, Any]) -> Entry:
        """A banked game's round as shared/spec/rounds.md writes it: the record and its settlement."""
        return self.append("round-record", {"record": dict(record), "settlement": dict(settlement)},
                           round_id=round_id)

    def record_hand(self, hand_id: str, phh: str) -> Entry:
        """A poker hand's history in PHH (shared/spec/poker.md)."""
        if not isinstance(phh, str):
            raise PayloadError("phh: a hand history is text")
        return self.append("round-record", {"phh": phh}, round_id=hand_id)

    def recovery(self) -> tuple[Entry | None, list[Entry]]:
        """What the table rebuilds itself from: the latest snapshot and every entry after it."""
        snapshot = self.latest_snapshot()
        return snapshot, list(self.entries_since(snapshot.seq if snapshot else 0))

    # ---- reading ------------------------------------------------------------

    def _rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._mutex:
            if self._closed:
                raise JournalError("the journal is closed")
            try:
                return self._conn.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                raise JournalError(f"the journal could not be read: {exc}") from None

    def _walk(self, where: str, args: tuple, since: int = 0, until: int | None = None,
              columns: str = _COLUMNS, column_args: tuple = ()) -> Iterator[tuple]:
        """Rows in seq order, a batch per query: no read transaction outlives a batch,
        so a slow reader never holds up the checkpoint that seals the file."""
        bound = "" if until is None else f" AND seq <= {int(until)}"
        while True:
            rows = self._rows(f"SELECT {columns} FROM entries WHERE {where} AND seq > ?{bound} "
                              f"ORDER BY seq LIMIT {BATCH}", (*column_args, *args, since))
            yield from rows
            if len(rows) < BATCH:
                return
            since = rows[-1][0]

    def get(self, seq: int) -> Entry | None:
        rows = self._rows(f"SELECT {_COLUMNS} FROM entries WHERE seq = ?", (seq,))
        return _entry(rows[0]) if rows else None

    def entries_since(self, seq: int = 0) -> Iterator[Entry]:
        """Every entry after `seq`, in order (recovery: after the latest snapshot)."""
        return map(_entry, self._walk("1", (), seq))

    def first_of_round(self, round_id: str) -> int | None:
        """The seq of a round's first entry (None: no entry names it)."""
        rows = self._rows("SELECT MIN(seq) FROM entries WHERE round_id = ?", (round_id,))
        return rows[0][0] if rows and rows[0][0] is not None else None

    def round_entries(self, round_id: str) -> list[Entry]:
        """A round's entries in the order they happened."""
        return [_entry(r) for r in self._walk("round_id = ?", (round_id,))]

    def table_entries(self, kind: str, since: int = 0) -> Iterator[Entry]:
        """The table's own entries of a kind (those without a round), in order."""
        return map(_entry, self._walk("round_id IS NULL AND kind = ?", (kind,), since))

    def report_entries(self, kinds: tuple[str, ...], event_mark: str, since: int = 0,
                       unread: tuple[str, ...] = ()) -> Iterator[Entry]:
        """Entries of the given kinds, and the events whose payload holds `event_mark`, in order:
        what a report reads, without decoding every card and button of every round; the JSON
        paths `unread` are left out of each payload by SQLite, before Python decodes it."""
        marks = ", ".join("?" * len(kinds))
        columns = _COLUMNS.replace("payload", f"json_remove(payload, {', '.join('?' * len(unread))})") \
            if unread else _COLUMNS
        return map(_entry, self._walk(f"(kind IN ({marks}) OR (kind = 'event' AND instr(payload, ?) > 0))",
                                      (*kinds, event_mark), since, columns=columns, column_args=unread))

    def entries_of(self, kinds: tuple[str, ...], since: int = 0) -> Iterator[Entry]:
        """Entries of the given kinds, in order (the significant events: controller/journal/events.py)."""
        marks = ", ".join("?" * len(kinds))
        return map(_entry, self._walk(f"kind IN ({marks})", kinds, since))

    def latest(self, kind: str, *, mark: str | None = None) -> Entry | None:
        """The last table entry of a kind (snapshot, fault, software-accepted, ...), or the last
        whose payload holds `mark` (an anchor's record of one sink: controller/journal/anchor.py)."""
        if mark is None:
            rows = self._rows(f"SELECT {_COLUMNS} FROM entries WHERE round_id IS NULL AND kind = ? "
                              "ORDER BY seq DESC LIMIT 1", (kind,))
        else:
            rows = self._rows(f"SELECT {_COLUMNS} FROM entries WHERE round_id IS NULL AND kind = ? "
                              "AND instr(payload, ?) > 0 ORDER BY seq DESC LIMIT 1", (kind, mark))
        return _entry(rows[0]) if rows else None

    def latest_snapshot(self) -> Entry | None:
        return self.latest("snapshot")

    def round_ids(self) -> list[tuple[str, int, int, int]]:
        """(round id, first seq, last seq, entries) for every round, in order of opening."""
        rows = self._rows("SELECT round_id, min(seq), max(seq), count(*) FROM entries "
                          "WHERE round_id IS NOT NULL GROUP BY round_id ORDER BY min(seq)")
        return [(_text_of(r), a, b, n) for r, a, b, n in rows]

    def round_record(self, round_id: str) -> Entry | None:
        rows = self._rows(f"SELECT {_COLUMNS} FROM entries WHERE round_id = ? AND kind = 'round-record' "
                          "ORDER BY seq DESC LIMIT 1", (round_id,))
        return _entry(rows[0]) if rows else None

    def settings(self) -> dict[str, Any]:
        """The durability settings in force on the journal's connection, as SQLite reports them."""
        names = ("journal_mode", "synchronous", "wal_autocheckpoint", "page_size", "application_id")
        return {n: (lambda v: _text(v) if isinstance(v, bytes) else v)(self._rows(f"PRAGMA {n}")[0][0])
                for n in names}

    # ---- checking -----------------------------------------------------------

    def _wal_state(self, check_log: bool = True) -> tuple[list[Problem], dict[int, set[bytes]]]:
        """Committed frames SQLite dropped, and the versions of pages the log holds.

        The dropped-frames check needs the log at rest: beside a running writer
        a transaction's frames are in the file a moment before SQLite's index
        counts them, so `verify` leaves it to the writer's own start-up check.
        """
        self._rows("SELECT count(*) FROM sqlite_master")  # so our connection has recovered the log
        wal = read_wal(self._held.fd(self.wal_path.name))
        mx = shm_max_frame(self._held.fd(self.shm_path.name))
        if mx is None:
            mx = len(wal.committed())
        problems = []
        lost = wal.lost_commits(mx, self._published) if check_log else []
        self._published = None   # true of the log as the last writer left it, not once we write
        if lost:
            problems.append(Problem(
                "wal-lost-commits", f"{self.wal_path.name} frames {lost[0].index}-{lost[-1].index}",
                f"{len(lost)} committed transaction(s) fail their checksums and were dropped by SQLite"))
        return problems, wal.versions(wal.committed(limit=mx))

    def _check_file(self, seal: Seal | None, check_log: bool = True,
                    full: bool = True) -> tuple[list[Problem], Seal | None]:
        problems = []
        if seal is None:
            try:
                seal = read_seal(self.seal_path, self.key)
            except SealError as exc:
                code = ("seal-missing" if "missing" in str(exc) else
                        "seal-forged" if isinstance(exc, SealForged) else "seal-corrupt")
                return [Problem(code, SEAL_NAME, str(exc))], None
        if seal.journal_id != self.journal_id:
            return [Problem("seal-foreign", SEAL_NAME, "belongs to another journal")], None
        wal_problems, versions = self._wal_state(check_log)
        problems += wal_problems
        self._file_read = bool(full or seal.pending or seal.file != fingerprint(self.db_path))
        problems += check_file(self._db_fd(), seal, versions, full=full, name=DB_NAME)
        return problems, seal

    def _startup_check(self, full: bool = False) -> list[Problem]:
        try:
            return self._startup_problems(full)
        except JournalError as exc:  # SQLite met a damaged page while we walked the chain
            return [Problem("journal-unreadable", DB_NAME, str(exc))]

    def _startup_problems(self, full: bool) -> list[Problem]:
        problems, seal = self._check_file(None, full=full)
        problems = self._load_problems + problems
        if seal is not None and not any(p.code == "seal-mismatch" for p in problems):
            self._seal = seal
            # The sealed head: its bytes are covered by the seal, but if it sits in a
            # page under an intent it is worth the one look.
            sealed = self._rows(f"SELECT {_COLUMNS} FROM entries WHERE seq = ?", (seal.head_seq,))
            if not sealed or sealed[0][6] != seal.head_hash:
                problems.append(Problem("chain-link", f"entry {seal.head_seq}",
                                        "is not the entry the seal recorded as the head"))
            start_seq, start_hash = seal.head_seq, seal.head_hash
        else:
            start_seq, start_hash = 0, GENESIS_PREV
        chain, _last_seq, _ = check_chain(self._walk("1", (), start_seq), start_seq + 1, start_hash, self.key)
        problems += chain
        if start_seq == 0:
            problems += self._genesis_problems()
        return problems

    def _genesis_problems(self) -> list[Problem]:
        first = self.get(1) if self.head_seq else None
        if first is None or first.kind != "journal-created" or first.prev != GENESIS_PREV:
            return [Problem("chain-genesis", "entry 1", "is not the entry that created the journal")]
        return []

    def verify(self) -> list[Problem]:
        """Everything: the file against its seal, the log, the whole chain, SQLite's own check.

        Safe beside the running table (which holds off re-sealing meanwhile) and
        changes nothing.
        """
        with self._seal_lock(shared=True), self._writer_lock() as at_rest:
            problems, _ = self._check_file(None, check_log=at_rest)
        problems = self._load_problems + problems
        try:
            chain, _, _ = check_chain(self._walk("1", ()), 1, GENESIS_PREV, self.key)
            problems += chain + self._genesis_problems()
        except JournalError as exc:
            problems.append(Problem("journal-unreadable", DB_NAME, str(exc)))
        try:
            rows = [_text_of(r[0]) for r in self._rows("PRAGMA integrity_check")]
        except JournalError as exc:
            rows = [str(exc)]
        if rows != ["ok"]:
            problems += [Problem("integrity-check", DB_NAME, r) for r in rows]
        return problems

    def scrub(self, *, batch: int = 256) -> list[Problem]:
        """Re-read every sealed byte of the file against the seal, a batch of chunks at a time.

        The table runs this in a thread once it is up (and, say, daily): it is
        what finds a change that did not go through the file system (a disk
        returning other bytes than were written) when the start-up check took
        the file's fingerprint for it. Problems found are added to `problems`
        and stop re-sealing, as at start.
        """
        found: list[Problem] = []
        c = 0
        while True:
            with self._seal_lock(shared=True):
                seal = self._seal if not self.readonly else None
                if seal is None:
                    try:
                        seal = read_seal(self.seal_path, self.key)
                    except SealError as exc:
                        found.append(Problem("seal-missing", SEAL_NAME, str(exc)))
                        break
                if c >= len(seal.chunks):
                    break
                found += scrub_file(self._db_fd(), seal, c, c + batch, name=DB_NAME)
            c += batch
        if found and not self.readonly:
            with self._mutex:
                self._fail(found)
        return found

    def reread(self, first: int) -> tuple[list[Problem], list[Entry]]:
        """The entries from `first` to the head read again from the disk, through a connection of their own
        (no page this process holds in memory stands in for what the disk now says), their chain and MACs
        checked from the entry before `first`, and the head found where this writer left it. The round's
        close check (controller/journal/roundcheck.py): problems stop re-sealing, as the scrub's do."""
        found: list[Problem] = []
        rows: list[tuple] = []
        try:
            conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
            try:
                conn.text_factory = bytes
                rows = conn.execute(f"SELECT {_COLUMNS} FROM entries WHERE seq >= ? AND seq <= ? ORDER BY seq",
                                    (max(1, first - 1), self.head_seq)).fetchall()
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            found.append(Problem("journal-unreadable", DB_NAME, f"reading entries {first}-{self.head_seq} again: {exc}"))
        if not found:
            base = rows[:1] if first > 1 else []
            start, prev = (first, base[0][6]) if base else (1, GENESIS_PREV)
            chain, last_seq, last = check_chain(rows[len(base):], start, prev if isinstance(prev, bytes) else b"",
                                                self.key)
            found += chain
            if (last_seq, last) != (self.head_seq, self.head_hash):
                found.append(Problem("chain-head", f"entry {self.head_seq}",
                                     "read again, the journal does not end where this table wrote it"))
        if found and not self.readonly:
            with self._mutex:
                self._fail(found)
        return found, [_entry(r) for r in rows[1 if first > 1 else 0:]] if not found else []

    def acknowledged(self) -> dict[tuple[str, str], Entry]:
        """Problems a supervisor accepted when clearing a fault: (code, where) -> that entry."""
        out = {}
        for e in self.table_entries("fault-cleared"):
            for p in e.payload.get("accepted", []) if isinstance(e.payload, dict) else []:
                if isinstance(p, dict) and "code" in p and "where" in p:
                    out[(p["code"], p["where"])] = e
        return out

    # ---- sealing ------------------------------------------------------------

    @contextmanager
    def _writer_lock(self):
        """Hold off a writer while the file is checked; yields False if one is running."""
        if self._lock_fd is not None:  # we are the writer
            yield True
            return
        try:
            fd = os.open(self.data_dir / LOCK_NAME, os.O_RDONLY)
        except FileNotFoundError:
            yield True
            return
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                at_rest = True
            except BlockingIOError:
                at_rest = False
            yield at_rest
        finally:
            os.close(fd)

    def _keyed(self) -> bool:
        """Whether the journal was written with a key (its first entry carries a MAC)."""
        rows = self._rows("SELECT mac FROM entries WHERE seq = 1")
        return bool(rows and rows[0][0])

    def _check_tail(self, seq: int, head: bytes) -> tuple[list[Problem], int, bytes]:
        """The chain (and MACs) after entry `seq` whose hash is `head`: what a seal step re-checks."""
        return check_chain(self._walk("1", (), seq), seq + 1, head, self.key)

    # ---- a full disk -------------------------------------------------------

    def _reserve(self) -> list[Problem]:
        """Set aside RESERVE_BYTES (allocated, not a sparse promise) for the record of a fault."""
        path = self.data_dir / RESERVE_NAME
        try:
            if path.exists() and path.stat().st_blocks * 512 >= RESERVE_BYTES:
                return []
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                os.posix_fallocate(fd, 0, RESERVE_BYTES)
                os.fsync(fd)
            finally:
                os.close(fd)
            return []
        except OSError as exc:
            path.unlink(missing_ok=True)
            return [Problem("journal-io", RESERVE_NAME,
                            f"the disk has no room for the fault record's reserve: {exc.strerror}")]

    def free_reserve(self) -> bool:
        """Give the reserve back to the file system (the disk is full): True if there was one."""
        try:
            (self.data_dir / RESERVE_NAME).unlink()
            return True
        except OSError:
            return False

    def _io_failed(self, message: str, committed: bool = False) -> JournalIOError:
        """The disk failed us: stop sealing, keep the problem, free the reserve for the fault record."""
        self.free_reserve()
        self._fail([Problem("journal-io", DB_NAME, message)])
        return JournalIOError(message, committed)

    def _db_fd(self) -> int:
        fd = self._held.fd(DB_NAME)
        if fd is None:
            raise JournalError(f"{DB_NAME} is gone from {self.data_dir}")
        return fd

    def _restore_schema(self) -> None:
        """Put back an index or trigger that was dropped; what was added stays a problem."""
        present = {_text(r[0]) for r in self._rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")}
        missing = [s for s in SCHEMA if s not in present and not s.startswith("CREATE TABLE")]
        if missing:
            c = self._conn
            c.execute("BEGIN IMMEDIATE")
            try:
                for statement in missing:
                    c.execute(statement)
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
        self._load_problems = []
        self._load()

    def accept_current_state(self) -> None:
        """Seal the file as it stands now (a supervisor has cleared the fault).

        The entry that records who accepted it is appended by the caller first,
        so the new seal covers it.
        """
        with self._mutex, self._seal_lock():
            conn = self._conn
            self._restore_schema()
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if busy or os.path.getsize(self.wal_path) != 0:
                raise JournalError("a reader holds the journal; close other tablectl commands and retry")
            size = os.path.getsize(self.db_path)
            fd = self._db_fd()
            os.fsync(fd)
            seal = Seal(journal_id=self.journal_id, pages=size // PAGE_SIZE,
                        chunks=hash_chunks(fd, size, PAGE_SIZE * CHUNK_PAGES),
                        head_seq=self.head_seq, head_hash=self.head_hash, file=fingerprint(self.db_path))
            write_atomic(self.seal_path, seal.dumps(self.key))
            self._seal = seal
            self.problems = []
            self._sealing = True

