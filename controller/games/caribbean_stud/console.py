"""Caribbean stud poker (9 NYCRR 5324.37) on the screens (controller/games/game.py ConsolePart)."""

from __future__ import annotations

from collections.abc import Mapping
from math import gcd
from pathlib import Path
from typing import Any

STATIC = Path(__file__).with_name("static")   # dealer.js, supervisor.js...: served under /games/caribbean_stud/


class Console:
    @property
    def static(self) -> Path | None:
        return STATIC

    @property
    def labels(self) -> Mapping[str, str]:
        return {"caribbean-stud": "Caribbean stud poker"}

    def unit(self, profile: Any) -> int:
        """The smallest amount the table's chips make (the profile's `[table] chips`; whole dollars
        without them): the keypad refuses a wager no chip can make (issue 30)."""
        chips = getattr(profile.table, "chips", None)
        return gcd(*chips) if chips else 100


CONSOLE = Console()
