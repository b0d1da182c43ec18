"""The games the table plays: one entry each, naming the modules that make the game.

Everything the table does differently for a game goes through its entry: which
profile model reads its table profile, what the table carries between its rounds
and how a round opens (its table state), the round at the table (the adapter the
consumer applies events to), the devices it needs, how its round record is
settled (`tablectl settle`, the ledger) and retold (`tablectl rounds show`),
how the autoplayed table plays it, what a [link] section means for it, and its
par sheet.
Adding a game is one entry here and its own modules; nothing else branches on a
game's name.

The entries are names (module paths), imported only when asked for: this module
imports nothing of the table, the drivers or the journal.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def load(ref: str) -> Any:
    """The object a "package.module:attribute" reference names (the module alone without ":")."""
    module, _, attribute = ref.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


@dataclass(frozen=True)
class GameDevices:
    """The devices a game's table uses (controller/runtime/devices.py), each real or emulated."""

    shoe: str | None = None        # "dispensing" (drivers/shoe), "manual" (drivers/manual_shoe), None: by hand
    shuffler: bool = False         # counts (and for a dispensing shoe, loads) each deck
    progressive: bool = False      # the progressive controller: acceptors, lights, lock-out, meter
    decks: Callable[[Any], int] = lambda profile: 1   # decks in the emulated shoe, from the profile


@dataclass(frozen=True)
class Game:
    """One game's entry: what each part of the table asks of the game, by name."""

    key: str                        # the profile's section ([caribbean_stud], [casino_war], [poker])
    names: tuple[str, ...]          # the `game` of its profiles (a poker entry: every variant's)
    profile: str                    # the profile model (controller/config/profiles.py)
    table: str                      # its table state: the opening and what is carried between rounds
    round: str                      # the round at the table (a controller/games/base.py RoundAtTable)
    devices: GameDevices
    record: str | None = None       # module with settle_record(record): `tablectl settle`, shared/spec/rounds.md
    ledger: str | None = None       # its closed rounds checked again (controller/runtime/ledger.py)
    retell: str | None = None       # the rules line of a retold round (controller/runtime/retell.py)
    autoplay: str = ""              # the emulated dealer and players' way (controller/runtime/autoplay.py)
    plan: str | None = None         # the emulated players' wagers for a round (autoplay.py)
    link: str | None = None         # what a profile's [link] builds (controller/runtime/linked.py)
    par: str | None = None          # its par sheet (controller/par/sheet.py GameSheet)

    def load(self, part: str) -> Any:
        ref = getattr(self, part)
        if ref is None:
            raise LookupError(f"{self.key} has no {part}")
        return load(ref)


def _war_decks(profile: Any) -> int:
    return profile.casino_war.decks


def _poker_names() -> tuple[str, ...]:
    from controller.config.profiles import POKER_GAMES   # the variants 5324.42 deals, as the profiles name them
    return tuple(POKER_GAMES)


CARIBBEAN_STUD = Game(
    key="caribbean_stud", names=("caribbean-stud",),
    profile="controller.config.profiles:CaribbeanStudProfile",
    table="controller.games.caribbean_stud.table_state:StudTableState",
    round="controller.games.caribbean_stud.at_table:StudRound",
    devices=GameDevices(shoe="dispensing", shuffler=True, progressive=True),
    record="controller.games.caribbean_stud.record",
    ledger="controller.runtime.ledger:check_stud_round",
    retell="controller.runtime.retell:stud_rules_line",
    autoplay="stud", plan="controller.runtime.autoplay:stud_plan",
    link="controller.games.caribbean_stud.link:StudLink",
    par="controller.par.sheet:STUD_SHEET",
)

CASINO_WAR = Game(
    key="casino_war", names=("casino-war",),
    profile="controller.config.profiles:CasinoWarProfile",
    table="controller.games.casino_war.table_state:WarTableState",
    round="controller.games.casino_war.at_table:WarRound",
    devices=GameDevices(shoe="manual", decks=_war_decks),
    record="controller.games.casino_war.record",
    ledger="controller.runtime.ledger:check_war_round",
    retell="controller.runtime.retell:war_rules_line",
    autoplay="war", plan="controller.runtime.autoplay:war_plan",
    par="controller.par.sheet:WAR_SHEET",
)

POKER = Game(
    key="poker", names=(),   # every variant of controller/config/profiles.py POKER_GAMES (_poker_names)
    profile="controller.config.profiles:_PokerProfile",   # BlindPokerProfile, StudPokerProfile by structure
    table="controller.games.poker.table_state:PokerTableState",
    round="controller.games.poker.at_table:PokerRound",
    # dealt from the dealer's hand (5324.42(f)(6)(i)); each deck counted by the shuffler
    devices=GameDevices(shuffler=True),
    ledger="controller.runtime.ledger:check_poker_hand",
    autoplay="poker",
    link="controller.games.poker.link:JackpotTableLink",   # the room's pooled jackpot, 5324.42(r)
    par="controller.par.sheet:POKER_SHEET",
)

GAMES: tuple[Game, ...] = (CARIBBEAN_STUD, CASINO_WAR, POKER)


def game(name: str) -> Game:
    """The entry of a profile's (or a record's) `game`; LookupError for a game the table does not play."""
    for g in GAMES:
        if name in g.names:
            return g
    if name in _poker_names():
        return POKER
    raise LookupError(f"not a game this table plays: {name!r}")


def find(name: Any) -> Game | None:
    """The entry of `name`, or None (a record's field, not yet checked)."""
    try:
        return game(name) if isinstance(name, str) else None
    except LookupError:
        return None


def with_part(part: str) -> dict[str, Game]:
    """Every game name whose entry has `part` (a record, a retelling), to its entry."""
    return {n: g for g in GAMES if getattr(g, part) is not None for n in g.names}
