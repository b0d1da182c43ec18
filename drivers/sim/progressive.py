"""A progressive controller on a USB bus that exists only in this process.

`ProgressiveEmulator.backend` is a pyusb backend (usb.backend.IBackend): pass
it to usb.core.find(backend=...) - or to ProgressiveDevice(backend=...) - and
the driver enumerates, reads descriptors and strings, detaches the kernel's
HID driver, claims the interface and moves interrupt reports exactly as it
would with libusb. Nothing in the driver knows it is talking to an emulator.

The physical side is a handful of methods: press and release the lock-out
button, place and remove wagers, press panel buttons, unplug and replug.
What the host set is readable back: `lights`, `lockout_indicator`, `meter`.
Fault knobs: `outgoing` (input reports to the host: drop, garble, delay) and
`incoming` (output reports from the host: drop, garble, delay); `door_open`
and `battery_low` set the STATE's condition bits. Reports are sealed under the
controller's pairing key (`key`, `pair`); a host report that is not, or is
replayed, is dropped unanswered, and a HELLO under another key is answered
NOT_PAIRED.
"""

from __future__ import annotations

import array
import errno
import heapq
import itertools
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Generic, SupportsInt, TypeVar

import structlog
import usb.backend
import usb.core

from drivers.errors import BadFrame, UnknownFrameType
from drivers.pairing import FACTORY_KEY, NO_NONCE, LinkSeal, SealRefused, Side, new_nonce
from drivers.progressive import protocol as p
from drivers.progressive.device import DEFAULT_PRODUCT, DEFAULT_VENDOR
from drivers.sim.faults import Faults, garble

NVRAM_ENV = "TABLECTL_SIM_PROGRESSIVE_NVRAM"   # the emulated controller's non-volatile memory (a file)
EP_IN = 0x81
EP_OUT = 0x01
INBOX_LIMIT = 16   # reports the device's IN endpoint holds while nobody polls

MANUFACTURER = "tablectl"
PRODUCT = "Emulated Progressive Controller"


def _report_descriptor() -> bytes:
    """A vendor-defined HID report descriptor: 63 opaque bytes per report id (PROTOCOLS.md 4.1)."""
    d = bytearray(b"\x06\x00\xff\x09\x01\xa1\x01\x15\x00\x26\xff\x00\x75\x08\x95")
    d.append(p.REPORT_SIZE - 1)
    for usage, (report_id, main) in enumerate(((p.STATE, 0x81), (p.ACK, 0x81), (p.SET_LIGHTS, 0x91),
                                               (p.SET_METER, 0x91), (p.SYNC, 0x91),
                                               (p.ANCHOR_WRITE, 0x91), (p.ANCHOR_READ, 0x91),
                                               (p.HELLO, 0x91)), start=2):
        d += bytes((0x85, report_id, 0x09, usage, main, 0x02))
    d += b"\xc0"
    return bytes(d)


REPORT_DESCRIPTOR = _report_descriptor()
HID_DESCRIPTOR = bytes((0x09, 0x21, 0x11, 0x01, 0x00, 0x01, 0x22, len(REPORT_DESCRIPTOR) & 0xFF,
                        len(REPORT_DESCRIPTOR) >> 8))


def _no_device() -> usb.core.USBError:
    return usb.core.USBError("No such device (it may have been disconnected)", -4, errno.ENODEV)


class ProgressiveEmulator:
    def __init__(self, *, serial_number: str = "SIM-PROG-0001", vendor: int = DEFAULT_VENDOR,
                 product: int = DEFAULT_PRODUCT, heartbeat: float = 1.0, seed: int | None = 0,
                 on_output: Callable[[p.OutputMessage], None] | None = None,
                 nvram: str | os.PathLike[str] | None = None, key: bytes = FACTORY_KEY) -> None:
        self.serial_number = serial_number
        self.key = key
        self._seal = LinkSeal(key, Side.DEVICE)
        self._session = False
        self.refused_reports = 0
        self.door_open = False     # the controller's door; a change is sent at once
        self.battery_low = False
        self.vendor = vendor
        self.product = product
        self.heartbeat = heartbeat
        self.rng = random.Random(seed)
        self.on_output = on_output
        self.incoming = Faults()   # output reports, host -> controller
        self.outgoing = Faults()   # input reports, controller -> host
        self.backend = EmulatedBackend(self)
        self._log = structlog.get_logger("drivers.sim.progressive").bind(device="sim-progressive")
        self._cond = threading.Condition()
        # the physical state
        self._lockout_pressed = False
        self._wagers: set[int] = set()
        self._buttons: set[p.PanelButton] = set()
        self._presses = 0
        self._latched: frozenset[int] = frozenset()
        # what the host set
        self.lights: tuple[p.Light, ...] = (p.Light.OFF,) * p.SEATS
        self.lockout_indicator = False
        self.meter: p.SetMeter | None = None
        self.applied: list[p.OutputMessage] = []
        self.bad_reports = 0
        # the wire
        self._tx_seq = 0
        self._inbox: list[tuple[float, int, bytes]] = []
        self._deferred: list[tuple[float, int, bytes]] = []
        self._order = itertools.count()
        self._last_due = 0.0
        self._last_emit = time.monotonic()
        self.sent: list[bytes] = []    # every input report queued for the host, as sent (after faults)
        self.sent_at: dict[int, float] = {}   # SEQ of an input report -> when the controller sent it
        self._plugged = True
        self._generation = 1
        self.kernel_driver_active = True
        # battery-backed memory: the journal's anchor, kept in a file of its own, apart from the
        # journal's files, as the real controller keeps it apart from the box's disk. The emulated
        # table keeps it in its sim/ directory (controller/runtime/world.py); $NVRAM_ENV names
        # another file (one outside the data directory, so that deleting that directory leaves it)
        nvram = nvram if nvram is not None else os.environ.get(NVRAM_ENV) or None
        self.nvram_path = Path(nvram) if nvram is not None else None
        self.anchor = bytes(p.ANCHOR_SIZE)
        self._staged: dict[int, bytes] = {}
        self._committed = False   # the last part taken committed an anchor (a retry of it is answered alike)
        if self.nvram_path is not None:
            try:
                stored = bytes.fromhex(json.loads(self.nvram_path.read_text())["anchor"])
                if len(stored) == p.ANCHOR_SIZE:
                    self.anchor = stored
            except FileNotFoundError:
                pass
            except (ValueError, KeyError, TypeError, OSError) as exc:
                self._log.warning("sim_nvram_unreadable", path=str(self.nvram_path), error=str(exc))

    # -- the physical side ------------------------------------------------------------

    def press_lockout(self) -> None:
        with self._cond:
            self._lockout_pressed = True
            self._presses = (self._presses + 1) & 0xFF
            self._latched = frozenset(self._wagers)  # the wagers at the instant of the press
            self._emit_state(p.StateReason.CHANGE)

    def release_lockout(self) -> None:
        with self._cond:
            self._lockout_pressed = False
            self._emit_state(p.StateReason.CHANGE)

    def place_wager(self, seat: int) -> None:
        """A chip on the seat's acceptor; after a lock-out press this is a late wager."""
        self._check_seat(seat)
        with self._cond:
            self._wagers.add(seat)
            self._emit_state(p.StateReason.CHANGE)

    def remove_wager(self, seat: int) -> None:
        self._check_seat(seat)
        with self._cond:
            self._wagers.discard(seat)
            self._emit_state(p.StateReason.CHANGE)

    def press_button(self, button: p.PanelButton) -> None:
        with self._cond:
            self._buttons.add(p.PanelButton(button))
            self._emit_state(p.StateReason.CHANGE)

    def release_button(self, button: p.PanelButton) -> None:
        with self._cond:
            self._buttons.discard(p.PanelButton(button))
            self._emit_state(p.StateReason.CHANGE)

    def tap_button(self, button: p.PanelButton) -> None:
        self.press_button(button)
        self.release_button(button)

    @staticmethod
    def _check_seat(seat: int) -> None:
        if not 1 <= seat <= p.SEATS:
            raise ValueError(f"seat {seat} (1..{p.SEATS})")

    @property
    def inputs(self) -> p.InputState:
        with self._cond:
            return self._state(p.StateReason.CHANGE)

    @property
    def plugged(self) -> bool:
        return self._plugged

    def unplug(self) -> None:
        """Pull the USB cable: every transfer fails with ENODEV and the device leaves the bus."""
        with self._cond:
            self._plugged = False
            self._inbox.clear()
            self._deferred.clear()
            self._cond.notify_all()
        self._log.info("sim_unplugged")

    def set_condition(self, *, door_open: bool | None = None, battery_low: bool | None = None) -> None:
        """Open or close the door, or let the battery run low (or replace it): STATE tells the host at once."""
        with self._cond:
            if door_open is not None:
                self.door_open = door_open
            if battery_low is not None:
                self.battery_low = battery_low
            self._emit_state(p.StateReason.CHANGE)

    def pair(self, key: bytes) -> None:
        """Take a new pairing key (what `tablectl device pair` does); the session ends."""
        with self._cond:
            self.key = key
            self._seal = LinkSeal(key, Side.DEVICE)
            self._session = False

    def replug(self) -> None:
        """Plug it back: a new address, the kernel's HID driver bound again, a fresh state report."""
        with self._cond:
            self._session = False   # it lost power: the session's nonces with it
            self._generation += 1
            self._plugged = True
            self.kernel_driver_active = True
            self._cond.notify_all()
        self._log.info("sim_replugged", address=self._address)

    @property
    def _address(self) -> int:
        return 10 + self._generation

    # -- input reports -----------------------------------------------------------------

    def _state(self, reason: p.StateReason) -> p.InputState:
        return p.InputState(self._lockout_pressed, frozenset(self._wagers), frozenset(self._buttons),
                            self._presses, self._latched, reason, self.door_open, self.battery_low)

    def _emit_state(self, reason: p.StateReason) -> None:
        self._emit(p.STATE, self._state(reason).payload())

    def _emit(self, report_id: int, payload: bytes, seal: LinkSeal | None = None) -> None:
        """Queue an input report (caller holds the lock). The SEQ is spent even if the wire loses it."""
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        now = time.monotonic()
        self._last_emit = now
        self.sent_at[self._tx_seq] = now
        if not self._plugged:
            return
        data = p.encode_report(report_id, self._tx_seq, payload, seal or self._seal)
        fault = self.outgoing.take(report_id)
        delay = 0.0
        if fault is not None:
            self._log.info("sim_fault", direction="out", action=fault.action, report=report_id)
            if fault.action == "drop":
                return
            if fault.action == "garble":
                used = p.HEADER + len(payload) + p.SEAL + 2   # the bytes the CRC covers, and the CRC
                data = garble(data[:used], self.rng) + data[used:]
            delay = fault.seconds
        due = max(now + delay, self._last_due)   # an interrupt endpoint is first in, first out
        self._last_due = due
        if len(self._inbox) >= INBOX_LIMIT:
            heapq.heappop(self._inbox)
        heapq.heappush(self._inbox, (due, next(self._order), data))
        self.sent.append(data)
        self._cond.notify_all()

    def inject(self, data: bytes) -> None:
        """Put raw bytes on the wire as an input report (a report captured before and replayed, or one
        forged): what a tap on the cable does, for the tests of the link's seal."""
        with self._cond:
            due = max(time.monotonic(), self._last_due)
            self._last_due = due
            heapq.heappush(self._inbox, (due, next(self._order), bytes(data)))
            self._cond.notify_all()

    # -- what the backend calls (any thread) -------------------------------------------

    def _alive(self, generation: int) -> None:
        if not self._plugged or generation != self._generation:
            raise _no_device()

    def host_open(self, generation: int) -> None:
        with self._cond:
            self._alive(generation)
            self._inbox.clear()  # enumeration resets the endpoint; nothing old is waiting
            self._last_due = 0.0

    def host_write(self, generation: int, data: bytes) -> None:
        with self._cond:
            self._alive(generation)
            fault = self.incoming.take(data[0] if data else 0)
            if fault is not None:
                self._log.info("sim_fault", direction="in", action=fault.action, report=data[:1].hex())
                if fault.action == "drop":
                    return
                if fault.action == "garble":
                    self.bad_reports += 1
                    return
                heapq.heappush(self._deferred, (time.monotonic() + fault.seconds, next(self._order), bytes(data)))
                self._cond.notify_all()
                return
            self._apply(bytes(data))

    def _authentic(self, report: p.Report) -> bool:
        """A host report of our paired host, in this session, fresh; a HELLO under our key begins one."""
        if report.id == p.HELLO and len(report.payload) == len(NO_NONCE):
            nonce = report.payload
            same = self._session and nonce == self._seal.host_nonce
            probe = LinkSeal(self.key, Side.DEVICE, nonce, NO_NONCE, taken=self._seal.taken if same else 0)
            try:
                probe.check(report.body(), report.counter, report.mac)
            except SealRefused as refusal:
                self.refused_reports += 1
                if not refusal.replayed:
                    self._emit(p.ACK, bytes((p.HELLO, report.seq, p.AckStatus.NOT_PAIRED)), probe)
                return False
            if not same:
                self._seal.begin(nonce, new_nonce())
                self._session = True
            self._seal.taken = report.counter
            return True
        if not self._session:
            self.refused_reports += 1
            return False
        try:
            self._seal.check(report.body(), report.counter, report.mac)
        except SealRefused as refusal:
            self.refused_reports += 1
            self._log.info("sim_report_refused", reason=refusal.reason, report=report.id)
            return False
        return True

    def _apply(self, data: bytes) -> None:
        try:
            report = p.parse_report(data)
        except BadFrame as bad:
            self.bad_reports += 1   # failed its CRC: ignored; the host retries
            self._log.info("sim_bad_report", reason=bad.reason)
            return
        if not self._authentic(report):
            return
        try:
            seq, message = p.parse_output(data)
        except UnknownFrameType:
            self._emit(p.ACK, bytes((report.id, report.seq, p.AckStatus.UNKNOWN_REPORT)))
            return
        except BadFrame as bad:
            try:
                report = p.parse_report(data)
            except BadFrame:
                self.bad_reports += 1   # failed its CRC: ignored; the host retries
                self._log.info("sim_bad_report", reason=bad.reason)
                return
            self._emit(p.ACK, bytes((report.id, report.seq, p.AckStatus.BAD_VALUE)))
            return
        self.applied.append(message)
        echo = message.payload()
        if isinstance(message, p.SetLights):
            self.lights, self.lockout_indicator = message.lights, message.lockout
        elif isinstance(message, p.SetMeter):
            self.meter = message
        elif isinstance(message, p.AnchorWrite) and not self._stage_anchor(message):
            self._emit(p.ACK, bytes((message.ID, seq, p.AckStatus.BAD_VALUE)))   # out of order: nothing kept
            return
        elif isinstance(message, p.AnchorRead):
            part = message.part * p.ANCHOR_PART
            echo = bytes((message.part,)) + self.anchor[part:part + p.ANCHOR_PART]
        elif isinstance(message, p.Hello):
            echo = self._seal.device_nonce   # our half of the session
        self._emit(p.ACK, bytes((message.ID, seq, p.AckStatus.APPLIED)) + echo)
        if isinstance(message, p.Sync):
            self._emit_state(p.StateReason.SYNC)
        if self.on_output is not None:
            self.on_output(message)

    def _stage_anchor(self, message: p.AnchorWrite) -> bool:
        """Parts are staged in order; the last one commits them, all at once, to memory that keeps.

        The part staged last, sent again (a retry after a lost ACK), replaces itself; any other part
        out of order drops what was staged and is refused (False), so an ACK of the last part always
        means the anchor was committed (PROTOCOLS.md 4.4)."""
        last = p.ANCHOR_PARTS - 1
        if (message.part == last and not self._staged and self._committed
                and self.anchor[last * p.ANCHOR_PART:] == message.data):
            return True   # the committing part again, its ACK lost: committed already
        self._committed = False
        if message.part == 0:
            self._staged = {}
        if message.part not in (len(self._staged), len(self._staged) - 1):
            self._staged = {}
            return False
        self._staged[message.part] = message.data
        if len(self._staged) < p.ANCHOR_PARTS:
            return True
        self.anchor = b"".join(self._staged[i] for i in range(p.ANCHOR_PARTS))
        self._staged = {}
        self._committed = True
        if self.nvram_path is not None:
            tmp = self.nvram_path.with_name(self.nvram_path.name + ".tmp")
            tmp.write_text(json.dumps({"anchor": self.anchor.hex()}))
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            os.replace(tmp, self.nvram_path)
        return True

    def host_read(self, generation: int, timeout: float | None) -> bytes:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                self._alive(generation)
                now = time.monotonic()
                while self._deferred and self._deferred[0][0] <= now:
                    self._apply(heapq.heappop(self._deferred)[2])
                if self._inbox and self._inbox[0][0] <= now:
                    return heapq.heappop(self._inbox)[2]
                if now - self._last_emit >= self.heartbeat:
                    self._emit_state(p.StateReason.HEARTBEAT)
                    continue
                wake = [self._last_emit + self.heartbeat]
                if self._inbox:
                    wake.append(self._inbox[0][0])
                if self._deferred:
                    wake.append(self._deferred[0][0])
                if deadline is not None:
                    if now >= deadline:
                        raise usb.core.USBTimeoutError("Operation timed out", -7, errno.ETIMEDOUT)
                    wake.append(deadline)
                self._cond.wait(max(0.0, min(wake) - now))


class _Handle:
    __slots__ = ("generation", "configuration", "claimed", "closed")

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.configuration = 0
        self.claimed: set[int] = set()
        self.closed = False


Dev = TypeVar("Dev", bound=SupportsInt)   # what the backend's enumerate_devices yields: int() is its generation


# pyusb has no types, so IBackend is Any to mypy; pyusb calls these methods by name, as typed here
class DescribedBackend(usb.backend.IBackend, Generic[Dev]):  # type: ignore[misc]
    """The descriptors of the emulated controller: one configuration, one HID interface, two endpoints."""

    vendor: int
    product: int

    def get_parent(self, dev: Dev) -> None:
        return None

    def get_device_descriptor(self, dev: Dev) -> SimpleNamespace:
        return SimpleNamespace(
            bLength=18, bDescriptorType=1, bcdUSB=0x0200, bDeviceClass=0, bDeviceSubClass=0, bDeviceProtocol=0,
            bMaxPacketSize0=64, idVendor=self.vendor, idProduct=self.product, bcdDevice=0x0100,
            iManufacturer=1, iProduct=2, iSerialNumber=3, bNumConfigurations=1,
            address=10 + self.generation_of(dev), bus=1, port_number=1, port_numbers=(1,), speed=2)

    def generation_of(self, dev: Dev) -> int:
        return int(dev)

    def get_configuration_descriptor(self, dev: Dev, config: int) -> SimpleNamespace:
        if config != 0:
            raise IndexError(f"configuration {config}")
        return SimpleNamespace(bLength=9, bDescriptorType=2, wTotalLength=9 + 9 + 9 + 7 + 7, bNumInterfaces=1,
                               bConfigurationValue=1, iConfiguration=0, bmAttributes=0x80, bMaxPower=50,
                               extra_descriptors=[])

    def get_interface_descriptor(self, dev: Dev, intf: int, alt: int, config: int) -> SimpleNamespace:
        if config != 0 or intf != 0 or alt != 0:
            raise IndexError(f"interface {intf} alternate {alt}")
        return SimpleNamespace(bLength=9, bDescriptorType=4, bInterfaceNumber=0, bAlternateSetting=0,
                               bNumEndpoints=2, bInterfaceClass=3, bInterfaceSubClass=0, bInterfaceProtocol=0,
                               iInterface=0, extra_descriptors=list(HID_DESCRIPTOR))

    def get_endpoint_descriptor(self, dev: Dev, ep: int, intf: int, alt: int,
                                config: int) -> SimpleNamespace:
        if config != 0 or intf != 0 or alt != 0 or ep not in (0, 1):
            raise IndexError(f"endpoint {ep}")
        return SimpleNamespace(bLength=7, bDescriptorType=5, bEndpointAddress=(EP_IN, EP_OUT)[ep],
                               bmAttributes=0x03, wMaxPacketSize=p.REPORT_SIZE, bInterval=1, bRefresh=0,
                               bSynchAddress=0, extra_descriptors=[])

    @staticmethod
    def string_descriptor(index: int, strings: dict[int, str]) -> bytes:
        if index == 0:
            return bytes((4, 3, 0x09, 0x04))   # LANGID en-US
        if index not in strings:
            raise usb.core.USBError("Pipe error", -9, errno.EPIPE)
        text = strings[index].encode("utf-16-le")
        return bytes((2 + len(text), 3)) + text

    @staticmethod
    def _fill(buff: array.array[int], reply: bytes) -> int:
        n = min(len(reply), len(buff))
        buff[:n] = type(buff)(buff.typecode, reply[:n])
        return n


class EmulatedBackend(DescribedBackend[int]):
    """The bus the emulated controller sits on; pyusb drives it as it drives libusb."""

    def __init__(self, emulator: ProgressiveEmulator) -> None:
        super().__init__()
        self.emu = emulator
        self.vendor = emulator.vendor
        self.product = emulator.product

    def enumerate_devices(self) -> Iterator[int]:
        if self.emu._plugged:
            yield self.emu._generation

    # -- handles -------------------------------------------------------------------------

    def _check(self, handle: _Handle) -> None:
        if handle.closed:
            raise usb.core.USBError("Invalid parameter (device handle closed)", -2, errno.EINVAL)
        self.emu._alive(handle.generation)

    def open_device(self, dev: int) -> _Handle:
        self.emu.host_open(dev)
        return _Handle(dev)

    def close_device(self, dev_handle: _Handle) -> None:
        dev_handle.closed = True

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        self._check(dev_handle)
        if config_value not in (0, 1):
            raise usb.core.USBError("Invalid parameter", -2, errno.EINVAL)
        dev_handle.configuration = config_value

    def get_configuration(self, dev_handle: _Handle) -> int:
        self._check(dev_handle)
        return dev_handle.configuration

    def set_interface_altsetting(self, dev_handle: _Handle, intf: int, altsetting: int) -> None:
        self._check(dev_handle)
        if intf != 0 or altsetting != 0:
            raise usb.core.USBError("Invalid parameter", -2, errno.EINVAL)

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)
        if intf != 0:
            raise usb.core.USBError("Entity not found", -5, errno.ENOENT)
        if self.emu.kernel_driver_active:
            raise usb.core.USBError("Resource busy (the kernel's HID driver holds it)", -6, errno.EBUSY)
        dev_handle.claimed.add(intf)

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        dev_handle.claimed.discard(intf)

    def is_kernel_driver_active(self, dev_handle: _Handle, intf: int) -> bool:
        self._check(dev_handle)
        return self.emu.kernel_driver_active

    def detach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)
        self.emu.kernel_driver_active = False

    def attach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)
        self.emu.kernel_driver_active = True

    def clear_halt(self, dev_handle: _Handle, ep: int) -> None:
        self._check(dev_handle)

    def reset_device(self, dev_handle: _Handle) -> None:
        self._check(dev_handle)

    # -- transfers -------------------------------------------------------------------------

    def intr_write(self, dev_handle: _Handle, ep: int, intf: int, data: array.array[int], timeout: int) -> int:
        self._check(dev_handle)
        if ep != EP_OUT or intf not in dev_handle.claimed:
            raise usb.core.USBError("Pipe error (not the claimed OUT endpoint)", -9, errno.EPIPE)
        self.emu.host_write(dev_handle.generation, data.tobytes())
        return len(data)

    def intr_read(self, dev_handle: _Handle, ep: int, intf: int, buff: array.array[int], timeout: int) -> int:
        self._check(dev_handle)
        if ep != EP_IN or intf not in dev_handle.claimed:
            raise usb.core.USBError("Pipe error (not the claimed IN endpoint)", -9, errno.EPIPE)
        report = self.emu.host_read(dev_handle.generation, timeout / 1000 if timeout else None)
        n = min(len(report), len(buff))
        buff[:n] = type(buff)(buff.typecode, report[:n])
        return n

    def ctrl_transfer(self, dev_handle: _Handle, bmRequestType: int, bRequest: int, wValue: int, wIndex: int,
                      data: array.array[int], timeout: int) -> int:
        self._check(dev_handle)
        if bmRequestType == 0x80 and bRequest == 0x06 and wValue >> 8 == 0x03:  # GET_DESCRIPTOR string
            strings = {1: MANUFACTURER, 2: PRODUCT, 3: self.emu.serial_number}
            return self._fill(data, self.string_descriptor(wValue & 0xFF, strings))
        if bmRequestType == 0x81 and bRequest == 0x06 and wValue >> 8 == 0x22:  # HID report descriptor
            return self._fill(data, REPORT_DESCRIPTOR)
        if bmRequestType == 0x21 and bRequest == 0x0A:  # HID SET_IDLE
            return 0
        if bmRequestType == 0xA1 and bRequest == 0x01 and wValue == 0x0100 | p.STATE:  # HID GET_REPORT input
            with self.emu._cond:  # outside the interrupt stream: it does not spend a SEQ
                report = p.encode_report(p.STATE, self.emu._tx_seq, self.emu._state(p.StateReason.SYNC).payload(),
                                         self.emu._seal)
            return self._fill(data, report)
        raise usb.core.USBError("Pipe error (request not supported)", -9, errno.EPIPE)
