"""A Caribbean stud table between rounds: the progressive meter, with its fraction of a cent.

The meter is carried from round to round (each round's contributions and awards
move it) and journaled in each round's snapshot; a round opens with the rules,
the meter, the dealing mode and the ante limits of the profile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from controller.games.game import Json
from controller.progressive import ProgressiveMeter

from controller.runtime.tablestate import TableState

if TYPE_CHECKING:
    from controller.games.caribbean_stud.at_table import StudRound


class StudTableState(TableState):
    """controller/runtime/tablestate.py TableState for Caribbean stud (controller/games/registry.py)."""

    meter: ProgressiveMeter   # always set here, where TableState has None for the games without a meter

    def __init__(self, profile: Any) -> None:
        super().__init__(profile)
        from controller.games.caribbean_stud.machine import new_meter
        from controller.games.caribbean_stud.record import read_rules
        rules, _ = read_rules(profile.record_rules())
        self.meter = new_meter(rules, profile.caribbean_stud.progressive.initial_meter)

    def _game_opening(self, base: dict[str, Json]) -> dict[str, Json]:
        p = self.profile
        meter = self.current_meter()
        from controller.games.caribbean_stud.changes import hold_for_reset
        rules = hold_for_reset(meter, p.record_rules(meter.amount, meter.overflow))   # issue 29: between cycles
        opening: dict[str, Json] = {**base, "rules": rules, "meter": meter.to_dict(),
                   "dealing": p.caribbean_stud.dealing,
                   "ante_limits": [p.table.minimum_wager, p.table.maximum_wager]}
        opening["hand_pay"] = {"min_amount": p.hand_pay.min_amount, "multiple": p.hand_pay.multiple}   # issue 29
        if p.caribbean_stud.no_hand_turn_over != "all":   # 5324.37(e)(5)(i), the facility's option
            opening["no_hand_turn_over"] = p.caribbean_stud.no_hand_turn_over
        if p.caribbean_stud.second_signer_above is not None:   # issue 18
            opening["second_signer_above"] = p.caribbean_stud.second_signer_above
            opening["second_signer_refuses"] = True   # issue 26: a refusal too (a round opened before replays as it was)
        if getattr(p, "link", None) is not None:   # the pool's meter pays this table's hits (issue 10)
            opening["link"] = {"pool": p.link.pool, "table": p.link.table}
        return opening

    def _carried(self, snapshot: dict[str, Json], opening: dict[str, Json]) -> None:
        snapshot["meters"] = {"progressive": opening["meter"]}

    def _stud_round(self) -> StudRound:
        return cast("StudRound", self.round)   # a stud table opens only StudRounds (its round_class)

    def _restored(self) -> None:
        self.meter = self._stud_round().meter

    def current_meter(self) -> ProgressiveMeter:
        if self.round is not None:
            return self._stud_round().meter   # the round's, moving with its contributions
        return self.meter

    def at_start(self) -> list[tuple[str, dict[str, Json]]]:
        """A profile whose rate, reset, limit or award table differ from the running meter's: the change
        is journaled as pending at the start and applies after the meter's next reset (changes.py)."""
        from controller.games.caribbean_stud.changes import note_at_start
        pending = note_at_start(self.current_meter(), self.profile.record_rules())
        return [] if pending is None else [("meter-pending", {"meter": "progressive", "pending": pending})]

    def _table_events(self) -> tuple[str, ...]:
        from controller.games.caribbean_stud.changes import APPLY_AT_ONCE
        return (APPLY_AT_ONCE,) if self.current_meter().pending is not None else ()

    def _table_event(self, kind: Any, event: Any, who: str | None) -> list[Any] | None:
        """A pending change applied at once by two supervisors (changes.py `apply_at_once`)."""
        from controller.games.caribbean_stud.changes import APPLY_AT_ONCE, apply_at_once
        return apply_at_once(self.current_meter(), who) if kind == APPLY_AT_ONCE else None

    def after_close(self) -> None:
        self.meter = self._stud_round().meter
        if self.meter.pending_due():   # the meter reset in this round: a held change applies from the next
            self.meter.apply_pending()
