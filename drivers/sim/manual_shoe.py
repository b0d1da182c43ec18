"""A card-reading manual dealing shoe holding a stack you give it; `draw()` is the dealer's hand.

The emulator never moves a card by itself (the real shoe cannot): a test, the
autoplay dealer or `tablectl sim manual-shoe` calls `draw()`, and the shoe
reports the card it read. Knobs: `draw`, `load`, `unreadable` (the next card's
face is not read), and `emit` to send a hand-made report (a replay, a skip).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.cards import Card
from typing import Any

from drivers.serial_link import messages as m
from drivers.manual_shoe import protocol as p
from drivers.sim.serial_device import SerialEmulator
from drivers.sim.stack import stack


class ManualShoeEmulator(SerialEmulator):
    KIND = m.DeviceKind.MANUAL_SHOE
    NAME = "manual-shoe"
    PRODUCT = "Emulated_Manual_Shoe"
    COMMAND_NAMES = p.COMMAND_NAMES

    def __init__(self, deck: Sequence[int] | None = None, *, seed: int | None = 0, cover_at: int | None = None,
                 serial_number: str = "SIM-MSHOE-0001", **kwargs: Any) -> None:
        super().__init__(serial_number=serial_number, seed=seed, **kwargs)
        self._cards: list[Card] = []
        self._next = 0
        self.cover_at: int | None = None
        self._cover_out = False
        self._unreadable = 0
        self._set_deck(deck, cover_at)

    def _set_deck(self, deck: Sequence[int] | None, cover_at: int | None) -> None:
        cards = stack(self.rng, deck, cover_at)
        self._cards, self._next, self.cover_at, self._cover_out = cards, 0, cover_at, False

    # -- knobs -------------------------------------------------------------------------

    @property
    def remaining(self) -> list[Card]:
        return self.call(lambda: self._cards[self._next:])

    @property
    def drawn(self) -> int:
        return self.call(lambda: self._next)

    def load(self, deck: Sequence[int] | None = None, cover_at: int | None = None) -> None:
        """The dealer puts a stack in the shoe (a fresh shuffled deck if none given): SHOE_LOADED."""
        def run() -> None:
            self._set_deck(deck, cover_at)
            self.emit(p.SHOE_LOADED, p.ShoeLoaded(len(self._cards)).payload())
        self.call(run)

    def unreadable(self, n: int = 1) -> None:
        """The next `n` cards drawn have faces the reader cannot read."""
        def run() -> None:
            self._unreadable += n
        self.call(run)

    def draw(self) -> Card | None:
        """The dealer's left hand takes the next card out (the cover card first, if it is at the front):
        the card it read, or None if the shoe was empty."""
        return self.call(self._draw)

    def _draw(self) -> Card | None:
        if self._next >= len(self._cards):
            self.emit(p.SHOE_EMPTY, p.ShoeEmpty(self._next).payload())
            return None
        if self.cover_at is not None and self._next == self.cover_at and not self._cover_out:
            self._cover_out = True
            self.emit(p.COVER_CARD_REACHED, p.CoverCardReached(self._next + 1, self._next).payload())
        c = self._cards[self._next]
        self._next += 1
        place = self._next + (1 if self._cover_out else 0)
        if self._unreadable:
            self._unreadable -= 1
            self.emit(p.CARD_UNREAD, p.CardUnread(place, self._next).payload())
        else:
            self.emit(p.CARD_DRAWN, p.CardDrawn(c, place, self._next).payload())
        return c

    # -- the device ----------------------------------------------------------------------

    def status_payload(self) -> bytes:
        return p.ManualShoeStatus(self._next >= len(self._cards), self._cover_out, self.events_lost, self._next,
                                  len(self._cards) - self._next).payload()
