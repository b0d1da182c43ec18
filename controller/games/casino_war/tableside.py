"""Casino war (9 NYCRR 5324.22) at the live table (controller/games/game.py TablePart)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from controller import boundary

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.base import RoundAtTable
    from controller.runtime.linked import LinkedTable
    from controller.runtime.tablestate import TableState


class Tableside:
    @property
    def state(self) -> type[TableState]:
        from controller.games.casino_war.table_state import WarTableState as state
        return state

    @property
    def round(self) -> type[RoundAtTable]:
        from controller.games.casino_war.at_table import WarRound as round_
        return round_

    def events(self, source: str, profile: GameProfile) -> Mapping[str, type[BaseModel]]:
        return boundary.catalogue(source, profile)

    @property
    def link(self) -> Callable[..., LinkedTable] | None:
        return None


TABLESIDE = Tableside()
