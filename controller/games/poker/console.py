"""The poker games of 9 NYCRR 5324.42 on the screens (controller/games/game.py ConsolePart)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

STATIC = Path(__file__).with_name("static")   # dealer.js, supervisor.js...: served under /games/poker/

# The games as the room names them on the header (the profiles' `game` is a key, never shown).
NAMES = {
    "poker": "Poker",
    "seven-card-stud": "Seven-card stud", "seven-card-stud-low": "Seven-card stud low (razz)",
    "seven-card-stud-hi-lo": "Seven-card stud high-low", "seven-card-stud-hi-lo-8": "Seven-card stud high-low, eight or better",
    "five-card-stud": "Five-card stud", "texas-holdem": "Texas hold'em", "omaha": "Omaha",
    "omaha-hi-lo-8": "Omaha high-low, eight or better", "five-card-draw": "Five-card draw",
    "five-card-draw-low": "Five-card draw low", "triple-draw-2-7": "2-7 triple draw", "pineapple": "Pineapple",
    "crazy-pineapple": "Crazy pineapple",
}


class Console:
    @property
    def static(self) -> Path | None:
        return STATIC

    @property
    def labels(self) -> Mapping[str, str]:
        return NAMES

    def unit(self, profile: Any) -> int:
        """The table's smallest chip ([poker] chip): no keypad takes an amount it cannot make."""
        return int(getattr(getattr(profile, "poker", None), "chip", 1) or 1)


CONSOLE = Console()
