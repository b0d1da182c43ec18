"""Casino war (9 NYCRR 5324.22) at the live table (controller/games/game.py TablePart)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, cast

from controller.games.casino_war.events import EVENTS, TOUCH_IN

if TYPE_CHECKING:
    from pydantic import BaseModel

    from controller.config.profiles import GameProfile
    from controller.games.casino_war.profile import CasinoWarProfile
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
        # a shoe without a reader: the dealer reports what the shoe cannot
        shoe = cast("CasinoWarProfile", profile).manual_shoe   # a casino war table's profile
        return (EVENTS if shoe.reader else TOUCH_IN).get(source, {})

    @property
    def link(self) -> Callable[..., LinkedTable] | None:
        return None


TABLESIDE = Tableside()
