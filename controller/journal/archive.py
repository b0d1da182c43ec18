"""The journal carried off the box: `tablectl journal export` and `journal verify --archive`.

A journal that lives only on the table's disk dies with the disk. An archive
is what a technician takes away (the daily timer, tablectl-export.timer, keeps
the newest few in /var/lib/tablectl/archives) and what a regulator checks on
another machine with nothing but tablectl installed.

The archive is a gzip'd tar of three files:

- journal.db: a consistent copy made with SQLite's online backup (one read
  transaction, so a table writing meanwhile neither stops nor tears the copy);
- journal.seal: a seal of that copy (controller/journal/sealing.py), made with the
  journal key when the journal is keyed, so the archive is checked exactly as
  a journal on a box is, by the same code and with the same key (a keyed
  journal is not exported without its key, nor with another key);
- anchor.json: the journal's id and the chain's head (seq and hash) at the
  moment of the copy, and the SHA-256 of the other two files. The head hash
  is the anchor of controller/journal/sealing.py: written down off the box, it lets
  `verify --archive FILE --anchor HASH` prove the archive holds the journal
  as it stood then, because no one can forge a chain that reaches it.

Restoring is extracting the archive into an empty data directory with the
table stopped (docs/UPGRADE.md); the journal opens there as a copied journal.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sqlite3
import sys
import tarfile
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from controller import paths

FORMAT = 1
MEMBERS = ("journal.db", "journal.seal", "anchor.json")
PREFIX = "journal-"
SUFFIX = ".tar.gz"


class ArchiveError(Exception):
    """The archive cannot be written, or is not an archive this command can check."""


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _sealing_key(db: Path, head_seq: int) -> bytes | None:
    """The key the archive's seal is made with: the journal key ($TABLECTL_JOURNAL_KEY) for a keyed
    journal, checked against the copy's first and last entries; None for a journal never keyed."""
    from controller.journal.store import KeyFileError, entry_mac, load_key
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT hash, mac FROM entries WHERE seq IN (1, ?)", (head_seq,)).fetchall()
        keyed = bool(conn.execute("SELECT 1 FROM entries WHERE mac IS NOT NULL AND length(mac) > 0 LIMIT 1")
                     .fetchone())
    finally:
        conn.close()
    try:
        key = load_key()
    except KeyFileError as exc:
        raise ArchiveError(str(exc)) from None
    if not keyed:
        return None
    if key is None:
        raise ArchiveError("the journal is keyed and its archive is sealed with its key: "
                           "$TABLECTL_JOURNAL_KEY must name the journal key file")
    if not all(isinstance(m, bytes) and m == entry_mac(key, bytes(h)) for h, m in rows):
        raise ArchiveError("the journal's entries do not authenticate under the key $TABLECTL_JOURNAL_KEY "
                           "names (another journal's key, or entries written without it): not sealed with it")
    return key


def _backup(source: Path, target: Path) -> tuple[str, int, bytes]:
    """Copy the journal's database in one read transaction; (journal id, head seq, head hash)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.execute("PRAGMA busy_timeout=5000")
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL")   # as on the box, so a restored journal opens unchanged
        first = dst.execute("SELECT payload FROM entries WHERE seq = 1").fetchone()
        last = dst.execute("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        src.close()
        dst.close()   # the last connection: checkpoints and removes the log
    if first is None or last is None:
        raise ArchiveError(f"{source} holds no journal entries")
    return json.loads(first[0])["journal_id"], int(last[0]), bytes(last[1])


def export(data_dir: str | os.PathLike | None, to: str | os.PathLike) -> dict:
    """Write the archive to `to` (atomically); returns its anchor."""
    from controller.journal.store import DB_NAME, SEAL_NAME
    from controller.journal.sealing import CHUNK_PAGES, PAGE_SIZE, Seal, hash_chunks

    directory = paths.data_dir(data_dir, create=False)
    if not (directory / DB_NAME).exists():
        raise ArchiveError(f"{directory} holds no journal")
    to = Path(to)
    to.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=to.parent, prefix=".export-") as tmp:
        work = Path(tmp)
        db = work / DB_NAME
        journal_id, head_seq, head_hash = _backup(directory / DB_NAME, db)
        key = _sealing_key(db, head_seq)
        size = db.stat().st_size
        seal = Seal(journal_id=journal_id, pages=size // PAGE_SIZE,
                    chunks=hash_chunks(db, size, PAGE_SIZE * CHUNK_PAGES), head_seq=head_seq, head_hash=head_hash)
        (work / SEAL_NAME).write_bytes(seal.dumps(key))
        anchor = {"format": FORMAT, "journal_id": journal_id, "head_seq": head_seq, "head_hash": head_hash.hex(),
                  "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "files": {name: _sha256(work / name) for name in (DB_NAME, SEAL_NAME)}}
        body = json.dumps(anchor, indent=1, sort_keys=True).encode() + b"\n"
        partial = work / "archive.partial"
        with tarfile.open(partial, "w:gz") as tar:
            for name in (DB_NAME, SEAL_NAME):
                tar.add(work / name, arcname=name)
            info = tarfile.TarInfo("anchor.json")
            info.size, info.mtime, info.mode = len(body), int(time.time()), 0o644
            tar.addfile(info, io.BytesIO(body))
        with open(partial, "rb") as f:
            os.fsync(f.fileno())
        os.replace(partial, to)
    return anchor


def prune(directory: Path, keep: int) -> list[Path]:
    """Remove all but the newest `keep` archives of the directory (names sort by time)."""
    archives = sorted(p for p in directory.glob(f"{PREFIX}*{SUFFIX}") if p.is_file())
    gone = archives[:-keep] if keep > 0 else archives
    for p in gone:
        p.unlink()
    return gone


def extract(archive: str | os.PathLike, into: Path) -> dict:
    """Unpack the three files (nothing else, no links, no paths) and check them against the anchor."""
    try:
        with tarfile.open(archive, "r:*") as tar:
            members = tar.getmembers()
            names = sorted(m.name for m in members)
            if names != sorted(MEMBERS) or not all(m.isfile() for m in members):
                raise ArchiveError(f"{archive}: not a journal archive (holds {', '.join(names) or 'nothing'})")
            for m in members:
                member = tar.extractfile(m)
                if member is None:   # (isfile() was checked above)
                    raise ArchiveError(f"{archive}: {m.name} is not a file")
                (into / m.name).write_bytes(member.read())
    except tarfile.ReadError:
        raise ArchiveError(f"{archive}: not a journal archive (not a tar file, plain or compressed)") from None
    except (tarfile.TarError, OSError, EOFError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ArchiveError(f"{archive}: cannot be read: {first}") from None
    try:
        anchor = json.loads((into / "anchor.json").read_text())
        files = anchor["files"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ArchiveError(f"{archive}: anchor.json is unreadable: {exc}") from None
    if anchor.get("format") != FORMAT:
        raise ArchiveError(f"{archive}: archive format {anchor.get('format')!r}, this tablectl reads {FORMAT}")
    for name, digest in files.items():
        if name not in MEMBERS or _sha256(into / name) != digest:
            raise ArchiveError(f"{archive}: {name} is not the file the anchor names (changed after export)")
    return anchor


def verify_archive(archive: str | os.PathLike, anchor_hash: str | None = None, no_key: bool = False) -> int:
    """Exit 0 when the archive's journal verifies and reaches its anchor; 1 when not; 2 unreadable,
    or keyed and checked without its key (unless `no_key`: readback.verify_main)."""
    from controller.journal import readback as reconstruct
    from controller.journal.store import Journal, JournalError

    with tempfile.TemporaryDirectory(prefix="tablectl-archive-") as tmp:
        work = Path(tmp)
        try:
            anchor = extract(archive, work)
        except ArchiveError as exc:
            print(f"tablectl journal verify: {exc}", file=sys.stderr)
            return 1 if "not the file" in str(exc) else 2
        print(f"archive {archive}: journal {anchor['journal_id']} exported {anchor['exported_at']}, "
              f"head {anchor['head_seq']} {anchor['head_hash']}")
        (work / "anchor.json").unlink()
        status = reconstruct.verify_main(_Args(data_dir=str(work), no_key=no_key))
        if status == 2:
            return 2   # said why (a keyed archive without its key)
        try:
            with Journal.open(work, readonly=True) as j:
                head = (j.journal_id, j.head_seq, j.head_hash.hex())
                found = None
                if anchor_hash:
                    found = j._rows("SELECT seq FROM entries WHERE hash = ?", (bytes.fromhex(anchor_hash),))
        except (JournalError, ValueError) as exc:
            print(f"PROBLEM: {exc}")
            return 1
        if head != (anchor["journal_id"], anchor["head_seq"], anchor["head_hash"]):
            print(f"PROBLEM: the journal's head {head} is not the anchor's")
            return 1
        if anchor_hash is not None:
            if not found:
                print(f"PROBLEM: no entry of the archive has the hash {anchor_hash}")
                return 1
            print(f"anchor {anchor_hash} is entry {found[0][0]} of the chain")
        return status


class _Args:
    def __init__(self, **kw) -> None:
        self.__dict__.update(kw)


def export_main(args) -> int:
    try:
        if args.to:
            to = Path(args.to)
        else:
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")   # sorts as it was made
            to = Path(args.into) / f"{PREFIX}{stamp}{SUFFIX}"
        anchor = export(args.data_dir, to)
    except (ArchiveError, OSError, sqlite3.Error) as exc:
        print(f"tablectl journal export: {exc}", file=sys.stderr)
        return 1
    print(f"{to}: journal {anchor['journal_id']}, {anchor['head_seq']} entries, head {anchor['head_hash']}")
    if args.into and args.keep is not None:
        for p in prune(Path(args.into), args.keep):
            print(f"removed {p} (keeping {args.keep})")
    return 0


def verify_main(args) -> int:
    if getattr(args, "archive", None):
        return verify_archive(args.archive, args.anchor, no_key=getattr(args, "no_key", False))
    if getattr(args, "anchor", None):
        print("tablectl journal verify: --anchor goes with --archive", file=sys.stderr)
        return 2
    from controller.journal import readback as reconstruct
    return reconstruct.verify_main(args)
