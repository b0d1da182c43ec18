"""The card-reading manual dealing shoe's messages (PROTOCOLS.md, part 8): bytes to typed messages and back.

Casino war must be dealt from a manual dealing shoe (5324.22(d)), each card
taken out by the dealer's hand (h)(2), so this protocol has events and no
commands: there is nothing the box could ask the shoe to do with a card.

Every card report carries the card's place in the shoe as loaded and the
running count of cards drawn. A count that does not follow the last one is a
report replayed or one missed, and `Tally` (pure, used by the driver) refuses
it: a box that played a replayed card twice, or went on as if a missed card
were never drawn, would deal the wrong cards to the wrong seats.

Pure and total: every parser either returns a message or raises BadFrame.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from controller.cards import Card, card
from drivers.errors import BadFrame, UnknownFrameType
from drivers.serial_link.framing import Frame
from drivers.serial_link.messages import REPEAT, Repeat, expect_length

# events, shoe to host (there are no commands)
CARD_DRAWN = 0xA0
CARD_UNREAD = 0xA1
COVER_CARD_REACHED = 0xA2
SHOE_EMPTY = 0xA3
SHOE_LOADED = 0xA4

COMMAND_NAMES: dict[int, str] = {}
EVENT_NAMES = {CARD_DRAWN: "CARD_DRAWN", CARD_UNREAD: "CARD_UNREAD", COVER_CARD_REACHED: "COVER_CARD_REACHED",
               SHOE_EMPTY: "SHOE_EMPTY", SHOE_LOADED: "SHOE_LOADED"}

UNKNOWN = 0xFFFF   # SHOE_LOADED's count and STATUS's remaining, when the shoe cannot tell


def _check_place(name: str, place: int, drawn: int, raw: bytes) -> None:
    """A card's place counts the cover card if it came out before it: drawn <= place <= drawn + 1."""
    if drawn == 0:
        raise BadFrame(f"{name} with drawn count 0 (the first card is 1)", raw)
    if not drawn <= place <= drawn + 1:
        raise BadFrame(f"{name} at place {place} as card {drawn} drawn (place is the count, or one more "
                       "once the cover card is out)", raw)


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """The dealer drew `card`; `place` is where it lay in the shoe as loaded (1 = the front, the cover
    card takes a place of its own), `drawn` the running count of cards drawn since loading (1 = first)."""

    TYPE = CARD_DRAWN
    card: Card
    place: int
    drawn: int

    def payload(self) -> bytes:
        return struct.pack(">BBHH", self.card.rank, self.card.suit, self.place, self.drawn)


@dataclass(frozen=True, slots=True)
class CardUnread:
    """A card was drawn but the reader could not read its face: the dealer touches it in on the console."""

    TYPE = CARD_UNREAD
    place: int
    drawn: int

    def payload(self) -> bytes:
        return struct.pack(">HH", self.place, self.drawn)


@dataclass(frozen=True, slots=True)
class CoverCardReached:
    """The dealer came to the cover card at `place`, after `drawn` cards: the round in progress is dealt
    to its end and the cards are re-shuffled (5324.22(h)(4))."""

    TYPE = COVER_CARD_REACHED
    place: int
    drawn: int

    def payload(self) -> bytes:
        return struct.pack(">HH", self.place, self.drawn)


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    """No card left in the shoe after `drawn` cards."""

    TYPE = SHOE_EMPTY
    drawn: int

    def payload(self) -> bytes:
        return struct.pack(">H", self.drawn)


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    """Cards were put in the shoe; the drawn count starts again at 0. `cards` is None if the shoe cannot
    count them."""

    TYPE = SHOE_LOADED
    cards: int | None

    def payload(self) -> bytes:
        return struct.pack(">H", UNKNOWN if self.cards is None else self.cards)


ManualShoeEvent = CardDrawn | CardUnread | CoverCardReached | ShoeEmpty | ShoeLoaded


def parse_event(frame: Frame) -> ManualShoeEvent:
    t, raw = frame.type, frame.encode()
    if t == CARD_DRAWN:
        rank, suit, place, drawn = struct.unpack(">BBHH", expect_length(frame, "CARD_DRAWN", 6))
        if rank > 12 or suit > 3:
            raise BadFrame(f"CARD_DRAWN rank {rank} suit {suit} (rank 0..12, suit 0..3)", raw)
        _check_place("CARD_DRAWN", place, drawn, raw)
        return CardDrawn(card(rank, suit), place, drawn)
    if t == CARD_UNREAD:
        place, drawn = struct.unpack(">HH", expect_length(frame, "CARD_UNREAD", 4))
        _check_place("CARD_UNREAD", place, drawn, raw)
        return CardUnread(place, drawn)
    if t == COVER_CARD_REACHED:
        place, drawn = struct.unpack(">HH", expect_length(frame, "COVER_CARD_REACHED", 4))
        if place != drawn + 1:
            raise BadFrame(f"COVER_CARD_REACHED at place {place} after {drawn} cards (place is drawn + 1)", raw)
        return CoverCardReached(place, drawn)
    if t == SHOE_EMPTY:
        return ShoeEmpty(struct.unpack(">H", expect_length(frame, "SHOE_EMPTY", 2))[0])
    if t == SHOE_LOADED:
        (cards,) = struct.unpack(">H", expect_length(frame, "SHOE_LOADED", 2))
        return ShoeLoaded(None if cards == UNKNOWN else cards)
    raise UnknownFrameType(f"type 0x{t:02X} is not a manual shoe event", raw)


# -- the running count -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DrawOutOfStep:
    """A card report the driver refused: its count is not the next one. `replayed`: a count already
    seen (the card is not dealt twice); otherwise `reported - expected` cards were missed, and the
    dealer enters them from the layout before play goes on."""

    reported: int
    expected: int

    @property
    def replayed(self) -> bool:
        return self.reported < self.expected

    @property
    def missed(self) -> int:
        return max(0, self.reported - self.expected)




class Tally:
    """The running count as the box has it: None until known (a new driver). It is kept across a
    restart of the shoe: what a restarted shoe reports must follow what it reported before."""

    def __init__(self) -> None:
        self.drawn: int | None = None
        self.last: CardDrawn | CardUnread | None = None
        self.after_restart = False   # the shoe restarted and has reported no card since

    def restarted(self) -> None:
        """The shoe has a new boot number: its first report may be the last one again (REPEAT)."""
        self.after_restart = True

    def check(self, event: object) -> DrawOutOfStep | Repeat | None:
        """None if the event follows the count (and the count moves on), REPEAT for the last card
        report sent again (a shoe that restarted before it heard our ACK), else the refusal.

        After a skip the count moves to the reported card, so the cards behind it are taken; the
        skipped card itself is refused and the table asks the dealer for what was missed."""
        if isinstance(event, ShoeLoaded):
            self.drawn, self.last = 0, None
            return None
        if not isinstance(event, (CardDrawn, CardUnread)):
            return None
        repeat_forgiven, self.after_restart = self.after_restart, False
        if repeat_forgiven and self.last is not None and event == self.last:
            return REPEAT
        if self.drawn is None or event.drawn == self.drawn + 1:
            self.drawn, self.last = event.drawn, event
            return None
        refused = DrawOutOfStep(event.drawn, self.drawn + 1)
        if not refused.replayed:
            self.drawn, self.last = event.drawn, None
        return refused


# -- status -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ManualShoeStatus:
    empty: bool
    cover_reached: bool
    events_lost: bool
    drawn: int
    remaining: int | None   # None: this shoe cannot tell

    @property
    def dispensed(self) -> int:
        """The cards out of the shoe, under the name the table's restart check uses for any shoe."""
        return self.drawn

    def payload(self) -> bytes:
        flags = self.empty | self.cover_reached << 1 | self.events_lost << 2
        return struct.pack(">BHH", flags, self.drawn, UNKNOWN if self.remaining is None else self.remaining)


def parse_status(frame: Frame) -> ManualShoeStatus:
    flags, drawn, remaining = struct.unpack(">BHH", expect_length(frame, "STATUS", 5))
    if flags & 0xF8:
        raise BadFrame(f"STATUS flags 0x{flags:02X} set reserved bits 3-7", frame.encode())
    return ManualShoeStatus(bool(flags & 1), bool(flags & 2), bool(flags & 4), drawn,
                            None if remaining == UNKNOWN else remaining)
