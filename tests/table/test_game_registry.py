"""The game registry (controller/games/registry.py): every profile's game is one registered `Game`, each
part of it loads, and the table's per-game choices come from it; device messages are known by their type."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.config import load_profile
from controller.games.poker.names import POKER_GAMES
from controller.games import registry
from controller.games.base import RoundAtTable
from controller.runtime.devices import device_of
from controller.runtime.tablestate import TableState
from tests.rounds import table_event

ROOT = Path(__file__).resolve().parents[2]
PROFILES = sorted((ROOT / "config").glob("*.toml"))


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_profile_plays_its_entry(path):
    profile = load_profile(path)
    entry = registry.game(profile.game)
    assert type(profile) is entry.profiles.models[profile.game]
    state = TableState(profile)
    assert type(state) is entry.table.state
    table_event(state, {"type": "shoe_loaded", "cards": 52}, None)   # casino war: the shoe loaded
    if state.seats is not None:   # poker: two players sit down
        for seat in (1, 2):
            table_event(state, {"type": "sit", "seat": seat, "stack": state.buy_in_limits()[0]}, None)
    assert state.can_open() is None
    state.open_round()
    assert isinstance(state.round, entry.table.round)
    assert isinstance(state.round, RoundAtTable)


def test_each_game_is_registered_by_its_entry_point_and_each_name_has_one_game():
    from importlib import metadata

    from controller.games.game import BooksPart, ConsolePart, Game, PlayPart, ProfilePart, TablePart
    points = {ep.name: ep.value for ep in metadata.entry_points(group=registry.GROUP)}
    assert {g.key for g in registry.games()} <= set(points)
    seen: dict[str, str] = {}
    for g in registry.games():
        assert isinstance(g, Game)
        for part, kind in (("profiles", ProfilePart), ("table", TablePart), ("books", BooksPart),
                           ("play", PlayPart), ("console", ConsolePart)):
            assert isinstance(getattr(g, part), kind), (g.key, part)
        for name in g.names:
            assert name not in seen, f"{name} in {seen.get(name)} and {g.key}"
            seen[name] = g.key
    assert {registry.game(g).key for g in POKER_GAMES} == {"poker"}
    with pytest.raises(LookupError):
        registry.game("baccarat")
    assert registry.find(None) is None and registry.find("baccarat") is None


def test_no_table_module_branches_on_a_games_name():
    """A new game is an entry and its own modules: the table's parts ask the registry, never the name."""
    branch = re.compile(r"""game["'\]]*\s*(==|!=|in|not in)\s*[("']""")
    parts = [ROOT / "controller" / "table.py", ROOT / "controller" / "settle.py",
             *sorted((ROOT / "controller" / "runtime").glob("*.py")),
             *sorted((ROOT / "controller" / "par").glob("*.py"))]
    found = [f"{p.relative_to(ROOT)}:{n}" for p in parts
             for n, line in enumerate(p.read_text().splitlines(), 1) if branch.search(line)]
    assert found == []


def test_device_messages_are_known_by_their_type():
    from drivers.manual_shoe import protocol as ms
    from drivers.progressive import protocol as pp
    from drivers.shoe import protocol as sp
    from drivers.shuffler import protocol as fp
    def bare(cls):   # an instance of the class, its fields aside
        return object.__new__(cls)
    assert device_of(bare(sp.CoverCardReached)) == "shoe"
    assert device_of(bare(ms.CoverCardReached)) == "manual_shoe"
    assert device_of(bare(ms.DrawOutOfStep)) == "manual_shoe"
    assert device_of(bare(fp.DeckCount)) == "shuffler"
    assert device_of(bare(pp.PanelButtonPressed)) == "progressive"

    class Impostor:   # a class named like a driver's event is not one
        pass
    Impostor.__name__ = Impostor.__qualname__ = "CardDispensed"
    Impostor.__module__ = "drivers.shoe.protocol"
    assert device_of(Impostor()) == "device"
