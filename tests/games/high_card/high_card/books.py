"""High card's records read again (controller/games/game.py BooksPart): settled, audited, retold, its par."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from high_card.rules import WAGER

if TYPE_CHECKING:
    from controller.games.game import Json, Record
    from controller.par.sheet import GameSheet


def check_round(led: Any, seq: int, rid: str, p: dict, movements: list[dict], problem: Callable[[str], None]) -> None:
    """A closed round in the ledger (controller/runtime/ledger.py): void, or settled again from its record
    to what the table paid, its stakes and nets added to the books."""
    from high_card.record import settle_record, stakes
    from controller.records import RecordError
    if movements:
        problem(f"entry {seq}: meter entries for a high card round (the game has no meter)")
    if p.get("void"):
        led.voided += 1
        led.returned += sum(w[WAGER] for w in p["void"]["wagers"])
        return
    led.settled += 1
    try:
        again = settle_record(p["record"])
    except (RecordError, KeyError) as exc:
        problem(f"entry {seq}: round {rid}'s record does not settle: {exc}")
        return
    if dict(again) != p["settlement"]:
        problem(f"entry {seq}: round {rid} re-settled from its record differs from what the table paid")
    for stake, net in stakes(p["settlement"]):
        led.stakes[WAGER] += stake
        led.nets[WAGER] += net


def rules_line(opening: dict[str, Json]) -> str:
    """The rules line of `tablectl rounds show`: the shoe and where it stood."""
    rules, shoe = opening["rules"], opening["shoe"]
    assert isinstance(rules, dict) and isinstance(shoe, dict)
    decks = f"{rules['decks']} deck" + ("" if rules["decks"] == 1 else "s")
    return (f"rules: high card, {decks}, even money, a tie pushes; "
            f"shoe at card {shoe['dispensed']}")


class Books:
    @property
    def wagers(self) -> Sequence[str]:
        return (WAGER,)

    @property
    def settle(self) -> Callable[[Record], Record] | None:
        from high_card.record import settle_record
        return settle_record

    @property
    def ledger(self) -> Callable[..., None]:
        return check_round

    @property
    def retell(self) -> Callable[[dict[str, Json]], str] | None:
        return rules_line

    @property
    def par(self) -> GameSheet:
        from high_card.par import SHEET
        return SHEET


BOOKS = Books()
