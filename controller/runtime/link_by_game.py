"""Which linked table a profile's [link] makes, by game.

Apart from linked.py because the poker room's jackpot link (linked_jackpot.py) is built
on linked.py's `LinkedTable`: the choice between them lives above both, so neither
imports the other in a circle.
"""

from __future__ import annotations

from typing import Any

from controller.games import registry
from controller.link.errors import LinkError
from controller.runtime.linked import LinkedTable, LinkHost


def for_table(table: LinkHost, config: Any) -> LinkedTable:
    """The link controller/table.py starts for a profile's [link]: its game's `link` in
    controller/games/registry.py (a Caribbean stud table's share of a linked progressive,
    linked.py StudLink; a poker table's of the room's pooled jackpot, 5324.42(r),
    linked_jackpot.py JackpotTableLink)."""
    entry = registry.find(table.profile.game)
    link = entry.table.link if entry is not None else None
    if link is None:
        raise LinkError(f"a [link] for {table.profile.game} is not supported")
    return link(table, config)
