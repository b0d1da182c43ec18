"""High card's records read again (controller/games/game.py BooksPart): settled, audited, retold,
reported, its par."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controller.games import banked_books

from high_card.rules import NAME, WAGER

if TYPE_CHECKING:
    from controller.games.game import Json, LedgerCheck, Record, ReportSection, Retelling
    from controller.par.sheet import GameSheet
    from controller.runtime.ledger import Ledger

WAGERS = (WAGER,)


def _again(record: Mapping[str, Any], settlement: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The record settled again, beside what the table paid."""
    from high_card.record import settle_record   # the record's reader: loaded when a round is checked
    from controller.records import RecordError
    try:
        return settle_record(record), settlement
    except (RecordError, KeyError) as exc:
        raise ValueError(exc) from None


def check_round(led: Ledger, seq: int, rid: str, record: Record, movements: Sequence[Record],
                problem: Callable[[str], None], /) -> None:
    """A closed round in the ledger (controller/runtime/ledger.py): void, or settled again from its record
    to what the table paid, its stakes and nets added to the books."""
    if movements:
        problem(f"entry {seq}: meter entries for a high card round (the game has no meter)")
    banked_books.banked_round(led, seq, rid, record, problem, _again, WAGERS)


class Books:
    @property
    def wagers(self) -> Sequence[str]:
        return WAGERS

    @property
    def settle(self) -> Callable[[Record], Record] | None:
        from high_card.record import settle_record
        return settle_record

    @property
    def ledger(self) -> LedgerCheck:
        return check_round

    @property
    def retell(self) -> Retelling | None:
        from high_card.retell import RETELLING   # a part's module, loaded when first asked
        return RETELLING

    @property
    def par(self) -> GameSheet:
        from high_card.par import SHEET
        return SHEET

    def owns(self, record: Record) -> bool:
        return banked_books.owns((NAME,), record)

    def status(self, record: Record) -> str:
        return banked_books.status(record)

    def record_text(self, record: Record) -> str | None:
        return None

    def round_fact(self, record: Record) -> dict[str, Json]:
        """The report's money of the round, and its ties for the game's section (high_card/report.py)."""
        from high_card.report import counts
        fact = banked_books.round_fact(record)
        if not record.get("void"):
            fact["ties"] = dict(counts(record))
        return fact

    @property
    def report(self) -> Sequence[ReportSection]:
        from high_card.report import SECTION
        return (SECTION,)


BOOKS = Books()
