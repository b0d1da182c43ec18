"""The profile union is the registry's: a game registered (here in-process, as its entry point would)
brings its profile model, and `load_profile` reads its profiles, refuses them in the file's terms and
tells its `game` among the others; no line of controller/config names it."""

from __future__ import annotations

from importlib import metadata

import pytest

from controller.config import ConfigError, load, parse_profile
from controller.games import registry
from controller.games.game import GameDevices
from tests.config import coin_flip as coin_flip_game
from tests.config.coin_flip import CoinFlipProfile

COIN_FLIP = """game = "coin-flip"

[table]
id = "CF-1"
name = "Coin flip 1"
minimum_wager = 500
maximum_wager = 5000
seats = {seats}

[coin_flip]
odds = {odds}
"""


def _caches() -> None:
    for cached in (registry.games, load.models, load._reader):
        cached.cache_clear()


@pytest.fixture
def coin_flip(monkeypatch):
    """The registry as it is with one more distribution installed whose entry point is the coin flip."""
    real = metadata.entry_points

    def entry_points(**selection):
        found = list(real(**selection))
        if selection.get("group") == registry.GROUP:
            found.append(metadata.EntryPoint("coin_flip", "tests.config.coin_flip:GAME", registry.GROUP))
        return found

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    _caches()
    yield
    monkeypatch.undo()
    _caches()


def test_a_registered_game_brings_its_profile_model(coin_flip, tmp_path):
    assert load.models()["coin-flip"] is CoinFlipProfile
    profile = parse_profile(COIN_FLIP.format(seats=3, odds=2))
    assert type(profile) is CoinFlipProfile
    assert profile.coin_flip.odds == 2 and profile.seats == 3
    # the built-in games are read as before, beside it
    assert type(parse_profile(COIN_FLIP.replace("coin-flip", "casino-war").replace("[coin_flip]\nodds = {odds}\n", "")
                              .format(seats=7))).__name__ == "CasinoWarProfile"


def test_its_checks_refuse_in_the_files_terms(coin_flip):
    with pytest.raises(ConfigError) as info:
        parse_profile(COIN_FLIP.format(seats=4, odds=0), file="cf.toml")
    assert [str(i) for i in info.value.issues] == [
        "cf.toml:8: table.seats = 4 is more than the 3 betting positions of 9 NYCRR the house's rule 2",
        "cf.toml:11: coin_flip.odds = 0 is below the minimum 1:1 of 9 NYCRR the house's rule 1",
    ]
    devices = ('\n[devices]\nprogressive = { vendor = 1, product = 2, driver = "x" }\n'
               'shoe = { port = "/dev/ttyUSB0", driver = "y" }\n')
    with pytest.raises(ConfigError) as info:
        parse_profile(COIN_FLIP.format(seats=3, odds=1).replace("odds =", "od =") + devices, file="cf.toml")
    # the shoe's driver kind is the game's (its GameDevices: a manual shoe)
    assert [str(i) for i in info.value.issues] == [
        "cf.toml:11: coin_flip.od: unknown key (did you mean odds?)",
        'cf.toml:14: devices.progressive.driver = "x" is not an installed progressive driver '
        "(installed: builtin; drivers/registry.py)",
        'cf.toml:15: devices.shoe.driver = "y" is not an installed manual shoe driver '
        "(installed: builtin; drivers/registry.py)",
    ]


def test_the_shoes_driver_kind_is_the_games(coin_flip, monkeypatch):
    shoe = COIN_FLIP.format(seats=3, odds=1) + '\n[devices]\nshoe = { port = "/dev/ttyUSB0", driver = "y" }\n'
    for kind, said in (("manual", "manual shoe"), ("dispensing", "shoe")):
        monkeypatch.setattr(coin_flip_game.CoinFlip, "devices", GameDevices(shoe=kind))
        with pytest.raises(ConfigError) as info:
            parse_profile(shoe, file="cf.toml")
        assert [str(i) for i in info.value.issues] == [
            f'cf.toml:14: devices.shoe.driver = "y" is not an installed {said} driver '
            "(installed: builtin; drivers/registry.py)"]


def test_its_game_is_among_the_games_a_profile_may_name(coin_flip):
    with pytest.raises(ConfigError) as info:
        parse_profile(COIN_FLIP.format(seats=3, odds=1).replace('"coin-flip"', '"coin-toss"'), file="cf.toml")
    (issue,) = info.value.issues
    head, choices = str(issue).split(": must be one of ")
    assert head == 'cf.toml:1: game = "coin-toss"'
    assert choices.split(", ") == list(registry.names())   # in the registry's order: by key, each game's names
    assert choices.startswith("caribbean-stud, casino-war, coin-flip, ")


def test_without_its_entry_point_the_game_is_not_read():
    with pytest.raises(ConfigError) as info:
        parse_profile(COIN_FLIP.format(seats=3, odds=1), file="cf.toml")
    assert "coin-flip" not in load.models()
    assert str(info.value.issues[0]).startswith('cf.toml:1: game = "coin-flip": must be one of caribbean-stud')
