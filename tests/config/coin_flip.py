"""A game that is no package of the product, for tests/config/test_game_union.py: a coin flipped
against the house. Only its profile is real; the table never plays it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from controller.config.floors import at_least
from controller.config.profiles import GameProfile, SeatLimit, Strict
from controller.games.game import GameDevices


class CoinFlipRules(Strict):
    odds: Annotated[int, at_least(1, "1:1", "the house's rule 1")] = 1


class CoinFlipProfile(GameProfile):
    game: Literal["coin-flip"]
    coin_flip: CoinFlipRules = CoinFlipRules()

    @classmethod
    def seat_limit(cls, game: str) -> SeatLimit:
        return (3, "the house's rule 2", "betting positions")


class Profiles:
    models: Mapping[str, type[GameProfile]] = {"coin-flip": CoinFlipProfile}
    defaults: Mapping[str, object] = {}
    unions: Mapping[str, tuple[str, ...]] = {}
    pools: Mapping[str, object] = {}


class CoinFlip:
    key = "coin_flip"
    names = ("coin-flip",)
    label = "Coin flip"
    commands = ()
    devices = GameDevices(shoe="manual")
    profiles = Profiles()
    table = books = play = console = None   # never asked: no table plays it here


GAME = CoinFlip()
