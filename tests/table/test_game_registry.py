"""The game registry (controller/games/registry.py): every profile's game has one entry, each part it
names loads, and the table's per-game choices come from it; device messages are known by their type."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.config import POKER_GAMES, load_profile
from controller.games import registry
from controller.games.base import RoundAtTable
from controller.runtime.devices import device_of
from controller.runtime.tablestate import TableState

ROOT = Path(__file__).resolve().parents[2]
PROFILES = sorted((ROOT / "config").glob("*.toml"))
PARTS = ("profile", "table", "round", "record", "ledger", "retell", "plan", "link", "par")


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_profile_plays_its_entry(path):
    profile = load_profile(path)
    entry = registry.game(profile.game)
    assert isinstance(profile, entry.load("profile"))
    state = TableState(profile)
    assert type(state) is entry.load("table")
    state.table_event({"type": "shoe_loaded"}, None)   # casino war: the shoe loaded
    if state.seats is not None:   # poker: two players sit down
        for seat in (1, 2):
            state.table_event({"type": "sit", "seat": seat, "stack": state.buy_in_limits()[0]}, None)
    assert state.can_open() is None
    state.open_round()
    assert isinstance(state.round, entry.load("round"))
    assert isinstance(state.round, RoundAtTable)


def test_each_entry_names_parts_that_exist_and_each_game_one_entry():
    seen: dict[str, str] = {}
    for entry in registry.GAMES:
        for part in PARTS:
            if getattr(entry, part) is not None:
                assert entry.load(part) is not None, (entry.key, part)
        assert hasattr(__import__("controller.runtime.autoplay", fromlist=["Autoplay"]).Autoplay, entry.autoplay)
        for name in entry.names:
            assert name not in seen, f"{name} in {seen.get(name)} and {entry.key}"
            seen[name] = entry.key
    assert all(registry.game(g) is registry.POKER for g in POKER_GAMES)
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
