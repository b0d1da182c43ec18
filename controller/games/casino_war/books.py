"""Casino war (9 NYCRR 5324.22): its records read again (controller/games/game.py BooksPart)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from controller.games import banked_books
from controller.games.casino_war.record import GAME, settle_record
from controller.games.casino_war.ledger import WAGERS, check_war_round

if TYPE_CHECKING:
    from controller.games.game import LedgerCheck, Record, ReportSection, Retelling
    from controller.par.sheet import GameSheet


class Books(banked_books.BankedRecords):
    names = (GAME,)

    @property
    def wagers(self) -> Sequence[str]:
        return WAGERS

    @property
    def settle(self) -> Callable[[Record], Record] | None:
        return settle_record

    @property
    def ledger(self) -> LedgerCheck:
        return check_war_round

    @property
    def retell(self) -> Retelling | None:
        from controller.games.casino_war.retell import RETELLING   # a part's module, loaded when first asked
        return RETELLING

    @property
    def par(self) -> GameSheet:
        from controller.games.casino_war.par_sheet import SHEET   # a part's module, loaded when first asked
        return SHEET

    @property
    def report(self) -> Sequence[ReportSection]:
        return ()


BOOKS = Books()
