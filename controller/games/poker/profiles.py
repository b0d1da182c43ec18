"""The poker games of 9 NYCRR 5324.42: its table profiles (controller/games/game.py ProfilePart)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from controller.config.profiles import BlindPokerProfile, StudPokerProfile
from controller.games.poker.names import BLIND_GAMES, STUD_GAMES
from controller.games.poker.names import POKER_GAMES

if TYPE_CHECKING:
    from controller.config.profiles import GameProfile

# the default profiles this package carries (the checkout's config/ links to them)
DEFAULTS = resources.files(__package__).joinpath("defaults")


class Profiles:
    @property
    def models(self) -> Mapping[str, type[GameProfile]]:
        return {**{g: BlindPokerProfile for g in BLIND_GAMES}, **{g: StudPokerProfile for g in STUD_GAMES}}

    @property
    def defaults(self) -> Mapping[str, Traversable]:
        return {name: DEFAULTS.joinpath(f"{name}.toml") for name in POKER_GAMES}


PROFILES = Profiles()
