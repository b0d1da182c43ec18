"""A table's client of its pool: the linked progressive meter (and the base of the jackpot client).

The table runtime calls `contribute` at lock-out, `claim` with the round's winning
progressive hands, and `settle` when the supervisor has validated (or voided) an
award. Each call is first written to the outbox, then sent with the link's
timeout (default 1 s); the answer is the pool's, in commit order. When the pool
cannot be reached in time, the operation stays queued, the link goes down and
`status.playable` turns false: the table must light the progressive wager as
unplayable and go on with the base game (9 NYCRR 5321.18(c)). A keeper task
reconnects; once the link is back it sends what is queued, in order (each
operation carries its key, so one the pool had already committed is not counted
twice), then compares the table's records with the pool's by digest, and only
when they agree is the progressive playable again.

Awards are computed by the pool (schema.sql) from the meter as it stands at the
award's turn, never by the table; `status.pending_awards` lists every award of
the pool waiting for validation, so every linked table can show it.

One asyncio task should own a client (the table's one consumer); the keeper
runs beside it and takes the same lock for its heartbeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import structlog
from psycopg.types.json import Jsonb

from controller.link.config import LinkConfig
from controller.link.digest import differences
from controller.link.errors import LinkDown, LinkError, LinkRefused, MeterHeld, translate
from controller.link.outbox import Op, Outbox, op_key

log = structlog.get_logger("controller.link")

REPORT_EVERY = 60  # heartbeats between two reports of the table's records to the pool
CUT_OFF_TRIES = 3  # an operation answered "the meter row may be held": cut-offs asked before LinkDown
PROGRESSIVE_HANDS = ("flush", "full-house", "four-of-a-kind", "straight-flush", "royal-flush")


@dataclass(frozen=True)
class LinkStatus:
    """What the table shows and lights: is the progressive playable, and if not, why."""

    pool: str
    table: str
    online: bool = False
    playable: bool = False
    reason: str = "not started"
    meter_cents: int | None = None
    meter_fraction: int = 0           # ten-thousandths of a cent carried
    version: int | None = None        # of the pool's parameters
    params: Mapping[str, Any] | None = None
    pending_awards: tuple[Mapping[str, Any], ...] = ()
    unconfirmed: int = 0
    refused: int = 0
    period: int | None = None         # jackpot: the open qualifying period
    leading: Mapping[str, Any] | None = None
    last_period: Mapping[str, Any] | None = None   # jackpot: the last period closed, as announced
    differences: tuple[str, ...] = ()
    overflow_cents: int | None = None   # the pool's overflow meter (9 NYCRR 5320.8), whole cents
    limit_cents: int | None = None      # the pool's limit; None: none
    retired: str = ""                   # the pool's refusal since it was retired (LK011): no wager offered


RETIRED = "LK011"   # the pool was retired (`tablectl link pool retire`): no retry cures it


@dataclass(frozen=True)
class Sent:
    """One operation: confirmed by the pool (with its answer), or queued in the outbox."""

    kind: str
    ident: str
    key: str
    confirmed: bool
    result: Mapping[str, Any] | None = None
    amount: int | None = None

    @classmethod
    def of(cls, op: Op) -> "Sent":
        return cls(op.kind, op.ident, op.key, op.status == "confirmed", op.result, op.amount)


def _settle_amount(op: Op, r: Mapping[str, Any]) -> int:
    return -r["amount_cents"] if r["status"] == "voided" else r["amount_cents"]


# kind -> (query, parameters from (pool, op), the amount recorded in the digest from the answer)
QUERIES: dict[str, tuple[str, Callable[[str, Op], tuple], Callable[[Op, Mapping[str, Any]], int]]] = {
    "contribution": ("SELECT link.contribute(%s, %s, %s, %s, %s)",
                     lambda pool, op: (pool, op.args["round"], uuid.UUID(op.key), list(op.args["seats"]),
                                       op.args["version"]),
                     lambda op, r: r["units"]),
    "claim": ("SELECT link.claim(%s, %s, %s, %s)",
              lambda pool, op: (pool, op.args["round"], uuid.UUID(op.key), Jsonb(list(op.args["hits"]))),
              lambda op, r: r["total_cents"]),
    "settle": ("SELECT link.settle_award(%s, %s, %s, %s, %s, %s, %s, %s)",
               lambda pool, op: (pool, op.args["round"], op.args["seat"], uuid.UUID(op.key), op.args["status"],
                                 op.args["supervisor"], op.args.get("reason"),
                                 Jsonb(op.args.get("validation"))),
               _settle_amount),
    "close": ("SELECT link.close_round(%s, %s, %s)",
              lambda pool, op: (pool, op.args["round"], uuid.UUID(op.key)),
              lambda op, r: 0),   # moves no money: not in the digest (controller/link/digest.py)
    "jackpot-contribution": ("SELECT link.jackpot_contribute(%s, %s, %s, %s)",
                             lambda pool, op: (pool, op.args["hand"], uuid.UUID(op.key), op.args["amount"]),
                             lambda op, r: r["amount_cents"]),
    "qualify": ("SELECT link.jackpot_qualify(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                lambda pool, op: (pool, op.args["hand"], uuid.UUID(op.key), op.args["seat"], op.args["value"],
                                  op.args["hand_name"], op.args["cards"], op.args["player"],
                                  Jsonb(op.args["verification"]) if op.args.get("verification") else None),
                lambda op, r: op.args["value"]),
}


class LinkClient:
    """Connection, outbox, keeper and reconcile: what every linked table shares."""

    def __init__(self, config: LinkConfig, outbox: Outbox | Path | str, *,
                 on_status: Callable[[LinkStatus], None] | None = None) -> None:
        self.config = config
        self.outbox = outbox if isinstance(outbox, Outbox) else Outbox(outbox)
        self.on_status = on_status
        self.mode: str | None = None   # the table's (controller/testmode.py): said as it opens; None: a live link refuses it
        # test knob, as the device emulators have: called after the pool answered an
        # operation and before the outbox records the answer (a box killed there)
        self.fault_after_send: Callable[[Op, Mapping[str, Any]], None] | None = None
        self._conn: psycopg.AsyncConnection | None = None
        self._closing: set[asyncio.Future] = set()   # late connections being closed (held until done)
        self._lock = asyncio.Lock()
        self._online = False
        self._agreed = False
        self._reason = "not started"
        self._differences: tuple[str, ...] = ()
        self._retired = ""
        self._state: dict[str, Any] = {}
        self._keeper: asyncio.Task | None = None
        self._status = LinkStatus(config.pool, config.table)
        self._log = log.bind(pool=config.pool, table=config.table)
        self.link_lost_at: float | None = None

    # --- life ------------------------------------------------------------------------------
    async def start(self) -> LinkStatus:
        """Open the table on the pool (it is live from now: parameters frozen) and keep the link."""
        self._log.info("link_start", link=self.config.describe())
        await self._bring_up()
        self._keeper = asyncio.create_task(self._keep(), name=f"link-keeper-{self.config.table}")
        return self.status

    async def stop(self, *, close_table: bool = False) -> None:
        """Stop the keeper; with `close_table`, send what is queued and close the table on the pool."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        if close_table:
            async with self._lock:
                try:
                    await self._drain()
                    if self.outbox.pending(self.config.pool):
                        raise LinkError("operations are still queued; the table stays live on the pool")
                    self._state = await self._call("SELECT link.close_table(%s)", (self.config.pool,))
                except LinkDown as exc:
                    raise LinkError(f"cannot close the table on the pool: {exc}") from None
        await self._drop()
        self._online = False
        self._reason = "stopped"
        self._publish()

    async def __aenter__(self) -> "LinkClient":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def status(self) -> LinkStatus:
        return self._status

    async def wait_playable(self, timeout: float) -> bool:
        """Wait until the progressive is playable (for tests and the end of a shift)."""
        deadline = time.monotonic() + timeout
        while not self.status.playable:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    def acknowledge(self, key: str, who: str) -> None:
        """A supervisor has dealt with an operation the pool refused (see Outbox.acknowledge)."""
        self.outbox.acknowledge(key, who)
        self._log.warning("link_refusal_acknowledged", key=key, who=who)
        self._publish()

    # --- talking to the database ---------------------------------------------------------------
    async def _call(self, query: str, params: tuple, *, rows: bool = False, patience: float = 1.0) -> Any:
        """One statement within the link's timeout (times `patience`), connecting first if needed.

        psycopg, when a running query is cancelled, tries to cancel it on the server
        and waits for that (seconds, on a dead link). The table cannot wait: each step
        runs as its own task, and one that overruns is abandoned with its connection
        (it ends in the background). The operation's key makes a late commit harmless.
        """
        deadline = time.monotonic() + self.config.timeout * patience
        if self._conn is None:
            kwargs = self.config.connect_kwargs()
            self._conn = await self._bounded(psycopg.AsyncConnection.connect(autocommit=True, **kwargs),
                                             deadline, None)
        conn = self._conn
        answer = await self._bounded(self._run(conn, query, params, rows), deadline, conn)
        return answer if rows else (answer[0] if answer else None)

    @staticmethod
    async def _run(conn: psycopg.AsyncConnection, query: str, params: tuple, rows: bool) -> Any:
        cur = await conn.execute(query, params)
        return await (cur.fetchall() if rows else cur.fetchone())

    async def _bounded(self, coro, deadline: float, conn: psycopg.AsyncConnection | None) -> Any:
        task = asyncio.ensure_future(coro)
        try:
            done, _ = await asyncio.wait({task}, timeout=max(0.0, deadline - time.monotonic()))
        except asyncio.CancelledError:
            self._abandon(task, conn)
            raise
        if not done:
            self._abandon(task, conn)
            raise LinkDown(f"no answer from the pool within {self.config.timeout_ms} ms")
        try:
            return task.result()
        except (OSError, psycopg.Error) as exc:
            err = translate(exc)
            if isinstance(err, LinkDown) or conn is None or conn.broken:
                await self._drop()
            raise err from None

    def _abandon(self, task: asyncio.Future, conn: psycopg.AsyncConnection | None) -> None:
        if conn is not None and self._conn is conn:
            self._conn = None
        task.cancel()

        def reap(t: asyncio.Future) -> None:
            if t.cancelled():
                return
            if t.exception() is None and isinstance(t.result(), psycopg.AsyncConnection):
                closing = asyncio.ensure_future(t.result().close())  # a connect that came too late
                self._closing.add(closing)
                closing.add_done_callback(self._closing.discard)
        task.add_done_callback(reap)

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(0.5):
                    await conn.close()

    async def _send(self, op: Op) -> Mapping[str, Any]:
        """One operation; while another table's session holds the meter row against the others
        the pool answers "lock not available" with its hint (MeterHeld) and this asks it to cut
        that session off (in a transaction of its own, which records it: schema.sql
        link.cut_off_holders) and sends again (issue 26)."""
        query, params, _ = QUERIES[op.kind]
        for _ in range(CUT_OFF_TRIES):
            try:
                answer = await self._call(query, params(self.config.pool, op))
            except MeterHeld as exc:
                held = exc
            else:
                if isinstance(answer, Mapping) and answer.get("refused"):   # refused, and recorded in the pool
                    raise LinkRefused(str(answer.get("code")), str(answer.get("reason")))
                return answer
            answer = await self._call("SELECT link.cut_off_holders(%s)", (self.config.pool,), patience=3)
            self._log.warning("link_meter_held", kind=op.kind, ident=op.ident, held=str(held),
                              cut_off=(answer or {}).get("cut_off"))
        raise LinkDown(f"the meter row stays held: {held}")

    async def _drain(self) -> None:
        """Send every queued operation in order; LinkDown leaves the rest queued. Hold the lock."""
        for op in self.outbox.pending(self.config.pool):
            try:
                answer = await self._send(op)
            except LinkRefused as exc:
                self.outbox.refuse(op.key, f"{exc.code}: {exc.message}")
                self._log.error("link_refused", kind=op.kind, ident=op.ident, key=op.key, code=exc.code,
                                reason=exc.message)
                continue
            if self.fault_after_send is not None:
                self.fault_after_send(op, answer)
            self.outbox.confirm(op.key, QUERIES[op.kind][2](op, answer), answer)
            if "meter_units_after" in answer:  # the meter as this operation left it
                units = answer["meter_units_after"]
                self._state = {**self._state, "meter_cents": units // 10_000, "meter_fraction": units % 10_000}
                if "overflow_units_after" in answer:   # and the overflow (a pool with a limit, issue 29)
                    self._state["overflow_units"] = answer["overflow_units_after"]
            elif op.kind in ("claim", "settle"):  # awards change what every table shows: refresh now
                self._state = await self._call("SELECT link.table_state(%s)", (self.config.pool,))

    async def _submit(self, op: Op) -> Sent:
        if op.status == "pending":
            async with self._lock:
                if self._online:
                    try:
                        await self._drain()
                    except LinkDown as exc:
                        await self._lost(str(exc))
            op = self.outbox.get(op.key)  # type: ignore[assignment]
        self._publish()
        if op.status in ("refused", "acknowledged"):
            code, _, message = (op.reason or "").partition(": ")
            raise LinkRefused(code, message or (op.reason or "refused"))
        return Sent.of(op)

    # --- link up, link down ----------------------------------------------------------------
    async def _lost(self, reason: str) -> None:
        if self._online:
            self.link_lost_at = time.monotonic()
            self._log.warning("link_lost", reason=reason)
        self._online = False
        self._agreed = False
        self._reason = f"link down: {reason}"
        await self._drop()
        self._publish()

    async def _bring_up(self) -> bool:
        """Open the table, send what is queued, and compare records: the reconcile of 5321.18(c)."""
        pool = self.config.pool
        async with self._lock:
            try:
                # a mode of None (a client that says none) is refused by a live link (schema.sql LK041)
                self._state = await self._call("SELECT link.open_table(%s, %s)", (pool, self.mode))
                await self._drain()
                count, dig = self.outbox.digest(pool)
                answer = await self._call("SELECT link.report_reconcile(%s, %s, %s)", (pool, count, dig),
                                          patience=5)
                agreed = bool(answer["agreed"])
                diffs: tuple[str, ...] = ()
                if not agreed:
                    rows = await self._call("SELECT kind, round_id, key::text, amount FROM link.table_records(%s)",
                                            (pool,), rows=True, patience=5)
                    diffs = tuple(differences(self.outbox.records(pool), [tuple(r) for r in rows]))
            except LinkDown as exc:
                was = self._online
                self._online = False
                self._reason = f"link down: {exc}"
                if was:
                    self._log.warning("link_lost", reason=str(exc))
                self._publish()
                return False
            except LinkRefused as exc:
                self._online = False
                self._reason = f"refused by the pool: {exc.message}"
                if exc.code == RETIRED:
                    self._retired = exc.message
                    self._reason = f"pool retired: {exc.message}"
                self._log.error("link_refused", code=exc.code, reason=exc.message)
                self._publish()
                return False
            self._online = True
            self._agreed = agreed
            self._differences = diffs
            if agreed:
                self._reason = ""
                self._log.info("link_up", records=count, link=self.config.describe())
            else:
                self._reason = f"records disagree with the pool ({len(diffs)} differences)"
                self._log.error("link_records_disagree", differences=list(diffs[:20]))
            self._publish()
            return True

    async def _keep(self) -> None:
        """Heartbeat while up (a silent link is found within one beat), reconnect while down."""
        beats = 0
        while True:
            try:
                if not self._online:
                    await asyncio.sleep(self.config.retry_ms / 1000)
                    await self._bring_up()
                    continue
                await asyncio.sleep(self.config.heartbeat_ms / 1000)
                beats += 1
                if not self._agreed and beats % 10 == 0:
                    await self._bring_up()  # a person may have put the records right
                    continue
                if beats % REPORT_EVERY == 0 and not self._lock.locked():
                    await self._bring_up()  # report the records again, so `link check` sees them fresh
                    continue
                if self._lock.locked():
                    continue  # an operation is talking to the pool right now
                async with self._lock:
                    try:
                        self._state = await self._call("SELECT link.table_state(%s)", (self.config.pool,))
                        if self.outbox.pending(self.config.pool):
                            await self._drain()
                    except LinkDown as exc:
                        await self._lost(str(exc))
                    except LinkRefused as exc:
                        self._log.error("link_refused", code=exc.code, reason=exc.message)
                        if exc.code == RETIRED:   # the wager is offered no more: the link is down for good
                            self._retired = exc.message
                            self._online = False
                            self._reason = f"pool retired: {exc.message}"
                self._publish()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # never let the keeper die silently
                self._log.exception("link_keeper_error", error=repr(exc))
                await self._lost(f"keeper error: {exc!r}")

    def _publish(self) -> None:
        pool = self.config.pool
        unconfirmed = len(self.outbox.pending(pool))
        refused = len(self.outbox.refused(pool))
        reason = self._reason
        if not reason and unconfirmed:
            reason = f"{unconfirmed} operations not yet confirmed by the pool"
        if not reason and refused:
            reason = f"{refused} operations refused by the pool; a supervisor must acknowledge them"
        playable = self._online and self._agreed and not unconfirmed and not refused
        st = self._state
        status = LinkStatus(
            pool=pool, table=self.config.table, online=self._online, playable=playable,
            reason="" if playable else (reason or "not reconciled"),
            meter_cents=st.get("meter_cents"), meter_fraction=st.get("meter_fraction") or 0,
            version=st.get("version"), params=st.get("params"),
            pending_awards=tuple(st.get("pending") or ()), unconfirmed=unconfirmed, refused=refused,
            period=st.get("period"), leading=st.get("leading"), last_period=st.get("last_period"),
            differences=self._differences,
            overflow_cents=None if st.get("overflow_units") is None else st["overflow_units"] // 10_000,
            limit_cents=st.get("limit_cents"), retired=self._retired,
        )
        if status != self._status:
            if status.playable != self._status.playable:
                self._log.info("link_playable" if status.playable else "link_unplayable", reason=status.reason)
            self._status = status
            if self.on_status is not None:
                self.on_status(status)

    def _record(self, kind: str, ident: str, args: Mapping[str, Any], same: Sequence[str]) -> Op:
        """The outbox's operation for (kind, ident): the one already there when its `same` fields match."""
        existing = self.outbox.find(self.config.pool, kind, ident)
        if existing is not None and all(existing.args.get(k) == args.get(k) for k in same):
            return existing
        return self.outbox.record(self.config.pool, kind, ident, args,
                                  key=op_key(self.config.pool, self.config.table, kind, ident))


class ProgressiveLink(LinkClient):
    """A Caribbean stud table's end of a linked progressive (5324.37(f), (g)(4)-(6))."""

    async def contribute(self, round_id: str, seats: Sequence[int], *, send: bool = True) -> Sent:
        """At lock-out: the round's progressive wagers, by seat, go to the pool's meter."""
        seats = sorted(int(s) for s in seats)
        if not seats:
            raise ValueError("contribute: a round without progressive wagers contributes nothing")
        existing = self.outbox.find(self.config.pool, "contribution", round_id)
        if existing is None and self.status.version is None:
            raise LinkError("the pool has never been reached: its parameters are unknown, no progressive wager")
        version = existing.args["version"] if existing is not None else self.status.version
        op = self._record("contribution", round_id, {"round": round_id, "seats": seats, "version": version},
                          ("round", "seats"))
        return await self._submit(op) if send else Sent.of(op)

    async def claim(self, round_id: str, hits: Sequence[tuple[int, str, str]], *, send: bool = True) -> Sent:
        """The round's winning progressive hands (seat, hand, cards); the pool pays them in order."""
        rows: list[dict[str, Any]] = []
        for seat, hand, cards in hits:
            if hand not in PROGRESSIVE_HANDS:
                raise ValueError(f"claim: {hand!r} is not a progressive hand ({', '.join(PROGRESSIVE_HANDS)})")
            rows.append({"seat": int(seat), "hand": hand, "cards": cards})
        rows.sort(key=lambda h: -h["seat"])  # payment order: seat 7 down to seat 1 (5324.37(e)(4))
        op = self._record("claim", round_id, {"round": round_id, "hits": rows}, ("round", "hits"))
        return await self._submit(op) if send else Sent.of(op)

    async def close_round(self, round_id: str, *, send: bool = True) -> Sent:
        """The round is over at the table (recorded: settled or voided), after its claim: the pool
        takes no claim for it from now on (issue 26)."""
        op = self._record("close", round_id, {"round": round_id}, ("round",))
        return await self._submit(op) if send else Sent.of(op)

    async def settle(self, round_id: str, seat: int, *, status: str, supervisor: str,
                     validation: Mapping[str, Any], reason: str | None = None, send: bool = True) -> Sent:
        """The supervisor's validation of one pending award: `paid`, or `voided` with a reason.

        `validation` is the table's journal entry of it (see `validation_record`): the pool
        keeps it with the award, so the check can hold the settlement against the journal.
        """
        args = {"round": round_id, "seat": int(seat), "status": status, "supervisor": supervisor,
                "reason": reason, "validation": dict(validation)}
        op = self._record("settle", f"{round_id}#{int(seat)}", args, tuple(args))
        return await self._submit(op) if send else Sent.of(op)


def validation_record(entry: Any, seat: int) -> dict:
    """What travels to the pool of the journal entry in which a supervisor validated (or refused)
    a seat's award: its number, time and hash, and who signed in at which screen (issue 16)."""
    p = entry.payload
    return {"entry": entry.seq, "at": entry.at, "hash": entry.hash.hex(), "source": p.get("source"),
            "who": p.get("who"), "event": (p.get("event") or {}).get("type"), "seat": int(seat)}
