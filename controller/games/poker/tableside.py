"""The poker games of 9 NYCRR 5324.42 at the live table (controller/games/game.py TablePart)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from controller.games.poker.events import EVENTS

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.base import RoundAtTable
    from controller.runtime.linked import LinkedTable
    from controller.runtime.tablestate import TableState


class Tableside:
    @property
    def state(self) -> type[TableState]:
        from controller.games.poker.table_state import PokerTableState as state
        return state

    @property
    def round(self) -> type[RoundAtTable]:
        from controller.games.poker.at_table import PokerRound as round_
        return round_

    def events(self, source: str, profile: GameProfile) -> Mapping[str, type[BaseModel]]:
        return EVENTS.get(source, {})

    @property
    def link(self) -> Callable[..., LinkedTable] | None:
        from controller.games.poker.link import JackpotTableLink as link
        return link


TABLESIDE = Tableside()
