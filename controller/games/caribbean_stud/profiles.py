"""Caribbean stud poker (9 NYCRR 5324.37): its table profiles (controller/games/game.py ProfilePart)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from controller.games.caribbean_stud.profile import CaribbeanStudProfile, progressive_pool
from controller.games.game import PoolRules

if TYPE_CHECKING:
    from controller.config.profiles import GameProfile

# the default profiles this package carries (the checkout's config/ links to them)
DEFAULTS = resources.files(__package__).joinpath("defaults")


class Profiles:
    @property
    def models(self) -> Mapping[str, type[GameProfile]]:
        return {"caribbean-stud": CaribbeanStudProfile}

    @property
    def defaults(self) -> Mapping[str, Traversable]:
        return {name: DEFAULTS.joinpath(f"{name}.toml") for name in ("caribbean-stud",)}

    @property
    def unions(self) -> Mapping[str, tuple[str, ...]]:
        return {}

    @property
    def pools(self) -> Mapping[str, PoolRules]:
        # a linked progressive (issue 10): the pool's rules are the profile's [caribbean_stud.progressive]
        return {"progressive": PoolRules(section="progressive", params=progressive_pool)}


PROFILES = Profiles()
