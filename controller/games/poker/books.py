"""The poker games of 9 NYCRR 5324.42: its records read again (controller/games/game.py BooksPart)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.games.game import Json, Record
    from controller.par.sheet import GameSheet


class Books:
    @property
    def wagers(self) -> Sequence[str]:
        return ()

    @property
    def settle(self) -> Callable[[Record], Record] | None:
        return None

    @property
    def ledger(self) -> Callable[..., None]:
        from controller.runtime.ledger import check_poker_hand
        return check_poker_hand

    @property
    def retell(self) -> Callable[[dict[str, Json]], str] | None:
        return None

    @property
    def par(self) -> GameSheet:
        from controller.par.sheet import POKER_SHEET
        return POKER_SHEET


BOOKS = Books()
