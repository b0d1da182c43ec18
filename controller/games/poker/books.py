"""The poker games of 9 NYCRR 5324.42: its records read again (controller/games/game.py BooksPart)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from controller.games.poker.report import SECTION, round_fact
from controller.games.poker.names import POKER_GAMES

if TYPE_CHECKING:
    from controller.games.game import Json, LedgerCheck, Record, ReportSection, Retelling
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
        from controller.games.poker.par_sheet import SHEET   # a part's module, loaded when first asked
        return SHEET


    def owns(self, record: Record) -> bool:
        return record.get("game") in POKER_GAMES or isinstance(record.get("phh"), str)

    def status(self, record: Record) -> str:
        return "recorded phh" + (" misdeal" if record.get("misdeal") else "")

    def record_text(self, record: Record) -> str | None:
        """The hand in words (seats, actions, pots: controller/games/poker/telling.py), then its PHH."""
        phh = record.get("phh")
        if not isinstance(phh, str):
            return None
        from controller.games.poker.telling import record_words
        try:
            words = record_words(record)
        except ValueError as exc:   # a record that does not replay: its PHH as it is, and why
            words = [f"(the hand does not replay: {exc})"]
        return "\n".join([*words, "", "PHH:", phh.rstrip("\n")])

    def event_text(self, opening: Record | None, event: Record) -> str | None:
        """A journaled event of the hand in words, by seat (None: told as it is)."""
        from controller.games.poker.telling import event_words
        return event_words(opening, event)

    def round_fact(self, record: Record) -> dict[str, Json]:
        return round_fact(record)

    @property
    def report(self) -> Sequence[ReportSection]:
        return (SECTION,)


BOOKS = Books()
