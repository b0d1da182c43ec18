"""High card at the live table (controller/games/game.py TablePart)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.base import RoundAtTable
    from controller.runtime.linked import LinkedTable
    from controller.runtime.tablestate import TableState


class Tableside:
    @property
    def state(self) -> type[TableState]:
        from high_card.table_state import HighCardTableState
        return HighCardTableState

    @property
    def round(self) -> type[RoundAtTable]:
        from high_card.at_table import HighCardAtTable
        return HighCardAtTable

    def events(self, source: str, profile: GameProfile) -> Mapping[str, type[BaseModel]]:
        from high_card import events
        return events.of(source)

    @property
    def link(self) -> Callable[..., LinkedTable] | None:
        return None   # no progressive, no pool


TABLESIDE = Tableside()
