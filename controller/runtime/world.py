"""The emulated table of the embedded default: devices whose physical state outlives the box.

A profile that names no device gets the emulators of drivers/sim, started in
this process, and the real drivers talk to them (a pseudo-terminal for the shoe
and the shuffler, a pyusb backend for the progressive controller). When the box
loses power the cards in a real shoe stay where they are and the chips stay on
the acceptors; an emulator that died with the process would forget them, and a
restart would find a different table from the one the journal describes. So
each emulator here writes its physical state (the shoe's stack and how far it
has dealt, the shuffler's deck, the chips on the acceptors) to a small file in
<data dir>/sim before the change reaches the wire, and reads it back at start.
The files are replaced atomically but not fsync'd: they survive the process
being killed, which is what the crash tests do, not a power cut of the host.
The progressive controller's non-volatile memory (the journal's anchor,
controller/journal/anchor.py) is kept there too, in a file of its own beside the
journal's files and fsync'd as the controller commits it, so the demo table
remembers its anchor across runs as a box's controller does;
$TABLECTL_SIM_PROGRESSIVE_NVRAM names another file instead.

The world also does what the dealer's hands do between the devices: a deck the
shuffler has shuffled and counted goes into the shoe (Caribbean stud, one deck
a round), and a casino war shoe whose cover card came out is reshuffled and
loaded again (5324.22(h)(4)). Casino war's shoe is a manual one: the world
never draws from it by itself; the emulated dealer's hand is `shoe.draw()`.
"""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Callable
from typing import Any
from pathlib import Path

from controller.cards import CARDS
from controller.games import registry
from drivers.progressive import protocol as pp
from drivers.manual_shoe import protocol as ms
from drivers.shoe import protocol as sp
from drivers.shuffler import protocol as fp
from drivers.sim.manual_shoe import ManualShoeEmulator
from drivers.sim.progressive import NVRAM_ENV, ProgressiveEmulator
from drivers.sim.shoe import ShoeEmulator
from drivers.sim.shuffler import ShufflerEmulator


NVRAM_FILE = "progressive-nvram.json"   # the emulated controller's battery-backed memory
Saved = dict[str, Any]   # an emulator's state in its JSON file, as it wrote it


def _save(path: Path, state: Saved) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state))
    os.replace(tmp, path)


def _load(path: Path) -> Saved | None:
    try:
        saved: Saved = json.loads(path.read_text())
        return saved
    except (FileNotFoundError, ValueError):
        return None


class PersistentShoe(ShoeEmulator):
    """A shoe that remembers its stack and how many cards it has dealt."""

    def __init__(self, path: Path, **kwargs: Any) -> None:
        self.path = path
        saved = _load(path)
        super().__init__(deck=saved["deck"] if saved else [], **kwargs)
        if saved:
            self._next, self.cover_at, self._cover_reported = saved["next"], saved["cover_at"], saved["cover"]
            self.load_number = saved.get("load", 0)   # a shoe names each loading (PROTOCOLS.md 2.2)

    def _state(self) -> Saved:
        return {"deck": [int(c) for c in self._cards], "next": self._next, "cover_at": self.cover_at,
                "cover": self._cover_reported, "load": self.load_number}

    def emit(self, type_: int, payload: bytes = b"") -> None:
        if type_ in (sp.CARD_DISPENSED, sp.SHOE_LOADED, sp.COVER_CARD_REACHED):
            _save(self.path, self._state())  # the card is out before the host can hear of it
        super().emit(type_, payload)

    def dealt(self) -> list[str]:
        """Every card out of the shoe since it was loaded, in order (what lies on the layout)."""
        return self.call(lambda: [str(c) for c in self._cards[:self._next]])


class PersistentManualShoe(ManualShoeEmulator):
    """Casino war's manual dealing shoe (5324.22(d)): remembers its stack and how many cards were drawn.

    Nothing draws from it but `draw()`, the emulated dealer's hand (autoplay, a test)."""

    def __init__(self, path: Path, **kwargs: Any) -> None:
        self.path = path
        saved = _load(path)
        super().__init__(deck=saved["deck"] if saved else [], **kwargs)
        if saved:
            self._next, self.cover_at, self._cover_out = saved["next"], saved["cover_at"], saved["cover"]

    def _state(self) -> Saved:
        return {"deck": [int(c) for c in self._cards], "next": self._next, "cover_at": self.cover_at,
                "cover": self._cover_out}

    def emit(self, type_: int, payload: bytes = b"") -> None:
        if type_ in (ms.CARD_DRAWN, ms.CARD_UNREAD, ms.SHOE_LOADED, ms.COVER_CARD_REACHED):
            _save(self.path, self._state())  # the card is in the dealer's hand before the host hears of it
        super().emit(type_, payload)

    def dealt(self) -> list[str]:
        """Every card drawn since the shoe was loaded, in order (what lies on the layout)."""
        return self.call(lambda: [str(c) for c in self._cards[:self._next]])


class PersistentShuffler(ShufflerEmulator):
    """A shuffler that hands each deck it has shuffled and counted to `on_shuffled`."""

    def __init__(self, path: Path, on_shuffled: Callable[[list[int]], None], **kwargs: Any) -> None:
        self.path = path
        self.on_shuffled = on_shuffled
        super().__init__(**kwargs)
        saved = _load(path)
        if saved:
            self._deck = None if saved["deck"] is None else [CARDS[c] for c in saved["deck"]]
            self._foreign = [CARDS[c] for c in saved["foreign"]]

    def emit(self, type_: int, payload: bytes = b"") -> None:
        if type_ in (fp.DECK_INSERTED, fp.DECK_REMOVED, fp.SHUFFLE_COMPLETE):
            _save(self.path, {"deck": None if self._deck is None else [int(c) for c in self._deck],
                              "foreign": [int(c) for c in self._foreign]})
        super().emit(type_, payload)
        if type_ == fp.COUNT_RESULT and self.last_count is not None and self.last_count.from_shuffle:
            self.on_shuffled([int(c) for c in self._deck or []])


class PersistentProgressive(ProgressiveEmulator):
    """A progressive controller whose acceptors keep their chips across a restart of the box."""

    def __init__(self, path: Path, **kwargs: Any) -> None:
        self.path = path
        super().__init__(**kwargs)
        saved = _load(path)
        if saved:
            self._wagers = set(saved["wagers"])

    def _save_locked(self) -> None:
        _save(self.path, {"wagers": sorted(self._wagers)})

    def place_wager(self, seat: int) -> None:
        self._check_seat(seat)
        with self._cond:
            self._wagers.add(seat)
            self._save_locked()
            self._emit_state(pp.StateReason.CHANGE)

    def remove_wager(self, seat: int) -> None:
        self._check_seat(seat)
        with self._cond:
            self._wagers.discard(seat)
            self._save_locked()
            self._emit_state(pp.StateReason.CHANGE)

    def chips(self) -> frozenset[int]:
        with self._cond:
            return frozenset(self._wagers)

    def press_and_release_lockout(self) -> None:
        self.press_lockout()
        self.release_lockout()


class World:
    """The emulated devices of one table, in `directory` (<data dir>/sim)."""

    def __init__(self, directory: Path, game: str, *, seed: int | None, decks: int = 6,
                 shoe: bool = True, shuffler: bool = True, progressive: bool = True) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.game = game
        self.decks = decks
        meta = _load(self.directory / "world.json") or {"boots": 0}
        meta["boots"] += 1
        _save(self.directory / "world.json", meta)
        base = 0 if seed is None else seed
        self.rng = random.Random(f"{base}:{meta['boots']}")
        def sub() -> int:   # each emulator's own seed, from the table's
            return self.rng.randrange(2**32)
        needs = registry.game(game).devices   # the game's entry (controller/games/registry.py)
        shoe_kind = PersistentManualShoe if needs.shoe == "manual" else PersistentShoe
        self.shoe = shoe_kind(self.directory / "shoe.json", directory=str(self.directory), seed=sub()) \
            if shoe else None
        self.shuffler = None
        if shuffler and needs.shuffler:
            self.shuffler = PersistentShuffler(self.directory / "shuffler.json", self._deck_to_shoe,
                                               directory=str(self.directory), seed=sub())
        self.progressive = None
        if progressive and needs.progressive:
            nvram = os.environ.get(NVRAM_ENV) or self.directory / NVRAM_FILE   # the variable overrides
            self.progressive = PersistentProgressive(self.directory / "progressive.json", seed=sub(), nvram=nvram)
        self._lock = threading.Lock()

    def start(self) -> None:
        for emu in (self.shoe, self.shuffler):
            if emu is not None:
                emu.start()

    def stop(self) -> None:
        for emu in (self.shoe, self.shuffler):
            if emu is not None:
                emu.stop()

    # -- the dealer's hands ---------------------------------------------------------------

    def _deck_to_shoe(self, deck: list[int]) -> None:
        """A shuffled, counted deck goes from the shuffler into the shoe (Caribbean stud)."""
        if self.shoe is not None:
            with self._lock:
                try:
                    self.shoe.load(deck)
                except (TimeoutError, RuntimeError):
                    pass  # the world is stopping

    def dealer_deck(self) -> list[str]:
        """The deck the shuffler last shuffled, in order: what a poker dealer deals from."""
        shuffler = self.shuffler
        if shuffler is None:
            return []
        return shuffler.call(lambda: [str(c) for c in shuffler._deck or []])

    def load_shoe(self, fill: Callable[[int, random.Random], tuple[list[int], int]]) -> None:
        """Fill the emulated manual shoe as the game's dealer would (GameDevices.fill: its decks
        shuffled, cut, the cover card placed)."""
        if self.shoe is None:
            return
        cards, cover_at = fill(self.decks, self.rng)
        with self._lock:
            self.shoe.load(cards, cover_at=cover_at)
