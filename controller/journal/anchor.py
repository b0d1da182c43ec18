"""The journal's head, kept where the data directory's owner cannot reach it.

Why. The chain, the seal and their MACs (controller/journal/store.py) prove that
every entry was written by the table, in order; they cannot prove that the
journal is the *latest* one the table wrote. An older journal.db and
journal.seal copied back, a deleted data directory (the table starts a new
journal) or a log (-wal) removed or cut short after a crash are all whole,
authentic journals; only something outside the data directory remembers how
far the real one went. 9 NYCRR 5321.18(b)(2)-(4) asks that critical memory be
verified and its loss detected at power-up.

What. The table writes an *anchor*: the journal's identity, its head
(sequence and chain hash) and an HMAC of those under the journal key, into
the progressive controller's battery-backed memory (over its USB protocol,
drivers/PROTOCOLS.md part 4) and, on a linked table, into the pool's
PostgreSQL (link.journal_anchors, one row per table role). It is written as
part of every settlement's and every close's effects: the journal commits,
the controller acknowledges the anchor naming that commit, and only then do
the screens, the dealer and the round's line on stdout hear of it (`cover`),
so no round the dealer was told to pay lies beyond the anchor. Each write is
journaled after it ("anchor-written": the entry anchored and its hash), with
the table's next commit rather than a durable append of its own; the record
follows the anchor, so it needs no anchor of its own.

At power-up, before the first round, each anchor is read back and the journal
must reach it: hold the anchored entry with the anchored hash. A journal
behind its anchor, another journal's anchor ("anchor-foreign"), no journal at
all, an anchor whose MAC is not the key's, or a controller that holds no
anchor while the journal says it was anchored ("anchor-missing": a controller
wiped or swapped, an older data directory put back with it) is an integrity
fault (two supervisors) that persists and stops play. Clearing it puts the
controller into service: the anchor is written afresh and journaled as
"anchor-commissioned", naming both supervisors and the entry anchored (on the
running table's screen at once, after `tablectl fault clear` at the next
start). A supervisor's clearing accepts an anchor problem once: an anchor
written after it makes the same finding new again.

A table with nowhere to keep an anchor (no progressive controller, or one
too old to know the reports), or a new journal whose controller holds none
yet, says so in the log and in a journal entry ("anchor-check") that
`tablectl journal verify` and (on stderr) `tablectl fault status` print. A
data directory emptied *and* a controller wiped together look like a new
table's first start: only the pool (a linked table) or the records kept off
the box notice that (docs/SECURITY.md).

Why at a settlement and not at every append: a USB round trip per append
would double an append's cost (benchmarks/journal.py measures both); what is
left unanchored is the round in progress, which the crash recovery accounts
for and nobody has been paid for.

Why the pay waits for the controller and not for the pool: the controller
is on the table's own USB and a Caribbean stud table needs it anyway; the
pool may be out of reach while the base game lawfully goes on (5321.18(c)),
so its copy is written right after, from a task of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import structlog

from controller.journal.sealing import Problem
from controller.journal.writer import JournalWriter, NotRecorded

if TYPE_CHECKING:
    from controller.journal.store import Journal

log = structlog.get_logger("controller.journal.anchor")

TAG = b"tablectl journal anchor\0"
SIZE = 92                    # drivers/progressive/protocol.py ANCHOR_SIZE
START_PATIENCE = 2.0         # seconds the start waits for the controller to connect
PATIENCE = 5.0               # seconds a settlement waits for the controller to take its anchor
RECORDS = ("anchor-written", "anchor-commissioned")   # the journal's record of each anchor written
PROBLEMS = frozenset({"anchor-forged", "journal-missing", "anchor-foreign", "journal-replaced",
                      "journal-behind-anchor", "journal-rewritten", "anchor-missing"})
UNWRITTEN = "anchor-unwritten"   # the controller did not take a settlement's anchor: a fault, never a silent pass


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
    """What is wrong between the journal (None: none could be opened) and the anchor a `source` holds.

    An empty `source` (anchor None) is judged by `missing`, which needs the journal's records."""
    if anchor is None:
        return []
    where = anchor.where(source)
    if key is not None and not hmac.compare_digest(anchor.mac, mac(key, anchor.journal_id, anchor.seq, anchor.hash)):
        return [Problem("anchor-forged", where, f"the anchor the {source} holds is not the journal key's")]
    if journal is None:
        return [Problem("journal-missing", where, f"the {source} anchored entry {anchor.seq} of journal "
                                                  f"{anchor.journal_id}, and there is no journal")]
    if journal.journal_id != anchor.journal_id:
        return [Problem("anchor-foreign", where,
                        f"the journal ({journal.journal_id or '?'}) is not the one the {source} anchored "
                        f"({anchor.journal_id}, entry {anchor.seq}): the data directory was deleted or replaced, "
                        f"or the {source} came from another table")]
    if journal.head_seq < anchor.seq:
        return [Problem("journal-behind-anchor", where,
                        f"the journal ends at entry {journal.head_seq} but the {source} anchored entry "
                        f"{anchor.seq}: an older journal was put back, or its log (-wal) was lost or cut")]
    entry = journal.get(anchor.seq)
    if entry is None or entry.hash != anchor.hash:
        return [Problem("journal-rewritten", where,
                        f"entry {anchor.seq} is not the entry the {source} anchored: the journal was rewritten")]
    return []


def last_anchored(journal: Any, source: str) -> tuple[int, int] | None:
    """(the entry last anchored on `source`, the journal entry saying so), from the journal alone.

    Its records of each write ("anchor-written", "anchor-commissioned"), and what the last
    start's check found there ("ok (entry N)", also in journals from before the records)."""
    best: tuple[int, int] | None = None
    for kind in RECORDS:
        e = journal.latest(kind, mark=json.dumps(source))
        seq = e.payload.get("seq") if e is not None and isinstance(e.payload, dict) else None
        if e is not None and type(seq) is int and (best is None or e.seq > best[1]):
            best = (seq, e.seq)
    checked = journal.latest("anchor-check")
    told = checked.payload.get("status") if checked is not None and isinstance(checked.payload, dict) else None
    found = re.match(r"ok \(entry (\d+)\)", told.get(source, "")) if isinstance(told, dict) else None
    if checked is not None and found and (best is None or checked.seq > best[1]):
        best = (int(found.group(1)), checked.seq)
    return best


def missing(journal: Any, source: str) -> list[Problem]:
    """A `source` holding no anchor, where the journal says it was anchored: wiped, swapped or rolled back."""
    last = last_anchored(journal, source)
    if last is None:
        return []   # a new journal: nothing anchored yet
    return [Problem("anchor-missing", f"{source} anchor: none",
                    f"the {source} holds no anchor; the journal was anchored at entry {last[0]} (recorded at "
                    f"entry {last[1]}): a controller wiped or swapped, or an older data directory put back "
                    f"with it; two supervisors put the {source} into service")]


class ProgressiveSink:
    """The progressive controller's non-volatile memory, through its driver. A settlement waits for it."""

    name = "progressive controller"
    waited = True

    def __init__(self, device: Any) -> None:
        self.device = device

    async def read(self) -> Anchor | None:
        await self.device.wait_connected(START_PATIENCE)
        return Anchor.from_bytes(await self.device.read_anchor())

    async def write(self, anchor: Anchor, patience: float = PATIENCE) -> None:
        """Written and acknowledged (the committing part's ACK), retried while a reconnect may bring
        the controller back, within `patience` seconds; the last error after that."""
        from drivers.errors import DeviceError
        deadline = time.monotonic() + patience
        while True:
            try:
                await self.device.wait_connected(max(0.0, deadline - time.monotonic()))
                await self.device.write_anchor(anchor.to_bytes())
                return
            except (DeviceError, TimeoutError):
                if time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(0.1)


class PoolSink:
    """The pool's PostgreSQL (a linked table): link.journal_anchors, one row per table role.

    Written after the controller, from a task of its own: the pool may be out of reach while the
    base game goes on (5321.18(c)), and a settlement does not wait for it."""

    name = "pool database"
    waited = False

    def __init__(self, client: Any) -> None:
        self.client = client   # controller.link.pool.LinkClient

    async def read(self) -> Anchor | None:
        rows = await self.client._call("SELECT journal_id, seq, hash, mac FROM link.anchor_read()", (),
                                       rows=True)
        if not rows or rows[0][0] is None:
            return None
        jid, seq, h, m = rows[0]
        return Anchor(str(jid), int(seq), bytes(h), bytes(m))

    async def write(self, anchor: Anchor, patience: float = PATIENCE) -> None:
        await self.client._call("SELECT link.anchor_write(%s, %s, %s, %s)",
                                (anchor.journal_id, anchor.seq, anchor.hash, anchor.mac))


Sink = ProgressiveSink | PoolSink


def sinks_for(progressive: object | None, pool: object | None) -> list[Sink]:
    """Where a table keeps its anchor: its progressive controller (one that knows the anchor's
    reports) and, on a linked table, its pool's client."""
    sinks: list[Sink] = []
    if progressive is not None and hasattr(progressive, "read_anchor"):
        sinks.append(ProgressiveSink(progressive))
    if pool is not None and hasattr(pool, "_call"):
        sinks.append(PoolSink(pool))
    return sinks


class AnchorHost(Protocol):
    """What the keeper reads of its table and calls back (controller/table.py Table)."""

    data_dir: Path
    journal: Journal | None      # as it stands: None when too damaged to open
    writer: JournalWriter        # the table's one way into its journal: a failed append faults the table

    @property
    def fault(self) -> dict | None: ...
    def set_fault(self, faults: list[dict], problems: list[Problem]) -> None: ...
    def after_batch(self) -> None: ...


class Keeper:
    """The table's anchors: checked at start (and after a fault is cleared), written at every settlement.

    `cover()` is awaited by the table's consumer between a settlement's journal commit and
    its effects; while it runs (`holding`) nothing is published. Nothing is written before
    a check has passed, so a rolled-back journal never overwrites the evidence against it.
    """

    def __init__(self, table: AnchorHost, sinks: list[Sink]) -> None:
        self.table = table
        self.sinks = sinks
        self.checked = False
        self.verified: set[str] = set()   # sinks read and found consistent: only these are written
        self.failed: set[str] = set()     # sinks whose anchor the journal did not reach: never written
        self.commission: dict[str, dict] = {}   # sink -> the clearing whose supervisors put it into service
        self.status: dict[str, str] = {}
        self._holds = 0                   # checks and writes under way that the screens wait for
        self._task: asyncio.Task | None = None
        self._dirty = False
        self._unrecorded: list[tuple] = []   # records of writes, waiting for the table's next commit

    @property
    def holding(self) -> bool:
        """Whether a check or a settlement's write is under way: nothing is published meanwhile
        (controller/runtime/view.py), so no screen shows a settled round its anchor does not cover."""
        return self._holds > 0

    @contextlib.contextmanager
    def _hold(self) -> Iterator[None]:
        self._holds += 1
        try:
            yield
        finally:
            self._holds -= 1

    # -- the check ---------------------------------------------------------------------------

    async def check_at_start(self) -> list[Problem]:
        """Read every anchor and compare; the head anchored when all agree. The problems are for the table to fault on."""
        with self._hold():
            try:
                problems = await self._check()
            except NotRecorded:
                return []   # the table is in a fault for it already: nothing anchored, nothing more to fault on
            if not problems:
                await self._anchor(at_start=True)   # the head now (a new journal, a controller put into service)
                self.flush()
        return problems

    async def after_clear(self) -> None:
        """A fault cleared on the running table's screen: the anchors checked again as the supervisors
        left them (what they accepted is acknowledged) and the head anchored: no wait for a restart."""
        if not self.sinks or self.table.journal is None:
            return
        with self._hold():
            try:
                problems = await self._check()
            except NotRecorded:
                return   # the table is in a fault again for it
            if problems:
                integrity_fault(self.table, "anchor", problems)
            else:
                await self.cover()   # a controller that cannot be written is a fault again (unwritten_fault)

    async def _check(self) -> list[Problem]:
        from drivers.errors import CommandRefused
        from drivers.progressive.protocol import AckStatus
        self.verified, self.failed, self.commission, self.status = set(), set(), {}, {}
        problems: list[Problem] = []
        if not self.sinks:
            self.status = {"none": "no progressive controller or pool database to hold the journal's anchor"}
        for sink in list(self.sinks):
            try:
                anchor = await asyncio.wait_for(sink.read(), START_PATIENCE * 2)
            except CommandRefused as exc:
                if exc.reason != AckStatus.UNKNOWN_REPORT:
                    self.status[sink.name] = f"not checked: {exc!r}"
                    continue
                self.sinks.remove(sink)   # a controller too old to keep an anchor (PROTOCOLS.md 4.4)
                self.status[sink.name] = "keeps no anchor (it does not know the anchor's reports)"
                continue
            except (asyncio.TimeoutError, Exception) as exc:
                self.status[sink.name] = f"not checked: {exc!r}"
                log.warning("anchor_unread", sink=sink.name, error=repr(exc))
                continue
            found = self._judge(sink, anchor)
            accepted = self._accepted(sink, found)
            fresh = [p for p in found if p not in accepted]
            if fresh:
                self.failed.add(sink.name)
                self.status[sink.name] = "; ".join(p.detail for p in fresh)
                problems += fresh
                continue
            self.verified.add(sink.name)
            if accepted:
                self.status[sink.name] = "put into service by the supervisors: " + "; ".join(p.detail for p in accepted)
            elif anchor is None:
                self.status[sink.name] = "holds no anchor yet: a new journal, anchored now"
            else:
                self.status[sink.name] = f"ok (entry {anchor.seq})"
        if not any(v.startswith("ok") for v in self.status.values()):
            log.warning("journal_not_anchored", **{k.replace(" ", "_"): v for k, v in self.status.items()})
        else:
            log.info("anchor_checked", **{k.replace(" ", "_"): v for k, v in self.status.items()})
        self.checked = False
        # what was found, journaled: one the journal does not take faults the table (journal/writer.py),
        # and nothing is anchored on a check the journal does not hold
        self.table.writer.append("anchor-check", {"status": dict(self.status),
                                                  "problems": [p.to_json() for p in problems]})
        self.checked = not problems
        return problems

    def _judge(self, sink: Any, anchor: Anchor | None) -> list[Problem]:
        journal = self.table.journal
        assert journal is not None   # judged on a journal that opened (check_at_start, after_clear, a write)
        if anchor is None:
            return missing(journal, sink.name)
        return check(journal, anchor, journal.key, sink.name)

    def _accepted(self, sink: Any, found: list[Problem]) -> list[Problem]:
        """The problems a supervisors' clearing accepted since this sink was last written: accepted
        once, so the next write puts the sink into service (`commission`)."""
        if not found:
            return []
        from controller.journal.severity import acknowledged as by_enough
        journal = self.table.journal
        assert journal is not None   # found by _judge, on a journal that opened
        # the latest clearing that accepted each problem with the supervisors it needs (controller/journal/severity.py)
        acknowledged = by_enough(reversed(list(journal.table_entries("fault-cleared"))))
        last = last_anchored(journal, sink.name)
        since = last[1] if last is not None else 0
        out = []
        for p in found:
            ack = acknowledged.get((p.code, p.where))
            if ack is None and p.code == "anchor-foreign":   # its name before issue 26
                ack = acknowledged.get(("journal-replaced", p.where))
            if ack is not None and ack.seq > since:
                out.append(p)
                payload = ack.payload if isinstance(ack.payload, dict) else {}
                self.commission[sink.name] = {"by": payload.get("by"), "second": payload.get("second"),
                                              "cleared": ack.seq}
        if out:
            self.commission[sink.name]["found"] = [p.to_json() for p in out]
        return out

    async def _late_check(self, sink: Any) -> bool:
        """A sink unread at its check (a controller plugged in late, a link down) is read and checked
        before it is first written: a late anchor is evidence too, never overwritten unread."""
        anchor = await sink.read()
        found = self._judge(sink, anchor)
        fresh = [p for p in found if p not in self._accepted(sink, found)]
        if fresh:
            self.failed.add(sink.name)
            log.error("anchor_failed_late", sink=sink.name, problems=[p.to_json() for p in fresh])
            if not self.table.fault:
                integrity_fault(self.table, "anchor", fresh)
                self.table.after_batch()
            return False
        self.verified.add(sink.name)
        return True

    # -- the writes --------------------------------------------------------------------------

    def wants(self, effects: list[dict]) -> bool:
        """Whether these effects tell the dealer to pay or to move on: a settlement or a close."""
        return bool(self.sinks) and any(e.get("type") in ("settlement", "closed") for e in effects)

    async def cover(self) -> bool:
        """The journal's head now, written to every sink a settlement waits for and acknowledged
        there, before the table carries out the settlement's effects. False when a sink could not
        be written: the table is then in a fault, so no screen says "pay" for it."""
        if not self.sinks:
            return True
        with self._hold():
            if not self.checked:   # a check never passed (a fault cleared before any): check first
                try:
                    problems = await self._check()
                except NotRecorded:
                    return False   # the table is in a fault for it: no screen says "pay"
                if problems:
                    integrity_fault(self.table, "anchor", problems)
                    return False
            return await self._anchor(at_start=False)

    async def _anchor(self, *, at_start: bool) -> bool:
        journal = self.table.journal
        anchor = of_journal(journal) if journal is not None else None
        if anchor is None:
            return True
        for sink in self.sinks:
            if not sink.waited or sink.name in self.failed:
                continue
            if at_start and sink.name not in self.verified:
                continue   # unread at start: read before its first write, at the first settlement
            try:
                if sink.name not in self.verified and not await self._late_check(sink):
                    return False
                await sink.write(anchor, START_PATIENCE if at_start else PATIENCE)
            except (asyncio.TimeoutError, Exception) as exc:
                log.error("anchor_not_written", sink=sink.name, seq=anchor.seq, error=repr(exc))
                if not at_start:
                    unwritten_fault(self.table, sink.name, anchor.seq, exc)
                    return False
                continue
            self._record(sink, anchor)
        self._later()
        return True

    def _record(self, sink: Any, anchor: Anchor) -> None:
        """The journal's record of the write: the entry anchored, and who put the sink into service.

        It rides with the table's next commit (`records`), so it costs no durable append of its
        own on the settlement's path; a commissioning is journaled at once. A record lost with
        a kill before that commit leaves the previous one, an earlier entry: still evidence."""
        payload: dict[str, Any] = {"sink": sink.name, "seq": anchor.seq, "hash": anchor.hash.hex()}
        commissioned = self.commission.pop(sink.name, None)
        if commissioned is None:
            self._unrecorded.append(("anchor-written", payload, None))
            return
        payload.update(commissioned)
        log.warning("anchor_commissioned", sink=sink.name, seq=anchor.seq, by=commissioned.get("by"),
                    second=commissioned.get("second"))
        self._unrecorded.append(("anchor-commissioned", payload, None))
        self.flush()

    def records(self) -> list[tuple]:
        """The records of the writes since the last commit, for the table's next one (controller/table.py)."""
        out, self._unrecorded = self._unrecorded, []
        return out

    def flush(self) -> None:
        """Journal the records still waiting for a commit (a commissioning, the table's close).

        One the journal does not take faults the table (controller/journal/writer.py); the anchors
        are written all the same, and the next check says what they hold."""
        with contextlib.suppress(NotRecorded):   # the table is in a fault for it
            self.table.writer.append_many(self.records())

    def _later(self) -> None:
        """The sinks a settlement does not wait for (the pool): the latest head, from a task of its own."""
        if not any(not s.waited and s.name not in self.failed for s in self.sinks):
            return
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._write_later(), name="anchor")

    async def _write_later(self) -> None:
        while self._dirty:
            self._dirty = False
            journal = self.table.journal
            anchor = of_journal(journal) if journal is not None else None
            if anchor is None:
                return
            for sink in self.sinks:
                if sink.waited or sink.name in self.failed:
                    continue
                try:
                    if sink.name not in self.verified and not await self._late_check(sink):
                        continue
                    await sink.write(anchor)
                except Exception as exc:
                    log.warning("anchor_not_written", sink=sink.name, seq=anchor.seq, error=repr(exc))
                    continue
                self._record(sink, anchor)

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 2.0)
            except (asyncio.TimeoutError, Exception):
                self._task.cancel()
        self.flush()


def integrity_fault(table: AnchorHost, source: str, problems: list[Problem]) -> None:
    """Fault the table for an integrity problem: kept across restarts, cleared by two supervisors."""
    from controller.journal.selfcheck import INTEGRITY
    _fault(table, source, problems, INTEGRITY)


def unwritten_fault(table: AnchorHost, sink: str, seq: int, exc: BaseException) -> None:
    """The controller did not take a settlement's anchor: the round is journaled but not anchored,
    so the table stops before anyone is told to pay it. A device's fault (one supervisor): clearing
    it once the controller is back writes the anchor (Keeper.after_clear)."""
    what = str(exc) or type(exc).__name__
    _fault(table, "anchor", [Problem(UNWRITTEN, sink,
                                     f"the {sink} did not take the journal's anchor for entry {seq} ({what}): "
                                     "the settlement is not recorded off the box; do not pay it until a "
                                     "supervisor clears this fault with the controller working")], "operational")


def _fault(table: AnchorHost, source: str, problems: list[Problem], category: str) -> None:
    from controller.journal.selfcheck import raise_fault
    try:
        entry = raise_fault(table.data_dir, table.journal, source, problems, category=category)
    except Exception:
        entry = None
    table.set_fault([{"at": entry.at if entry else None, "problems": [p.to_json() for p in problems]}], problems)
