"""Casino war (9 NYCRR 5324.22) on the screens (controller/games/game.py ConsolePart)."""

from __future__ import annotations

from pathlib import Path


class Console:
    @property
    def static(self) -> Path | None:
        return None


CONSOLE = Console()
