"""The poker games of 9 NYCRR 5324.42 at the table: the hand at the table, the seats and the button
between hands, the events the dealer's console sends (contract), the room's pooled jackpot, the par
sheet. The poker engine itself is a library, controller/poker, that this package uses."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from controller.games.poker.names import POKER_GAMES
from controller.games.game import GameCommand, GameDevices

if TYPE_CHECKING:
    from argparse import ArgumentParser

    from controller.games.game import BooksPart, ConsolePart, PlayPart, ProfilePart, TablePart


def _replay_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="hand history files (.phh), or a directory of them: one JSON line per hand when many")
    from pathlib import Path
    contract = Path(__file__).resolve().parents[2] / "data" / "PHH.md"
    parser.epilog = f"The hand-history contract is docs/PHH.md, installed with the command at {contract}."


class Poker:
    """The poker games of 9 NYCRR 5324.42: its parts, each imported when first asked for (controller/games/game.py)."""

    key = "poker"
    names: tuple[str, ...] = tuple(POKER_GAMES)
    label = "Poker"
    devices = GameDevices(shuffler=True)
    commands = (GameCommand(("poker", "replay"), "controller.poker.replay", "main",
                            "replay PHH hands under 5324.42 (one, or a batch)", _replay_arguments),)

    @cached_property
    def profiles(self) -> ProfilePart:
        from controller.games.poker.profiles import PROFILES
        return PROFILES

    @cached_property
    def table(self) -> TablePart:
        from controller.games.poker.tableside import TABLESIDE
        return TABLESIDE

    @cached_property
    def books(self) -> BooksPart:
        from controller.games.poker.books import BOOKS
        return BOOKS

    @cached_property
    def play(self) -> PlayPart:
        from controller.games.poker.play import PLAY
        return PLAY

    @cached_property
    def console(self) -> ConsolePart:
        from controller.games.poker.console import CONSOLE
        return CONSOLE


GAME = Poker()
