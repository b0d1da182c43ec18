"""The journal's head, kept where the data directory's owner cannot reach it.

Why. The chain, the seal and their MACs (controller/journal.py) prove that
every entry was written by the table, in order; they cannot prove that the
journal is the *latest* one the table wrote. An older journal.db and
journal.seal copied back, a deleted data directory (the table starts a new
journal) or a log (-wal) removed after a crash are all whole, authentic
journals; only something outside the data directory remembers how far the
real one went. 9 NYCRR 5321.18(b)(2)-(4) asks that critical memory be
verified and its loss detected at power-up.

What. At every round's close the table writes an *anchor*: the journal's
identity, its head (sequence and chain hash) and an HMAC of those under the
journal key, into the progressive controller's battery-backed memory (over
its USB protocol, drivers/PROTOCOLS.md part 4) and, on a linked table, into
the pool's PostgreSQL (link.journal_anchors, one row per table role). At power-up, before the first
round, the anchor is read back and the journal must reach it: hold the
anchored entry with the anchored hash. A journal behind its anchor, another
journal than the anchored one, no journal at all, or an anchor whose MAC is
not the key's is an integrity fault (two supervisors) that persists and
stops play. A table with nowhere to keep an anchor (no progressive
controller), or a controller that holds none yet, says so in the log, in a
journal entry ("anchor-check") that `tablectl journal verify` and (on stderr) `tablectl
fault status` print.

Why a round's close and not every append: a USB round trip per append would
double an append's cost (benchmarks/journal.py measures both); what can be
lost between two anchors is the round in progress, which the crash recovery
already accounts for, and rolling back that far is what the anchor does not
see (docs/SECURITY.md).
"""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import dataclass
from typing import Any

import structlog

from controller.sealing import Problem

log = structlog.get_logger("controller.anchor")

TAG = b"tablectl journal anchor\0"
SIZE = 92                    # drivers/progressive/protocol.py ANCHOR_SIZE
START_PATIENCE = 2.0         # seconds the start waits for the controller to connect


@dataclass(frozen=True)
class Anchor:
    journal_id: str          # 32 hex digits (the journal's uuid)
    seq: int
    hash: bytes              # the chain hash of entry `seq`
    mac: bytes = bytes(32)   # HMAC-SHA256 under the journal key; zeros without one

    def to_bytes(self) -> bytes:
        return (bytes.fromhex(self.journal_id) + self.seq.to_bytes(8, "big") + self.hash + self.mac).ljust(SIZE, b"\0")

    @classmethod
    def from_bytes(cls, data: bytes) -> Anchor | None:
        """The anchor in a controller's memory; None when it holds none (all zeros)."""
        if len(data) != SIZE or not any(data):
            return None
        return cls(data[:16].hex(), int.from_bytes(data[16:24], "big"), data[24:56], data[56:88])

    def where(self, source: str) -> str:
        return f"{source} anchor {self.journal_id}:{self.seq}"


def mac(key: bytes, journal_id: str, seq: int, head: bytes) -> bytes:
    return hmac.digest(key, TAG + bytes.fromhex(journal_id) + seq.to_bytes(8, "big") + head, "sha256")


def of_journal(journal: Any) -> Anchor | None:
    """The anchor for the journal's head now (None for a journal without a proper identity)."""
    jid = journal.journal_id
    if len(jid) != 32 or not all(c in "0123456789abcdef" for c in jid):
        return None
    key = journal.key
    return Anchor(jid, journal.head_seq, journal.head_hash,
                  mac(key, jid, journal.head_seq, journal.head_hash) if key is not None else bytes(32))


def check(journal: Any | None, anchor: Anchor | None, key: bytes | None, source: str) -> list[Problem]:
    """What is wrong between the journal (None: none could be opened) and the anchor a `source` holds."""
    if anchor is None:
        return []
    where = anchor.where(source)
    if key is not None and not hmac.compare_digest(anchor.mac, mac(key, anchor.journal_id, anchor.seq, anchor.hash)):
        return [Problem("anchor-forged", where, f"the anchor the {source} holds is not the journal key's")]
    if journal is None:
        return [Problem("journal-missing", where, f"the {source} anchored entry {anchor.seq} of journal "
                                                  f"{anchor.journal_id}, and there is no journal")]
    if journal.journal_id != anchor.journal_id:
        return [Problem("journal-replaced", where,
                        f"the journal ({journal.journal_id or '?'}) is not the one the {source} anchored "
                        f"({anchor.journal_id}, entry {anchor.seq}): the data directory was deleted or replaced")]
    if journal.head_seq < anchor.seq:
        return [Problem("journal-behind-anchor", where,
                        f"the journal ends at entry {journal.head_seq} but the {source} anchored entry "
                        f"{anchor.seq}: an older journal was put back, or its log (-wal) was lost")]
    entry = journal.get(anchor.seq)
    if entry is None or entry.hash != anchor.hash:
        return [Problem("journal-rewritten", where,
                        f"entry {anchor.seq} is not the entry the {source} anchored: the journal was rewritten")]
    return []


class ProgressiveSink:
    """The progressive controller's non-volatile memory, through its driver."""

    name = "progressive controller"

    def __init__(self, device: Any) -> None:
        self.device = device

    async def read(self) -> Anchor | None:
        await self.device.wait_connected(START_PATIENCE)
        return Anchor.from_bytes(await self.device.read_anchor())

    async def write(self, anchor: Anchor) -> None:
        await self.device.write_anchor(anchor.to_bytes())


class PoolSink:
    """The pool's PostgreSQL (a linked table): link.journal_anchors, one row per table role."""

    name = "pool database"

    def __init__(self, client: Any) -> None:
        self.client = client   # controller.link.pool.LinkClient

    async def read(self) -> Anchor | None:
        rows = await self.client._call("SELECT journal_id, seq, hash, mac FROM link.anchor_read()", (),
                                       rows=True)
        if not rows or rows[0][0] is None:
            return None
        jid, seq, h, m = rows[0]
        return Anchor(str(jid), int(seq), bytes(h), bytes(m))

    async def write(self, anchor: Anchor) -> None:
        await self.client._call("SELECT link.anchor_write(%s, %s, %s, %s)",
                                (anchor.journal_id, anchor.seq, anchor.hash, anchor.mac))


class Keeper:
    """The table's anchors: checked once at start, written after every round's close.

    Writes run one at a time in a task of their own (the consumer never waits
    on USB); a close while one is in flight is written next, the latest head
    only. Nothing is written before the start's check has passed, so a
    rolled-back journal never overwrites the evidence against it.
    """

    def __init__(self, table: Any) -> None:
        self.table = table
        self.sinks: list[Any] = []
        dev = getattr(table.devices, "progressive", None) if table.devices is not None else None
        if dev is not None and hasattr(dev, "read_anchor"):
            self.sinks.append(ProgressiveSink(dev))
        client = getattr(getattr(table, "link", None), "client", None)
        if client is not None and hasattr(client, "_call"):
            self.sinks.append(PoolSink(client))
        self.checked = False
        self.verified: set[str] = set()   # sinks read and found consistent: only these are written
        self.failed: set[str] = set()     # sinks whose anchor the journal did not reach: never written
        self.status: dict[str, str] = {}
        self._task: asyncio.Task | None = None
        self._dirty = False

    async def check_at_start(self) -> list[Problem]:
        """Read every anchor and compare; the problems are for the table to fault on."""
        journal = self.table.journal
        problems: list[Problem] = []
        acknowledged = journal.acknowledged() if journal is not None else {}
        if not self.sinks:
            self.status = {"none": "no progressive controller or pool database to hold the journal's anchor"}
        for sink in self.sinks:
            try:
                anchor = await asyncio.wait_for(sink.read(), START_PATIENCE * 2)
            except (asyncio.TimeoutError, Exception) as exc:
                self.status[sink.name] = f"not checked: {exc!r}"
                log.warning("anchor_unread", sink=sink.name, error=repr(exc))
                continue
            if anchor is None:
                self.status[sink.name] = "holds no anchor yet"
                self.verified.add(sink.name)
                continue
            found = [p for p in check(journal, anchor, journal.key if journal else None, sink.name)
                     if (p.code, p.where) not in acknowledged]
            self.status[sink.name] = "; ".join(p.detail for p in found) if found else f"ok (entry {anchor.seq})"
            (self.failed if found else self.verified).add(sink.name)
            problems += found
        if not any(v.startswith("ok") for v in self.status.values()):
            log.warning("journal_not_anchored", **{k.replace(" ", "_"): v for k, v in self.status.items()})
        else:
            log.info("anchor_checked", **{k.replace(" ", "_"): v for k, v in self.status.items()})
        if journal is not None:
            try:
                journal.append("anchor-check", {"status": dict(self.status),
                                                "problems": [p.to_json() for p in problems]})
            except Exception as exc:
                log.error("anchor_check_not_journaled", error=str(exc))
        self.checked = not problems
        if self.checked:
            self.after_round()   # the head as it is now (a fault cleared, a new controller)
        return problems

    def after_round(self) -> None:
        if not self.checked or not self.sinks:
            return
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._write(), name="anchor")

    async def _write(self) -> None:
        while self._dirty:
            self._dirty = False
            journal = self.table.journal
            anchor = of_journal(journal) if journal is not None else None
            if anchor is None:
                return
            for sink in self.sinks:
                if sink.name in self.failed:
                    continue
                try:
                    if sink.name not in self.verified and not await self._late_check(sink):
                        continue
                    await sink.write(anchor)
                except Exception as exc:
                    log.warning("anchor_not_written", sink=sink.name, seq=anchor.seq, error=repr(exc))

    async def _late_check(self, sink: Any) -> bool:
        """A sink unread at start (a controller plugged in late, a link down) is read and checked
        before it is first written: a late anchor is evidence too, never overwritten unread."""
        journal = self.table.journal
        anchor = await sink.read()
        acknowledged = journal.acknowledged()
        found = [p for p in check(journal, anchor, journal.key, sink.name) if (p.code, p.where) not in acknowledged]
        if found:
            self.failed.add(sink.name)
            log.error("anchor_failed_late", sink=sink.name, problems=[p.to_json() for p in found])
            if not self.table.fault:
                integrity_fault(self.table, "anchor", found)
                self.table._after_batch()
            return False
        self.verified.add(sink.name)
        return True

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 2.0)
            except (asyncio.TimeoutError, Exception):
                self._task.cancel()


def integrity_fault(table: Any, source: str, problems: list[Problem]) -> None:
    """Fault the table for an integrity problem: kept across restarts, cleared by two supervisors."""
    from controller.selfcheck import INTEGRITY, raise_fault
    try:
        entry = raise_fault(table.data_dir, table.journal, source, problems, category=INTEGRITY)
    except Exception:
        entry = None
    table._set_fault([{"at": entry.at if entry else None, "problems": [p.to_json() for p in problems]}], problems)
