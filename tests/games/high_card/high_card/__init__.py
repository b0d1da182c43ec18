"""High card against the dealer: the tests' own game, a package of its own outside tablectl.

Registered by its distribution's entry point (tests/games/high_card/pyproject.toml,
`tablectl.games`), as any third party's game would be; nothing of tablectl's names it. The rules
are in README.md and rules.py; the parts below are imported only when the table first asks.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from controller.games.game import GameDevices

from high_card.rules import NAME

if TYPE_CHECKING:
    from controller.games.game import BooksPart, ConsolePart, GameCommand, PlayPart, ProfilePart, TablePart


class HighCard:
    """High card (controller/games/game.py Game): one wager, one card each, higher card wins."""

    key = "high_card"
    names: tuple[str, ...] = (NAME,)
    label = "High card"
    commands: tuple[GameCommand, ...] = ()   # no tablectl command of its own
    devices = GameDevices(shoe="dispensing", shuffler=True)   # one counted deck a round, as Caribbean stud

    @cached_property
    def profiles(self) -> ProfilePart:
        from high_card.profiles import PROFILES
        return PROFILES

    @cached_property
    def table(self) -> TablePart:
        from high_card.tableside import TABLESIDE
        return TABLESIDE

    @cached_property
    def books(self) -> BooksPart:
        from high_card.books import BOOKS
        return BOOKS

    @cached_property
    def play(self) -> PlayPart:
        from high_card.play import PLAY
        return PLAY

    @cached_property
    def console(self) -> ConsolePart:
        from high_card.console import CONSOLE
        return CONSOLE


GAME = HighCard()
