"""What a game is to the table: the one interface the shared code asks, never a branch on a game.

A game is a package (controller/games/<game>/, or another distribution's) whose
`GAME` object is registered under the entry-point group `tablectl.games`
(controller/games/registry.py), as drivers are under `tablectl.drivers`. The
shared code (the table, the boundary, the view, the devices, the journal's
readers, the reports, the par sheets, the link, the screens) holds a `Game` and
asks it; it never tests a game's name, class or the shape of its data.

A `Game` is a few facts (its key, the profiles' names, its label, its devices)
and five parts, each a small interface of its own, each in a module of the
game's package and imported only when first asked for, so `tablectl settle`
never loads the table and the table never loads the par sheet's counter:

- `profiles` (ProfilePart): the profile models and the packaged default profiles;
- `table` (TablePart): the table state, the round at the table, the events each
  source may submit, the link a profile's [link] makes;
- `books` (BooksPart): the wagers, the record settled again (`tablectl settle`,
  the ledger), the retelling (`tablectl rounds show`), the report's facts, the par sheet;
- `play` (PlayPart): the emulated dealer and players (`--autoplay`);
- `console` (ConsolePart): the game's part of the dealer's console and the
  supervisor's screen (a script the page loads by the game's key);

and the `tablectl` commands of its own (`commands`, GameCommand), which controller/cli.py adds
to its own.

Members are typed without Any: a record, an opening or a view crossing here is
`Record` (a mapping of JSON values); what a game keeps inside is its own.
"""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Union, runtime_checkable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.base import RoundAtTable
    from controller.par.sheet import GameSheet
    from controller.runtime.autoplay import Autoplay, Plan, Seating
    from controller.runtime.linked import LinkedTable
    from controller.runtime.tablestate import TableState
    from controller.runtime.world import World
    from controller.table import Table

Json = Union[None, bool, int, str, list["Json"], dict[str, "Json"]]
Record = Mapping[str, Json]   # a round's record, an opening, a journal entry's payload, a published view


@dataclass(frozen=True)
class GameCommand:
    """A `tablectl` command a game brings (poker's `tablectl poker replay`): its words, the function
    that runs it (imported only when it runs, as controller/cli.py does its own) and its arguments."""

    path: tuple[str, ...]                                # ("poker", "replay")
    module: str                                          # the module holding the function
    function: str                                        # main(args) -> exit status
    help: str
    arguments: Callable[[ArgumentParser], None] = lambda parser: None


@dataclass(frozen=True)
class GameDevices:
    """The devices a game's table uses (controller/runtime/devices.py), each real or emulated."""

    shoe: str | None = None        # "dispensing" (drivers/shoe), "manual" (drivers/manual_shoe), None: by hand
    shuffler: bool = False         # counts (and for a dispensing shoe, loads) each deck
    progressive: bool = False      # the progressive controller: acceptors, lights, lock-out, meter
    decks: Callable[[GameProfile], int] = lambda profile: 1   # decks in the emulated shoe, from the profile
    # whether the profile's shoe reports each card (a manual shoe without its reader does not: the
    # dealer touches each card in on the console)
    reader: Callable[[GameProfile], bool] = lambda profile: True
    # what a chip on or off a seat's acceptor means in the round (seat, present, the round, `quiet`:
    # the whole state read on connecting), for a game with the progressive controller's acceptors
    acceptors: Callable[[int, bool, RoundAtTable, bool], list[dict]] | None = None

    def driver_kind(self, device: str) -> str:
        """The driver kind (drivers/registry.py KINDS) of one of the table's devices: "shoe", "shuffler"
        or "progressive" as a profile's [devices] names it; the shoe's is the game's kind of shoe."""
        if device == "shoe":   # a game dealt by hand has none; a profile naming one is checked as a manual one
            return SHOE_DRIVERS[self.shoe or "manual"]
        return device


# a game's kind of shoe -> the drivers' kind (drivers/registry.py)
SHOE_DRIVERS: Mapping[str, str] = {"dispensing": "shoe", "manual": "manual_shoe"}


# -- the parts ------------------------------------------------------------------------------------

@runtime_checkable
class ProfilePart(Protocol):
    """The game's table profiles (controller/config): models by the profiles' `game`, and the defaults."""

    @property
    def models(self) -> Mapping[str, type[GameProfile]]: ...        # a profile's `game` -> its model
    @property
    def defaults(self) -> Mapping[str, Traversable]: ...            # a packaged profile's name -> its TOML file


@runtime_checkable
class TablePart(Protocol):
    """The game at the live table (controller/table.py and controller/runtime)."""

    @property
    def state(self) -> type[TableState]: ...     # what the table carries between rounds, and how a round opens
    @property
    def round(self) -> type[RoundAtTable]: ...   # the round at the table: the consumer applies events to it
    def events(self, source: str, profile: GameProfile) -> Mapping[str, type[BaseModel]]: ...
    @property
    def link(self) -> Callable[..., LinkedTable] | None: ...   # what a profile's [link] makes; None: no link


@runtime_checkable
class BooksPart(Protocol):
    """The game's records read again: settled, audited, retold, reported, its par."""

    @property
    def wagers(self) -> Sequence[str]: ...       # the wagers a record's settlement names, in the dealer's order
    @property
    def settle(self) -> Callable[[Record], Record] | None: ...   # `tablectl settle`; None: not by record
    @property
    def ledger(self) -> Callable[..., None]: ...   # a closed round's record checked again (controller/runtime/ledger.py)
    @property
    def retell(self) -> Callable[[dict[str, Json]], str] | None: ...   # the rules line of `rounds show`
    @property
    def par(self) -> GameSheet: ...


class Players(Protocol):
    """The emulated players, dealer and supervisor at one autoplayed table: what they do next, from
    the published state, through the driver's doors (controller/runtime/autoplay.py Autoplay)."""

    async def between(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool: ...
    # before the first round, and after each (closed or void) before the driver opens the next;
    # True: they did something
    async def step(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool: ...
    # a round under way; True: they did something


@runtime_checkable
class PlayPart(Protocol):
    """The emulated dealer and players of an autoplayed table (controller/runtime/autoplay.py)."""

    def plan(self, seating: Seating) -> Plan: ...            # the emulated players' wagers of a round
    def players(self, driver: Autoplay) -> Players: ...      # the dealer and players at one table
    def hand(self, table: Table, world: World) -> Coroutine[object, object, None] | None: ...
    # a table played from the screens on emulated devices: what the dealer's hands do there that no
    # screen can (a card drawn from the emulated shoe); None: nothing


@runtime_checkable
class ConsolePart(Protocol):
    """The game's part of the screens (controller/ui): scripts the pages load by the game's key."""

    @property
    def static(self) -> Path | None: ...          # the game's folder of scripts and styles, served under its key
    # in it, by the screen (body's data-screen): dealer.js, dealer.css, supervisor.js, supervisor.css
    @property
    def labels(self) -> Mapping[str, str]: ...    # the screens' name of a profile's `game`, where not its own


# -- the game ------------------------------------------------------------------------------------

@runtime_checkable
class Game(Protocol):
    """One game the table plays; one object per game, found by controller/games/registry.py."""

    @property
    def key(self) -> str: ...                     # its package and its profiles' section ("caribbean_stud")
    @property
    def names(self) -> tuple[str, ...]: ...       # the profiles' `game` it plays (a poker game: every variant's)
    @property
    def label(self) -> str: ...                   # the casino's name of it, for people
    @property
    def devices(self) -> GameDevices: ...
    @property
    def profiles(self) -> ProfilePart: ...
    @property
    def table(self) -> TablePart: ...
    @property
    def books(self) -> BooksPart: ...
    @property
    def play(self) -> PlayPart: ...
    @property
    def console(self) -> ConsolePart: ...
    @property
    def commands(self) -> Sequence[GameCommand]: ...   # its own `tablectl` commands, if any


# Game's members, as the registry checks a registered object for them without calling any (a part is
# imported only when first used; a runtime_checkable isinstance would call each property).
GAME_MEMBERS = ("key", "names", "label", "devices", "profiles", "table", "books", "play", "console", "commands")
