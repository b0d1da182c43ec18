"""A high card table between rounds: where the dispensing shoe stands; how a round opens."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from controller.runtime.tablestate import TableState

if TYPE_CHECKING:
    from high_card.at_table import HighCardAtTable
    from high_card.profile import HighCardProfile


class HighCardTableState(TableState):
    """controller/runtime/tablestate.py TableState for high card: the shoe's count, carried in each snapshot."""

    def __init__(self, profile: HighCardProfile) -> None:
        super().__init__(profile)
        self.dispensed = 0

    def _game_opening(self, base: dict) -> dict:
        p = cast("HighCardProfile", self.profile)
        return {**base, "rules": p.record_rules(), "shoe": {"dispensed": self.dispensed},
                "wager_limits": [p.table.minimum_wager, p.table.maximum_wager]}

    def _carried(self, snapshot: dict, opening: dict) -> None:
        snapshot["dispensed"] = self.dispensed

    def _restore(self, snapshot: dict) -> None:
        self.dispensed = int(snapshot.get("dispensed", 0))

    def after_close(self) -> None:
        closed = cast("HighCardAtTable", self.round)   # a high card table opens only its own rounds
        self.dispensed = closed.dispensed
