"""High card on the screens (controller/games/game.py ConsolePart): its part of the dealer's console."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from high_card.rules import NAME

STATIC = Path(__file__).with_name("static")   # dealer.js: served under /games/high_card/


class Console:
    @property
    def static(self) -> Path | None:
        return STATIC

    @property
    def labels(self) -> Mapping[str, str]:
        return {NAME: "High card"}


CONSOLE = Console()
