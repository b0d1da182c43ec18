"""Casino war (9 NYCRR 5324.22): its records read again (controller/games/game.py BooksPart)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.games.game import LedgerCheck, Record, Retelling
    from controller.par.sheet import GameSheet

# the wagers a seat's settlement names, in the dealer's order: the ledger's and the report's one list
WAGERS: tuple[str, ...] = ("initial", "tie", "war", "war_tie")


class Books:
    @property
    def wagers(self) -> Sequence[str]:
        return WAGERS

    @property
    def settle(self) -> Callable[[Record], Record] | None:
        from controller.games.casino_war.record import settle_record
        return settle_record

    @property
    def ledger(self) -> LedgerCheck:
        from controller.games.casino_war.ledger import check_war_round   # a part's module, loaded when first asked
        return check_war_round

    @property
    def retell(self) -> Retelling | None:
        from controller.games.casino_war.retell import RETELLING   # a part's module, loaded when first asked
        return RETELLING

    @property
    def par(self) -> GameSheet:
        from controller.par.sheet import WAR_SHEET
        return WAR_SHEET


BOOKS = Books()
