"""The automated dealing shoe's messages (PROTOCOLS.md, part 2): bytes to typed messages and back.

Pure and total: every parser either returns a message or raises BadFrame
saying what is wrong, for any bytes at all. The emulator uses the encoders and
the command parser; the driver uses the event parser.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from controller.cards import Card, card
from drivers.errors import BadFrame, UnknownFrameType
from drivers.serial_link.framing import Frame
from drivers.serial_link.messages import REPEAT, Repeat, expect_empty, expect_length

# commands, host to shoe
DISPENSE_ONE = 0x10
DISPENSE_STACK = 0x11
# events, shoe to host
CARD_DISPENSED = 0x80
COVER_CARD_REACHED = 0x81
SHOE_EMPTY = 0x82
SHOE_JAMMED = 0x83
JAM_CLEARED = 0x84
SHOE_LOADED = 0x85

COMMAND_NAMES = {DISPENSE_ONE: "DISPENSE_ONE", DISPENSE_STACK: "DISPENSE_STACK"}
EVENT_NAMES = {CARD_DISPENSED: "CARD_DISPENSED", COVER_CARD_REACHED: "COVER_CARD_REACHED",
               SHOE_EMPTY: "SHOE_EMPTY", SHOE_JAMMED: "SHOE_JAMMED", JAM_CLEARED: "JAM_CLEARED",
               SHOE_LOADED: "SHOE_LOADED"}

STACK_OF_FIVE = 5   # 5324.37(d)(2): an automated shoe dispenses Caribbean stud hands in stacks of five
MIN_STACK = 2
MAX_STACK = 10


class JamCode(IntEnum):
    CARD_FEED = 1
    EXIT_SENSOR = 2
    DOOR_OPEN = 3
    OTHER = 4


# -- commands -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DispenseOne:
    TYPE = DISPENSE_ONE

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class DispenseStack:
    TYPE = DISPENSE_STACK
    count: int = STACK_OF_FIVE

    def __post_init__(self) -> None:
        if not MIN_STACK <= self.count <= MAX_STACK:
            raise ValueError(f"a stack is {MIN_STACK}..{MAX_STACK} cards, not {self.count}")

    def payload(self) -> bytes:
        return bytes((self.count,))


def parse_command(frame: Frame) -> DispenseOne | DispenseStack:
    if frame.type == DISPENSE_ONE:
        expect_empty(frame, "DISPENSE_ONE")
        return DispenseOne()
    if frame.type == DISPENSE_STACK:
        (count,) = expect_length(frame, "DISPENSE_STACK", 1)
        if not MIN_STACK <= count <= MAX_STACK:
            raise BadFrame(f"DISPENSE_STACK of {count} cards ({MIN_STACK}..{MAX_STACK})", frame.encode())
        return DispenseStack(count)
    raise UnknownFrameType(f"type 0x{frame.type:02X} is not a shoe command", frame.encode())


# -- events ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CardDispensed:
    """One card out of the shoe; `dispensed` numbers it since the shoe was loaded (1 = first), `load`
    names that loading (the SHOE_LOADED it follows), so a card of an earlier deck sent again is told
    from a card of this one."""

    TYPE = CARD_DISPENSED
    card: Card
    stack_position: int   # 1-based place in its stack; 1 of 1 for DISPENSE_ONE
    stack_size: int
    dispensed: int
    load: int = 0         # the shoe's load number, 0-255, +1 at every loading

    @property
    def stack_start(self) -> bool:
        return self.stack_position == 1

    @property
    def stack_end(self) -> bool:
        return self.stack_position == self.stack_size

    def payload(self) -> bytes:
        return struct.pack(">BBBBHB", self.card.rank, self.card.suit, self.stack_position, self.stack_size,
                           self.dispensed, self.load)


@dataclass(frozen=True, slots=True)
class CoverCardReached:
    """The cover card came out (diverted, not dealt) before card number `dispensed + 1`.

    The round in progress is dealt to its end and the cards are re-shuffled
    (5324.22(h)(4)).
    """

    TYPE = COVER_CARD_REACHED
    dispensed: int

    def payload(self) -> bytes:
        return struct.pack(">H", self.dispensed)


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    """No card left; any stack in progress stopped short after `dispensed` cards."""

    TYPE = SHOE_EMPTY
    dispensed: int

    def payload(self) -> bytes:
        return struct.pack(">H", self.dispensed)


@dataclass(frozen=True, slots=True)
class ShoeJammed:
    """A card is stuck; the dispense in progress is abandoned, the shoe refuses commands until cleared."""

    TYPE = SHOE_JAMMED
    code: JamCode
    dispensed: int

    def payload(self) -> bytes:
        return struct.pack(">BH", self.code, self.dispensed)


@dataclass(frozen=True, slots=True)
class JamCleared:
    TYPE = JAM_CLEARED
    dispensed: int

    def payload(self) -> bytes:
        return struct.pack(">H", self.dispensed)


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    """Cards were put in the shoe; the dispensed count starts again at 0, under a new `load` number."""

    TYPE = SHOE_LOADED
    cards: int
    load: int = 0

    def payload(self) -> bytes:
        return struct.pack(">HB", self.cards, self.load)


ShoeEvent = CardDispensed | CoverCardReached | ShoeEmpty | ShoeJammed | JamCleared | ShoeLoaded


def _u16(frame: Frame, name: str) -> int:
    value: int = struct.unpack(">H", expect_length(frame, name, 2))[0]
    return value


def parse_event(frame: Frame) -> ShoeEvent:
    t = frame.type
    if t == CARD_DISPENSED:
        rank, suit, position, size, dispensed, load = struct.unpack(">BBBBHB",
                                                                    expect_length(frame, "CARD_DISPENSED", 7))
        if rank > 12 or suit > 3:
            raise BadFrame(f"CARD_DISPENSED rank {rank} suit {suit} (rank 0..12, suit 0..3)", frame.encode())
        if not 1 <= position <= size <= MAX_STACK:
            raise BadFrame(f"CARD_DISPENSED position {position} of {size} (1 <= position <= size <= {MAX_STACK})",
                           frame.encode())
        if dispensed == 0:
            raise BadFrame("CARD_DISPENSED with dispensed count 0 (the first card is 1)", frame.encode())
        return CardDispensed(card(rank, suit), position, size, dispensed, load)
    if t == COVER_CARD_REACHED:
        return CoverCardReached(_u16(frame, "COVER_CARD_REACHED"))
    if t == SHOE_EMPTY:
        return ShoeEmpty(_u16(frame, "SHOE_EMPTY"))
    if t == SHOE_JAMMED:
        code, dispensed = struct.unpack(">BH", expect_length(frame, "SHOE_JAMMED", 3))
        try:
            jam = JamCode(code)
        except ValueError:
            raise BadFrame(f"SHOE_JAMMED code {code} (1..4)", frame.encode()) from None
        return ShoeJammed(jam, dispensed)
    if t == JAM_CLEARED:
        return JamCleared(_u16(frame, "JAM_CLEARED"))
    if t == SHOE_LOADED:
        cards, load = struct.unpack(">HB", expect_length(frame, "SHOE_LOADED", 3))
        return ShoeLoaded(cards, load)
    raise UnknownFrameType(f"type 0x{t:02X} is not a shoe event", frame.encode())


# -- the running count -------------------------------------------------------------------

REPLAYED = "replayed"       # a count already taken, or a card of another loading: an old card sent again
SKIPPED = "skipped"         # a count further on: cards came out whose reports never came
OUT_OF_STACK = "out of its stack"   # the right count at the wrong place in its stack


@dataclass(frozen=True, slots=True)
class CardOutOfStep:
    """A card report the driver refused, in place of the card: it does not follow the last one.

    `why` is REPLAYED (the card is not dealt twice, and the cards after it are taken as they
    come), SKIPPED or OUT_OF_STACK (cards are out that the box cannot place: nothing more is
    taken from this deck until the shoe is loaded again, and the round is a misdeal, 5324.37(h))."""

    card: Card
    reported: int        # the report's dispensed count
    expected: int        # the count that would have followed
    position: int
    size: int
    why: str

    @property
    def stops_the_deal(self) -> bool:
        return self.why != REPLAYED




class Tally:
    """The shoe's running count and stack place as the box has taken them (pure).

    The link's SEQ tells a retransmission from a new frame, and nothing more: a
    faulty shoe that sends an old card under a new SEQ, or loses one, passes it.
    The card's own numbers cannot be passed that way: each card must be the last
    count + 1, at the next place of the stack in progress (or place 1 of a new
    stack once the last one ended). The count is unknown (None) only until the
    first report or SHOE_LOADED, or the shoe's STATUS, tells it; it is kept across
    a restart of the shoe, whose reports must follow what it reported before."""

    def __init__(self) -> None:
        self.dispensed: int | None = None
        self.load: int | None = None             # the loading the cards taken come from
        self.last: CardDispensed | None = None   # the last card taken
        self.stack_open = False                  # the last card's stack has more to come
        self.stack_known = False                 # whether stack_open is known (not when the count was learnt)
        self.broken = False                       # a gap: no card of this deck is taken any more
        self.after_restart = False                # the shoe restarted and has reported no card since

    def learn(self, dispensed: int) -> None:
        """The shoe's own count (its STATUS), taken only while the box has none."""
        if self.dispensed is None:
            self.dispensed, self.stack_known = dispensed, False

    def restarted(self) -> None:
        """The shoe has a new boot number: its first report may be the last one again (REPEAT)."""
        self.after_restart = True

    def check(self, event: object) -> CardOutOfStep | Repeat | None:
        """None if the event is taken (the count moves on), REPEAT for the last card report sent
        again (a shoe that restarted before it heard our ACK), else the refusal."""
        if isinstance(event, ShoeLoaded):
            self.dispensed, self.last, self.stack_open, self.broken = 0, None, False, False
            self.stack_known, self.load = True, event.load
            return None
        if isinstance(event, (ShoeEmpty, ShoeJammed)):   # the stack in progress stops short
            self.stack_open = False
            return None
        if not isinstance(event, CardDispensed):
            return None
        repeat_forgiven, self.after_restart = self.after_restart, False
        if repeat_forgiven and self.last is not None and event == self.last:
            return REPEAT
        expected = None if self.dispensed is None else self.dispensed + 1
        why = None
        if self.load is not None and event.load != self.load:
            why = REPLAYED   # a card of another deck: never dealt from this one
        elif self.broken:
            why = SKIPPED
        elif expected is not None and event.dispensed < expected:
            why = REPLAYED
        elif expected is not None and event.dispensed > expected:
            why = SKIPPED
        elif self.stack_known and self.stack_open and self.last is not None:
            if (event.stack_size, event.stack_position) != (self.last.stack_size, self.last.stack_position + 1):
                why = OUT_OF_STACK
        elif self.stack_known and not event.stack_start:
            why = OUT_OF_STACK
        if why is None:
            self.dispensed, self.last, self.stack_open = event.dispensed, event, not event.stack_end
            self.stack_known, self.load = True, event.load
            return None
        if why != REPLAYED:
            self.broken = True
        return CardOutOfStep(event.card, event.dispensed, expected or event.dispensed, event.stack_position,
                             event.stack_size, why)


# -- status -------------------------------------------------------------------------

REMAINING_UNKNOWN = 0xFFFF


@dataclass(frozen=True, slots=True)
class ShoeStatus:
    jammed: bool
    empty: bool
    cover_reached: bool
    dispensing: bool
    events_lost: bool
    dispensed: int
    remaining: int | None   # None: this shoe cannot tell
    door_open: bool = False     # the shoe's door (its card path, its reader) is open
    battery_low: bool = False   # the battery behind its memory (its counts, its key) is low

    def payload(self) -> bytes:
        flags = (self.jammed | self.empty << 1 | self.cover_reached << 2 | self.dispensing << 3
                 | self.events_lost << 4 | self.door_open << 5 | self.battery_low << 6)
        remaining = REMAINING_UNKNOWN if self.remaining is None else self.remaining
        return struct.pack(">BHH", flags, self.dispensed, remaining)


def parse_status(frame: Frame) -> ShoeStatus:
    flags, dispensed, remaining = struct.unpack(">BHH", expect_length(frame, "STATUS", 5))
    if flags & 0x80:
        raise BadFrame(f"STATUS flags 0x{flags:02X} set reserved bit 7", frame.encode())
    return ShoeStatus(bool(flags & 1), bool(flags & 2), bool(flags & 4), bool(flags & 8), bool(flags & 16),
                      dispensed, None if remaining == REMAINING_UNKNOWN else remaining, bool(flags & 32),
                      bool(flags & 64))
