"""The async half of a serial device: session, acknowledgements, retries, heartbeat, reconnection.

The shoe and the shuffler differ only in their messages, so everything about
keeping a link alive lives here once (PROTOCOLS.md 1.4-1.7):

- one request outstanding at a time (stop-and-wait), retried with the SAME
  sequence number so the device can tell a retry from a new command;
- every event from the device is ACKed (or NAKed if unreadable) and handed to
  the table's queue once, even if the device sends it again because our ACK
  was lost;
- a heartbeat STATUS_REQUEST when the line has been quiet, so a dead device is
  noticed between rounds rather than at the next card;
- on a lost link: a DeviceStatus on the queue, a log line, and a reconnect
  loop with backoff that never gives up. A device missing at start is the same
  loop with a different word on the screen;
- every frame sealed under the device's pairing key (drivers/pairing.py): a
  session's nonces are exchanged in HELLO and IDENT; an IDENT that is not under
  the key is a device refused (UNPAIRED), and a frame of the session that is
  not, or is replayed, is refused, counted and reported once per session
  (LinkRefused) for the table's alarm.

Everything here runs on the event loop; the transport's reader thread only
hands bytes over.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from typing import ClassVar

import structlog

from drivers.errors import (BadFrame, CommandRefused, DeviceDisconnected, DeviceError, DeviceTimeout,
                            IncompatibleDevice, UnknownFrameType, UnpairedDevice)
from drivers.events import LinkRefused
from drivers.pairing import FACTORY_KEY, LinkSeal, SealRefused, Side, new_nonce
from drivers.serial_link import messages as m
from drivers.serial_link.framing import Frame, FrameDecoder, encode_frame
from drivers.serial_link.transport import SerialTransport
from drivers.supervision import SupervisedDevice
from drivers.waiting import within


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """The link's clocks (PROTOCOLS.md 1.6). Tests shorten the backoff, never the ACK timeout."""

    ack_timeout: float = 0.1     # per try, for an ACK, NAK or reply
    retries: int = 3             # tries after the first, same SEQ
    heartbeat: float = 1.0       # STATUS_REQUEST after this long without a frame from the device
    interbyte: float = 0.05      # a frame not finished this long after its last byte is dropped
    backoff_initial: float = 0.1
    backoff_max: float = 5.0


@dataclass(slots=True)
class _Pending:
    seq: int
    type: int
    replies: tuple[int, ...]
    future: asyncio.Future[Frame]


_TYPE_NAMES = {m.HELLO: "HELLO", m.STATUS_REQUEST: "STATUS_REQUEST"}


class SerialDevice(SupervisedDevice):
    """Base of the shoe and shuffler drivers; subclasses name their kind and parse their events."""

    KIND: ClassVar[m.DeviceKind]
    NAME: ClassVar[str]
    COMMAND_NAMES: ClassVar[dict[int, str]] = {}
    TRANSPORT_FAILED = "port failed"

    def __init__(self, port: str, queue: asyncio.Queue[object], *, name: str | None = None,
                 timing: LinkTiming | None = None, baudrate: int = 115200, trace: bool = False,
                 key: bytes = FACTORY_KEY) -> None:
        self.port = port
        self.timing = timing or LinkTiming()
        self.baudrate = baudrate
        self.trace = trace
        name = name or self.NAME
        super().__init__(queue, name, structlog.get_logger(f"drivers.{self.NAME}").bind(device=name, port=port))
        self.ident: m.Ident | None = None
        self.status: object | None = None
        self.duplicates = 0
        self._decoder = FrameDecoder()
        self._expire_handle: asyncio.TimerHandle | None = None
        self._last_rx: tuple[int, int, bytes] | None = None   # SEQ, type and payload of the last event taken
        self._boot: int | None = None
        self._ident_seen = False   # this session's IDENT is in: its events may be taken (1.6)
        self._pending: _Pending | None = None
        self._seal = LinkSeal(key, Side.HOST)
        self.refused_frames = 0          # frames refused for their seal (a forged MAC, a replay)
        self._reported_refusal = False   # this session's LinkRefused is on the queue
        self._unpaired: str | None = None   # why this session's IDENT (or NAK) was not the paired device's

    # -- what subclasses provide -------------------------------------------------

    def _parse_event(self, frame: Frame) -> object:
        raise NotImplementedError

    def _parse_status(self, frame: Frame) -> object:
        raise NotImplementedError

    def _on_event(self, event: object) -> None:
        """Hook to keep local state (jammed, deck present) in step with events."""

    def _on_status_frame(self, frame: Frame) -> None:
        """Hook: a STATUS answering our request, as it arrives (in order with the events around it)."""

    def _on_restart(self) -> None:
        """Hook: the device has a new boot number (it restarted); called before any event of the new boot."""

    def _admit(self, event: object) -> object:
        """Hook: what goes on the table's queue for an event the link accepted (the event itself, a
        refusal in its place when the device's own numbering says it is out of step, or None for a
        repeat of what was already taken)."""
        return event

    # -- public API ----------------------------------------------------------------

    async def request_status(self) -> object:
        """Ask the device for its status now (the heartbeat does this when the line is quiet)."""
        reply = await self._request(m.STATUS_REQUEST, b"", (m.STATUS, m.NAK))
        if reply.type == m.NAK:
            reason = m.parse_nak(reply)
            raise CommandRefused(self.name, reason, m.NakReason.name_of(reason))
        try:
            self.status = self._parse_status(reply)
        except BadFrame as bad:
            self._bad_frame(bad)
            raise DeviceError(self.name, f"unreadable STATUS: {bad.reason}") from None
        return self.status

    # -- commands -------------------------------------------------------------------

    async def _command(self, type_: int, payload: bytes = b"") -> None:
        """Send a command and wait for its ACK; the outcome follows as events."""
        if not self.connected:
            raise DeviceDisconnected(self.name, f"not connected ({self.state.value if self.state else 'not started'})")
        reply = await self._request(type_, payload, (m.ACK, m.NAK))
        if reply.type == m.NAK:
            try:
                reason = m.parse_nak(reply)
            except BadFrame as bad:
                self._bad_frame(bad)
                reason = m.NakReason.BAD_PAYLOAD
            raise CommandRefused(self.name, reason, m.NakReason.name_of(reason))

    def _type_name(self, type_: int) -> str:
        return self.COMMAND_NAMES.get(type_) or _TYPE_NAMES.get(type_) or f"0x{type_:02X}"

    async def _request(self, type_: int, payload: bytes, replies: tuple[int, ...]) -> Frame:
        async with self._tx_lock:
            transport = self._transport
            if transport is None:
                raise DeviceDisconnected(self.name, "not connected")
            self._tx_seq = (self._tx_seq + 1) & 0xFF
            seq = self._tx_seq
            future = asyncio.get_running_loop().create_future()
            self._pending = _Pending(seq, type_, replies, future)
            tries = 1 + self.timing.retries
            try:
                for attempt in range(tries):
                    if attempt:
                        self.retransmissions += 1
                        self._log.info("retransmit", type=self._type_name(type_), seq=seq, attempt=attempt + 1)
                    # a retransmission: the same SEQ and payload under the session's next counter
                    self._write(transport, encode_frame(seq, type_, payload, self._seal))
                    try:
                        return await within(asyncio.shield(future), self.timing.ack_timeout)
                    except asyncio.TimeoutError:
                        if self._transport is not transport:
                            raise DeviceDisconnected(self.name, self._lost_reason or "link lost") from None
                reason = f"no answer to {self._type_name(type_)} (SEQ {seq}) after {tries} tries"
                self._link_lost(reason)
                raise DeviceTimeout(self.name, reason)
            finally:
                self._clear_pending(future)

    def _write(self, transport: SerialTransport, data: bytes) -> None:
        if self.trace:
            self._log.debug("wire_tx", hex=data.hex(" "))
        transport.write(data)

    def _send_reply(self, seq: int, type_: int, payload: bytes = b"") -> None:
        transport = self._transport
        if transport is None:
            return
        try:
            self._write(transport, encode_frame(seq, type_, payload, self._seal))
        except DeviceDisconnected:
            pass  # the lost-link path has been told by the transport

    # -- receiving ------------------------------------------------------------------

    def _on_data(self, gen: int, data: bytes) -> None:
        if gen != self._gen:
            return  # bytes from a port we have since closed
        loop = asyncio.get_running_loop()
        self._last_rx_time = loop.time()
        if self.trace:
            self._log.debug("wire_rx", hex=data.hex(" "))
        self.feed(self._decoder.feed(data))
        if self._expire_handle is not None:
            self._expire_handle.cancel()
            self._expire_handle = None
        if self._decoder.pending:
            self._expire_handle = loop.call_later(self.timing.interbyte, self._expire, gen)

    def _expire(self, gen: int) -> None:
        self._expire_handle = None
        if gen == self._gen:
            self.feed(self._decoder.expire())

    def feed(self, items: list[Frame | BadFrame]) -> None:
        """Act on decoded frames; public so the fuzz tests can drive it without a port."""
        for item in items:
            if isinstance(item, BadFrame):
                self._bad_frame(item)
                continue
            try:
                self._handle_frame(item)
            except BadFrame as bad:  # a reply whose payload is unreadable
                self._bad_frame(bad)

    def _bad_frame(self, bad: BadFrame) -> None:
        self.bad_frames += 1
        self._log.warning("bad_frame", reason=bad.reason, raw=bad.raw[:48].hex(" "), count=self.bad_frames)

    def _refuse(self, frame: Frame, refusal: SealRefused) -> None:
        """A frame of this session not sealed by the paired device (or sealed before): never acted on."""
        self.refused_frames += 1
        self._log.warning("frame_refused", reason=refusal.reason, type=f"0x{frame.type:02X}", seq=frame.seq,
                          count=self.refused_frames)
        if not self._reported_refusal:
            self._reported_refusal = True
            self._put(LinkRefused(self.name, refusal.reason, refusal.replayed))

    def _answers_hello(self, frame: Frame) -> bool:
        """Whether `frame` is the device's answer to the HELLO in flight (checked under its own rules)."""
        pending = self._pending
        return (pending is not None and pending.type == m.HELLO and frame.seq == pending.seq
                and frame.type in (m.IDENT, m.NAK))

    def _check_hello_answer(self, frame: Frame) -> bool:
        """The IDENT or NAK answering our HELLO: its MAC is the paired device's, under the nonce it brings."""
        if frame.type == m.IDENT:
            try:
                ident = m.parse_ident(frame)
            except BadFrame:
                return True   # `_connect` reports it
            self._seal.device_nonce = ident.nonce
        try:
            self._seal.check(frame.body(), frame.counter, frame.mac)
        except SealRefused:
            self._unpaired = ("answers, but not under this table's pairing key: a device not paired with this "
                              "table (tablectl device pair)")
            return True   # `_connect` refuses it as a device
        return True

    def _handle_frame(self, frame: Frame) -> None:
        t = frame.type
        if self._answers_hello(frame):
            self._check_hello_answer(frame)
        elif not self._ident_seen:
            # sealed in a session the device is leaving, or not the device's at all: not yet ours to judge
            self._log.debug("frame_before_ident", type=f"0x{t:02X}", seq=frame.seq)
            return
        else:
            try:
                self._seal.check(frame.body(), frame.counter, frame.mac)
            except SealRefused as refusal:
                self._refuse(frame, refusal)
                return
        if t in (m.ACK, m.NAK, m.IDENT, m.STATUS):
            pending = self._pending
            if pending is not None and frame.seq == pending.seq and t in pending.replies:
                if t == m.IDENT and pending.type == m.HELLO:
                    self._on_ident(frame)   # now, before any frame behind it is looked at
                elif t == m.STATUS:
                    self._on_status_frame(frame)   # likewise: the events behind it are newer
                if not pending.future.done():
                    pending.future.set_result(frame)
            else:
                self._log.debug("stray_reply", type=f"0x{t:02X}", seq=frame.seq)
            return
        if not m.is_event(t):
            self._bad_frame(UnknownFrameType(f"type 0x{t:02X} is not sent by a device", frame.encode()))
            self._send_reply(frame.seq, m.NAK, bytes((m.NakReason.UNKNOWN_TYPE,)))
            return
        try:
            event = self._parse_event(frame)
        except BadFrame as bad:
            self._bad_frame(bad)
            reason = m.NakReason.UNKNOWN_TYPE if isinstance(bad, UnknownFrameType) else m.NakReason.BAD_PAYLOAD
            self._send_reply(frame.seq, m.NAK, bytes((reason,)))
            return
        if not self._ident_seen:
            # Whose boot is speaking is not known yet, so neither is whether this SEQ is a repeat: leave
            # it unanswered and the device sends it again after its IDENT (PROTOCOLS.md 1.5, 1.6).
            self._log.debug("event_before_ident", seq=frame.seq, kind=type(event).__name__)
            return
        self._send_reply(frame.seq, m.ACK)
        this = (frame.seq, frame.type, frame.payload)
        if this == self._last_rx:   # a retransmission is the same SEQ and the same bytes (1.4)
            self.duplicates += 1
            self._log.info("duplicate_event", seq=frame.seq, kind=type(event).__name__)
            return
        self._last_rx = this
        self._log.debug("device_event", kind=type(event).__name__, seq=frame.seq)
        admitted = self._admit(event)
        if admitted is None:
            return   # a repeat the device's own numbering recognised: taken once already
        if admitted is event:
            self._on_event(event)
        self._put(admitted)

    # -- session ----------------------------------------------------------------------

    def _on_ident(self, frame: Frame) -> None:
        """The IDENT answering our HELLO: note a restart before the events behind it are looked at.

        Done as the frame arrives, not when `_connect` next runs: the device may send its waiting
        events right behind its IDENT, in the same read."""
        if self._unpaired is not None:
            return   # `_connect` refuses it
        try:
            ident = m.parse_ident(frame)
        except BadFrame:
            return   # `_connect` reports it
        if ident.version != m.PROTOCOL_VERSION or ident.kind != self.KIND:
            return   # not our device: `_connect` reports it, and its events are never taken
        if self._boot is not None and ident.boot != self._boot:
            self._log.info("device_restarted", boot=ident.boot, was=self._boot)
            self._last_rx = None   # a restarted device numbers its events afresh
            self._on_restart()
        self._boot = ident.boot
        self._ident_seen = True

    async def _connect(self) -> None:
        gen = self._begin_session()
        self._ident_seen = False
        self._unpaired = None
        self._reported_refusal = False
        self._seal.begin(new_nonce())
        self._decoder.clear()
        self._transport = SerialTransport.open(
            self.port, name=self.name, baudrate=self.baudrate,
            on_data=functools.partial(self._on_data, gen),
            on_lost=functools.partial(self._on_transport_lost, gen))
        self._last_rx_time = asyncio.get_running_loop().time()
        reply = await self._request(m.HELLO, m.hello_payload(self._seal.host_nonce), (m.IDENT, m.NAK))
        if self._unpaired is not None:
            raise UnpairedDevice(self.name, f"the device on {self.port} {self._unpaired}")
        if reply.type == m.NAK:
            reason = m.parse_nak(reply)
            raise IncompatibleDevice(self.name, f"HELLO refused: {m.NakReason.name_of(reason)}")
        try:
            ident = m.parse_ident(reply)
        except BadFrame as bad:
            self._bad_frame(bad)
            raise IncompatibleDevice(self.name, f"unreadable IDENT: {bad.reason}") from None
        if ident.version != m.PROTOCOL_VERSION:
            raise IncompatibleDevice(self.name, f"speaks protocol version {ident.version}, "
                                                f"this driver speaks {m.PROTOCOL_VERSION}")
        if ident.kind != self.KIND:
            try:
                kind = m.DeviceKind(ident.kind).name.lower().replace("_", " ")
            except ValueError:
                kind = f"device of kind 0x{ident.kind:02X}"
            raise IncompatibleDevice(self.name, f"{self.port} is a {kind} ({ident.serial_number}), "
                                                f"not a {self.KIND.name.lower().replace('_', ' ')}")
        self.ident = ident   # its boot number was noted as the IDENT arrived (_on_ident)
        self.connections += 1

    def _connected_detail(self) -> str:
        ident = self.ident
        assert ident is not None
        return f"{ident.serial_number} (firmware {ident.firmware[0]}.{ident.firmware[1]}) on {self.port}"

    async def _keep_alive(self) -> str:
        """Wait for the link to fail, asking for STATUS whenever the line has been quiet."""
        loop = asyncio.get_running_loop()
        heartbeat = self.timing.heartbeat
        while True:
            quiet_for = loop.time() - self._last_rx_time
            try:
                await within(self._lost.wait(), max(0.0, heartbeat - quiet_for))
                return self._lost_reason
            except asyncio.TimeoutError:
                pass
            if loop.time() - self._last_rx_time >= heartbeat:
                try:
                    await self.request_status()
                except DeviceError as exc:
                    if not self._lost.is_set():
                        self._link_lost(f"heartbeat failed: {exc.message}")
                    return self._lost_reason

    def _on_drop(self) -> None:
        if self._expire_handle is not None:
            self._expire_handle.cancel()
            self._expire_handle = None
