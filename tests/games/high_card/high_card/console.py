"""High card on the screens (controller/games/game.py ConsolePart): its script, served under its key."""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"


class Console:
    @property
    def static(self) -> Path | None:
        return STATIC


CONSOLE = Console()
