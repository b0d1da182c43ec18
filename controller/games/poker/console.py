"""The poker games of 9 NYCRR 5324.42 on the screens (controller/games/game.py ConsolePart)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

STATIC = Path(__file__).with_name("static")   # dealer.js, supervisor.js...: served under /games/poker/


class Console:
    @property
    def static(self) -> Path | None:
        return STATIC

    @property
    def labels(self) -> Mapping[str, str]:
        return {"poker": "Poker"}


CONSOLE = Console()
