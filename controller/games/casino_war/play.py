"""Casino war (9 NYCRR 5324.22) autoplayed: the emulated dealer and players (controller/games/game.py PlayPart).

The players make the initial wager and now and then the tie wager, and on a tie
mostly go to war (with a tie wager of their own sometimes); the dealer draws each
card from the emulated manual shoe by hand as the step names it (5324.22(h)(2)),
touches in what the shoe's reader missed, deals, and settles.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.games.game import Json, Record
from controller.runtime.autoplay import SETTLE_PATIENCE, SUPERVISOR, Plan, Seating
from controller.runtime.world import PersistentManualShoe

if TYPE_CHECKING:
    from controller.runtime.autoplay import Autoplay
    from controller.runtime.world import World
    from controller.table import Table


@dataclass
class WarPlan(Plan):
    tie: dict[int, int] = field(default_factory=dict)        # seat -> its tie wager
    war: dict[int, bool] = field(default_factory=dict)       # seat -> goes to war on a tie
    war_tie: dict[int, int] = field(default_factory=dict)    # seat -> its tie wager when it goes to war


def plan(seating: Seating) -> WarPlan:
    """A tie wager now and then; to war on a tie, mostly, with its tie wager."""
    out, rng, low = WarPlan(), seating.rng, seating.low
    for s in seating.players:
        out.wagers[s] = seating.stake()
        if rng.random() < 0.25:
            out.tie[s] = max(100, low // 5)
        out.war[s] = rng.random() < 0.85
        if rng.random() < 0.2:
            out.war_tie[s] = max(100, low // 5)
    return out


def _as_dict(state: Record) -> dict[str, Any]:   # Any: the game's own view (JSON), read as the dealer would
    """The published state as the table gives it; what each key holds is this game's own view."""
    return dict(state)


class Players:
    """The emulated players and dealer at one casino war table."""

    def __init__(self, driver: Autoplay) -> None:
        self.driver = driver
        self._plans: dict[str, WarPlan] = {}

    def plan(self, round_id: str) -> WarPlan:
        if round_id not in self._plans:
            self._plans = {round_id: plan(self.driver.seating(round_id))}
        return self._plans[round_id]

    async def between(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        return False

    async def draw(self, round_id: str, dispensed: Json) -> bool:
        """The emulated dealer's left hand takes the next card out of the manual shoe (5324.22(h)(2)),
        once for each card the round has counted, so a card still on its way is not followed by
        another drawn in its place."""
        d = self.driver
        shoe = d.world.shoe if d.world is not None else None
        key = ("drew", round_id, dispensed)
        if shoe is None or not hasattr(shoe, "draw") or d.touched(key):
            return False

        def this_round(k: Hashable) -> bool:
            return not (isinstance(k, tuple) and k[0] == "drew" and k[1] != round_id)
        d.forget(this_round)
        d.touch(key)
        await asyncio.to_thread(shoe.draw)
        return True

    async def step(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        d, v, r = self.driver, _as_dict(view), _as_dict(round_)
        st, plan = r["state"], self.plan(str(r["id"]))
        seats = {s["seat"]: s for s in v["seats"]}
        if st == "wagers":
            for s, stake in sorted(plan.wagers.items()):
                w = seats[s]["wagers"]
                if "initial" not in w:
                    return await d.submit({"type": "wager", "seat": s, "wager": "initial", "stake": stake},
                                          who=f"player-{s}")
                if s in plan.tie and "tie" not in w:
                    return await d.submit({"type": "wager", "seat": s, "wager": "tie", "stake": plan.tie[s]},
                                          who=f"player-{s}")
            return await d.submit({"type": "no_more_bets"})
        shoe = v.get("shoe") or {}
        if shoe.get("unrecorded") and d.world is not None and d.world.shoe is not None:
            dealt = await asyncio.to_thread(d.world.shoe.dealt)
            index = shoe["dispensed"] - shoe["unrecorded"]
            if index < len(dealt):
                return await d.submit({"type": "card", "card": dealt[index]}, source="panel")
            return False
        if r.get("draw") is not None:
            return await self.draw(str(r["id"]), shoe.get("dispensed"))
        if st == "first_deal":
            return buttons.get("deal", False) and await d.submit({"type": "deal"})
        if st in ("first_settle", "war_settle"):
            return await d.submit({"type": "settle"})
        if st == "decisions":
            up = (v.get("dealer") or {}).get("up_card")
            for s in sorted(seats):
                seat = seats[s]
                if seat["decision"] is None and seat["cards"] and up and seat["cards"][0][0] == up[0] \
                        and "initial" in seat["wagers"]:
                    event: dict[str, Json] = {"type": "decision", "seat": s,
                                              "decision": "war" if plan.war.get(s, True) else "surrender"}
                    if event["decision"] == "war" and s in plan.war_tie:
                        event["war_tie"] = plan.war_tie[s]
                    return await d.submit(event, who=f"player-{s}")
            return False
        if st == "war_deal":
            return buttons.get("war", False) and await d.submit({"type": "war"})
        if st == "hand_pay":   # issue 29: a hand-pay's form, an emulated player's (test mode)
            for hp in v.get("hand_pays", []):
                if not hp["done"]:
                    number = f"AUTO-{str(v['round']['id'])[-6:]}-{hp['seat']}"
                    return await d.submit({"type": "hand_pay", "seat": hp["seat"], "player_id": f"EMULATED-{hp['seat']}",
                                           "form": number}, who=SUPERVISOR, source="supervisor")
        return False


class EmulatedHand:
    """Only the dealer's left hand on an emulated manual shoe (5324.22(h)(2)): whenever the round names
    a card to draw, it draws it. For a person playing an emulated casino war table from the screens,
    who has no shoe to take a card from; everything else is theirs to click."""

    def __init__(self, table: Table, shoe: PersistentManualShoe) -> None:
        self.table = table
        self.shoe = shoe
        self.drawn_for: tuple[Json, Json] | None = None

    async def run(self) -> None:
        q = self.table.subscribe()
        try:
            while True:
                view = self.table.published()
                r = view.get("round") or {}
                at = (r.get("id"), (view.get("shoe") or {}).get("dispensed"))
                if r.get("draw") is not None and not r.get("touch_in") and at != self.drawn_for:
                    self.drawn_for = at   # once per card the round has counted: none drawn in its place
                    await asyncio.to_thread(self.shoe.draw)
                    continue
                try:
                    await asyncio.wait_for(q.get(), SETTLE_PATIENCE)
                except asyncio.TimeoutError:
                    pass
                while not q.empty():
                    q.get_nowait()
        finally:
            self.table.unsubscribe(q)


class Play:
    def plan(self, seating: Seating) -> WarPlan:
        return plan(seating)

    def players(self, driver: Autoplay) -> Players:
        return Players(driver)

    def hand(self, table: Table, world: World) -> Coroutine[object, object, None] | None:
        """An emulated manual shoe: the dealer's hand draws each card the step names."""
        return EmulatedHand(table, world.shoe).run() if isinstance(world.shoe, PersistentManualShoe) else None


PLAY = Play()
