"""A game's own `tablectl` commands come from the game (controller/games/game.py GameCommand),
so the command table names no game: poker's `tablectl poker replay` is the poker game's."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from controller import cli
from controller.games import registry
from controller.games.game import GameCommand

TABLECTL = Path(sys.executable).with_name("tablectl")


def test_the_poker_games_replay_is_the_games_command_and_runs_installed(tmp_path: Path) -> None:
    assert ("poker", "replay") not in cli.COMMANDS
    assert [c.path for c in registry.by_key("poker").commands] == [("poker", "replay")]
    out = subprocess.run([str(TABLECTL), "poker", "replay", "--help"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 0 and "hand history" in out.stdout


def _with(monkeypatch: pytest.MonkeyPatch, command: GameCommand) -> None:
    """Another distribution's game bringing `command` (a stand-in for a game we do not ship)."""
    poker = registry.by_key("poker")

    @dataclasses.dataclass(frozen=True)
    class Outside:
        key: str = "outside"
        commands: tuple[GameCommand, ...] = (command,)

    monkeypatch.setattr(registry, "games", lambda: (poker, Outside()))


def test_a_registered_games_command_is_offered_with_its_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    def arguments(parser) -> None:  # type: ignore[no-untyped-def]
        parser.add_argument("--shoe", required=True)
    _with(monkeypatch, GameCommand(("outside", "check"), "controller.settle", "main", "check it", arguments))
    args = cli.build_parser(["outside", "check", "--shoe", "8"]).parse_args(["outside", "check", "--shoe", "8"])
    assert args._command == ("outside", "check") and args.shoe == "8"
    assert cli.commands()[("outside", "check")] == ("controller.settle", "main", "check it")


def test_a_game_may_not_take_one_of_the_tables_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    _with(monkeypatch, GameCommand(("settle",), "controller.settle", "main", "mine"))
    with pytest.raises(LookupError, match="outside brings the command settle"):
        cli.commands()
