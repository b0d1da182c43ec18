"""Which linked table a profile's [link] makes, by game.

Apart from linked.py because the poker room's jackpot link (linked_jackpot.py) is built
on linked.py's `LinkedTable`: the choice between them lives above both, so neither
imports the other in a circle.
"""

from __future__ import annotations

from typing import Any

from controller.config import POKER_GAMES
from controller.link.errors import LinkError
from controller.runtime.linked import LinkedTable, StudLink
from controller.runtime.linked_jackpot import JackpotTableLink


def for_table(table: Any, config: Any) -> LinkedTable:
    """The link controller/table.py starts for a profile's [link]."""
    if table.profile.game == "caribbean-stud":
        return StudLink(table, config)
    if table.profile.game in POKER_GAMES:   # the room's pooled jackpot, 5324.42(r)
        return JackpotTableLink(table, config)
    raise LinkError(f"a [link] for {table.profile.game} is not supported")
