"""A casino war table between rounds: where the shoe stands and whether a burn card is due.

The shoe's position, a cover card out and a burn card due (5324.22(h)(1)) are
carried from round to round and journaled in each round's snapshot; once the
cover card is out the shoe is reshuffled and loaded before the next round
(5324.22(h)(4)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from controller.runtime.tablestate import Effect, Event, JsonDict, TableState

if TYPE_CHECKING:
    from controller.games.casino_war.at_table import WarRound


class WarTableState(TableState):
    """controller/runtime/tablestate.py TableState for casino war (controller/games/registry.py)."""

    shoe: dict[str, Any]   # always set here, where TableState has None for the games without a shoe

    def __init__(self, profile: Any) -> None:
        super().__init__(profile)
        self.shoe = {"dispensed": 0, "cover_out": False, "burn_due": True, "needs_load": True}

    def _cannot_open(self) -> str | None:
        if self.shoe["needs_load"] or self.shoe["cover_out"]:
            return "the cover card came out or the shoe is empty: reshuffle and load the shoe (5324.22(h)(4))"
        return None

    def _game_opening(self, base: JsonDict) -> JsonDict:
        p = self.profile
        shoe = {k: self.shoe[k] for k in ("dispensed", "cover_out", "burn_due")}
        if not p.manual_shoe.reader:   # the dealer touches each card in (the key only when so: old rounds read)
            shoe["reader"] = False
        return {**base, "rules": p.record_rules(), "shoe": shoe,
                "wager_limits": [p.table.minimum_wager, p.table.maximum_wager],
                "hand_pay": {"min_amount": p.hand_pay.min_amount, "multiple": p.hand_pay.multiple}}   # issue 29

    def _carried(self, snapshot: JsonDict, opening: JsonDict) -> None:
        snapshot["shoe"] = dict(self.shoe)

    def _restore(self, snapshot: JsonDict) -> None:
        if "shoe" in snapshot:
            self.shoe = dict(snapshot["shoe"])

    def wants_shoe_loaded(self) -> bool:
        return bool(self.shoe is not None and self.shoe["needs_load"])

    def after_close(self) -> None:
        closed = cast("WarRound", self.round)   # the round just closed: a war table opens only WarRounds
        self.shoe.update(closed.shoe_after())
        if self.shoe["cover_out"]:
            self.shoe["needs_load"] = True

    def _handlers(self) -> dict[str, Callable[[], list[Effect]]]:
        """The war table's own events between rounds, each with what it does."""
        return {"shoe_loaded": self._shoe_loaded, "new_dealer": self._new_dealer}

    def _table_events(self) -> Iterable[str]:
        return self._handlers()

    def _table_event(self, kind: Any, event: Event, who: str | None) -> list[Effect] | None:
        handler = self._handlers().get(kind)
        return None if handler is None else handler()

    def _shoe_loaded(self) -> list[Effect]:
        self.shoe.update(dispensed=0, cover_out=False, burn_due=True, needs_load=False)
        return [{"type": "shoe_ready"}]

    def _new_dealer(self) -> list[Effect]:
        self.shoe["burn_due"] = True
        return []

    def offered(self) -> tuple[str, list[JsonDict]] | None:
        """A shoe without a reader cannot say it was loaded: the dealer says so, once the cards are
        reshuffled and the shoe loaded (5324.22(h)(4)); the next round burns a card first (h)(1)."""
        if self.profile.manual_shoe.reader:
            return None
        return " Then press Shoe loaded.", [{"event": "shoe_loaded", "label": "Shoe loaded", "enabled": True}]
