"""The journal file's seal: a digest of every byte of the SQLite file.

Why a seal as well as the hash chain. The chain (controller/journal/store.py) proves
that the journal's rows are the ones appended, in order; but an SQLite file
holds more than rows: b-tree page headers, index pages, the space between
cells, free pages. A flipped byte there is invisible to the chain and often to
SQLite itself (`PRAGMA integrity_check` does not read unused space), yet "a
single flipped byte anywhere in the journal is detected at start" is the
requirement, because a file that changed in a place nobody reads was still
changed by something. So the data directory holds `journal.seal`: the SHA-256
of every 64 KiB chunk of the database file, the chain's head at that moment
and the journal's identity, and a SHA-256 over the seal itself.

Why it can be kept exact without re-hashing the file on every append. The
table's connection runs with `wal_autocheckpoint=0`: SQLite then never writes
the main file except when the journal itself checkpoints, so between two
checkpoints the main file is frozen and new data lives only in the write-ahead
log (checksummed frame by frame by SQLite, and chained by us). At each
checkpoint the journal (1) re-reads the chunks the log will overwrite and
checks them against the seal, (2) writes an *intent* into the seal: for every
page of those chunks, the digests it may legitimately hold afterwards (its
verified old content, or any committed version of it in the log), (3)
checkpoints (RESTART; TRUNCATE when closing), (4) re-hashes those chunks,
checks every page against the intent and writes the seal without it. A crash
at any point leaves a seal that still accounts for every byte: untouched
chunks match their digest, touched pages match their old content or a
version from the log; a page the log still holds (perhaps torn by a power cut
mid-checkpoint) is checked after the next start's checkpoint has rewritten it
from the log. A checkpoint that a reader holds up half-way simply leaves the
intent in place until a later one completes.

Why not a checksum inside each page (SQLite's cksumvfs): it needs a C
extension loaded before the file is opened and reserves bytes in every page,
and Python's sqlite3 cannot register a VFS; the seal gives the same coverage
from outside the file with only the standard library.

Why SHA-256 for the chunks, and an HMAC over the seal: the chunk digests
find a changed byte; whether the seal itself was written by the table is a
question for the key, which is kept outside the data directory (a key beside
the journal would protect against nobody who can rewrite it). With a key the
seal ends with HMAC-SHA256 of its body (`Seal.dumps(key)`), and a seal
without it, or with another key's, is refused (SealForged); the journal's
head is also anchored off the box (controller/journal/anchor.py). SHA-256 far
exceeds the 16-bit CRC that 9 NYCRR 5321.18(b)(3)(iv) asks of program
storage.

What start-up reads. Reading every byte is the only way to find every
flipped byte, and it grows with the journal (about 11 MB per 1,000 rounds of
Caribbean stud; at 1.1 GB hashing is about a second warm and disk-bound
cold). So the seal also records the file's fingerprint when it was sealed
(inode, size, mtime, ctime): a file written since, by anything, has a new
ctime, which no program can set back, and is read in full at start; an
untouched file is taken as sealed without reading it, keeping start-up flat.
What the fingerprint cannot see (a disk returning other bytes than were
written, or a clock set back to forge ctime, which takes root, who could as
well rewrite the seal) is found by `scrub`, which the table runs in the
background once it is up and which re-reads every sealed byte, and by
`tablectl journal verify`. `Journal.open(file_check="full")` reads everything
at start for whoever prefers that to a flat start.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import hmac
import json
import os
import sqlite3
import struct
import threading
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

# re-exported: the journal and the seal write through them
from controller.journal.durable import fsync_dir as fsync_dir, write_atomic as write_atomic

PAGE_SIZE = 4096
CHUNK_PAGES = 16
SEAL_FORMAT = 1
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
FRAME_HEADER = 24
SHM_VERSION = 3007000
# SQLite never writes the page holding the file's bytes 2^30..2^30+511 (its lock
# bytes, https://sqlite.org/fileformat2.html#the_lock_byte_page): once the file
# grows past 1 GiB that page is a hole of zeros that no log frame ever carries.
LOCK_BYTE_OFFSET = 0x40000000


def lock_page(page_size: int) -> int:
    return LOCK_BYTE_OFFSET // page_size + 1


def blank_digests(pgno: int, page_size: int) -> set[bytes]:
    """What a page may hold without the log having written it: zeros, for the lock-byte page."""
    return {sha(bytes(page_size))} if pgno == lock_page(page_size) else set()


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the journal: `code` for machines, `where` and `detail` for people."""

    code: str
    where: str
    detail: str

    def to_json(self) -> dict:
        return {"code": self.code, "where": self.where, "detail": self.detail}

    @classmethod
    def from_json(cls, value: Mapping) -> Problem:
        return cls(str(value["code"]), str(value["where"]), str(value["detail"]))

    def __str__(self) -> str:
        return f"{self.where}: {self.detail}" if self.where else self.detail


class SealError(Exception):
    """The seal file is missing, unreadable or fails its own digest."""


class SealForged(SealError):
    """The seal is whole but not written with the journal's key."""


_SEAL_TAG = b"tablectl journal seal\0"


def seal_mac(key: bytes, body: bytes) -> str:
    return hmac.new(key, _SEAL_TAG + body, "sha256").hexdigest()


def sha(data: bytes | memoryview) -> bytes:
    return hashlib.sha256(data).digest()


@dataclass
class Seal:
    """Digests of the main database file as of the last completed checkpoint."""

    journal_id: str
    pages: int                      # pages covered by `chunks`
    chunks: list[bytes]             # SHA-256 of each chunk, the last one possibly short
    head_seq: int                   # the chain's last entry in the main file, verified when sealed
    head_hash: bytes
    pending: dict[int, set[bytes]] = field(default_factory=dict)  # page -> acceptable digests
    file: dict[str, int] | None = None  # the file's fingerprint when sealed (see `fingerprint`)
    page_size: int = PAGE_SIZE
    chunk_pages: int = CHUNK_PAGES

    @property
    def chunk_size(self) -> int:
        return self.page_size * self.chunk_pages

    def pending_chunks(self) -> set[int]:
        return {(pgno - 1) // self.chunk_pages for pgno in self.pending}

    def dumps(self, key: bytes | None = None) -> bytes:
        """The seal's text: its body, SHA-256 of the body, and with a key an HMAC of the body."""
        text = self._dumps()
        return text if key is None else text + seal_mac(key, text.split(b"\n", 1)[0]).encode() + b"\n"

    def _dumps(self) -> bytes:
        body = json.dumps({
            "format": SEAL_FORMAT,
            "journal_id": self.journal_id,
            "page_size": self.page_size,
            "chunk_pages": self.chunk_pages,
            "pages": self.pages,
            "head_seq": self.head_seq,
            "head_hash": self.head_hash.hex(),
            "pending": {str(p): sorted(d.hex() for d in ds) for p, ds in sorted(self.pending.items())},
            "file": self.file,
            "chunks": base64.b64encode(b"".join(self.chunks)).decode(),
        }, sort_keys=True, separators=(",", ":")).encode()
        return body + b"\n" + hashlib.sha256(body).hexdigest().encode() + b"\n"

    @classmethod
    def loads(cls, data: bytes, key: bytes | None = None) -> Seal:
        """The seal in `data`; with `key`, only if its HMAC is the key's (SealForged otherwise)."""
        try:
            body, digest, rest = data.split(b"\n", 2)
        except ValueError:
            raise SealError("the seal is truncated") from None
        if hashlib.sha256(body).hexdigest().encode() != digest:
            raise SealError("the seal fails its own digest")
        mac = rest[:-1] if rest.endswith(b"\n") and rest.count(b"\n") == 1 else None
        if rest and (mac is None or len(mac) != 64):
            raise SealError("the seal fails its own digest")
        if key is not None and (mac is None or not hmac.compare_digest(mac.decode("ascii", "replace"),
                                                                       seal_mac(key, body))):
            raise SealForged("the seal is not authenticated by the journal key"
                             + (" (it carries no MAC)" if mac is None else " (its MAC is another key's)"))
        try:
            v = json.loads(body)
            if v["format"] != SEAL_FORMAT:
                raise SealError(f"seal format {v['format']} is not {SEAL_FORMAT}")
            raw = base64.b64decode(v["chunks"], validate=True)
            if len(raw) % 32:
                raise SealError("the seal's chunk digests are cut short")
            seal = cls(
                journal_id=v["journal_id"], pages=int(v["pages"]),
                chunks=[raw[i:i + 32] for i in range(0, len(raw), 32)],
                head_seq=int(v["head_seq"]), head_hash=bytes.fromhex(v["head_hash"]),
                pending={int(p): {bytes.fromhex(d) for d in ds} for p, ds in v["pending"].items()},
                file=({k: int(v["file"][k]) for k in FINGERPRINT} if v.get("file") is not None else None),
                page_size=int(v["page_size"]), chunk_pages=int(v["chunk_pages"]))
        except SealError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise SealError(f"the seal is malformed ({exc})") from None
        if len(seal.chunks) != -(-seal.pages // seal.chunk_pages):
            raise SealError("the seal's chunk count does not match its page count")
        return seal


FINGERPRINT = ("ino", "size", "mtime_ns", "ctime_ns")


def fingerprint(path: Path | int) -> dict[str, int]:
    """What the file system says about the file: any write to it moves ctime, which
    no program can set back (only a change of the system clock can)."""
    st = os.fstat(path) if isinstance(path, int) else os.stat(path)
    return {"ino": st.st_ino, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns}


# --------------------------------------------------------------------------
# One descriptor per file per process
# --------------------------------------------------------------------------
#
# SQLite's locks on journal.db and journal.db-shm are POSIX (fcntl) locks, and
# POSIX drops every lock a process holds on a file when the process closes
# *any* descriptor of that file. A table that opened -shm to read its header
# and closed it again lost its wal-index lock; the next reader (`tablectl
# journal verify`) then found itself the first connection, truncated -shm,
# and the table's memory map of it faulted (SIGBUS). So the journal's files
# are read only through descriptors that stay open while anything in the
# process uses them: `hold` shares one read-only descriptor per file among
# every Journal in the process (the table's writer, the report screen's and
# the floor sender's readers) and `let_go` closes it only when the last user
# has closed its SQLite connections.

_held_lock = threading.Lock()
_held: dict[tuple[int, int], list] = {}    # (device, inode) -> [fd, users]
_held_fds: dict[int, tuple[int, int]] = {}


def hold(path: Path) -> int | None:
    """A read-only descriptor of `path` shared in this process (None if there is no such file)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    key = (st.st_dev, st.st_ino)
    with _held_lock:
        entry = _held.get(key)
        if entry is not None:
            entry[1] += 1
            return entry[0]
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        entry = _held.get(key)
        if entry is not None:   # replaced between the stat and the open: keep both, never close either early
            entry[1] += 1
            _held[(-1, fd)] = [fd, 1]
            _held_fds[fd] = (-1, fd)
            return entry[0]
        _held[key] = [fd, 1]
        _held_fds[fd] = key
        return fd


def let_go(fd: int | None) -> None:
    """One user less of a held descriptor; closed with its last user."""
    if fd is None:
        return
    with _held_lock:
        key = _held_fds.get(fd)
        if key is None:
            return
        entry = _held[key]
        entry[1] -= 1
        if entry[1] <= 0:
            del _held[key], _held_fds[fd]
            os.close(fd)


class Held:
    """A journal's descriptors of its own files, kept for the life of the journal."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._fds: dict[str, tuple[int, int]] = {}   # name -> (fd, inode)

    def fd(self, name: str) -> int | None:
        """The held descriptor of the file `name` as it is now (a file replaced is held anew)."""
        path = self.directory / name
        try:
            ino = os.stat(path).st_ino
        except FileNotFoundError:
            return None
        known = self._fds.get(name)
        if known is not None:
            if known[1] == ino:
                return known[0]
            del self._fds[name]
            let_go(known[0])
        fd = hold(path)
        if fd is not None:
            self._fds[name] = (fd, os.fstat(fd).st_ino)
        return fd

    def close(self) -> None:
        for fd, _ in self._fds.values():
            let_go(fd)
        self._fds.clear()


def _size(source: Path | int) -> int:
    return os.fstat(source).st_size if isinstance(source, int) else os.path.getsize(source)


def read_seal(path: Path, key: bytes | None = None) -> Seal:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SealError(f"{path.name} is missing") from None
    except OSError as exc:
        raise SealError(f"{path.name} cannot be read: {exc.strerror}") from None
    return Seal.loads(data, key)


# --------------------------------------------------------------------------
# Hashing the main file
# --------------------------------------------------------------------------

def scrub_file(db: Path | int, seal: Seal, start: int = 0, stop: int | None = None,
               name: str = "journal.db") -> list[Problem]:
    """Re-read sealed chunks [start, stop) and compare them with the seal (no intent pending on them)."""
    name = db.name if isinstance(db, Path) else name
    stop = len(seal.chunks) if stop is None else min(stop, len(seal.chunks))
    if start >= stop:
        return []
    end = min(seal.pages * seal.page_size, stop * seal.chunk_size)
    size = _size(db)
    digests = _hash_range(db, seal.chunk_size, start, stop, min(end, size))
    skip = seal.pending_chunks()
    problems = []
    for i, got in enumerate(digests):
        c = start + i
        if c not in skip and got != seal.chunks[c]:
            lo = c * seal.chunk_size
            hi = min(lo + seal.chunk_size, seal.pages * seal.page_size) - 1
            problems.append(Problem("seal-mismatch", f"{name} bytes {lo}-{hi}",
                                    "differs from the seal (found by the scrub)"))
    if len(digests) < stop - start:
        problems.append(Problem("file-size", name, "is shorter than the seal says"))
    return problems


def _hash_range(path: Path | int, chunk_size: int, start: int, stop: int, end: int) -> list[bytes]:
    """Digests of chunks [start, stop) of a file whose covered bytes end at `end`."""
    out = []
    block_chunks = max(1, (1 << 20) // chunk_size)
    fd = path if isinstance(path, int) else os.open(path, os.O_RDONLY)
    try:
        c = start
        while c < stop:
            n = min(block_chunks, stop - c)
            offset = c * chunk_size
            length = max(0, min(n * chunk_size, end - offset))
            data = os.pread(fd, length, offset)
            view = memoryview(data)
            for i in range(n):
                out.append(hashlib.sha256(view[i * chunk_size:(i + 1) * chunk_size]).digest())
            c += n
    finally:
        if not isinstance(path, int):
            os.close(fd)
    return out


def hash_chunks(path: Path | int, end: int, chunk_size: int, *, workers: int | None = None) -> list[bytes]:
    """SHA-256 of every chunk of the first `end` bytes of `path`, spread over the cores."""
    count = -(-end // chunk_size)
    if count == 0:
        return []
    workers = workers or min(4, os.cpu_count() or 1)
    if workers == 1 or count < 64:
        return _hash_range(path, chunk_size, 0, count, end)
    step = -(-count // workers)
    with ThreadPoolExecutor(workers) as pool:
        parts = pool.map(lambda s: _hash_range(path, chunk_size, s, min(s + step, count), end),
                         range(0, count, step))
        return [d for part in parts for d in part]


def read_pages(path: Path | int, page_size: int, pgnos: Iterable[int]) -> dict[int, bytes]:
    """The given pages (1-based, as SQLite numbers them) that exist in the file."""
    out = {}
    fd = path if isinstance(path, int) else os.open(path, os.O_RDONLY)
    try:
        for pgno in pgnos:
            data = os.pread(fd, page_size, (pgno - 1) * page_size)
            if len(data) == page_size:
                out[pgno] = data
    finally:
        if not isinstance(path, int):
            os.close(fd)
    return out


def read_at(fd: int, length: int, offset: int) -> bytes:
    """`length` bytes at `offset` (fewer at the end of the file), through a held descriptor."""
    parts = []
    while length > 0:
        data = os.pread(fd, length, offset)
        if not data:
            break
        parts.append(data)
        length -= len(data)
        offset += len(data)
    return b"".join(parts)


# --------------------------------------------------------------------------
# The write-ahead log (https://sqlite.org/fileformat2.html#walformat)
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class WalFrame:
    index: int        # 1-based frame number
    pgno: int
    commit: int       # database size in pages after a commit frame, else 0
    salt: tuple[int, int]
    offset: int       # file offset of the page data


@dataclass(frozen=True)
class Wal:
    path: Path | int | None   # the log file, or a held descriptor of it
    page_size: int
    salt: tuple[int, int] | None   # from the header, None when the header is unreadable
    frames: tuple[WalFrame, ...]   # every complete frame in the file

    def committed(self, limit: int | None = None) -> list[WalFrame]:
        """Frames of this log generation up to its last commit frame (or frame `limit`)."""
        if self.salt is None:
            return []
        out: list[WalFrame] = []
        last_commit = 0
        for f in self.frames:
            if f.salt != self.salt or (limit is not None and f.index > limit):
                break
            out.append(f)
            if f.commit:
                last_commit = len(out)
        return out[:last_commit]

    def versions(self, frames: Iterable[WalFrame]) -> dict[int, set[bytes]]:
        """page -> digests of every version of it among `frames`."""
        out: dict[int, set[bytes]] = {}
        frames = list(frames)
        if not frames or self.path is None:
            return out
        fd = self.path if isinstance(self.path, int) else os.open(self.path, os.O_RDONLY)
        try:
            for fr in frames:
                out.setdefault(fr.pgno, set()).add(sha(read_at(fd, self.page_size, fr.offset)))
        finally:
            if not isinstance(self.path, int):
                os.close(fd)
        return out

    def lost_commits(self, mx_frame: int, published: int | None = None) -> list[WalFrame]:
        """Commit frames that SQLite did not take up to `mx_frame`: committed data it dropped.

        SQLite ends the log at the first frame whose checksum fails, so a flipped
        byte in a committed frame silently loses it and every later transaction.
        A frame belongs to the current generation if either salt matches the
        header's or the first frame's: one flipped byte cannot change both of
        both. The first frame counts only when it shares a salt with the header
        (or the header is unreadable): a log reused in place keeps the frames of
        earlier generations, and until the new one writes its first frame, frame
        1 is an old one, long checkpointed.

        A transaction that a crash cut short is not loss. Cut before its commit
        frame it has none; but SQLite writes a frame's header and its page in two
        writes, and in a log reused in place a kill between them leaves a commit
        frame that looks whole (its page is the old bytes at that offset) and
        fails its checksum. `published` tells them apart: the last frame the
        writer had published in its wal-index (the -shm, read before SQLite
        recovers the log), which counts a transaction only once it was written
        whole. Loss is a commit it published that recovery dropped. Without it
        (no wal-index to read), only the generation's last commit can be a
        crash's, so every commit dropped before it is loss.
        """
        refs = set()
        if self.salt is not None:
            refs.add(self.salt)
        if self.frames and (self.salt is None or self.frames[0].salt[0] == self.salt[0]
                            or self.frames[0].salt[1] == self.salt[1]):
            refs.add(self.frames[0].salt)
        commits = []
        for f in self.frames:
            if not any(f.salt[0] == r[0] or f.salt[1] == r[1] for r in refs):
                break
            if f.commit:
                commits.append(f)
        if published is not None:
            return [f for f in commits if mx_frame < f.index <= published]
        return [f for f in commits[:-1] if f.index > mx_frame]


def read_wal(path: Path | int | None, page_size: int = PAGE_SIZE) -> Wal:
    """Frame headers of the log as they lie in the file (no checksums verified).

    `path` may be a held descriptor (see `hold`), None for no log.
    """
    if path is None:
        return Wal(None, page_size, None, ())
    if isinstance(path, int):
        data = read_at(path, os.fstat(path).st_size, 0)
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return Wal(path, page_size, None, ())
    salt = None
    if len(data) >= WAL_HEADER:
        magic, _version, ps, _ckpt, s1, s2, _c1, _c2 = struct.unpack(">8I", data[:WAL_HEADER])
        if magic in WAL_MAGIC and ps == page_size:
            salt = (s1, s2)
    frame_size = FRAME_HEADER + page_size
    frames = []
    count = max(0, (len(data) - WAL_HEADER) // frame_size)
    for i in range(count):
        off = WAL_HEADER + i * frame_size
        pgno, commit, s1, s2 = struct.unpack_from(">4I", data, off)
        frames.append(WalFrame(i + 1, pgno, commit, (s1, s2), off + FRAME_HEADER))
    return Wal(path, page_size, salt, tuple(frames))


def shm_state(path: Path | int | None) -> tuple[int, int] | None:
    """(last valid frame, frames already copied into the file) from SQLite's wal-index.

    The -shm file's header (https://sqlite.org/walformat.html#the_wal_index_file_format)
    is written by the connection that recovered the log; it is read here only
    after our own connection has read the database, so it is current. None
    when it cannot be read or is not the format we know.
    """
    if path is None:
        return None
    try:
        if isinstance(path, int):
            head = os.pread(path, 100, 0)
        else:
            with open(path, "rb") as f:
                head = f.read(100)
    except OSError:
        return None
    if len(head) < 100 or head[:48] != head[48:96]:
        return None
    version, _unused, _change, is_init, _big, _ps, mx_frame = struct.unpack_from("=IIIBBHI", head, 0)
    if version != SHM_VERSION or not is_init:
        return None
    (backfilled,) = struct.unpack_from("=I", head, 96)
    return mx_frame, backfilled


def shm_max_frame(path: Path | int | None) -> int | None:
    state = shm_state(path)
    return None if state is None else state[0]


# --------------------------------------------------------------------------
# Checking the main file against the seal
# --------------------------------------------------------------------------

def check_file(db: Path | int, seal: Seal, wal_versions: Mapping[int, set[bytes]], *,
               full: bool = True, name: str = "journal.db") -> list[Problem]:
    """Every byte of the main file against the seal; problems name the byte range.

    `wal_versions` are the committed versions of pages in the log now: a page
    in the seal's intent may hold one of them (a checkpoint got that far).
    Unless `full`, a file whose fingerprint is the one recorded when it was
    sealed (not written since, by anyone) is taken as sealed without reading
    it: the start-up check stays flat however long the journal, and the
    bytes are re-read by `scrub` once the table is up and by `verify`.
    """
    if not full and not seal.pending and seal.file is not None and seal.file == fingerprint(db):
        return []
    name = db.name if isinstance(db, Path) else name
    problems = []
    ps, size = seal.page_size, _size(db)
    if size % ps:
        problems.append(Problem("file-size", name,
                                f"{size} bytes is not a whole number of {ps}-byte pages"))
    pages_now = size // ps
    sealed_end = seal.pages * ps
    if pages_now < seal.pages:
        problems.append(Problem("file-size", name,
                                f"holds {pages_now} pages; the seal covers {seal.pages}"))
    pending_chunks = seal.pending_chunks()
    digests = hash_chunks(db, min(size, sealed_end), seal.chunk_size)
    for c, want in enumerate(seal.chunks):
        if c in pending_chunks:
            continue
        if c >= len(digests) or digests[c] != want:
            lo = c * seal.chunk_size
            hi = min(lo + seal.chunk_size, sealed_end) - 1
            problems.append(Problem("seal-mismatch", f"{name} bytes {lo}-{hi}",
                                    "differs from the seal (changed outside the journal)"))
    # pages under the intent, and pages beyond the sealed end (the file grew)
    check = set(seal.pending) | set(range(seal.pages + 1, pages_now + 1))
    for c in pending_chunks:
        first = c * seal.chunk_pages + 1
        check.update(p for p in range(first, first + seal.chunk_pages) if p <= pages_now)
    # A page under the intent that the log holds a version of is rewritten by
    # the checkpoint that completes the intent (possibly torn by a power cut
    # half-way); SQLite reads the log's version meanwhile. It is checked after
    # that checkpoint, by the journal's seal step.
    check = {p for p in check if p <= pages_now
             and not (p in wal_versions and (p in seal.pending or p > seal.pages))}
    pages = read_pages(db, ps, sorted(check))
    for pgno, data in sorted(pages.items()):
        allowed = seal.pending.get(pgno, set()) | wal_versions.get(pgno, set()) | blank_digests(pgno, ps)
        if sha(data) not in allowed:
            lo = (pgno - 1) * ps
            why = ("is past the sealed end of the file" if pgno > seal.pages and pgno not in seal.pending
                   else "matches neither its sealed content nor a committed version")
            problems.append(Problem("seal-mismatch", f"{name} page {pgno} (bytes {lo}-{lo + ps - 1})", why))
    return problems


# --------------------------------------------------------------------------
# The seal steps of a writing journal
# --------------------------------------------------------------------------

class SealSteps:
    """The writer's seal steps, mixed into controller.journal.store.Journal (which appends and reads).

    Expects of the journal: data_dir, db_path, wal_path, shm_path, seal_path,
    key, head_seq, _conn, _mutex, _seal, _sealing, _seal_frames, _backoff,
    _appends_since_try, problems, _held, `_db_fd()` and `_check_tail(seq, hash)`
    (declared below, set by Journal.__init__).
    """

    data_dir: Path
    db_path: Path
    wal_path: Path
    shm_path: Path
    seal_path: Path
    key: bytes | None
    head_seq: int
    _conn: sqlite3.Connection
    _mutex: threading.RLock
    _seal: Seal | None
    _sealing: bool
    _seal_frames: int
    _backoff: int
    _appends_since_try: int
    problems: list[Problem]
    _held: Held

    def _db_fd(self) -> int:
        raise NotImplementedError   # the journal's

    def _check_tail(self, seq: int, head: bytes) -> tuple[list[Problem], int, bytes]:
        raise NotImplementedError   # the journal's

    @contextmanager
    def _seal_lock(self, *, shared: bool = False):
        """Held by the writer while it checkpoints and re-seals, shared by `verify`,
        so a check beside the running table never sees a half-written seal."""
        path = self.data_dir / "seal.lock"
        try:
            fd = os.open(path, os.O_RDONLY) if shared else os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except FileNotFoundError:
            fd = None
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
            yield
        finally:
            if fd is not None:
                os.close(fd)

    @property
    def sealing(self) -> bool:
        """False while problems stand: the file is left as found for the supervisor."""
        return self._sealing

    def _maybe_seal(self) -> None:
        if not self._sealing or self._seal is None:
            return
        self._appends_since_try += 1
        if self._appends_since_try < self._backoff:
            return  # a reader held the last checkpoint up; do not stall every append on it
        state = shm_state(self._held.fd(self.shm_path.name))
        frames = state[0] - state[1] if state else self._seal_frames
        if frames >= self._seal_frames or self._seal.pending:
            self._backoff = 0 if self._seal_step() else 64

    def seal(self, *, final: bool = False) -> bool:
        """Checkpoint the log into the file and re-seal it now; False if a reader held it up.

        `final` also empties the log file, as closing does.
        """
        with self._mutex:
            return self._sealing and self._seal_step(final=final)

    def _fail(self, problems: list[Problem]) -> bool:
        self.problems.extend(problems)
        self._sealing = False
        return False

    def _seal_step(self, final: bool = False) -> bool:
        """Intent, checkpoint, re-seal (see controller/journal/sealing.py). True when sealed.

        The checkpoint is RESTART, which leaves the log file its length for the
        next writer to overwrite from the start: appending to a log that grows
        costs every commit a metadata sync (about a third more, measured by
        benchmarks/journal.py). Closing uses TRUNCATE, so a journal at rest has
        an empty log.
        """
        self._appends_since_try = 0
        seal = self._seal
        if seal is None:
            return False
        with self._seal_lock():
            ps, cp = seal.page_size, seal.chunk_pages
            wal = read_wal(self._held.fd(self.wal_path.name), ps)
            versions = wal.versions(wal.committed())
            state = shm_state(self._held.fd(self.shm_path.name))
            copied = state is not None and state[0] == state[1]  # the log is all in the file already
            if (not versions or (copied and not final)) and not seal.pending and seal.head_seq == self.head_seq:
                return True
            if seal.file is not None and seal.file != fingerprint(self.db_path):
                return self._fail([Problem("seal-mismatch", self.db_path.name,
                                           "was written outside the journal while the table ran")])
            pending = {p: set(ds) for p, ds in seal.pending.items()}
            already = seal.pending_chunks()
            dirty = sorted({(p - 1) // cp for p in versions} - already)
            sealed_end = seal.pages * ps
            fd = self._db_fd()
            for c in dirty:
                if c >= len(seal.chunks):
                    continue
                data = read_at(fd, min(seal.chunk_size, sealed_end - c * seal.chunk_size), c * seal.chunk_size)
                if sha(data) != seal.chunks[c]:
                    lo = c * seal.chunk_size
                    return self._fail([Problem("seal-mismatch", f"{self.db_path.name} bytes {lo}-{lo + len(data) - 1}",
                                               "changed outside the journal while the table ran")])
                for i in range(0, len(data), ps):
                    pending[c * cp + i // ps + 1] = {sha(data[i:i + ps])}
            for p, ds in versions.items():
                pending.setdefault(p, set()).update(ds)
            intent = replace(seal, pending=pending, file=None)
            write_atomic(self.seal_path, intent.dumps(self.key))
            self._seal = intent
            conn = self._conn
            conn.execute("PRAGMA busy_timeout=200")
            try:
                busy, log, done = conn.execute(
                    f"PRAGMA wal_checkpoint({'TRUNCATE' if final else 'RESTART'})").fetchone()
            finally:
                conn.execute("PRAGMA busy_timeout=5000")
            if busy or log != done:
                return False  # a reader held it up; the intent stands, try again later
            return self._finish_seal(intent)

    def _finish_seal(self, intent: Seal) -> bool:
        ps, cp, size = intent.page_size, intent.chunk_pages, os.path.getsize(self.db_path)
        pages = size // ps
        chunks = list(intent.chunks)
        new_chunks = -(-pages // cp)
        touched = intent.pending_chunks() | set(range(len(chunks), new_chunks))
        chunks.extend([b""] * (new_chunks - len(chunks)))
        bad = []
        fd = self._db_fd()
        for c in sorted(touched):
            data = read_at(fd, min(intent.chunk_size, size - c * intent.chunk_size), c * intent.chunk_size)
            for i in range(0, len(data), ps):
                pgno = c * cp + i // ps + 1
                if sha(data[i:i + ps]) not in intent.pending.get(pgno, set()) | blank_digests(pgno, ps):
                    lo = (pgno - 1) * ps
                    bad.append(Problem("seal-mismatch", f"{self.db_path.name} page {pgno} (bytes {lo}-{lo + ps - 1})",
                                       "the checkpoint left it matching neither its old content "
                                       "nor a committed version"))
            chunks[c] = sha(data)
        if bad:
            return self._fail(bad)
        chain, last_seq, last_hash = self._check_tail(intent.head_seq, intent.head_hash)
        if chain:
            return self._fail(chain)
        sealed = Seal(journal_id=intent.journal_id, pages=pages, chunks=chunks,
                      head_seq=last_seq, head_hash=last_hash, page_size=ps, chunk_pages=cp,
                      file=fingerprint(self.db_path))
        write_atomic(self.seal_path, sealed.dumps(self.key))
        self._seal = sealed
        return True

