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

- `profiles` (ProfilePart): the profile models, the packaged default profiles, the pools;
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
from random import Random
from typing import TYPE_CHECKING, Protocol, Union, runtime_checkable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.base import RoundAtTable
    from controller.link.config import LinkConfig
    from controller.par.sheet import GameSheet
    from controller.runtime.autoplay import Autoplay, Plan, Seating
    from controller.runtime.ledger import Ledger
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
    # how the emulated dealer fills a manual shoe between rounds (decks, the emulator's rng) -> the
    # cards in order and how many lie in front of the cover card; None: the game's shoe is never refilled
    fill: Callable[[int, Random], tuple[list[int], int]] | None = None
    # what a chip on or off a seat's acceptor means in the round (seat, present, the round, `quiet`:
    # the whole state read on connecting), for a game with the progressive controller's acceptors
    acceptors: Callable[[int, bool, RoundAtTable, bool], list[dict[str, Json]]] | None = None

    def driver_kind(self, device: str) -> str:
        """The driver kind (drivers/registry.py KINDS) of one of the table's devices: "shoe", "shuffler"
        or "progressive" as a profile's [devices] names it; the shoe's is the game's kind of shoe."""
        if device == "shoe":   # a game dealt by hand has none; a profile naming one is checked as a manual one
            return SHOE_DRIVERS[self.shoe or "manual"]
        return device


# a game's kind of shoe -> the drivers' kind (drivers/registry.py)
SHOE_DRIVERS: Mapping[str, str] = {"dispensing": "shoe", "manual": "manual_shoe"}


@dataclass(frozen=True)
class PoolRules:
    """A room's pool (controller/link) as a game's profile posts it: which table of a profile's rules
    holds it, and its parameters for the pool's database, validated by the game's own model (so a pool
    refuses what a table would). `params` raises pydantic's ValidationError for a refused table."""

    section: str                                              # the key of the game's rules ("progressive")
    params: Callable[[Mapping[str, Json]], tuple[dict[str, Json], int]]   # -> (parameters, initial meter)


# -- the parts ------------------------------------------------------------------------------------

@runtime_checkable
class ProfilePart(Protocol):
    """The game's table profiles: models by the profiles' `game`, the defaults its package carries, and
    what the shared readers of a profile need to know of its rules (controller/config joins the models
    of every game into one union; controller/link reads a pool's rules through `pools`).

    A model is a controller/config `GameProfile` (games/<game>/profile.py): it adds the game's sections
    and checks, and answers the shared checks' questions (`seat_limit`, `seat_issues`, `unused_devices`).
    """

    @property
    def models(self) -> Mapping[str, type[GameProfile]]: ...        # a profile's `game` -> its model
    @property
    def defaults(self) -> Mapping[str, Traversable]: ...            # a packaged profile's name -> its TOML file
    @property
    def unions(self) -> Mapping[str, tuple[str, ...]]: ...          # a tagged union's key in its rules -> its tags
    @property
    def pools(self) -> Mapping[str, PoolRules]: ...                 # a room's pool its tables join (link) -> its rules
    def pool(self, profile: GameProfile) -> LinkConfig | None: ...  # the pool this table joins ([link]); None: none


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


class LedgerCheck(Protocol):
    """A closed round's record checked again and added into the ledger (controller/runtime/ledger.py):
    the entry's seq, the round, its record, the round's meter entries, and where a problem is said."""

    def __call__(self, led: Ledger, seq: int, rid: str, record: Record, movements: Sequence[Record],
                 problem: Callable[[str], None], /) -> None: ...


class Retelling(Protocol):
    """What `tablectl rounds show` (controller/runtime/retell.py) asks the game of a round it replays."""

    def rules(self, opening: Record, /) -> str: ...   # the rules line, from the round's opening
    # where the next card out of the shoe goes, asked of the round before it takes the card
    def destination(self, round_: RoundAtTable, event: Record, /) -> str | None: ...
    # the game's own event in words; None: an event every game shares (the retelling's words)
    def describe(self, round_: RoundAtTable, event: Record, where: str | None, effects: Sequence[Record],
                 /) -> str | None: ...
    # the settled round's lines of the game (hands, cards, its progressive), before the players' net;
    # `settled`: what a linked progressive's pool made of each seat's settlement
    def settlement(self, record: Record, settled: Mapping[int, str], /) -> list[str]: ...


class ReportTally(Protocol):
    """A game's section of one table's report, added up as the report reads the table's facts."""

    # a fact (controller/report/facts.py) in journal order, none at or after the period's end; `in_period`:
    # at or after its start. Returns what the house took of it beyond its wagers (a poker hand's rake)
    def take(self, fact: Record, in_period: bool, /) -> int: ...
    def block(self, rounds: int, /) -> dict[str, Json] | None: ...   # the section; None: nothing of it


class ReportSection(Protocol):
    """A game's section of the report (controller/report: figures.py adds it up, formats.py writes it)."""

    @property
    def name(self) -> str: ...                    # its key in a table's figures ("progressive")
    def tally(self, start: str, series: bool, /) -> ReportTally: ...   # series: with readings for a chart
    def total(self, blocks: Sequence[Record | None], /) -> dict[str, Json]: ...   # the floor's sum of tables'
    def text(self, block: Record, /) -> list[str]: ...   # the terminal's lines of a table's section
    # the supervisor's screen of a table's section (controller/ui/static/figures.js): {"line": its line of
    # text, "" for none; "readings": [[time, cents], ...] for the meter's chart, [] for none}
    def screen(self, block: Record | None, /) -> dict[str, Json]: ...


@runtime_checkable
class BooksPart(Protocol):
    """The game's records read again: settled, audited, retold, reported, its par."""

    @property
    def wagers(self) -> Sequence[str]: ...       # the wagers a record's settlement names, in the dealer's order
    @property
    def settle(self) -> Callable[[Record], Record] | None: ...   # `tablectl settle`; None: not by record
    @property
    def ledger(self) -> LedgerCheck: ...          # a closed round's record checked again
    @property
    def retell(self) -> Retelling | None: ...     # `rounds show` of a round the table played; None: not retold
    @property
    def par(self) -> GameSheet: ...
    # whether a journaled round record is the game's (a record may not name its game: the journal's
    # record_round and record_hand write none; controller/games/registry.py of_record)
    def owns(self, record: Record) -> bool: ...
    def status(self, record: Record) -> str: ...               # `rounds list`'s word of a recorded round
    def record_text(self, record: Record) -> str | None: ...   # `rounds show`'s text of the record; None: JSON
    def round_fact(self, record: Record) -> dict[str, Json]: ...   # the report's money of a closed round
    @property
    def report(self) -> Sequence[ReportSection]: ...   # the game's sections of a table's report


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
