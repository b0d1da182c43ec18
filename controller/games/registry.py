"""The games the table plays, found by their entry points: the built-in games as a third party's.

Each game is one object (controller/games/game.py `Game`) registered under the
entry-point group `tablectl.games` of its distribution's metadata: this package's
own pyproject.toml registers Caribbean stud, casino war and poker the same way
another distribution registers its game, so a new game is its package and one
entry point, and no file of ours changes (python-can's `can.interface`, our own
`tablectl.drivers`). The objects are loaded once, checked against `Game`, and
their profiles' names must not collide.
"""

from __future__ import annotations

import functools
from importlib import metadata

from controller.games.game import GAME_MEMBERS, Game, Record

GROUP = "tablectl.games"


class RegistryError(LookupError):
    """A registered game that is not a game, or two games claiming one name."""


@functools.cache
def games() -> tuple[Game, ...]:
    """Every registered game, by key; loaded once."""
    found: dict[str, Game] = {}
    owner: dict[str, str] = {}
    for ep in metadata.entry_points(group=GROUP):
        obj = ep.load()
        missing = [m for m in GAME_MEMBERS if not _has(obj, m)]
        if missing:
            raise RegistryError(f"the {GROUP} entry point {ep.name} ({ep.value}) is not a game: "
                                f"it has no {', '.join(missing)}")
        if obj.key in found:
            if found[obj.key] is obj:
                continue   # the same distribution seen twice on the path (an editable install)
            raise RegistryError(f"two games have the key {obj.key!r}: {ep.value} and another")
        for name in obj.names:
            if name in owner:
                raise RegistryError(f"the profiles' game {name!r} is claimed by {owner[name]} and {obj.key}")
            owner[name] = obj.key
        found[obj.key] = obj
    return tuple(found[k] for k in sorted(found))


def _has(obj: object, member: str) -> bool:
    """Whether `obj` has the member, asked without calling it: a part is imported only when used."""
    return hasattr(type(obj), member) or member in getattr(obj, "__dict__", {})


def names() -> tuple[str, ...]:
    """Every profile `game` the table plays."""
    return tuple(n for g in games() for n in g.names)


def game(name: str) -> Game:
    """The game of a profile's (or a record's) `game`; LookupError for a game the table does not play."""
    for g in games():
        if name in g.names:
            return g
    raise LookupError(f"not a game this table plays: {name!r}")


def find(name: object) -> Game | None:
    """The game of `name`, or None (a record's field, not yet checked)."""
    try:
        return game(name) if isinstance(name, str) else None
    except LookupError:
        return None


def of_record(record: Record) -> Game | None:
    """The game of a journaled round record, by its `game` or, for a record that names none (the
    journal's record_round and record_hand write none), the game whose books own it."""
    found = find(record.get("game"))
    return found if found is not None else next((g for g in games() if g.books.owns(record)), None)


def by_key(key: str) -> Game:
    """The game whose package (and profile section) is `key`."""
    for g in games():
        if g.key == key:
            return g
    raise LookupError(f"no game has the key {key!r}")
