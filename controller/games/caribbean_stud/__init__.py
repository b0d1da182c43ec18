"""Caribbean stud poker (9 NYCRR 5324.37): pure settlement (rules, record) and the round machine."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from controller.games.game import GameCommand, GameDevices

if TYPE_CHECKING:
    from controller.games.base import RoundAtTable
    from controller.games.game import BooksPart, Json, ConsolePart, PlayPart, ProfilePart, TablePart


def _chip_sensed(seat: int, present: bool, round_: RoundAtTable, quiet: bool) -> list[dict[str, Json]]:
    from controller.games.caribbean_stud.acceptors import chip_sensed   # a part: loaded at the first chip felt
    from controller.games.caribbean_stud.at_table import StudRound
    assert isinstance(round_, StudRound)   # a stud table's rounds are StudRounds (its table part)
    return chip_sensed(seat, present, round_, quiet=quiet)


class CaribbeanStud:
    """Caribbean stud poker (9 NYCRR 5324.37): its parts, each imported when first asked for (controller/games/game.py)."""

    key = "caribbean_stud"
    names: tuple[str, ...] = tuple(("caribbean-stud",))
    label = "Caribbean stud poker"
    commands: tuple[GameCommand, ...] = ()
    devices = GameDevices(shoe="dispensing", shuffler=True, progressive=True, acceptors=_chip_sensed)

    @cached_property
    def profiles(self) -> ProfilePart:
        from controller.games.caribbean_stud.profiles import PROFILES
        return PROFILES

    @cached_property
    def table(self) -> TablePart:
        from controller.games.caribbean_stud.tableside import TABLESIDE
        return TABLESIDE

    @cached_property
    def books(self) -> BooksPart:
        from controller.games.caribbean_stud.books import BOOKS
        return BOOKS

    @cached_property
    def play(self) -> PlayPart:
        from controller.games.caribbean_stud.play import PLAY
        return PLAY

    @cached_property
    def console(self) -> ConsolePart:
        from controller.games.caribbean_stud.console import CONSOLE
        return CONSOLE


GAME = CaribbeanStud()
