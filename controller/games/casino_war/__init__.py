"""Casino war (9 NYCRR 5324.22): rules, round records, the shoe and the round machine.

- rules.py   pure settlement and the order of the deal; no I/O.
- record.py  the round record of shared/spec/rounds.md, read strictly and settled.
- shoe.py    the 6-8 deck shoe with its cover card, burn cards and discard rack.
- machine.py the round procedure as a state machine fed with events.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from controller.games.game import GameCommand, GameDevices

if TYPE_CHECKING:
    from random import Random

    from controller.config.profiles import GameProfile
    from controller.games.game import BooksPart, ConsolePart, PlayPart, ProfilePart, TablePart


def _decks(profile: GameProfile) -> int:
    decks: int = profile.casino_war.decks  # type: ignore[attr-defined]   # a casino war profile
    return decks


def _reader(profile: GameProfile) -> bool:
    reader: bool = profile.manual_shoe.reader  # type: ignore[attr-defined]   # a casino war profile (profile.py)
    return reader


def _fill(decks: int, rng: Random) -> tuple[list[int], int]:
    """Reshuffle every deck, cut, place the cover card (5324.22(c), (h)(4)): the emulated dealer's shoe."""
    from controller.games.casino_war.shoe import WarShoe
    shoe = WarShoe.shuffled(decks, rng)
    return [int(c) for c in shoe.cards], shoe.cover_at


class CasinoWar:
    """Casino war (9 NYCRR 5324.22): its parts, each imported when first asked for (controller/games/game.py)."""

    key = "casino_war"
    names: tuple[str, ...] = tuple(("casino-war",))
    label = "Casino war"
    commands: tuple[GameCommand, ...] = ()
    devices = GameDevices(shoe="manual", decks=_decks, reader=_reader, fill=_fill)

    @cached_property
    def profiles(self) -> ProfilePart:
        from controller.games.casino_war.profiles import PROFILES
        return PROFILES

    @cached_property
    def table(self) -> TablePart:
        from controller.games.casino_war.tableside import TABLESIDE
        return TABLESIDE

    @cached_property
    def books(self) -> BooksPart:
        from controller.games.casino_war.books import BOOKS
        return BOOKS

    @cached_property
    def play(self) -> PlayPart:
        from controller.games.casino_war.play import PLAY
        return PLAY

    @cached_property
    def console(self) -> ConsolePart:
        from controller.games.casino_war.console import CONSOLE
        return CONSOLE


GAME = CasinoWar()
