"""High card's table profiles (controller/games/game.py ProfilePart): its model and its packaged default."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from high_card.rules import NAME

if TYPE_CHECKING:
    from controller.config.profiles import GameProfile
    from controller.games.game import PoolRules


class Profiles:
    @property
    def models(self) -> Mapping[str, type[GameProfile]]:
        from high_card.profile import HighCardProfile
        return {NAME: HighCardProfile}

    @property
    def defaults(self) -> Mapping[str, Traversable]:
        return {NAME: resources.files("high_card") / "profiles" / f"{NAME}.toml"}

    @property
    def unions(self) -> Mapping[str, tuple[str, ...]]:
        return {}   # its profile has no tagged union of its own

    @property
    def pools(self) -> Mapping[str, PoolRules]:
        return {}   # no high card table joins a room's pool


PROFILES = Profiles()
