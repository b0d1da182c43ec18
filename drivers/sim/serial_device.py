"""The device end of the serial link, as firmware would run it, behind a pseudo-terminal.

One thread per emulator: it reads the master end of the pty, answers link
requests, ACKs commands, and sends events one at a time, retrying each until
the host ACKs it (PROTOCOLS.md 1.5, device side). Subclasses (the shoe, the
shuffler) say what a command does and what their status looks like.

Every frame it sends is sealed under its pairing key (drivers/pairing.py), and
a host frame that is not (or is replayed) is dropped unanswered; a HELLO under
another key is answered NAK "not paired".

Every public method may be called from any thread: it runs on the emulator's
thread and returns when done, so a test that sets a knob and then sends a
command knows the knob is in place.
"""

from __future__ import annotations

import heapq
import itertools
import os
import random
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar, Self, TypeVar

import structlog

from drivers.errors import BadFrame, UnknownFrameType
from drivers.pairing import FACTORY_KEY, NO_NONCE, LinkSeal, SealRefused, Side, new_nonce
from drivers.serial_link import messages as m
from drivers.serial_link.framing import Frame, FrameDecoder, encode_frame
from drivers.sim.faults import Faults, garble
from drivers.sim.pty_port import PtyPort

T = TypeVar("T")

MAX_QUEUED_EVENTS = 32


class _Timer:
    __slots__ = ("due", "fn", "cancelled")

    def __init__(self, due: float, fn: Callable[[], None]) -> None:
        self.due = due
        self.fn = fn
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class _Outstanding:
    __slots__ = ("seq", "type", "payload", "tries", "timer")

    def __init__(self, seq: int, type_: int, payload: bytes) -> None:
        self.seq = seq
        self.type = type_
        self.payload = payload
        self.tries = 0
        self.timer: _Timer | None = None


class SerialEmulator:
    KIND: ClassVar[m.DeviceKind]
    NAME: ClassVar[str]
    PRODUCT: ClassVar[str]
    COMMAND_NAMES: ClassVar[dict[int, str]] = {}

    def __init__(self, *, serial_number: str, directory: str | None = None, seed: int | None = 0,
                 ack_timeout: float = 0.1, retries: int = 3, firmware: tuple[int, int] = (1, 0),
                 key: bytes = FACTORY_KEY) -> None:
        self.serial_number = serial_number
        self.key = key
        self._seal = LinkSeal(key, Side.DEVICE)
        self._session = False   # a host's HELLO under our key began the session the seal holds
        self.refused_frames = 0   # host frames dropped for their seal
        self.written: deque[bytes] = deque(maxlen=64)   # the last frames put on the wire, for replay tests
        self.firmware = firmware
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.rng = random.Random(seed)
        self.boot = self.rng.randrange(0x10000)
        self.incoming = Faults()   # host -> device
        self.outgoing = Faults()   # device -> host
        self.received: list[Frame] = []   # every host frame acted on, for tests and the console
        self.sent_events: list[tuple[int, bytes]] = []  # (type, payload) of each event first sent
        self._originals: list[tuple[int, bytes]] = []   # the same, without replays: what a replay repeats
        self._held_back: tuple[int, bytes] | None = None   # an event a reorder fault sends after the next
        self.bad_frames = 0
        self.events_lost = False
        self._log = structlog.get_logger(f"drivers.sim.{self.NAME}").bind(device=f"sim-{self.NAME}")
        link = f"usb-tablectl_{self.PRODUCT}_{serial_number}-if00-port0"
        self._port = PtyPort(link, directory)
        self._decoder = FrameDecoder()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._posted: deque[Callable[[], None]] = deque()
        self._timers: list[tuple[float, int, _Timer]] = []
        self._counter = itertools.count()
        self._outq: deque[tuple[float, bytes]] = deque()
        self._line_free_at = 0.0
        self._tx_seq = 0
        self._last_host_seq: int | None = None
        self._last_reply: tuple[int, int, bytes] | None = None   # SEQ, type, payload of the last command's answer
        self._events: deque[tuple[int, bytes]] = deque()
        self._outstanding: _Outstanding | None = None
        self._paused = False
        self._holding = False
        self._running = False
        self._thread: threading.Thread | None = None

    # -- what subclasses provide -----------------------------------------------------

    def on_command(self, frame: Frame) -> m.NakReason | None:
        """Act on a command; return a NAK reason to refuse it. Raise BadFrame if unreadable."""
        raise UnknownFrameType(f"type 0x{frame.type:02X} is not a command of this device", frame.encode())

    def status_payload(self) -> bytes:
        raise NotImplementedError

    # -- lifecycle -----------------------------------------------------------------------

    @property
    def port(self) -> str:
        """The stable path to give the driver (a symlink, like /dev/serial/by-id/...)."""
        return self._port.path

    @property
    def tty_name(self) -> str | None:
        return self._port.tty_name

    @property
    def plugged(self) -> bool:
        return self._port.plugged

    def start(self) -> Self:
        if self._thread is not None:
            raise RuntimeError("emulator already started")
        self._port.plug()
        self._running = True
        self._thread = threading.Thread(target=self._loop, name=f"sim-{self.NAME}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is None:
            return
        self._running = False
        self._wake()
        self._thread.join(timeout=5)
        self._thread = None
        self._port.close()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self) -> None:
        """Pull the cable: the driver's port fails; events queued meanwhile wait for the host."""
        self.call(self._unplug)

    def replug(self) -> None:
        self.call(self._replug)

    def call(self, fn: Callable[[], T]) -> T:
        """Run `fn` on the emulator's thread and return its result."""
        if self._thread is None or threading.current_thread() is self._thread:
            return fn()
        done = threading.Event()
        box: list[tuple[bool, Any]] = []

        def run() -> None:
            try:
                box.append((True, fn()))
            except BaseException as exc:
                box.append((False, exc))
            finally:
                done.set()

        self._posted.append(run)
        self._wake()
        if not done.wait(timeout=10):
            raise TimeoutError(f"sim-{self.NAME} did not run {fn!r}")
        ok, value = box[0]
        if not ok:
            raise value
        result: T = value
        return result

    def call_later(self, delay: float, fn: Callable[[], None]) -> _Timer:
        """Schedule `fn` on the emulator's thread (from the emulator's thread)."""
        timer = _Timer(time.monotonic() + delay, fn)
        heapq.heappush(self._timers, (timer.due, next(self._counter), timer))
        return timer

    def emit(self, type_: int, payload: bytes = b"") -> None:
        """Queue an event for the host (from the emulator's thread)."""
        if len(self._events) >= MAX_QUEUED_EVENTS:
            self._events.popleft()
            self.events_lost = True
            self._log.warning("sim_event_queue_overflow")
        self._events.append((type_, payload))
        if self._held_back is not None:   # a reorder fault: the held event goes after this one
            self._events.append(self._held_back)
            self._held_back = None
        if not self._holding:
            self._pump()

    @property
    def idle(self) -> bool:
        """No event waiting for the host's ACK and none queued."""
        return self.call(lambda: self._outstanding is None and not self._events)

    # -- the thread --------------------------------------------------------------------

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def _loop(self) -> None:
        while self._running:
            now = time.monotonic()
            due = [t for t, *_ in self._timers[:1]] + [d for d, _ in list(self._outq)[:1]]
            timeout = max(0.0, min(due) - now) if due else None
            fds = [self._wake_r] + ([self._port.master] if self._port.master is not None else [])
            try:
                readable, _, _ = select.select(fds, [], [], timeout)
            except (OSError, ValueError):
                readable = []
            if self._wake_r in readable:
                try:
                    while os.read(self._wake_r, 4096):
                        pass
                except (BlockingIOError, OSError):
                    pass
            while self._posted:
                self._posted.popleft()()
            master = self._port.master
            if master is not None and master in readable:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    data = b""
                if data:
                    self._on_bytes(data)
            now = time.monotonic()
            while self._timers and self._timers[0][0] <= now:
                _, _, timer = heapq.heappop(self._timers)
                if not timer.cancelled:
                    timer.fn()
            self._flush_outq()

    def _on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, BadFrame):
                self.bad_frames += 1
                self._log.debug("sim_bad_frame", reason=item.reason)
            else:
                self._on_host_frame(item)

    # -- sending -----------------------------------------------------------------------

    def _send(self, data: bytes, type_: int) -> None:
        fault = self.outgoing.take(type_)
        if fault is not None:
            self._log.info("sim_fault", direction="out", action=fault.action, type=f"0x{type_:02X}")
            if fault.action == "drop":
                return
            if fault.action == "garble":
                data = garble(data, self.rng)
        now = time.monotonic()
        due = max(now + (fault.seconds if fault is not None else 0.0), self._line_free_at)
        if due <= now and not self._outq:
            self._write(data)
        else:
            self._outq.append((due, data))
            self._line_free_at = due
            self._wake()

    def _flush_outq(self) -> None:
        now = time.monotonic()
        while self._outq and self._outq[0][0] <= now:
            self._write(self._outq.popleft()[1])

    def _write(self, data: bytes) -> None:
        master = self._port.master
        if master is None:
            return  # unplugged: the bytes go nowhere, as on a cut cable
        self.written.append(data)
        try:
            os.write(master, data)
        except OSError:
            pass  # nobody reading and the buffer is full: lost, as on a real line

    def _reply(self, seq: int, type_: int, payload: bytes = b"") -> tuple[int, int, bytes]:
        self._send(encode_frame(seq, type_, payload, self._seal), type_)
        return seq, type_, payload

    def pair(self, key: bytes) -> None:
        """Take a new pairing key (what `tablectl device pair` does to a real device); the session ends."""
        def run() -> None:
            self.key = key
            self._seal = LinkSeal(key, Side.DEVICE)
            self._session = False
        self.call(run)

    def _pump(self) -> None:
        if self._outstanding is not None or not self._events or not self._port.plugged:
            return
        type_, payload = self._events.popleft()
        original = True
        fault = self.outgoing.take_event(type_)
        if fault is not None:
            self._log.info("sim_fault", direction="out", action=fault.action, type=f"0x{type_:02X}")
            if fault.action == "replay":
                earlier = [e for e in self._originals if e[0] == type_]
                if len(earlier) >= fault.back:   # this one waits; an old one goes out as new
                    self._events.appendleft((type_, payload))
                    type_, payload = earlier[-fault.back]
                    original = False
            elif self._events:                  # reorder: the one behind it goes first
                nxt = self._events.popleft()
                self._events.appendleft((type_, payload))
                type_, payload = nxt
            else:                               # nothing behind it yet: it waits for the next event
                self._held_back = (type_, payload)
                self.call_later(max(0.5, 5 * self.ack_timeout), self._release_held_back)
                return
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        self._outstanding = _Outstanding(self._tx_seq, type_, payload)
        self.sent_events.append((type_, payload))
        if original:
            self._originals.append((type_, payload))
        self._transmit()

    def _release_held_back(self) -> None:
        """A reordered event with no event behind it after a while goes out after all."""
        if self._held_back is not None:
            self._events.append(self._held_back)
            self._held_back = None
            self._pump()

    def restart(self, *, keep_events: bool = True, next_seq: int | None = None) -> None:
        """Power-cycle the device: a new boot number, the host's last command forgotten, the event
        counter from 1 (or from `next_seq`). With `keep_events` the events not yet ACKed survive (kept
        in memory that outlives a power cut) and the one in flight is sent again as it was, same SEQ,
        once the host speaks; without, they are lost."""
        def run() -> None:
            self.boot = (self.boot + 1 + self.rng.randrange(0xFFFE)) & 0xFFFF
            self._tx_seq = 0 if next_seq is None else (next_seq - 1) & 0xFF
            self._last_host_seq = None
            self._last_reply = None
            self._session = False   # the session's nonces lived in volatile memory
            o = self._outstanding
            if o is not None and o.timer is not None:
                o.timer.cancel()
            if not keep_events:
                self._outstanding = None
                self._events.clear()
            self._paused = self._outstanding is not None   # it speaks again when the host does
            self._on_restart()
        self.call(run)

    def _on_restart(self) -> None:
        """Hook: what a subclass's device forgets when it loses power (a dispense in progress)."""

    def _transmit(self) -> None:
        o = self._outstanding
        if o is None:
            return
        o.tries += 1
        # each try under the session's next counter; the host knows a retransmission by its SEQ and bytes
        self._send(encode_frame(o.seq, o.type, o.payload, self._seal), o.type)
        if o.timer is not None:
            o.timer.cancel()
        o.timer = self.call_later(self.ack_timeout, lambda: self._ack_timed_out(o))

    def _ack_timed_out(self, o: _Outstanding) -> None:
        if self._outstanding is not o:
            return
        if o.tries < 1 + self.retries:
            self._transmit()
        else:
            self._paused = True  # the host is away: wait for it to speak before trying again
            self._log.info("sim_host_silent", seq=o.seq)

    # -- receiving ---------------------------------------------------------------------

    def nak_hello(self, seq: int, host_nonce: bytes, reason: m.NakReason) -> None:
        """Refuse a HELLO: the NAK is sealed under the HELLO's nonce alone, as the HELLO was (1.6)."""
        seal = LinkSeal(self.key, Side.DEVICE, host_nonce, NO_NONCE)
        self._send(encode_frame(seq, m.NAK, bytes((reason,)), seal), m.NAK)

    def _authentic(self, frame: Frame) -> bool:
        """Whether a host frame is our paired host's, in this session, and fresh; a HELLO may begin one."""
        if frame.type == m.HELLO:
            try:
                version, nonce = m.parse_hello(frame)
            except BadFrame:
                return True   # answered NAK bad payload
            if version != m.PROTOCOL_VERSION:
                return True   # answered NAK unsupported version
            same = self._session and nonce == self._seal.host_nonce   # a retry of the HELLO we answered
            probe = LinkSeal(self.key, Side.DEVICE, nonce, NO_NONCE, taken=self._seal.taken if same else 0)
            try:
                probe.check(frame.body(), frame.counter, frame.mac)
            except SealRefused as refusal:
                self.refused_frames += 1
                self._log.info("sim_hello_refused", reason=refusal.reason)
                if not refusal.replayed:   # another key: say so, under ours
                    self.nak_hello(frame.seq, nonce, m.NakReason.NOT_PAIRED)
                return False
            if not same:
                self._seal.begin(nonce, new_nonce())
                self._session = True
            self._seal.taken = frame.counter
            return True
        if not self._session:
            self.refused_frames += 1
            return False
        try:
            self._seal.check(frame.body(), frame.counter, frame.mac)
        except SealRefused as refusal:
            self.refused_frames += 1
            self._log.info("sim_frame_refused", reason=refusal.reason, type=f"0x{frame.type:02X}")
            return False
        return True

    def _on_host_frame(self, frame: Frame) -> None:
        if not self._authentic(frame):
            return
        fault = self.incoming.take(frame.type)
        if fault is not None:
            self._log.info("sim_fault", direction="in", action=fault.action, type=f"0x{frame.type:02X}")
            if fault.action == "drop":
                return
            if fault.action == "garble":
                self.bad_frames += 1
                return
            self.call_later(fault.seconds, lambda: self._act(frame))
            return
        self._act(frame)

    def _act(self, frame: Frame) -> None:
        self.received.append(frame)
        resume = self._paused
        self._paused = False
        t = frame.type
        if t == m.HELLO:
            try:
                version, nonce = m.parse_hello(frame)
            except BadFrame:
                self.nak_hello(frame.seq, NO_NONCE, m.NakReason.BAD_PAYLOAD)
            else:
                if version != m.PROTOCOL_VERSION:
                    self.nak_hello(frame.seq, nonce, m.NakReason.UNSUPPORTED_VERSION)
                else:
                    self._last_host_seq = None
                    self._last_reply = None
                    ident = m.Ident(m.PROTOCOL_VERSION, self.KIND, self.boot, self.firmware, self.serial_number,
                                    self._seal.device_nonce)
                    self._reply(frame.seq, m.IDENT, ident.encode())
        elif t == m.STATUS_REQUEST:
            if frame.payload:
                self._reply(frame.seq, m.NAK, bytes((m.NakReason.BAD_PAYLOAD,)))
            else:
                self._reply(frame.seq, m.STATUS, self.status_payload())
        elif t in (m.ACK, m.NAK):
            o = self._outstanding
            if o is not None and frame.seq == o.seq:
                if t == m.NAK:
                    self._log.warning("sim_event_refused", seq=o.seq, type=f"0x{o.type:02X}")
                if o.timer is not None:
                    o.timer.cancel()
                self._outstanding = None
                resume = False
                self._pump()
        elif m.is_command(t):
            if frame.seq == self._last_host_seq and self._last_reply is not None:
                self._reply(*self._last_reply)  # a retry: same answer (a new counter), no second action
            else:
                self._log.info("sim_command", command=self.COMMAND_NAMES.get(t, f"0x{t:02X}"), seq=frame.seq)
                self._holding = True
                try:
                    try:
                        reason = self.on_command(frame)
                    except UnknownFrameType:
                        reason = m.NakReason.UNKNOWN_TYPE
                    except BadFrame:
                        reason = m.NakReason.BAD_PAYLOAD
                    if reason is None:
                        reply = self._reply(frame.seq, m.ACK)
                    else:
                        reply = self._reply(frame.seq, m.NAK, bytes((reason,)))
                    self._last_host_seq = frame.seq
                    self._last_reply = reply
                finally:
                    self._holding = False
                self._pump()
        else:
            self._reply(frame.seq, m.NAK, bytes((m.NakReason.UNKNOWN_TYPE,)))
        if resume and self._outstanding is not None:
            self._outstanding.tries = 0
            self._transmit()

    # -- plug ------------------------------------------------------------------------

    def _unplug(self) -> None:
        self._port.unplug()
        self._decoder.clear()
        self._outq.clear()
        self._line_free_at = 0.0
        o = self._outstanding
        if o is not None and o.timer is not None:
            o.timer.cancel()
        self._paused = self._outstanding is not None
        self._log.info("sim_unplugged")

    def _replug(self) -> None:
        self._port.plug()
        self._log.info("sim_replugged", tty=self._port.tty_name)
        if self._outstanding is None:
            self._pump()

    # -- raw wire access for tests ----------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        """Put bytes on the wire as they are (noise, or a frame no firmware should send)."""
        self.call(lambda: self._write(data))
