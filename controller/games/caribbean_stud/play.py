"""Caribbean stud poker (9 NYCRR 5324.37) autoplayed: the emulated dealer and players (controller/games/game.py PlayPart)."""

from __future__ import annotations

from collections.abc import Callable


class Play:
    name = "stud"   # Autoplay's way of playing it (controller/runtime/autoplay.py)

    @property
    def plan(self) -> Callable[..., None] | None:
        from controller.runtime.autoplay import stud_plan
        return stud_plan


PLAY = Play()
