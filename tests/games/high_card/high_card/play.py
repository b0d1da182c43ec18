"""High card autoplayed (controller/games/game.py PlayPart): the emulated players and dealer.

Each player autoplay seats stakes one wager (its Seating's stake), so the shared Plan is the
whole plan. The dealer's steps are the round's buttons in order: no more bets once every planned
wager is down, deal, settle; the shuffler and the shoe (emulated) bring the deck and the cards.
"""

from __future__ import annotations

from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING

from controller.games.game import Json, Record
from controller.runtime.autoplay import Plan, Seating

from high_card.rules import WAGER

if TYPE_CHECKING:
    from controller.runtime.autoplay import Autoplay
    from controller.runtime.world import World
    from controller.table import Table


def plan(seating: Seating) -> Plan:
    """A high card player's one wager: the seating's stake, nothing more to choose."""
    out = Plan()
    for s in seating.players:
        out.wagers[s] = seating.stake()
    return out


def placed(view: Record) -> set[int]:
    """The seats whose wager the round holds."""
    seats = view.get("seats")
    out: set[int] = set()
    for s in seats if isinstance(seats, list) else []:
        if not isinstance(s, dict):
            continue
        wagers, seat = s.get("wagers"), s.get("seat")
        if isinstance(wagers, dict) and WAGER in wagers and isinstance(seat, int):
            out.add(seat)
    return out


class Players:
    """The emulated players and dealer at one high card table."""

    def __init__(self, driver: Autoplay) -> None:
        self.driver = driver
        self._plans: dict[str, Plan] = {}

    def plan(self, round_id: str) -> Plan:
        if round_id not in self._plans:
            self._plans = {round_id: plan(self.driver.seating(round_id))}
        return self._plans[round_id]

    async def between(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        return False   # nothing on the layout between rounds: no chip to take back, no acceptor

    async def step(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        d, state = self.driver, round_.get("state")
        if state == "wagers":
            down = placed(view)
            for seat, stake in sorted(self.plan(str(round_.get("id"))).wagers.items()):
                if seat not in down:
                    event: dict[str, Json] = {"type": "wager", "seat": seat, "stake": stake}
                    return await d.submit(event, who=f"player-{seat}")
            return buttons.get("no_more_bets", False) and await d.submit({"type": "no_more_bets"})
        for step in ("deal", "settle"):   # the deck and the cards are the devices'
            if buttons.get(step, False):
                return await d.submit({"type": step})
        return False


class Play:
    def plan(self, seating: Seating) -> Plan:
        return plan(seating)

    def players(self, driver: Autoplay) -> Players:
        return Players(driver)

    def hand(self, table: Table, world: World) -> Coroutine[object, object, None] | None:
        return None   # a dispensing shoe deals by itself: no dealer's hand to emulate


PLAY = Play()
