"""The journal file's seal: a digest of every byte of the SQLite file.

Why a seal as well as the hash chain. The chain (controller/journal.py) proves
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

Why SHA-256 and not an HMAC: a key kept beside the journal protects against
nobody who can rewrite the journal; what a keyed digest would add is better
got by anchoring the chain's head hash off the box (`tablectl journal verify`
prints it). SHA-256 far exceeds the 16-bit CRC that 9 NYCRR 5321.18(b)(3)(iv)
asks of program storage.

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
import hashlib
import json
import os
import struct
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

# re-exported: the journal and the seal write through them
from controller.durable import fsync_dir as fsync_dir, write_atomic as write_atomic

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

    def dumps(self) -> bytes:
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
    def loads(cls, data: bytes) -> Seal:
        try:
            body, digest, rest = data.split(b"\n", 2)
        except ValueError:
            raise SealError("the seal is truncated") from None
        if rest or hashlib.sha256(body).hexdigest().encode() != digest:
            raise SealError("the seal fails its own digest")
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


def fingerprint(path: Path) -> dict[str, int]:
    """What the file system says about the file: any write to it moves ctime, which
    no program can set back (only a change of the system clock can)."""
    st = os.stat(path)
    return {"ino": st.st_ino, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns}


def read_seal(path: Path) -> Seal:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SealError(f"{path.name} is missing") from None
    except OSError as exc:
        raise SealError(f"{path.name} cannot be read: {exc.strerror}") from None
    return Seal.loads(data)


# --------------------------------------------------------------------------
# Hashing the main file
# --------------------------------------------------------------------------

def scrub_file(db: Path, seal: Seal, start: int = 0, stop: int | None = None) -> list[Problem]:
    """Re-read sealed chunks [start, stop) and compare them with the seal (no intent pending on them)."""
    stop = len(seal.chunks) if stop is None else min(stop, len(seal.chunks))
    if start >= stop:
        return []
    end = min(seal.pages * seal.page_size, stop * seal.chunk_size)
    size = os.path.getsize(db)
    digests = _hash_range(db, seal.chunk_size, start, stop, min(end, size))
    skip = seal.pending_chunks()
    problems = []
    for i, got in enumerate(digests):
        c = start + i
        if c not in skip and got != seal.chunks[c]:
            lo = c * seal.chunk_size
            hi = min(lo + seal.chunk_size, seal.pages * seal.page_size) - 1
            problems.append(Problem("seal-mismatch", f"{db.name} bytes {lo}-{hi}",
                                    "differs from the seal (found by the scrub)"))
    if len(digests) < stop - start:
        problems.append(Problem("file-size", db.name, "is shorter than the seal says"))
    return problems


def _hash_range(path: Path, chunk_size: int, start: int, stop: int, end: int) -> list[bytes]:
    """Digests of chunks [start, stop) of a file whose covered bytes end at `end`."""
    out = []
    block_chunks = max(1, (1 << 20) // chunk_size)
    fd = os.open(path, os.O_RDONLY)
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
        os.close(fd)
    return out


def hash_chunks(path: Path, end: int, chunk_size: int, *, workers: int | None = None) -> list[bytes]:
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


def read_pages(path: Path, page_size: int, pgnos: Iterable[int]) -> dict[int, bytes]:
    """The given pages (1-based, as SQLite numbers them) that exist in the file."""
    out = {}
    with open(path, "rb") as f:
        for pgno in pgnos:
            f.seek((pgno - 1) * page_size)
            data = f.read(page_size)
            if len(data) == page_size:
                out[pgno] = data
    return out


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
    path: Path
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
        with open(self.path, "rb") as f:
            for fr in frames:
                f.seek(fr.offset)
                out.setdefault(fr.pgno, set()).add(sha(f.read(self.page_size)))
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


def read_wal(path: Path, page_size: int = PAGE_SIZE) -> Wal:
    """Frame headers of the log as they lie in the file (no checksums verified)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return Wal(path, page_size, None, ())
    salt = None
    if len(data) >= WAL_HEADER:
        magic, version, ps, _ckpt, s1, s2, _c1, _c2 = struct.unpack(">8I", data[:WAL_HEADER])
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


def shm_state(path: Path) -> tuple[int, int] | None:
    """(last valid frame, frames already copied into the file) from SQLite's wal-index.

    The -shm file's header (https://sqlite.org/walformat.html#the_wal_index_file_format)
    is written by the connection that recovered the log; it is read here only
    after our own connection has read the database, so it is current. None
    when it cannot be read or is not the format we know.
    """
    try:
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


def shm_max_frame(path: Path) -> int | None:
    state = shm_state(path)
    return None if state is None else state[0]


# --------------------------------------------------------------------------
# Checking the main file against the seal
# --------------------------------------------------------------------------

def check_file(db: Path, seal: Seal, wal_versions: Mapping[int, set[bytes]], *,
               full: bool = True) -> list[Problem]:
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
    problems = []
    ps, size = seal.page_size, os.path.getsize(db)
    if size % ps:
        problems.append(Problem("file-size", db.name,
                                f"{size} bytes is not a whole number of {ps}-byte pages"))
    pages_now = size // ps
    sealed_end = seal.pages * ps
    if pages_now < seal.pages:
        problems.append(Problem("file-size", db.name,
                                f"holds {pages_now} pages; the seal covers {seal.pages}"))
    pending_chunks = seal.pending_chunks()
    digests = hash_chunks(db, min(size, sealed_end), seal.chunk_size)
    for c, want in enumerate(seal.chunks):
        if c in pending_chunks:
            continue
        if c >= len(digests) or digests[c] != want:
            lo = c * seal.chunk_size
            hi = min(lo + seal.chunk_size, sealed_end) - 1
            problems.append(Problem("seal-mismatch", f"{db.name} bytes {lo}-{hi}",
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
            problems.append(Problem("seal-mismatch", f"{db.name} page {pgno} (bytes {lo}-{lo + ps - 1})", why))
    return problems
