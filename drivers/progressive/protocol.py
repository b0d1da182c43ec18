"""The progressive controller's HID reports (PROTOCOLS.md, part 4): bytes to typed messages and back.

Every report is 64 bytes: REPORT ID, VER, LEN, SEQ, PAYLOAD, the seal (a
counter and a MAC under the controller's pairing key, drivers/pairing.py),
CRC-16/CCITT-FALSE (big-endian), zero padding. USB checks each transfer
already; the CRC and the sequence number are there to catch what USB cannot: a
firmware that sends the wrong layout, and reports lost inside the device or the
host's stack; the seal, what neither can: a device that is not the one paired
with the table, and a report replayed.

The device reports its whole input state on every change (HID style), with a
lock-out press counter and the wagers latched at the last press, so a lost
report never loses a lock-out or moves a wager from before the press to
after it. `StateTracker` turns successive states into the table's events.
Pure: no clock, no I/O.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from drivers.errors import BadFrame, UnknownFrameType
from drivers.pairing import COUNTER_SIZE, FACTORY_KEY, LINK_VERSION, MAC_SIZE, NONCE_SIZE, LinkSeal, Side
from drivers.serial_link.crc import crc16

REPORT_SIZE = 64
VERSION = LINK_VERSION
HEADER = 4   # REPORT ID, VER, LEN, SEQ
SEAL = COUNTER_SIZE + MAC_SIZE
MAX_PAYLOAD = REPORT_SIZE - HEADER - SEAL - 2
SEATS = 7   # 5324.37: seats 1 (the dealer's left, first dealt) to 7

# input reports, controller to host
STATE = 0x01
ACK = 0x02
# output reports, host to controller
SET_LIGHTS = 0x10
SET_METER = 0x11
SYNC = 0x12
ANCHOR_WRITE = 0x13
ANCHOR_READ = 0x14
HELLO = 0x15   # the host's nonce: begins a sealed session; the ACK's echo is the controller's nonce

REPORT_NAMES = {STATE: "STATE", ACK: "ACK", SET_LIGHTS: "SET_LIGHTS", SET_METER: "SET_METER", SYNC: "SYNC",
                ANCHOR_WRITE: "ANCHOR_WRITE", ANCHOR_READ: "ANCHOR_READ", HELLO: "HELLO"}

# The journal's anchor in the controller's battery-backed memory (PROTOCOLS.md, part 4):
# ANCHOR_PARTS parts of ANCHOR_PART bytes; the last part written commits the whole.
ANCHOR_PART = 23
ANCHOR_PARTS = 4
ANCHOR_SIZE = ANCHOR_PART * ANCHOR_PARTS

METER_MAX = 10**10 - 1   # cents a ten-digit display can show: 99,999,999.99


class Light(IntEnum):
    """A seat's acceptor light (5324.37(f)(2)(ii): the dealer checks it before paying a progressive)."""

    OFF = 0
    ON = 1                 # the progressive wager was recognized
    FLASHING_LATE = 2      # a wager placed after the lock-out: not recognized
    FLASHING_REMOVED = 3   # a recognized wager that was taken away


_LIGHTS = tuple(Light)


class MeterMode(IntEnum):
    SHOW = 0
    FLASH = 1   # a hit waiting for the supervisor's validation
    BLANK = 2   # the meter cannot be trusted (e.g. the link to a shared meter is down)


class PanelButton(IntEnum):
    """The dealer's panel; the value is the bit in the STATE report."""

    NO_MORE_BETS = 0
    DEAL = 1
    REVEAL = 2
    SETTLE = 3
    NEXT_ROUND = 4
    VOID_ROUND = 5
    CALL_SUPERVISOR = 6


class StateReason(IntEnum):
    CHANGE = 0
    HEARTBEAT = 1
    SYNC = 2


_REASONS = tuple(StateReason)


class AckStatus(IntEnum):
    APPLIED = 0
    BAD_VALUE = 1
    UNKNOWN_REPORT = 2
    NOT_PAIRED = 3   # a HELLO not under this controller's pairing key


# -- the report frame -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Report:
    id: int
    seq: int
    payload: bytes = b""
    counter: int = field(default=0, compare=False)   # the seal: the link checks it (drivers/pairing.py)
    mac: bytes = field(default=bytes(MAC_SIZE), compare=False)

    def body(self) -> bytes:
        """What the MAC covers besides the session and the counter: REPORT ID, VER, LEN, SEQ, PAYLOAD."""
        return report_body(self.id, self.seq, self.payload)

    def encode(self) -> bytes:
        return _assemble(self.body(), self.counter, self.mac)


def report_body(report_id: int, seq: int, payload: bytes = b"") -> bytes:
    if not 0 < report_id <= 0xFF or not 0 <= seq <= 0xFF:
        raise ValueError(f"report id {report_id} (1..255) and seq {seq} (0..255)")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    return bytes((report_id, VERSION, len(payload), seq)) + payload


def _assemble(body: bytes, counter: int, mac: bytes) -> bytes:
    sealed = body + counter.to_bytes(COUNTER_SIZE, "big") + mac
    crc = crc16(sealed)
    return (sealed + bytes((crc >> 8, crc & 0xFF))).ljust(REPORT_SIZE, b"\0")


def encode_report(report_id: int, seq: int, payload: bytes = b"", seal: LinkSeal | None = None) -> bytes:
    """A report sealed with the next counter of `seal`'s side; without one, under the factory key in no
    session (what a controller fresh from its factory sends before any HELLO: for the parsers' tests)."""
    body = report_body(report_id, seq, payload)
    counter, mac = (seal or LinkSeal(FACTORY_KEY, Side.DEVICE)).seal(body)
    return _assemble(body, counter, mac)


def parse_report(data: bytes | bytearray | memoryview) -> Report:
    data = bytes(data)
    if len(data) != REPORT_SIZE:
        raise BadFrame(f"report of {len(data)} bytes ({REPORT_SIZE} expected)", data)
    report_id, version, length, seq = data[0], data[1], data[2], data[3]
    if report_id == 0:
        raise BadFrame("report id 0 (reserved)", data)
    if version != VERSION:
        raise BadFrame(f"link version {version} (this box speaks {VERSION}, sealed): refused", data)
    if length > MAX_PAYLOAD:
        raise BadFrame(f"length {length} is over the {MAX_PAYLOAD}-byte limit", data)
    end = HEADER + length
    sealed = end + SEAL
    if crc16(data[:sealed]) != (data[sealed] << 8 | data[sealed + 1]):
        raise BadFrame("CRC mismatch", data)
    if any(data[sealed + 2:]):
        raise BadFrame("non-zero padding after the CRC", data)
    return Report(report_id, seq, data[HEADER:end], int.from_bytes(data[end:end + COUNTER_SIZE], "big"),
                  data[end + COUNTER_SIZE:sealed])


# -- bitmaps ------------------------------------------------------------------------

def seats_to_bits(seats: Iterable[int]) -> int:
    bits = 0
    for s in seats:
        if not 1 <= s <= SEATS:
            raise ValueError(f"seat {s} (1..{SEATS})")
        bits |= 1 << (s - 1)
    return bits


_SEAT_SETS = tuple(frozenset(s for s in range(1, SEATS + 1) if bits >> (s - 1) & 1) for bits in range(1 << SEATS))


def bits_to_seats(bits: int) -> frozenset[int]:
    return _SEAT_SETS[bits & ((1 << SEATS) - 1)]


def buttons_to_bits(buttons: Iterable[PanelButton]) -> int:
    bits = 0
    for b in buttons:
        bits |= 1 << PanelButton(b)
    return bits


_BUTTONS = tuple(PanelButton)
_BUTTON_SETS = tuple(frozenset(b for b in _BUTTONS if bits >> b & 1) for bits in range(1 << len(_BUTTONS)))


def bits_to_buttons(bits: int) -> frozenset[PanelButton]:
    return _BUTTON_SETS[bits & ((1 << len(_BUTTONS)) - 1)]


_BUTTON_MASK = buttons_to_bits(PanelButton)
_SEAT_MASK = (1 << SEATS) - 1


# -- input reports ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class InputState:
    """Everything the controller senses, at one instant."""

    lockout_pressed: bool = False
    wagers: frozenset[int] = frozenset()          # seats whose sensor has a wager on it now
    buttons: frozenset[PanelButton] = frozenset()
    lockout_presses: int = 0                      # counts every press, wrapping at 256
    latched: frozenset[int] = frozenset()         # seats with a wager at the last lock-out press
    reason: StateReason = StateReason.CHANGE
    door_open: bool = False                       # the controller's door (its meters, its memory) is open
    battery_low: bool = False                     # the battery behind its non-volatile memory is low

    def payload(self) -> bytes:
        flags = int(self.lockout_pressed) | int(self.door_open) << 1 | int(self.battery_low) << 2
        return struct.pack(">BBHBBB", flags, seats_to_bits(self.wagers),
                           buttons_to_bits(self.buttons), self.lockout_presses & 0xFF,
                           seats_to_bits(self.latched), self.reason)


@dataclass(frozen=True, slots=True)
class ReportAck:
    report_id: int
    seq: int
    status: AckStatus
    echo: bytes = b""

    def payload(self) -> bytes:
        return bytes((self.report_id, self.seq, self.status)) + self.echo


def parse_input(data: bytes | bytearray | memoryview) -> tuple[int, InputState | ReportAck]:
    """(SEQ, message) of a report from the controller; BadFrame for anything else."""
    report, message = parse_input_report(data)
    return report.seq, message


def parse_input_report(data: bytes | bytearray | memoryview) -> tuple[Report, InputState | ReportAck]:
    """The report (its seal for the link to check) and its message."""
    report = parse_report(data)
    p = report.payload
    if report.id == STATE:
        if len(p) != 7:
            raise BadFrame(f"STATE payload of {len(p)} bytes (7 expected)", bytes(data))
        inputs, wagers, buttons, presses, latched, reason = struct.unpack(">BBHBBB", p)
        if inputs & 0xF8 or wagers & ~_SEAT_MASK or buttons & ~_BUTTON_MASK or latched & ~_SEAT_MASK:
            raise BadFrame("STATE sets reserved bits", bytes(data))
        if reason >= len(_REASONS):
            raise BadFrame(f"STATE reason {reason} (0..2)", bytes(data))
        why = _REASONS[reason]
        return report, InputState(bool(inputs & 1), bits_to_seats(wagers), bits_to_buttons(buttons), presses,
                                  bits_to_seats(latched), why, bool(inputs & 2), bool(inputs & 4))
    if report.id == ACK:
        if len(p) < 3:
            raise BadFrame(f"ACK payload of {len(p)} bytes (at least 3)", bytes(data))
        try:
            status = AckStatus(p[2])
        except ValueError:
            raise BadFrame(f"ACK status {p[2]} (0..3)", bytes(data)) from None
        return report, ReportAck(p[0], p[1], status, p[3:])
    raise UnknownFrameType(f"report id 0x{report.id:02X} is not sent by the controller", bytes(data))


# -- output reports -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SetLights:
    """All seven acceptor lights and the lock-out indicator, set together so they change together."""

    ID = SET_LIGHTS
    lights: tuple[Light, ...] = (Light.OFF,) * SEATS
    lockout: bool = False

    def __post_init__(self) -> None:
        if len(self.lights) != SEATS:
            raise ValueError(f"{len(self.lights)} lights given; the controller has {SEATS}")
        try:
            object.__setattr__(self, "lights", tuple(_LIGHTS[x] for x in self.lights))
        except (IndexError, TypeError):
            raise ValueError(f"lights {self.lights!r}: each one of {[int(x) for x in Light]}") from None

    def payload(self) -> bytes:
        return bytes(self.lights) + bytes((int(self.lockout),))


@dataclass(frozen=True, slots=True)
class SetMeter:
    ID = SET_METER
    cents: int
    mode: MeterMode = MeterMode.SHOW

    def __post_init__(self) -> None:
        if isinstance(self.cents, bool) or not isinstance(self.cents, int) or not 0 <= self.cents <= METER_MAX:
            raise ValueError(f"meter of {self.cents!r} cents (an int, 0..{METER_MAX})")
        object.__setattr__(self, "mode", MeterMode(self.mode))

    def payload(self) -> bytes:
        return struct.pack(">QB", self.cents, self.mode)


@dataclass(frozen=True, slots=True)
class Sync:
    ID = SYNC

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class AnchorWrite:
    """One part of the journal's anchor; writing the last part commits all four to non-volatile memory."""

    ID = ANCHOR_WRITE
    part: int
    data: bytes

    def __post_init__(self) -> None:
        if isinstance(self.part, bool) or not isinstance(self.part, int) or not 0 <= self.part < ANCHOR_PARTS:
            raise ValueError(f"anchor part {self.part!r} (0..{ANCHOR_PARTS - 1})")
        if not isinstance(self.data, (bytes, bytearray)) or len(self.data) != ANCHOR_PART:
            raise ValueError(f"an anchor part is {ANCHOR_PART} bytes")
        object.__setattr__(self, "data", bytes(self.data))

    def payload(self) -> bytes:
        return bytes((self.part,)) + self.data


@dataclass(frozen=True, slots=True)
class AnchorRead:
    """Ask for one part of the committed anchor: the ACK's echo is the part number and its bytes."""

    ID = ANCHOR_READ
    part: int

    def __post_init__(self) -> None:
        if isinstance(self.part, bool) or not isinstance(self.part, int) or not 0 <= self.part < ANCHOR_PARTS:
            raise ValueError(f"anchor part {self.part!r} (0..{ANCHOR_PARTS - 1})")

    def payload(self) -> bytes:
        return bytes((self.part,))


@dataclass(frozen=True, slots=True)
class Hello:
    """The host's nonce, beginning a sealed session (PROTOCOLS.md 4.4); the ACK echoes the controller's."""

    ID = HELLO
    nonce: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.nonce, bytes) or len(self.nonce) != NONCE_SIZE:
            raise ValueError(f"a nonce is {NONCE_SIZE} bytes")

    def payload(self) -> bytes:
        return self.nonce


def anchor_parts(data: bytes) -> list[AnchorWrite]:
    """The writes that put `data` (ANCHOR_SIZE bytes) in the controller, the committing one last."""
    if len(data) != ANCHOR_SIZE:
        raise ValueError(f"an anchor is {ANCHOR_SIZE} bytes")
    return [AnchorWrite(i, data[i * ANCHOR_PART:(i + 1) * ANCHOR_PART]) for i in range(ANCHOR_PARTS)]


OutputMessage = SetLights | SetMeter | Sync | AnchorWrite | AnchorRead | Hello


def parse_output(data: bytes | bytearray | memoryview) -> tuple[int, OutputMessage]:
    """(SEQ, message) of a report from the host; BadFrame (UnknownFrameType for an unknown id)."""
    report, message = parse_output_report(data)
    return report.seq, message


def parse_output_report(data: bytes | bytearray | memoryview) -> tuple[Report, OutputMessage]:
    """The report (its seal for the controller to check) and its message."""
    report = parse_report(data)
    p = report.payload
    if report.id == SET_LIGHTS:
        if len(p) != SEATS + 1:
            raise BadFrame(f"SET_LIGHTS payload of {len(p)} bytes ({SEATS + 1} expected)", bytes(data))
        if any(x > Light.FLASHING_REMOVED for x in p[:SEATS]) or p[SEATS] > 1:
            raise BadFrame("SET_LIGHTS value out of range (lights 0..3, indicator 0..1)", bytes(data))
        return report, SetLights(tuple(Light(x) for x in p[:SEATS]), bool(p[SEATS]))
    if report.id == SET_METER:
        if len(p) != 9:
            raise BadFrame(f"SET_METER payload of {len(p)} bytes (9 expected)", bytes(data))
        cents, mode = struct.unpack(">QB", p)
        if cents > METER_MAX or mode > MeterMode.BLANK:
            raise BadFrame(f"SET_METER {cents} cents mode {mode} (0..{METER_MAX}, 0..2)", bytes(data))
        return report, SetMeter(cents, MeterMode(mode))
    if report.id == SYNC:
        if p:
            raise BadFrame(f"SYNC carries {len(p)} payload bytes (none expected)", bytes(data))
        return report, Sync()
    if report.id == ANCHOR_WRITE:
        if len(p) != 1 + ANCHOR_PART or p[0] >= ANCHOR_PARTS:
            raise BadFrame(f"ANCHOR_WRITE payload of {len(p)} bytes, part {p[:1].hex()} "
                           f"({1 + ANCHOR_PART} expected, part 0..{ANCHOR_PARTS - 1})", bytes(data))
        return report, AnchorWrite(p[0], p[1:])
    if report.id == ANCHOR_READ:
        if len(p) != 1 or p[0] >= ANCHOR_PARTS:
            raise BadFrame(f"ANCHOR_READ payload {p.hex()} (one byte, part 0..{ANCHOR_PARTS - 1})", bytes(data))
        return report, AnchorRead(p[0])
    if report.id == HELLO:
        if len(p) != NONCE_SIZE:
            raise BadFrame(f"HELLO payload of {len(p)} bytes ({NONCE_SIZE} expected)", bytes(data))
        return report, Hello(p)
    raise UnknownFrameType(f"report id 0x{report.id:02X} is not sent by the host", bytes(data))


def encode_output(seq: int, message: OutputMessage, seal: LinkSeal | None = None) -> bytes:
    return encode_report(message.ID, seq, message.payload(), seal or LinkSeal(FACTORY_KEY, Side.HOST))


# -- events for the table -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ControllerState:
    """The controller's inputs as found on connecting, or after reports were lost."""

    lockout_pressed: bool
    wagers: frozenset[int]
    buttons: frozenset[PanelButton]
    latched: frozenset[int]


@dataclass(frozen=True, slots=True)
class LockoutPressed:
    """The lock-out button: no progressive wager placed after this is recognized (5324.37(a)(3)(ii)).

    `wagers` are the seats whose sensor had a wager at the instant of the press,
    latched by the controller itself, so a wager slid in while the report was
    on its way is not among them.
    """

    wagers: frozenset[int]
    presses: int = 1   # more than 1 if presses happened while reports were lost


@dataclass(frozen=True, slots=True)
class LockoutReleased:
    pass


@dataclass(frozen=True, slots=True)
class WagerSensor:
    """A seat's acceptor felt a wager arrive (present) or leave."""

    seat: int
    present: bool


@dataclass(frozen=True, slots=True)
class PanelButtonPressed:
    button: PanelButton


@dataclass(frozen=True, slots=True)
class PanelButtonReleased:
    button: PanelButton


ProgressiveEvent = (ControllerState | LockoutPressed | LockoutReleased | WagerSensor | PanelButtonPressed
                    | PanelButtonReleased)


def _sensor_changes(before: frozenset[int], after: frozenset[int]) -> list[WagerSensor]:
    return [WagerSensor(s, s in after) for s in sorted(before ^ after)]


@dataclass
class StateTracker:
    """Turns successive STATE reports into events, in the order things happened at the table."""

    last: InputState | None = field(default=None)

    def reset(self) -> None:
        """Forget the last state (after reports were lost): the next one is reported whole."""
        self.last = None

    def update(self, state: InputState) -> list[ProgressiveEvent]:
        prev, self.last = self.last, state
        if prev is None:
            return [ControllerState(state.lockout_pressed, state.wagers, state.buttons, state.latched)]
        events: list[ProgressiveEvent] = []
        presses = (state.lockout_presses - prev.lockout_presses) & 0xFF
        if presses:
            # wagers that changed before the press, then the press, then changes since
            events += _sensor_changes(prev.wagers, state.latched)
            if prev.lockout_pressed:
                events.append(LockoutReleased())
            events.append(LockoutPressed(state.latched, presses))
            events += _sensor_changes(state.latched, state.wagers)
            if not state.lockout_pressed:
                events.append(LockoutReleased())
        else:
            events += _sensor_changes(prev.wagers, state.wagers)
            if prev.lockout_pressed and not state.lockout_pressed:
                events.append(LockoutReleased())
        for b in sorted(prev.buttons ^ state.buttons):
            events.append(PanelButtonPressed(b) if b in state.buttons else PanelButtonReleased(b))
        return events


def lights_for(seats: Sequence[Light] | dict[int, Light]) -> tuple[Light, ...]:
    """Seven lights from a {seat: light} map (unnamed seats off) or a sequence of seven."""
    if isinstance(seats, dict):
        for s in seats:
            if not 1 <= s <= SEATS:
                raise ValueError(f"seat {s} (1..{SEATS})")
        return tuple(Light(seats.get(s, Light.OFF)) for s in range(1, SEATS + 1))
    return SetLights(tuple(seats)).lights
