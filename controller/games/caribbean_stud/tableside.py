"""Caribbean stud poker (9 NYCRR 5324.37) at the live table (controller/games/game.py TablePart)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from controller.games.caribbean_stud.events import EVENTS

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.base import RoundAtTable
    from controller.runtime.linked import LinkedTable
    from controller.runtime.tablestate import TableState


class Tableside:
    @property
    def state(self) -> type[TableState]:
        from controller.games.caribbean_stud.table_state import StudTableState as state
        return state

    @property
    def round(self) -> type[RoundAtTable]:
        from controller.games.caribbean_stud.at_table import StudRound as round_
        return round_

    def events(self, source: str, profile: GameProfile) -> Mapping[str, type[BaseModel]]:
        return EVENTS.get(source, {})

    @property
    def link(self) -> Callable[..., LinkedTable] | None:
        from controller.games.caribbean_stud.link import StudLink as link
        return link


TABLESIDE = Tableside()
