"""Caribbean stud poker (9 NYCRR 5324.37): its records read again (controller/games/game.py BooksPart)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from controller.games import banked_books
from controller.games.caribbean_stud.record import GAME, settle_record
from controller.games.caribbean_stud.ledger import WAGERS, check_stud_round

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
        return check_stud_round

    @property
    def retell(self) -> Retelling | None:
        from controller.games.caribbean_stud.retell import RETELLING   # a part's module, loaded when first asked
        return RETELLING

    @property
    def par(self) -> GameSheet:
        from controller.games.caribbean_stud.par.sheet import SHEET   # a part's module, loaded when first asked
        return SHEET

    @property
    def report(self) -> Sequence[ReportSection]:
        from controller.games.caribbean_stud.report import SECTION   # a part's module, loaded when first asked
        return (SECTION,)


BOOKS = Books()
