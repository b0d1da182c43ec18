"""Serial frames: SOF, VER, LEN, SEQ, TYPE, PAYLOAD, CTR, MAC, CRC-16 (PROTOCOLS.md, part 1).

Pure: bytes in, frames and bad frames out, no clock and no I/O. A receiver that
loses its place (a garbled byte, a frame cut by an unplug) finds the next start
byte and carries on; whatever it could not use comes out as one BadFrame so the
device layer can count and log it. The caller tells the decoder when the line
has gone quiet mid-frame (`expire`), because only the caller has a clock.

The decoder checks the frame's shape and CRC; whether its MAC is the paired
device's and its counter fresh is the link's to check (drivers/pairing.py),
because only the link holds the session. A frame of another link version (the
unsealed format 1) is a bad frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drivers.errors import BadFrame
from drivers.pairing import COUNTER_SIZE, LINK_VERSION, MAC_SIZE, LinkSeal
from drivers.serial_link.crc import crc16

SOF = 0xA5
VERSION = LINK_VERSION
MAX_PAYLOAD = 32
HEADER = 5    # SOF, VER, LEN, SEQ, TYPE
SEAL = COUNTER_SIZE + MAC_SIZE
OVERHEAD = HEADER + SEAL + 2  # and CRC-hi, CRC-lo
MAX_FRAME = MAX_PAYLOAD + OVERHEAD


@dataclass(frozen=True, slots=True)
class Frame:
    """One checked frame; `type` says what it means, `seq` ties replies to requests."""

    seq: int
    type: int
    payload: bytes = b""
    counter: int = field(default=0, compare=False)   # the seal: the link checks it (drivers/pairing.py)
    mac: bytes = field(default=bytes(MAC_SIZE), compare=False)

    def body(self) -> bytes:
        """What the MAC covers besides the session and the counter: VER, LEN, SEQ, TYPE, PAYLOAD."""
        return frame_body(self.seq, self.type, self.payload)

    def encode(self) -> bytes:
        """The frame's bytes as they came (its own counter and MAC)."""
        return _assemble(self.body(), self.counter, self.mac)


def frame_body(seq: int, type_: int, payload: bytes = b"") -> bytes:
    if not 0 <= seq <= 0xFF or not 0 <= type_ <= 0xFF:
        raise ValueError(f"seq {seq} and type {type_} must each be one byte")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    return bytes((VERSION, len(payload), seq, type_)) + payload


def _assemble(body: bytes, counter: int, mac: bytes) -> bytes:
    sealed = body + counter.to_bytes(COUNTER_SIZE, "big") + mac
    crc = crc16(sealed)
    return bytes((SOF,)) + sealed + bytes((crc >> 8, crc & 0xFF))


def encode_frame(seq: int, type_: int, payload: bytes, seal: LinkSeal) -> bytes:
    """A frame sealed with the next counter of `seal`'s side."""
    body = frame_body(seq, type_, payload)
    counter, mac = seal.seal(body)
    return _assemble(body, counter, mac)


def decode_frame(data: bytes) -> Frame:
    """Exactly one frame, or BadFrame saying what is wrong with it."""
    items = FrameDecoder().feed(data)
    if len(items) == 1 and isinstance(items[0], Frame) and len(data) == OVERHEAD + len(items[0].payload):
        return items[0]
    bad = next((i for i in items if isinstance(i, BadFrame)), None)
    if bad is not None:
        raise bad
    if not items:
        raise BadFrame(f"incomplete frame ({len(data)} bytes)", data)
    raise BadFrame(f"{len(items)} frames where one was expected", data)


class FrameDecoder:
    """Turns a byte stream into Frames and BadFrames, keeping any partial frame for later."""

    __slots__ = ("_buf",)

    def __init__(self) -> None:
        self._buf = bytearray()

    @property
    def pending(self) -> int:
        """Bytes held back waiting for the rest of a frame."""
        return len(self._buf)

    def clear(self) -> None:
        self._buf.clear()

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame | BadFrame]:
        self._buf += data
        return self._drain()

    def expire(self) -> list[Frame | BadFrame]:
        """The line went quiet mid-frame: what is held can never complete, so give it up.

        The held bytes may still hide a whole frame after a false start byte, so
        they are rescanned rather than thrown away wholesale.
        """
        out: list[Frame | BadFrame] = []
        while self._buf:
            need = OVERHEAD + self._buf[2] if len(self._buf) > 2 else OVERHEAD
            out.append(self._discard_head(f"truncated frame: {len(self._buf)} of {need} bytes arrived"))
            out.extend(self._drain())
        return out

    def _discard_head(self, reason: str) -> BadFrame:
        """Drop the start byte at the head and any stray bytes up to the next start byte."""
        buf = self._buf
        nxt = buf.find(SOF, 1)
        cut = len(buf) if nxt < 0 else nxt
        bad = BadFrame(reason, bytes(buf[:cut]))
        del buf[:cut]
        return bad

    def _drain(self) -> list[Frame | BadFrame]:
        out: list[Frame | BadFrame] = []
        buf = self._buf
        while buf:
            if buf[0] != SOF:
                nxt = buf.find(SOF)
                cut = len(buf) if nxt < 0 else nxt
                out.append(BadFrame(f"{cut} stray byte(s) before a start byte", bytes(buf[:cut])))
                del buf[:cut]
                continue
            if len(buf) < 3:
                break
            if buf[1] != VERSION:
                out.append(self._discard_head(f"link version {buf[1]} (this box speaks {VERSION}, sealed): refused"))
                continue
            length = buf[2]
            if length > MAX_PAYLOAD:
                out.append(self._discard_head(f"length {length} is over the {MAX_PAYLOAD}-byte limit"))
                continue
            total = length + OVERHEAD
            if len(buf) < total:
                break
            crc = (buf[total - 2] << 8) | buf[total - 1]
            if crc16(buf[1:total - 2]) != crc:
                out.append(self._discard_head("CRC mismatch"))
                continue
            end = HEADER + length
            out.append(Frame(buf[3], buf[4], bytes(buf[HEADER:end]), int.from_bytes(buf[end:end + COUNTER_SIZE], "big"),
                             bytes(buf[end + COUNTER_SIZE:end + SEAL])))
            del buf[:total]
        return out
