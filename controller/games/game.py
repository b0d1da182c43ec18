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
  supervisor's screen (a script the page loads by the game's key).

Members are typed without Any: a record, an opening or a view crossing here is
`Record` (a mapping of JSON values); what a game keeps inside is its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Union, runtime_checkable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.base import RoundAtTable
    from controller.par.sheet import GameSheet
    from controller.runtime.linked import LinkedTable
    from controller.runtime.tablestate import TableState

Json = Union[None, bool, int, str, list["Json"], dict[str, "Json"]]
Record = Mapping[str, Json]   # a round's record, an opening, a journal entry's payload, a published view


@dataclass(frozen=True)
class GameDevices:
    """The devices a game's table uses (controller/runtime/devices.py), each real or emulated."""

    shoe: str | None = None        # "dispensing" (drivers/shoe), "manual" (drivers/manual_shoe), None: by hand
    shuffler: bool = False         # counts (and for a dispensing shoe, loads) each deck
    progressive: bool = False      # the progressive controller: acceptors, lights, lock-out, meter
    decks: Callable[[GameProfile], int] = lambda profile: 1   # decks in the emulated shoe, from the profile


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
    # what `source` may submit at a table of `profile`: event type -> its declaration (games/<game>/events.py,
    # with controller/boundary.py's types); the boundary checks every event against it at the door
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


@runtime_checkable
class PlayPart(Protocol):
    """The emulated dealer and players of an autoplayed table (controller/runtime/autoplay.py)."""

    @property
    def name(self) -> str: ...
    @property
    def plan(self) -> Callable[..., None] | None: ...   # the emulated players' wagers of a round


@runtime_checkable
class ConsolePart(Protocol):
    """The game's part of the screens (controller/ui): scripts the pages load by the game's key."""

    @property
    def static(self) -> Path | None: ...          # the game's folder of scripts and styles, served under its key


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


# Game's members, as the registry checks a registered object for them without calling any (a part is
# imported only when first used; a runtime_checkable isinstance would call each property).
GAME_MEMBERS = ("key", "names", "label", "devices", "profiles", "table", "books", "play", "console")
