"""Each game declares what each source may tell its table; the boundary asks the table, never a game.

Breaks this guards: controller/boundary.py held every game's events in one list (a
poker event passed the door of a Caribbean stud table and only its round refused it)
and tested the profile's shape (`getattr(profile, "manual_shoe")`, the game's name)
to let a casino war dealer say what a shoe without a reader cannot.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from controller import boundary
from controller.config import load_profile
from controller.games.casino_war.profile import ManualShoe
from controller.games import registry
from tests.table.table_helpers import stud_profile, war_profile

BOUNDARY = Path(boundary.__file__)
HOLDEM = Path(__file__).resolve().parents[1] / "crash" / "holdem.toml"


def holdem_profile():
    return load_profile(HOLDEM)


def events_of(profile) -> boundary.Events:
    return lambda source: registry.game(profile.game).table.events(source, profile)


def test_the_boundary_imports_no_game():
    tree = ast.parse(BOUNDARY.read_text())
    imported = [f"{n.module}.{a.name}" if n.module == "controller.games" else n.module
                for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module for a in n.names] + \
        [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    # the registry is how shared code asks the games (journaled has each declare its events), and the
    # event's model is the games' shared code (controller/games/event.py); no game's module
    assert not [m for m in imported if m.startswith("controller.games")
                and m not in ("controller.games.registry", "controller.games.event")], imported
    names = {n for g in registry.games() for n in (g.key, *g.names)}
    text = BOUNDARY.read_text()
    assert not [n for n in names if f'"{n}"' in text], "the boundary names a game"


@pytest.mark.parametrize("game", ["caribbean_stud", "casino_war", "poker"])
def test_each_games_catalogue_is_declared_by_type_for_every_source(game):
    g = registry.by_key(game)
    profile = {"caribbean_stud": stud_profile, "casino_war": war_profile, "poker": holdem_profile}[game]
    for source in boundary.SOURCES:
        for kind, model in g.table.events(source, profile()).items():
            assert typing.get_args(model.model_fields["type"].annotation) == (kind,)
            assert model.model_config.get("extra") == "forbid" and model.model_config.get("strict") is True
    assert "next_round" in g.table.events(boundary.TABLE, profile())   # what every table takes
    assert "clear_fault" in g.table.events(boundary.SUPERVISOR, profile())


def test_another_games_event_is_refused_at_the_door():
    stud, war = events_of(stud_profile()), events_of(war_profile())
    assert boundary.refusal({"type": "sit", "seat": 1, "stack": 10_000}, boundary.PANEL, "dealer", stud) == \
        "'sit' is not an event the dealer's panel or screen may submit"
    assert boundary.refusal({"type": "ante", "seat": 1, "amount": 500}, boundary.PANEL, "dealer", war) is not None
    assert boundary.refusal({"type": "ante", "seat": 1, "amount": 500}, boundary.PANEL, "dealer", stud) is None
    assert boundary.refusal({"type": "verify_time_charges", "hand": "h"}, boundary.SUPERVISOR, "S-1", stud) \
        is not None


def test_a_progressive_wager_comes_off_from_its_acceptor_not_a_screen():
    stud = events_of(stud_profile())
    event = {"type": "remove", "seat": 1, "wager": "progressive"}
    assert boundary.refusal(event, boundary.DEVICE, "progressive", stud) is None
    assert boundary.refusal(event, boundary.PANEL, "dealer", stud) == \
        "this 'remove' comes from a device, not from the dealer's panel or screen"


def test_a_war_dealer_reports_the_cover_card_only_where_the_shoe_cannot():
    with_reader = war_profile()
    without = with_reader.model_copy(update={"manual_shoe": ManualShoe(reader=False)})
    for kind in ({"type": "cover_reached"}, {"type": "shoe_loaded"}):
        assert boundary.refusal(kind, boundary.PANEL, "dealer", events_of(without)) is None
        assert "comes from a device" in boundary.refusal(kind, boundary.PANEL, "dealer", events_of(with_reader))
    assert boundary.supervisor_only(events_of(without)) == frozenset({"void_round", "clear_fault", "accept_software",
                                                                      "acknowledge_clock", "log_entry", "pit_inventory",
                                                                      "pit_fill", "pit_credit", "pit_drop",
                                                                      "hand_pay"})   # a hand-pay's form (issue 29)
