"""Casino war (9 NYCRR 5324.22) autoplayed: the emulated dealer and players (controller/games/game.py PlayPart)."""

from __future__ import annotations

from collections.abc import Callable


class Play:
    name = "war"   # Autoplay's way of playing it (controller/runtime/autoplay.py)

    @property
    def plan(self) -> Callable[..., None] | None:
        from controller.runtime.autoplay import war_plan
        return war_plan


PLAY = Play()
