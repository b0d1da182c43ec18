"""The seal on every frame of a device link: who sent it (the pairing key) and that it is fresh.

5319.60(a) asks that the links between a table's components be protected against tampering; a CRC
protects only against noise, and anything that speaks drivers/PROTOCOLS.md could pass for the shoe.
So each device is paired with its table: both hold the same secret key, and every frame carries a
MAC under it (HMAC-SHA-256, truncated to MAC_SIZE bytes) over the frame, the two sides' session
nonces and a per-direction counter (PROTOCOLS.md 0, "The seal"). The nonces make a frame of one
session worthless in another, the counter a frame of this session worthless twice: a replay is
refused like a forgery. The link's own SEQ and retransmission rules stay as they were; a
retransmission is the same SEQ and payload under a new counter.

Pure: bytes in, bytes out; no clock and no I/O (nonces are the caller's to draw).
"""

from __future__ import annotations

import hmac
import os
from dataclasses import dataclass, field
from enum import IntEnum

KEY_SIZE = 32        # bytes of a pairing key
MAC_SIZE = 8         # bytes of the truncated HMAC-SHA-256 each frame carries
NONCE_SIZE = 8       # bytes of each side's session nonce
COUNTER_SIZE = 4     # bytes of the per-direction frame counter
LINK_VERSION = 2     # the sealed format; version 1 (no seal) is refused
_TAG = b"tablectl device link\0"
NO_NONCE = bytes(NONCE_SIZE)
# The key a device leaves its factory with, published (PROTOCOLS.md 0): the drivers and emulators default
# to it so they talk out of the box, and a table never uses it; `tablectl device pair` replaces it.
FACTORY_KEY = bytes(KEY_SIZE)
COUNTER_MAX = (1 << (8 * COUNTER_SIZE)) - 1


class Side(IntEnum):
    """Whose frame it is: a MAC for one direction never verifies for the other (a reflected frame)."""

    HOST = 0x48      # "H"
    DEVICE = 0x44    # "D"


class SealRefused(ValueError):
    """A frame whose MAC does not verify, or whose counter is not fresh: never acted on."""

    def __init__(self, reason: str, replayed: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.replayed = replayed


def new_key() -> bytes:
    return os.urandom(KEY_SIZE)


def new_nonce() -> bytes:
    return os.urandom(NONCE_SIZE)


def frame_mac(key: bytes, side: Side, host_nonce: bytes, device_nonce: bytes, counter: int, body: bytes) -> bytes:
    """The MAC of one frame: `body` is the frame's bytes the CRC covers, but for the counter and MAC."""
    message = _TAG + bytes((side,)) + host_nonce + device_nonce + counter.to_bytes(COUNTER_SIZE, "big") + body
    return hmac.digest(key, message, "sha256")[:MAC_SIZE]


@dataclass(slots=True)
class LinkSeal:
    """One side's half of a sealed session: the key, both nonces, the counters sent and last taken."""

    key: bytes
    side: Side
    host_nonce: bytes = NO_NONCE
    device_nonce: bytes = NO_NONCE
    sent: int = 0
    taken: int = 0
    refused: int = field(default=0)

    def __post_init__(self) -> None:
        if len(self.key) != KEY_SIZE:
            raise ValueError(f"a pairing key is {KEY_SIZE} bytes, not {len(self.key)}")

    @property
    def peer(self) -> Side:
        return Side.DEVICE if self.side is Side.HOST else Side.HOST

    def begin(self, host_nonce: bytes, device_nonce: bytes = NO_NONCE) -> None:
        """A new session (a HELLO, its IDENT): counters start again under the new nonces."""
        self.host_nonce, self.device_nonce = host_nonce, device_nonce
        self.sent = self.taken = 0

    def seal(self, body: bytes) -> tuple[int, bytes]:
        """The counter and MAC for the next frame this side sends."""
        if self.sent >= COUNTER_MAX:
            raise OverflowError("the session's counter is spent: start a new session")
        self.sent += 1
        return self.sent, frame_mac(self.key, self.side, self.host_nonce, self.device_nonce, self.sent, body)

    def verifies(self, body: bytes, counter: int, mac: bytes) -> bool:
        """Whether the peer's key made this MAC in this session (freshness not looked at)."""
        expected = frame_mac(self.key, self.peer, self.host_nonce, self.device_nonce, counter, body)
        return hmac.compare_digest(expected, mac)

    def check(self, body: bytes, counter: int, mac: bytes) -> None:
        """Take a frame of the peer's: SealRefused unless its MAC verifies and its counter is new."""
        if not self.verifies(body, counter, mac):
            self.refused += 1
            raise SealRefused("its MAC does not verify under the pairing key")
        if counter <= self.taken:
            self.refused += 1
            raise SealRefused(f"counter {counter} was already used (last taken {self.taken}): a replayed frame",
                              replayed=True)
        self.taken = counter
