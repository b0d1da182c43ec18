"""The progressive controller as the table sees it: its inputs as events, its lights and meter as awaitables.

`set_lights` returns only when the controller has acknowledged the seven
lights and the lock-out indicator with an echo of what it applied, so "the
light is on" in the journal means the controller said so (5324.37(f)(2)(ii)).
Output reports set a state and are idempotent, so a retry is always safe.

The controller sends its state at least every second; silence for
`UsbTiming.silence` means it is gone even if USB has not said so, and the
driver reconnects, reporting the gap on the queue and in the log.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from drivers.backoff import Backoff
from drivers.errors import BadFrame, CommandRefused, DeviceDisconnected, DeviceError, DeviceTimeout
from drivers.events import DeviceStatus, LinkState, check_queue
from drivers.progressive import protocol as p
from drivers.progressive.transport import UsbTransport

# The emulator's identity: VID 0x1209 with a PID from pid.codes' range for testing. A real
# controller has its vendor's own ids, given to the driver from the table profile.
DEFAULT_VENDOR = 0x1209
DEFAULT_PRODUCT = 0x0001


@dataclass(frozen=True, slots=True)
class UsbTiming:
    ack_timeout: float = 0.1    # per try, for the ACK report
    retries: int = 3
    silence: float = 3.0        # no report for this long: the controller is gone (it heartbeats every 1 s)
    backoff_initial: float = 0.1
    backoff_max: float = 5.0


@dataclass(slots=True)
class _Pending:
    report_id: int
    seq: int
    future: asyncio.Future


class ProgressiveDevice:
    NAME = "progressive"

    def __init__(self, queue: asyncio.Queue, *, vendor: int = DEFAULT_VENDOR, product: int = DEFAULT_PRODUCT,
                 serial: str | None = None, backend=None, name: str | None = None,
                 timing: UsbTiming | None = None, trace: bool = False) -> None:
        self.vendor = vendor
        self.product = product
        self.serial = serial
        self.backend = backend
        self.name = name or self.NAME
        self.timing = timing or UsbTiming()
        self.trace = trace
        self._queue = check_queue(queue)
        where = f"{vendor:04x}:{product:04x}" + (f"/{serial}" if serial else "")
        self.where = where
        self._log = structlog.get_logger("drivers.progressive").bind(device=self.name, usb=where)
        self.state: LinkState | None = None
        self.inputs: p.InputState | None = None
        self.lights: p.SetLights | None = None
        self.meter: p.SetMeter | None = None
        self.bad_frames = 0
        self.lost_reports = 0
        self.retransmissions = 0
        self.connections = 0
        self._tracker = p.StateTracker()
        self._transport: UsbTransport | None = None
        self._gen = 0
        self._tx_seq = 0
        self._rx_seq: int | None = None
        self._pending: _Pending | None = None
        self._tx_lock = asyncio.Lock()
        self._lost = asyncio.Event()
        self._lost_reason = ""
        self._want_sync = asyncio.Event()
        self._connected_event = asyncio.Event()
        self._last_rx_time = 0.0
        self._runner: asyncio.Task | None = None
        self._first: asyncio.Future[bool] | None = None
        self._held: list[object] | None = None  # events that arrive before CONNECTED is reported

    # -- public API ---------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.state is LinkState.CONNECTED and not self._lost.is_set()

    async def start(self) -> bool:
        """Connect, or report the controller missing and keep looking; never raises for a missing one."""
        if self._runner is not None:
            raise RuntimeError(f"{self.name} already started")
        self._first = asyncio.get_running_loop().create_future()
        self._runner = asyncio.create_task(self._run(), name=f"{self.name}-link")
        return await asyncio.shield(self._first)

    async def wait_connected(self, timeout: float | None = None) -> None:
        await asyncio.wait_for(self._connected_event.wait(), timeout)

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
        await self._drop_transport()
        if self._first is not None and not self._first.done():
            self._first.set_result(False)

    async def __aenter__(self):
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def set_lights(self, lights: Sequence[p.Light] | dict[int, p.Light], lockout: bool) -> None:
        """Set all seven acceptor lights and the lock-out indicator; returns once the controller echoes them."""
        message = p.SetLights(p.lights_for(lights), lockout)
        ack = await self._output(message)
        if ack.echo != message.payload():
            raise DeviceError(self.name, f"controller applied lights {ack.echo.hex(' ')}, "
                                         f"not {message.payload().hex(' ')}")
        self.lights = message

    async def set_meter(self, cents: int, mode: p.MeterMode = p.MeterMode.SHOW) -> None:
        message = p.SetMeter(cents, mode)
        ack = await self._output(message)
        if ack.echo != message.payload():
            raise DeviceError(self.name, f"controller shows meter {ack.echo.hex(' ')}, not {message.payload().hex(' ')}")
        self.meter = message

    async def sync(self) -> None:
        """Ask for the whole input state; it arrives as a ControllerState event."""
        self._tracker.reset()
        await self._output(p.Sync())

    # -- output reports -------------------------------------------------------------------

    async def _output(self, message: p.OutputMessage) -> p.ReportAck:
        if not self.connected and self._transport is None:
            raise DeviceDisconnected(self.name, f"not connected ({self.state.value if self.state else 'not started'})")
        async with self._tx_lock:
            transport = self._transport
            if transport is None:
                raise DeviceDisconnected(self.name, "not connected")
            self._tx_seq = (self._tx_seq + 1) & 0xFF
            seq = self._tx_seq
            data = p.encode_output(seq, message)
            future = asyncio.get_running_loop().create_future()
            self._pending = _Pending(message.ID, seq, future)
            tries = 1 + self.timing.retries
            name = p.REPORT_NAMES[message.ID]
            try:
                for attempt in range(tries):
                    if attempt:
                        self.retransmissions += 1
                        self._log.info("retransmit", report=name, seq=seq, attempt=attempt + 1)
                    if self.trace:
                        self._log.debug("wire_tx", hex=data.hex(" "))
                    try:
                        transport.write(data)
                    except DeviceTimeout:
                        continue
                    try:
                        ack = await asyncio.wait_for(asyncio.shield(future), self.timing.ack_timeout)
                    except asyncio.TimeoutError:
                        if self._transport is not transport:
                            raise DeviceDisconnected(self.name, self._lost_reason or "link lost") from None
                        continue
                    break
                else:
                    reason = f"no ACK to {name} (SEQ {seq}) after {tries} tries"
                    self._link_lost(reason)
                    raise DeviceTimeout(self.name, reason)
            finally:
                self._pending = None
                if not future.done():
                    future.cancel()
                elif not future.cancelled():
                    future.exception()
            if ack.status != p.AckStatus.APPLIED:
                raise CommandRefused(self.name, ack.status, ack.status.name.lower().replace("_", " "))
            return ack

    # -- input reports ---------------------------------------------------------------------

    def _on_report(self, gen: int, data: bytes) -> None:
        if gen != self._gen:
            return
        self._last_rx_time = asyncio.get_running_loop().time()
        if self.trace:
            self._log.debug("wire_rx", hex=data.hex(" "))
        self.feed(data)

    def feed(self, data: bytes) -> None:
        """Act on one input report; public so the fuzz tests can drive it without USB."""
        try:
            seq, message = p.parse_input(data)
        except BadFrame as bad:
            self.bad_frames += 1
            self._log.warning("bad_frame", reason=bad.reason, raw=bad.raw.hex(" "), count=self.bad_frames)
            self._want_sync.set()  # what did that report say? ask for the state again
            return
        if self._rx_seq is not None and seq != (self._rx_seq + 1) & 0xFF:
            lost = (seq - self._rx_seq - 1) & 0xFF
            self.lost_reports += lost
            self._log.warning("reports_lost", lost=lost, seq=seq)
            if isinstance(message, p.ReportAck):
                self._want_sync.set()  # a STATE may have been among them
        self._rx_seq = seq
        if isinstance(message, p.ReportAck):
            pending = self._pending
            if (pending is not None and message.report_id == pending.report_id and message.seq == pending.seq
                    and not pending.future.done()):
                pending.future.set_result(message)
            else:
                self._log.debug("stray_ack", report=message.report_id, seq=message.seq)
            return
        self.inputs = message
        for event in self._tracker.update(message):
            self._log.debug("device_event", kind=type(event).__name__)
            self._put(event)

    def _put(self, event: object) -> None:
        if self._held is not None:
            self._held.append(event)
        else:
            self._queue.put_nowait(event)

    # -- session -----------------------------------------------------------------------

    async def _run(self) -> None:
        backoff = Backoff(self.timing.backoff_initial, self.timing.backoff_max)
        ever_connected = False
        while True:
            try:
                await self._connect()
            except DeviceError as exc:
                await self._drop_transport()
                self._set_state(LinkState.DISCONNECTED if ever_connected else LinkState.MISSING, exc.message)
                self._release_held()
                self._resolve_first(False)
                await asyncio.sleep(backoff.next())
                continue
            ever_connected = True
            backoff.reset()
            self._set_state(LinkState.CONNECTED, f"{self.where} ({self._describe()})")
            self._resolve_first(True)
            self._release_held()
            reason = await self._keep_alive()
            await self._drop_transport()
            self._set_state(LinkState.DISCONNECTED, reason)
            await asyncio.sleep(backoff.next())

    def _describe(self) -> str:
        transport = self._transport
        try:
            return f"{transport.dev.product} {transport.dev.serial_number}" if transport else "?"
        except Exception:  # noqa: BLE001 - strings are for the operator only
            return "strings unreadable"

    async def _connect(self) -> None:
        self._held = []
        self._gen += 1
        gen = self._gen
        self._lost.clear()
        self._lost_reason = ""
        self._rx_seq = None
        self._tracker.reset()
        self._transport = UsbTransport.open(
            vendor=self.vendor, product=self.product, serial=self.serial, backend=self.backend, name=self.name,
            on_report=functools.partial(self._on_report, gen), on_lost=functools.partial(self._on_lost, gen))
        self._last_rx_time = asyncio.get_running_loop().time()
        self._want_sync.clear()
        await self._output(p.Sync())   # the answer to SYNC is the whole state: a ControllerState event
        self.connections += 1

    async def _keep_alive(self) -> str:
        loop = asyncio.get_running_loop()
        silence = self.timing.silence
        while True:
            quiet = loop.time() - self._last_rx_time
            if quiet >= silence:
                self._link_lost(f"no report for {quiet:.1f} s")
                return self._lost_reason
            lost = asyncio.ensure_future(self._lost.wait())
            want = asyncio.ensure_future(self._want_sync.wait())
            try:
                await asyncio.wait((lost, want), timeout=silence - quiet, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for f in (lost, want):
                    f.cancel()
                await asyncio.gather(lost, want, return_exceptions=True)
            if self._lost.is_set():
                return self._lost_reason
            if self._want_sync.is_set():
                self._want_sync.clear()
                try:
                    await self.sync()
                except DeviceError as exc:
                    if not self._lost.is_set():
                        self._link_lost(f"resync failed: {exc.message}")
                    return self._lost_reason

    def _on_lost(self, gen: int, exc: Exception) -> None:
        if gen == self._gen:
            self._link_lost(f"USB failed: {exc}")

    def _link_lost(self, reason: str) -> None:
        if self._lost.is_set():
            return
        self._lost_reason = reason
        self._lost.set()
        self._connected_event.clear()
        pending = self._pending
        if pending is not None and not pending.future.done():
            pending.future.set_exception(DeviceDisconnected(self.name, reason))

    async def _drop_transport(self) -> None:
        self._gen += 1
        self._connected_event.clear()
        transport, self._transport = self._transport, None
        if transport is not None:
            await transport.close()

    def _set_state(self, state: LinkState, detail: str) -> None:
        if state is self.state and state is not LinkState.CONNECTED:
            self._log.debug("still_" + state.value, detail=detail)
            return
        self.state = state
        if state is LinkState.CONNECTED:
            self._connected_event.set()
            self._log.info("device_connected", detail=detail)
        else:
            self._log.warning("device_" + state.value, detail=detail)
        self._queue.put_nowait(DeviceStatus(self.name, state, detail))

    def _release_held(self) -> None:
        held, self._held = self._held or [], None
        for event in held:
            self._queue.put_nowait(event)

    def _resolve_first(self, connected: bool) -> None:
        if self._first is not None and not self._first.done():
            self._first.set_result(connected)
