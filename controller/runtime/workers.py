"""The device workers beside the table's consumer: they ask the devices for what the round needs.

The dealer's worker asks the shuffler and the shoe for the round's deck and
cards; the outputs worker sets the acceptor lights, the lock-out indicator and
the meter display after the journal has recorded why; after a restart the shoe
is checked against the journal; once the table is up the journal is scrubbed.
None of them changes a round: what they learn goes on the table's queue as an
event. They read the table through `WorkerHost`, the few things they need.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Coroutine
from typing import Any, Protocol

import structlog

from .card_alarms import MISSED
from .loop import SHUFFLE_STALL, STALL, Submission, stop_if_cancelled, wait_event

log = structlog.get_logger("controller.table")


class WorkerHost(Protocol):
    """What the device workers read and call (controller/table.py Table)."""

    state: Any                  # controller/runtime/tablestate.py TableState
    devices: Any                # controller/runtime/devices.py DeviceSet
    link: Any                   # controller/runtime/linked.py, None unless on a linked progressive
    check_round: str | None     # the round waiting for the shoe's count after a restart
    queue: asyncio.Queue[object]
    journal: Any
    faults: Any                 # controller/runtime/faults.py FaultState
    alarms: list[dict[str, Any]]   # the operator alarms the screens show

    @property
    def fault(self) -> dict[str, Any] | None: ...
    def spawn(self, coro: Coroutine[object, None, object], name: str) -> asyncio.Task[object]: ...
    def publish(self) -> None: ...
    def after_batch(self) -> None: ...


class DeviceWorkers:
    """The dealer's worker, the outputs worker, the shoe check and the scrub, and what they keep."""

    def __init__(self, host: WorkerHost) -> None:
        self.host = host
        self.wake_dealer = asyncio.Event()
        self.wake_outputs = asyncio.Event()
        self.outstanding, self.since = 0, 0.0   # cards asked of the shoe and not yet dealt, since when
        self.outputs_sent: tuple[object, ...] | None = None  # the lights, lock-out and meter the controller last took

    def card_dispensed(self) -> None:
        self.outstanding = max(0, self.outstanding - 1)

    def wake(self) -> None:
        self.wake_dealer.set()
        self.wake_outputs.set()


    async def check_shoe(self, round_id: str) -> None:
        """After a restart mid-round: does the shoe agree with the journal about the cards out?"""
        h = self.host
        from drivers.errors import DeviceError
        shoe = h.devices.shoe
        if shoe is None:   # poker: the dealer's cards lie where the journal left them
            # (and a war shoe without a reader: every card drawn was touched in and journaled), so no
            # device dealt a card the journal does not hold
            h.queue.put_nowait(Submission({"type": "shoe_check", "dispensed": 0}, "table"))
            return
        while True:
            await shoe.wait_connected()
            try:
                status = await shoe.request_status()
                break
            except DeviceError:
                await asyncio.sleep(0.2)
        if h.check_round != round_id:
            return   # the round ended without needing the shoe (its cards were all out and recorded)
        h.queue.put_nowait(Submission({"type": "shoe_check", "dispensed": status.dispensed,
                                       "cover_reached": status.cover_reached}, "device", "shoe"))

    async def scrub(self) -> None:
        """Every sealed byte of the journal read again once the table is up (controller/journal/store.py):
        a change the start-up check took the file's fingerprint for is found here."""
        h = self.host
        problems = await asyncio.to_thread(h.journal.scrub)
        if problems and not h.fault:
            h.faults.found_by_scrub(problems)
            h.after_batch()

    async def device_call(self, coro: Awaitable[object], what: str) -> None:
        from drivers.errors import DeviceError
        try:
            await coro
        except DeviceError as exc:
            log.warning("device_call_failed", call=what, error=str(exc))

    async def dealer(self) -> None:
        """Asks the devices for what the round needs: its deck shuffled and counted, then its cards.

        One request at a time, asked again if nothing came of it within STALL seconds
        (a device that was not connected yet, a restart in between). Never while the shoe's
        cards are out of step (card_alarms.MISSED): cards are out that the box cannot place,
        and every card the shoe pushed out after them would be refused too, so the deal stops
        there until the round is voided and a counted deck is loaded (which ends the alarm).
        """
        h = self.host
        from controller.logs import Repeating
        from drivers.errors import DeviceError
        asked: tuple[object, ...] = ()
        asked_at = 0.0
        failing = Repeating(log, "dispense_failed")   # a jam: once, then a count each minute
        while True:
            await wait_event(self.wake_dealer, 1.0)
            r = h.state.round if h.state else None
            if r is None or h.fault or r.round_id == h.check_round:
                continue
            now = time.monotonic()
            shuffle = r.deck_wanted()
            if shuffle is not None and h.devices.shuffler is not None and h.devices.shuffler.connected \
                    and (asked != (r.round_id, shuffle) or now - asked_at > SHUFFLE_STALL):
                asked, asked_at = (r.round_id, shuffle), now
                h.spawn(self.device_call(h.devices.shuffle(), "shuffle"), "shuffle")
                continue
            want = r.cards_wanted()
            if any(a.get("condition") == MISSED for a in h.alarms):
                self.outstanding = 0
                continue
            if self.outstanding and now - self.since > STALL:
                self.outstanding = 0
            if not want or self.outstanding or h.devices.shoe is None or not h.devices.shoe.connected \
                    or not h.devices.dispenses:   # a manual shoe: the dealer draws, the shoe reports
                continue
            self.outstanding, self.since = want, now
            try:
                await h.devices.dispense(want)
                stop_if_cancelled()
                failing.succeeded()
            except DeviceError as exc:
                self.outstanding = 0
                failing.failed(error=str(exc))
                await asyncio.sleep(0.3)
                self.wake_dealer.set()

    async def outputs(self) -> None:
        """The acceptor lights, the lock-out indicator and the meter display follow the journaled round."""
        h = self.host
        from controller.logs import Repeating
        from drivers.errors import DeviceError
        failing = Repeating(log, "outputs_failed")
        while True:
            await wait_event(self.wake_outputs, 1.0)
            if h.state is None or h.devices.progressive is None:
                continue
            r, meter = h.state.round, h.state.current_meter()
            link = h.link
            shown = meter.amount if meter else None
            waiting = bool(r and not r.closed and r.view()["validations"])
            if link is not None:
                # The pool's meter, flashing while any award of the pool waits for its validation
                # (pending on every linked table); blank, not the last amount, while the pool
                # cannot be reached (5321.18(c)): set_outputs blanks the display for None.
                shown = link.status.meter_cents if link.playable else None
                waiting = waiting or bool(link.status.pending_awards)
            want = (r.lights() if r else {}, r.lockout() if r else False, shown, waiting)
            if want == self.outputs_sent:
                continue
            try:
                await h.devices.set_outputs(*want)
                stop_if_cancelled()
                if h.devices.progressive.connected:
                    self.outputs_sent = want
                    h.publish()   # the screens show the lights as the controller echoed them
                failing.succeeded()
            except DeviceError as exc:
                failing.failed(error=str(exc))
                await asyncio.sleep(0.3)
                self.wake_outputs.set()
