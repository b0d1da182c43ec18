"""The poker games of 9 NYCRR 5324.42: its table profiles (controller/games/game.py ProfilePart)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from controller.games.game import PoolRules
from controller.games.poker.names import BLIND_GAMES, POKER_GAMES, STUD_GAMES
from controller.games.poker.profile import RAKE_METHODS, BlindPokerProfile, StudPokerProfile, jackpot_pool

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

    @property
    def unions(self) -> Mapping[str, tuple[str, ...]]:
        return {"method": RAKE_METHODS}   # [poker.rake]'s system, 5324.42(o)(2)

    @property
    def pools(self) -> Mapping[str, PoolRules]:
        # the room's pooled jackpot (issue 10, 5324.42(r)(5)): the pool's rules are the profile's [poker.jackpot]
        return {"jackpot": PoolRules(section="jackpot", params=jackpot_pool)}


PROFILES = Profiles()
