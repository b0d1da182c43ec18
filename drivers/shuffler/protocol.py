"""The shuffler's messages (PROTOCOLS.md, part 3): bytes to typed messages and back, pure.

The shuffler's card-count reader sees every card pass. 5324.42(f)(6)(iv) lets
a facility use an automated shuffler to find a deck that does not hold 52
cards; the count says how many, and where the reader can tell, which card is
missing, doubled, or from another deck.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from controller.cards import Card, card
from drivers.errors import BadFrame, UnknownFrameType
from drivers.serial_link.framing import Frame
from drivers.serial_link.messages import expect_empty, expect_length

# commands, host to shuffler
SHUFFLE = 0x20
COUNT = 0x21
# events, shuffler to host
DECK_INSERTED = 0x90
DECK_REMOVED = 0x91
SHUFFLE_STARTED = 0x92
SHUFFLE_COMPLETE = 0x93
COUNT_RESULT = 0x94
SHUFFLER_FAULT = 0x95
FAULT_CLEARED = 0x96

COMMAND_NAMES = {SHUFFLE: "SHUFFLE", COUNT: "COUNT"}
EVENT_NAMES = {DECK_INSERTED: "DECK_INSERTED", DECK_REMOVED: "DECK_REMOVED", SHUFFLE_STARTED: "SHUFFLE_STARTED",
               SHUFFLE_COMPLETE: "SHUFFLE_COMPLETE", COUNT_RESULT: "COUNT_RESULT",
               SHUFFLER_FAULT: "SHUFFLER_FAULT", FAULT_CLEARED: "FAULT_CLEARED"}

FULL_DECK = 52
MAX_ANOMALIES = 9     # 3 + 9 * 3 = 30 bytes, under the 32-byte payload limit
UNKNOWN = 0xFF        # rank and suit of a card the reader could not identify


class AnomalyKind(IntEnum):
    MISSING = 1      # a card of the deck that did not pass the reader
    EXTRA = 2        # a second copy of a card
    FOREIGN = 3      # a card with the back of another deck
    UNREADABLE = 4   # a card whose face the reader could not read


class FaultCode(IntEnum):
    JAM = 1
    DOOR_OPEN = 2
    READER_FAULT = 3


@dataclass(frozen=True, slots=True)
class Anomaly:
    kind: AnomalyKind
    card: Card | None   # None: the reader cannot tell which card

    def encode(self) -> bytes:
        if self.card is None:
            return bytes((self.kind, UNKNOWN, UNKNOWN))
        return bytes((self.kind, self.card.rank, self.card.suit))

    def __str__(self) -> str:
        return f"{self.kind.name.lower()} {self.card if self.card is not None else '(card unknown)'}"


# -- commands -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Shuffle:
    TYPE = SHUFFLE


@dataclass(frozen=True, slots=True)
class Count:
    TYPE = COUNT


def parse_command(frame: Frame) -> Shuffle | Count:
    if frame.type == SHUFFLE:
        expect_empty(frame, "SHUFFLE")
        return Shuffle()
    if frame.type == COUNT:
        expect_empty(frame, "COUNT")
        return Count()
    raise UnknownFrameType(f"type 0x{frame.type:02X} is not a shuffler command", frame.encode())


# -- events ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DeckInserted:
    TYPE = DECK_INSERTED

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class DeckRemoved:
    TYPE = DECK_REMOVED

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class ShuffleStarted:
    TYPE = SHUFFLE_STARTED

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class ShuffleComplete:
    """The deck is shuffled and back in the tray; its count follows as a DeckCount."""

    TYPE = SHUFFLE_COMPLETE

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class DeckCount:
    """What the card-count reader found: `total` cards, and what it could tell about them."""

    TYPE = COUNT_RESULT
    total: int
    anomalies: tuple[Anomaly, ...] = ()
    truncated: bool = False       # the reader found more anomalies than one frame lists
    from_shuffle: bool = False    # counted during a SHUFFLE (else on a COUNT command)

    @property
    def correct(self) -> bool:
        """52 cards and nothing wrong with them; anything else takes the deck out (5324.42(f)(6)(iv))."""
        return self.total == FULL_DECK and not self.anomalies and not self.truncated

    def cards(self, kind: AnomalyKind) -> tuple[Card | None, ...]:
        return tuple(a.card for a in self.anomalies if a.kind == kind)

    def payload(self) -> bytes:
        if len(self.anomalies) > MAX_ANOMALIES:
            raise ValueError(f"{len(self.anomalies)} anomalies; a COUNT_RESULT lists at most {MAX_ANOMALIES}")
        flags = self.truncated | self.from_shuffle << 1
        return bytes((self.total, flags, len(self.anomalies))) + b"".join(a.encode() for a in self.anomalies)


@dataclass(frozen=True, slots=True)
class ShufflerFault:
    TYPE = SHUFFLER_FAULT
    code: FaultCode

    def payload(self) -> bytes:
        return bytes((self.code,))


@dataclass(frozen=True, slots=True)
class FaultCleared:
    TYPE = FAULT_CLEARED

    def payload(self) -> bytes:
        return b""


ShufflerEvent = (DeckInserted | DeckRemoved | ShuffleStarted | ShuffleComplete | DeckCount | ShufflerFault
                 | FaultCleared)

_EMPTY_EVENTS: dict[int, type[DeckInserted | DeckRemoved | ShuffleStarted | ShuffleComplete | FaultCleared]] = {DECK_INSERTED: DeckInserted, DECK_REMOVED: DeckRemoved, SHUFFLE_STARTED: ShuffleStarted,
                 SHUFFLE_COMPLETE: ShuffleComplete, FAULT_CLEARED: FaultCleared}


def _parse_count(frame: Frame) -> DeckCount:
    p = frame.payload
    if len(p) < 3:
        raise BadFrame(f"COUNT_RESULT payload of {len(p)} bytes (at least 3)", frame.encode())
    total, flags, n = p[0], p[1], p[2]
    if flags & 0xFC:
        raise BadFrame(f"COUNT_RESULT flags 0x{flags:02X} set reserved bits 2-7", frame.encode())
    if n > MAX_ANOMALIES or len(p) != 3 + 3 * n:
        raise BadFrame(f"COUNT_RESULT lists {n} anomalies in {len(p)} bytes (3 + 3 each, at most "
                       f"{MAX_ANOMALIES})", frame.encode())
    anomalies = []
    for i in range(n):
        kind, rank, suit = p[3 + 3 * i: 6 + 3 * i]
        try:
            k = AnomalyKind(kind)
        except ValueError:
            raise BadFrame(f"COUNT_RESULT anomaly {i + 1} of kind {kind} (1..4)", frame.encode()) from None
        if rank == UNKNOWN and suit == UNKNOWN:
            c = None
        elif rank <= 12 and suit <= 3 and k != AnomalyKind.UNREADABLE:
            c = card(rank, suit)
        else:
            raise BadFrame(f"COUNT_RESULT anomaly {i + 1}: rank {rank} suit {suit} for {k.name}", frame.encode())
        anomalies.append(Anomaly(k, c))
    return DeckCount(total, tuple(anomalies), bool(flags & 1), bool(flags & 2))


def parse_event(frame: Frame) -> ShufflerEvent:
    t = frame.type
    if t in _EMPTY_EVENTS:
        expect_empty(frame, EVENT_NAMES[t])
        return _EMPTY_EVENTS[t]()
    if t == COUNT_RESULT:
        return _parse_count(frame)
    if t == SHUFFLER_FAULT:
        (code,) = expect_length(frame, "SHUFFLER_FAULT", 1)
        try:
            return ShufflerFault(FaultCode(code))
        except ValueError:
            raise BadFrame(f"SHUFFLER_FAULT code {code} (1..3)", frame.encode()) from None
    raise UnknownFrameType(f"type 0x{t:02X} is not a shuffler event", frame.encode())


# -- status -------------------------------------------------------------------------

NO_COUNT = 0xFF


@dataclass(frozen=True, slots=True)
class ShufflerStatus:
    deck_present: bool
    shuffling: bool
    counting: bool
    fault: bool
    events_lost: bool
    last_count: int | None

    def payload(self) -> bytes:
        flags = (self.deck_present | self.shuffling << 1 | self.counting << 2 | self.fault << 3
                 | self.events_lost << 4)
        return struct.pack(">BB", flags, NO_COUNT if self.last_count is None else self.last_count)


def parse_status(frame: Frame) -> ShufflerStatus:
    flags, last = expect_length(frame, "STATUS", 2)
    if flags & 0xE0:
        raise BadFrame(f"STATUS flags 0x{flags:02X} set reserved bits 5-7", frame.encode())
    return ShufflerStatus(bool(flags & 1), bool(flags & 2), bool(flags & 4), bool(flags & 8), bool(flags & 16),
                          None if last == NO_COUNT else last)
