"""The poker games of 9 NYCRR 5324.42 autoplayed: the emulated dealer and players (controller/games/game.py PlayPart)."""

from __future__ import annotations

from collections.abc import Callable


class Play:
    name = "poker"   # Autoplay's way of playing it (controller/runtime/autoplay.py)

    @property
    def plan(self) -> Callable[..., None] | None:
        return None


PLAY = Play()
