"""The link messages every serial device shares: hello/ident, status, ack/nak.

Type numbers are split by meaning (PROTOCOLS.md 1.3) so a receiver knows from
the type alone whether a frame wants an acknowledgement:
  0x01-0x0F  link requests from the host (HELLO, STATUS_REQUEST)
  0x06, 0x15 ACK and NAK, either direction, echoing the SEQ they answer
  0x41-0x4F  replies from the device to a link request, echoing its SEQ
  0x10-0x3F  commands, host to device: sequenced, ACKed or NAKed
  0x80-0xBF  events, device to host: sequenced, ACKed or NAKed
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from drivers.errors import BadFrame
from drivers.pairing import NO_NONCE, NONCE_SIZE

from drivers.serial_link.framing import Frame

PROTOCOL_VERSION = 2   # 2: sealed frames, the session's nonces in HELLO and IDENT (PROTOCOLS.md 1.6)
SERIAL_MAX = 18        # an IDENT's serial number, so the IDENT with its nonce fits a frame

HELLO = 0x01
STATUS_REQUEST = 0x02
ACK = 0x06
NAK = 0x15
IDENT = 0x41
STATUS = 0x42


def is_command(type_: int) -> bool:
    return 0x10 <= type_ <= 0x3F


def is_event(type_: int) -> bool:
    return 0x80 <= type_ <= 0xBF


class DeviceKind(IntEnum):
    DEALING_SHOE = 0x01
    SHUFFLER = 0x02
    MANUAL_SHOE = 0x03   # a manual dealing shoe with a card reader: reports cards, never dispenses


class NakReason(IntEnum):
    UNKNOWN_TYPE = 0x01
    BAD_PAYLOAD = 0x02
    BUSY = 0x03
    JAMMED = 0x04   # the shoe is jammed, or the shuffler has a fault
    EMPTY = 0x05
    NO_DECK = 0x06
    UNSUPPORTED_VERSION = 0x07
    NOT_PAIRED = 0x08   # answer to a HELLO whose MAC is not under this device's pairing key

    @classmethod
    def name_of(cls, value: int) -> str:
        try:
            return cls(value).name.lower().replace("_", " ")
        except ValueError:
            return f"unknown reason 0x{value:02X}"


@dataclass(frozen=True, slots=True)
class Ident:
    """Who answered a HELLO; `boot` changes at every power-up so the host can tell a restart."""

    version: int
    kind: int
    boot: int
    firmware: tuple[int, int]
    serial_number: str
    nonce: bytes = NO_NONCE   # the device's half of the session (PROTOCOLS.md 1.6)

    def encode(self) -> bytes:
        serial = self.serial_number.encode("ascii")
        return struct.pack(">BBHBB", self.version, self.kind, self.boot, *self.firmware) + self.nonce + serial


_IDENT_MIN = 6 + NONCE_SIZE + 1


def parse_ident(frame: Frame) -> Ident:
    p = frame.payload
    if not _IDENT_MIN <= len(p) <= _IDENT_MIN - 1 + SERIAL_MAX:
        raise BadFrame(f"IDENT payload of {len(p)} bytes ({_IDENT_MIN}..{_IDENT_MIN - 1 + SERIAL_MAX} expected)",
                       frame.encode())
    version, kind, boot, major, minor = struct.unpack_from(">BBHBB", p)
    nonce, serial = p[6:6 + NONCE_SIZE], p[6 + NONCE_SIZE:]
    if any(not 0x20 <= b <= 0x7E for b in serial):
        raise BadFrame("IDENT serial number is not printable ASCII", frame.encode())
    return Ident(version, kind, boot, (major, minor), serial.decode("ascii"), nonce)


def hello_payload(nonce: bytes) -> bytes:
    return bytes((PROTOCOL_VERSION,)) + nonce


def parse_hello(frame: Frame) -> tuple[int, bytes]:
    """The protocol version a HELLO asks for and the host's nonce (none in a version 1 HELLO)."""
    p = frame.payload
    if len(p) == 1:
        return p[0], NO_NONCE   # an old host: answered "unsupported version"
    if len(p) != 1 + NONCE_SIZE:
        raise BadFrame(f"HELLO payload of {len(p)} bytes ({1 + NONCE_SIZE} expected)", frame.encode())
    return p[0], p[1:]


def parse_nak(frame: Frame) -> int:
    if len(frame.payload) != 1:
        raise BadFrame(f"NAK payload of {len(frame.payload)} bytes (1 expected)", frame.encode())
    return frame.payload[0]


def expect_empty(frame: Frame, name: str) -> None:
    if frame.payload:
        raise BadFrame(f"{name} carries {len(frame.payload)} payload bytes (none expected)", frame.encode())


def expect_length(frame: Frame, name: str, length: int) -> bytes:
    if len(frame.payload) != length:
        raise BadFrame(f"{name} payload of {len(frame.payload)} bytes ({length} expected)", frame.encode())
    return frame.payload


class Repeat:
    """The last card report again, word for word, as the first report after a shoe restarted: the
    shoe sends again what it had not heard ACKed, and the link, which forgot its SEQs with the old
    boot, cannot tell. Already taken: not taken twice, and no alarm. Both shoes' tallies answer it."""

    def __repr__(self) -> str:
        return "REPEAT"


REPEAT = Repeat()
