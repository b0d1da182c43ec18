"""A shuffler with a card-count reader, holding whatever deck you put in it.

Knobs beyond the wire's: `insert_deck` (any cards: a short deck, a doubled
card, a card with another deck's back, a card the reader cannot read),
`remove_deck`, `fault` and `clear_fault`. The count is worked out the way a
reader would: from the faces and backs it saw, naming a missing card only
when the cards it could read leave no doubt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from controller.cards import CARDS, Card
from typing import Any

from drivers.serial_link import messages as m
from drivers.serial_link.framing import Frame
from drivers.shuffler import protocol as p
from drivers.sim.serial_device import SerialEmulator


def count_deck(cards: Sequence[int], foreign: Sequence[int] = (), unreadable: Iterable[int] = (),
               *, from_shuffle: bool = False) -> p.DeckCount:
    """What the reader reports for a deck of `cards` plus `foreign` cards (another deck's back).

    `unreadable` are positions in `cards` whose face the reader could not read.
    """
    blind = set(unreadable)
    seen = Counter(CARDS[c] for i, c in enumerate(cards) if i not in blind)
    anomalies: list[p.Anomaly] = []
    candidates = [c for c in CARDS if c not in seen]
    # cards that were there but unread may be any of the candidates: name the missing only when none were unread
    missing = len(candidates) - len(blind)
    if missing > 0:
        if blind:
            anomalies += [p.Anomaly(p.AnomalyKind.MISSING, None)] * missing
        else:
            anomalies += [p.Anomaly(p.AnomalyKind.MISSING, c) for c in candidates]
    for c, n in sorted(seen.items()):
        anomalies += [p.Anomaly(p.AnomalyKind.EXTRA, c)] * (n - 1)
    anomalies += [p.Anomaly(p.AnomalyKind.FOREIGN, CARDS[c]) for c in foreign]
    anomalies += [p.Anomaly(p.AnomalyKind.UNREADABLE, None)] * len(blind)
    truncated = len(anomalies) > p.MAX_ANOMALIES
    total = min(len(cards) + len(foreign), 0xFE)
    return p.DeckCount(total, tuple(anomalies[:p.MAX_ANOMALIES]), truncated, from_shuffle)


class ShufflerEmulator(SerialEmulator):
    KIND = m.DeviceKind.SHUFFLER
    NAME = "shuffler"
    PRODUCT = "Emulated_Shuffler"
    COMMAND_NAMES = p.COMMAND_NAMES

    def __init__(self, *, deck_present: bool = True, shuffle_time: float = 0.0, count_time: float = 0.0,
                 serial_number: str = "SIM-SHUF-0001", **kwargs: Any) -> None:
        super().__init__(serial_number=serial_number, **kwargs)
        self.shuffle_time = shuffle_time
        self.count_time = count_time
        self._deck: list[Card] | None = list(CARDS) if deck_present else None
        self._foreign: list[Card] = []
        self._unreadable: set[int] = set()
        self._busy: str | None = None   # "shuffling" or "counting"
        self._job = 0                   # bumped to abandon a job in progress
        self.fault_code: p.FaultCode | None = None
        self.last_count: p.DeckCount | None = None

    # -- knobs -----------------------------------------------------------------------

    def insert_deck(self, cards: Sequence[int] | None = None, *, foreign: Sequence[int] = (),
                    unreadable: Iterable[int] = ()) -> None:
        """Put a deck in the tray: `cards` (all 52 if None), plus `foreign` cards of another deck."""
        deck = [CARDS[c] for c in (CARDS if cards is None else cards)]
        blind = set(unreadable)
        if any(not 0 <= i < len(deck) for i in blind):
            raise ValueError(f"unreadable positions {sorted(blind)} outside a deck of {len(deck)}")

        def run() -> None:
            self._deck, self._foreign, self._unreadable = deck, [CARDS[c] for c in foreign], blind
            self.emit(p.DECK_INSERTED)
        self.call(run)

    def remove_deck(self) -> None:
        def run() -> None:
            self._deck = None
            self._abandon()
            self.emit(p.DECK_REMOVED)
        self.call(run)

    def fault(self, code: p.FaultCode = p.FaultCode.JAM) -> None:
        """A fault stops any shuffle or count in progress; the shuffler refuses commands until cleared."""
        def run() -> None:
            self.fault_code = code
            self._abandon()
            self.emit(p.SHUFFLER_FAULT, p.ShufflerFault(code).payload())
        self.call(run)

    def clear_fault(self) -> None:
        def run() -> None:
            if self.fault_code is not None:
                self.fault_code = None
                self.emit(p.FAULT_CLEARED)
        self.call(run)

    def _abandon(self) -> None:
        self._busy = None
        self._job += 1

    # -- the device ----------------------------------------------------------------------

    def status_payload(self) -> bytes:
        return p.ShufflerStatus(self._deck is not None, self._busy == "shuffling", self._busy == "counting",
                                self.fault_code is not None, self.events_lost,
                                None if self.last_count is None else self.last_count.total).payload()

    def on_command(self, frame: Frame) -> m.NakReason | None:
        command = p.parse_command(frame)
        if self.fault_code is not None:
            return m.NakReason.JAMMED
        if self._busy is not None:
            return m.NakReason.BUSY
        if self._deck is None:
            return m.NakReason.NO_DECK
        self._job += 1
        job = self._job
        if isinstance(command, p.Shuffle):
            self._busy = "shuffling"
            self.emit(p.SHUFFLE_STARTED)
            self.call_later(self.shuffle_time, lambda: self._finish(job, from_shuffle=True))
        else:
            self._busy = "counting"
            self.call_later(self.count_time, lambda: self._finish(job, from_shuffle=False))
        return None

    def _finish(self, job: int, *, from_shuffle: bool) -> None:
        if job != self._job or self._deck is None:
            return  # abandoned: a fault, or the deck was pulled
        self._busy = None
        if from_shuffle:
            order = list(range(len(self._deck)))
            self.rng.shuffle(order)
            self._deck = [self._deck[i] for i in order]
            self._unreadable = {order.index(i) for i in self._unreadable}
            self.emit(p.SHUFFLE_COMPLETE)
        self.last_count = count_deck(self._deck, self._foreign, self._unreadable, from_shuffle=from_shuffle)
        self.emit(p.COUNT_RESULT, self.last_count.payload())
