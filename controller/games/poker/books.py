"""The poker games of 9 NYCRR 5324.42: its records read again (controller/games/game.py BooksPart)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.games.game import LedgerCheck, Record, Retelling
    from controller.par.sheet import GameSheet

# the wagers a seat's settlement names, in the dealer's order: the ledger's and the report's one list
WAGERS: tuple[str, ...] = ()


class Books:
    @property
    def wagers(self) -> Sequence[str]:
        return WAGERS

    @property
    def settle(self) -> Callable[[Record], Record] | None:
        return None

    @property
    def ledger(self) -> LedgerCheck:
        from controller.games.poker.ledger import check_poker_hand   # a part's module, loaded when first asked
        return check_poker_hand

    @property
    def retell(self) -> Retelling | None:
        return None

    @property
    def par(self) -> GameSheet:
        from controller.par.sheet import POKER_SHEET
        return POKER_SHEET


BOOKS = Books()
