"""An automated dealing shoe that deals from a deck you give it.

Tests give it the cards they want dealt (or a seed); it dispenses them in
order, announces the cover card where you put it, runs empty, and jams when
told to. Knobs beyond the wire's: `jam`, `clear_jam`, `load`, `restart` (a power
cycle), and the firmware faults `outgoing.replay` / `outgoing.reorder`.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.cards import Card
from typing import Any

from drivers.serial_link import messages as m
from drivers.serial_link.framing import Frame
from drivers.shoe import protocol as p
from drivers.sim.serial_device import SerialEmulator
from drivers.sim.stack import stack


class ShoeEmulator(SerialEmulator):
    KIND = m.DeviceKind.DEALING_SHOE
    NAME = "shoe"
    PRODUCT = "Emulated_Dealing_Shoe"
    COMMAND_NAMES = p.COMMAND_NAMES

    def __init__(self, deck: Sequence[int] | None = None, *, seed: int | None = 0, cover_at: int | None = None,
                 card_interval: float = 0.0, serial_number: str = "SIM-SHOE-0001", **kwargs: Any) -> None:
        super().__init__(serial_number=serial_number, seed=seed, **kwargs)
        self.card_interval = card_interval
        self._cards: list[Card] = []
        self._next = 0
        self.cover_at: int | None = None
        self._cover_reported = False
        self.jammed: p.JamCode | None = None
        self._jam_after: tuple[int, p.JamCode] | None = None
        self._dispensing = False
        self.door_open = False     # its STATUS says so (bits 5, 6): the host sees it at its next STATUS_REQUEST
        self.battery_low = False
        self.load_number = 0   # +1 at every loading, carried by SHOE_LOADED and every CARD_DISPENSED
        self._set_deck(deck, cover_at)

    def _set_deck(self, deck: Sequence[int] | None, cover_at: int | None) -> None:
        cards = stack(self.rng, deck, cover_at)
        self._cards, self._next, self.cover_at, self._cover_reported = cards, 0, cover_at, False

    # -- knobs -----------------------------------------------------------------------

    @property
    def remaining(self) -> list[Card]:
        return self.call(lambda: self._cards[self._next:])

    @property
    def dispensed(self) -> int:
        return self.call(lambda: self._next)

    def load(self, deck: Sequence[int] | None = None, cover_at: int | None = None) -> None:
        """Put cards in the shoe (a fresh shuffled deck if none given): SHOE_LOADED."""
        def run() -> None:
            self._set_deck(deck, cover_at)
            self.load_number = (self.load_number + 1) & 0xFF
            self.emit(p.SHOE_LOADED, p.ShoeLoaded(len(self._cards), self.load_number).payload())
        self.call(run)

    def jam(self, code: p.JamCode = p.JamCode.CARD_FEED, after: int = 0) -> None:
        """Jam after `after` more cards come out (at once if 0 and the shoe is idle)."""
        def run() -> None:
            if after == 0 and not self._dispensing:
                self._jam_now(code)
            else:
                self._jam_after = (after, code)
        self.call(run)

    def clear_jam(self) -> None:
        """The technician has freed the card: JAM_CLEARED."""
        def run() -> None:
            if self.jammed is not None:
                self.jammed = None
                self.emit(p.JAM_CLEARED, p.JamCleared(self._next).payload())
        self.call(run)

    def _on_restart(self) -> None:
        self._dispensing = False   # the cards stay where they are; a stack in progress is not finished

    def set_condition(self, *, door_open: bool | None = None, battery_low: bool | None = None) -> None:
        """Open or close the shoe's door, or let its memory's battery run low (or replace it)."""
        if door_open is not None:
            self.door_open = door_open
        if battery_low is not None:
            self.battery_low = battery_low

    def _jam_now(self, code: p.JamCode) -> None:
        self.jammed = code
        self._jam_after = None
        self.emit(p.SHOE_JAMMED, p.ShoeJammed(code, self._next).payload())

    # -- the device ----------------------------------------------------------------------

    def status_payload(self) -> bytes:
        return p.ShoeStatus(self.jammed is not None, self._next >= len(self._cards), self._cover_reported,
                            self._dispensing, self.events_lost, self._next,
                            len(self._cards) - self._next, self.door_open, self.battery_low).payload()

    def on_command(self, frame: Frame) -> m.NakReason | None:
        command = p.parse_command(frame)
        if self.jammed is not None:
            return m.NakReason.JAMMED
        if self._dispensing:
            return m.NakReason.BUSY
        if self._next >= len(self._cards):
            return m.NakReason.EMPTY
        size = 1 if isinstance(command, p.DispenseOne) else command.count
        self._dispensing = True
        self.call_later(self.card_interval, lambda: self._dispense(1, size))
        return None

    def _dispense(self, position: int, size: int) -> None:
        if self._jam_after is not None:
            left, code = self._jam_after
            if left <= 0:
                self._dispensing = False
                self._jam_now(code)
                return
            self._jam_after = (left - 1, code)
        if self._next >= len(self._cards):
            self._dispensing = False
            self.emit(p.SHOE_EMPTY, p.ShoeEmpty(self._next).payload())
            return
        if self.cover_at is not None and self._next == self.cover_at and not self._cover_reported:
            self._cover_reported = True
            self.emit(p.COVER_CARD_REACHED, p.CoverCardReached(self._next).payload())
        c = self._cards[self._next]
        self._next += 1
        self.emit(p.CARD_DISPENSED, p.CardDispensed(c, position, size, self._next, self.load_number).payload())
        if position < size:
            self.call_later(self.card_interval, lambda: self._dispense(position + 1, size))
        else:
            self._dispensing = False
