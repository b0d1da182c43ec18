"""Casino war (9 NYCRR 5324.22): its table profiles (controller/games/game.py ProfilePart)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from controller.games.casino_war.profile import CasinoWarProfile
from controller.games.game import PoolRules

if TYPE_CHECKING:
    from controller.config.profiles import GameProfile

# the default profiles this package carries (the checkout's config/ links to them)
DEFAULTS = resources.files(__package__).joinpath("defaults")


class Profiles:
    @property
    def models(self) -> Mapping[str, type[GameProfile]]:
        return {"casino-war": CasinoWarProfile}

    @property
    def defaults(self) -> Mapping[str, Traversable]:
        return {name: DEFAULTS.joinpath(f"{name}.toml") for name in ("casino-war",)}

    @property
    def unions(self) -> Mapping[str, tuple[str, ...]]:
        return {}

    @property
    def pools(self) -> Mapping[str, PoolRules]:
        return {}   # no casino war table joins a room's pool


PROFILES = Profiles()
