"""A casino war round checked again by the ledger (controller/runtime/ledger.py): the game's own check."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controller.games.banked_books import banked_round
from controller.games.casino_war.record import settle_record

if TYPE_CHECKING:
    from controller.runtime.ledger import Ledger

# the wagers a seat's settlement names, in the dealer's order: the game's one list (its books' `wagers`)
WAGERS: tuple[str, ...] = ("initial", "tie", "war", "war_tie")


def check_war_round(led: Ledger, seq: int, rid: str, p: Mapping[str, Any], movements: Sequence[Mapping[str, Any]],
                    problem: Callable[[str], None]) -> None:
    """A casino war round settled again from its record."""
    banked_round(led, seq, rid, p, problem, lambda record, settlement: (settle_record(record), settlement),
                 WAGERS)
