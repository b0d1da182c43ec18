"""The progressive controller as the table sees it: its inputs as events, its lights and meter as awaitables.

`set_lights` returns only when the controller has acknowledged the seven
lights and the lock-out indicator with an echo of what it applied, so "the
light is on" in the journal means the controller said so (5324.37(f)(2)(ii)).
Output reports set a state and are idempotent, so a retry is always safe.

The controller sends its state at least every second; silence for
`UsbTiming.silence` means it is gone even if USB has not said so, and the
driver reconnects, reporting the gap on the queue and in the log.

Every report is sealed under the controller's pairing key (drivers/pairing.py):
a session begins with HELLO (the host's nonce; the ACK echoes the
controller's); an ACK of it not under the key refuses the controller as
unpaired, and a report of the session not under it, or replayed, is refused,
counted and reported once per session (LinkRefused). The door and the battery
of its memory (STATE bits 1 and 2) are reported when they change, as
drivers.events.Door and Battery.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any
from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from drivers.errors import BadFrame, CommandRefused, DeviceDisconnected, DeviceError, DeviceTimeout, UnpairedDevice
from drivers.events import Battery, Door, LinkRefused
from drivers.pairing import FACTORY_KEY, LinkSeal, SealRefused, Side, new_nonce
from drivers.progressive import protocol as p
from drivers.progressive.transport import UsbTransport
from drivers.supervision import SupervisedDevice
from drivers.waiting import within

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
    future: asyncio.Future[p.ReportAck]


class ProgressiveDevice(SupervisedDevice):
    NAME = "progressive"
    TRANSPORT_FAILED = "USB failed"

    def __init__(self, queue: asyncio.Queue[object], *, vendor: int = DEFAULT_VENDOR, product: int = DEFAULT_PRODUCT,
                 serial: str | None = None, backend: Any = None, name: str | None = None,
                 timing: UsbTiming | None = None, trace: bool = False, key: bytes = FACTORY_KEY) -> None:
        self.vendor = vendor
        self.product = product
        self.serial = serial
        self.backend = backend
        self.timing = timing or UsbTiming()
        self.trace = trace
        name = name or self.NAME
        where = f"{vendor:04x}:{product:04x}" + (f"/{serial}" if serial else "")
        self.where = where
        super().__init__(queue, name, structlog.get_logger("drivers.progressive").bind(device=name, usb=where))
        self.inputs: p.InputState | None = None
        self.lights: p.SetLights | None = None
        self.meter: p.SetMeter | None = None
        self.lost_reports = 0
        self._tracker = p.StateTracker()
        self._rx_seq: int | None = None
        self._pending: _Pending | None = None
        self._want_sync = asyncio.Event()
        self._seal = LinkSeal(key, Side.HOST)
        self._session = False            # the controller's ACK of our HELLO verified: its reports are ours to take
        self._unpaired: str | None = None
        self.refused_frames = 0
        self._reported_refusal = False
        self.door_open: bool | None = None      # as last reported; None until the first STATE
        self.battery_low: bool | None = None

    # -- public API ---------------------------------------------------------------------

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

    async def write_anchor(self, data: bytes) -> None:
        """Put the journal's anchor (ANCHOR_SIZE bytes) in the controller's non-volatile memory.

        The controller commits it when the last part arrives; a write cut short
        leaves the previous anchor whole."""
        for message in p.anchor_parts(data):
            ack = await self._output(message)
            if ack.echo != message.payload():
                raise DeviceError(self.name, f"controller stored anchor part {ack.echo[:1].hex()} otherwise")

    async def read_anchor(self) -> bytes:
        """The anchor the controller holds (all zeros when it holds none)."""
        out = b""
        for part in range(p.ANCHOR_PARTS):
            ack = await self._output(p.AnchorRead(part))
            if len(ack.echo) != 1 + p.ANCHOR_PART or ack.echo[0] != part:
                raise DeviceError(self.name, f"controller answered anchor part {part} with {ack.echo.hex(' ')}")
            out += ack.echo[1:]
        return out

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
            future: asyncio.Future[p.ReportAck] = asyncio.get_running_loop().create_future()
            self._pending = _Pending(message.ID, seq, future)
            tries = 1 + self.timing.retries
            name = p.REPORT_NAMES[message.ID]
            try:
                for attempt in range(tries):
                    if attempt:
                        self.retransmissions += 1
                        self._log.info("retransmit", report=name, seq=seq, attempt=attempt + 1)
                    data = p.encode_output(seq, message, self._seal)   # each try under the next counter
                    if self.trace:
                        self._log.debug("wire_tx", hex=data.hex(" "))
                    try:
                        transport.write(data)
                    except DeviceTimeout:
                        continue
                    try:
                        ack = await within(asyncio.shield(future), self.timing.ack_timeout)
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
                self._clear_pending(future)
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
            report, message = p.parse_input_report(data)
        except BadFrame as bad:
            self.bad_frames += 1
            self._log.warning("bad_frame", reason=bad.reason, raw=bad.raw.hex(" "), count=self.bad_frames)
            self._want_sync.set()  # what did that report say? ask for the state again
            return
        if not self._session:
            if not self._answers_hello(message):
                self._log.debug("report_before_hello", report=report.id, seq=report.seq)
                return   # sealed in a session the controller is leaving: not yet ours to judge
            assert isinstance(message, p.ReportAck)
            if message.status == p.AckStatus.APPLIED:
                self._seal.device_nonce = message.echo[:len(self._seal.device_nonce)]
            try:
                self._seal.check(report.body(), report.counter, report.mac)
            except SealRefused:
                self._unpaired = ("answers, but not under this table's pairing key: a controller not paired "
                                  "with this table (tablectl device pair)")
            else:
                self._session = True
        else:
            try:
                self._seal.check(report.body(), report.counter, report.mac)
            except SealRefused as refusal:
                self.refused_frames += 1
                self._log.warning("frame_refused", reason=refusal.reason, report=report.id, seq=report.seq,
                                  count=self.refused_frames)
                if not self._reported_refusal:
                    self._reported_refusal = True
                    self._put(LinkRefused(self.name, refusal.reason, refusal.replayed))
                return
        seq = report.seq
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
        self._conditions(message)
        for event in self._tracker.update(message):
            self._log.debug("device_event", kind=type(event).__name__)
            self._put(event)

    def _answers_hello(self, message: object) -> bool:
        pending = self._pending
        return (isinstance(message, p.ReportAck) and pending is not None and pending.report_id == p.HELLO
                and message.report_id == p.HELLO and message.seq == pending.seq)

    def _conditions(self, state: p.InputState) -> None:
        """The door and the battery, reported as they change (the first STATE: only if open, or low)."""
        if state.door_open != bool(self.door_open):
            self._put(Door(self.name, state.door_open))
        if state.battery_low != bool(self.battery_low):
            self._put(Battery(self.name, state.battery_low))
        self.door_open, self.battery_low = state.door_open, state.battery_low

    # -- session -----------------------------------------------------------------------

    def _connected_detail(self) -> str:
        return f"{self.where} ({self._describe()})"

    def _describe(self) -> str:
        transport = self._transport
        try:
            return f"{transport.dev.product} {transport.dev.serial_number}" if transport else "?"
        except Exception:
            return "strings unreadable"

    async def _connect(self) -> None:
        gen = self._begin_session()
        self._rx_seq = None
        self._tracker.reset()
        self._transport = UsbTransport.open(
            vendor=self.vendor, product=self.product, serial=self.serial, backend=self.backend, name=self.name,
            on_report=functools.partial(self._on_report, gen), on_lost=functools.partial(self._on_transport_lost, gen))
        self._last_rx_time = asyncio.get_running_loop().time()
        self._want_sync.clear()
        self._session = False
        self._unpaired = None
        self._reported_refusal = False
        self._seal.begin(new_nonce())
        try:
            await self._output(p.Hello(self._seal.host_nonce))
        except CommandRefused:
            if self._unpaired is None:
                raise
        if self._unpaired is not None:
            raise UnpairedDevice(self.name, f"the controller at {self.where} {self._unpaired}")
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
