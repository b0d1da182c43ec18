"""Caribbean stud poker (9 NYCRR 5324.37) autoplayed: the emulated dealer and players (controller/games/game.py PlayPart).

The players ante, add the progressive wager more often than not (a chip on the
emulated acceptor, so it comes through the real driver), and bet with a pair or
better or ace-king; the dealer presses the emulated lock-out, deals, reveals and
settles; a supervisor named "autoplay-supervisor" validates progressive wins and fills in a hand-pay's
form for an emulated player (issue 29).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.cards import parse_cards
from controller.games.game import Record
from controller.hands import high
from controller.runtime.autoplay import SUPERVISOR, Plan, Seating

if TYPE_CHECKING:
    from controller.runtime.autoplay import Autoplay
    from controller.runtime.world import World
    from controller.table import Table


@dataclass
class StudPlan(Plan):
    progressive: set[int] = field(default_factory=set)   # seats that add the progressive wager


def bets(cards: list[str]) -> bool:
    """Bet with a pair or better, or ace-king (a common simple strategy); otherwise fold."""
    parsed = parse_cards(cards)
    return high.category(high.value(parsed)) != "high-card" or {12, 11} <= {c.rank for c in parsed}


def plan(seating: Seating) -> StudPlan:
    out = StudPlan()
    for s in seating.players:
        out.wagers[s] = seating.stake()
        if seating.rng.random() < 0.6:
            out.progressive.add(s)
    return out


def _as_dict(state: Record) -> dict[str, Any]:
    """The published state as the table gives it; what each key holds is this game's own view."""
    # Any: the published JSON read by key as this game wrote it; a wrong shape fails the emulated step at once
    return dict(state)


class Players:
    """The emulated players, dealer and supervisor at one Caribbean stud table."""

    def __init__(self, driver: Autoplay) -> None:
        self.driver = driver
        self._plans: dict[str, StudPlan] = {}

    def plan(self, round_id: str) -> StudPlan:
        if round_id not in self._plans:
            self._plans = {round_id: plan(self.driver.seating(round_id))}
        return self._plans[round_id]

    def _chips(self) -> frozenset[int]:
        prog = getattr(self.driver.world, "progressive", None)
        return prog.chips() if prog is not None else frozenset()

    def _clear_chips(self) -> None:
        prog = getattr(self.driver.world, "progressive", None)
        for s in self._chips():
            if prog is not None:
                prog.remove_wager(s)

    async def between(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        """The progressive stakes were collected: the players take their chips off the acceptors."""
        if round_.get("id") is None or not self._chips():
            return False
        await asyncio.to_thread(self._clear_chips)
        return True

    async def step(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        d, v, r = self.driver, _as_dict(view), _as_dict(round_)
        st, plan = r["state"], self.plan(str(r["id"]))
        seats = {s["seat"]: s for s in v["seats"]}
        prog = getattr(d.world, "progressive", None)
        if st == "open":
            for s, ante in sorted(plan.wagers.items()):
                if "ante" not in seats[s]["wagers"]:
                    return await d.submit({"type": "ante", "seat": s, "amount": ante}, who=f"player-{s}")
            if prog is None:
                return await d.submit({"type": "no_more_bets"})
            chips = prog.chips()
            waiting = False
            # a linked progressive that is unplayable takes no wager (5321.18(c)): players keep their chips
            playable = (v.get("progressive") or {}).get("available", True)
            for s in range(1, d.seats + 1):
                want, recognized = s in plan.progressive and playable, "progressive" in seats[s]["wagers"]
                if d.recently((r["id"], s)):
                    waiting = waiting or (want and not recognized)
                    continue
                if want and not recognized:
                    d.touch((r["id"], s))
                    await asyncio.to_thread(prog.remove_wager if s in chips else prog.place_wager, s)
                    return True
                if not want and s in chips:
                    d.touch((r["id"], s))
                    await asyncio.to_thread(prog.remove_wager, s)
                    return True
            if waiting or d.recently((r["id"], "lockout")):
                return False
            d.touch((r["id"], "lockout"))
            await asyncio.to_thread(prog.press_and_release_lockout)
            return True
        if st == "no_more_bets":
            return buttons.get("deal", False) and await d.submit({"type": "deal"})
        if st == "decisions":
            # every seat with an ante, not only this seed's plan: a round recovered after a restart
            # with another seed was anted by the first one's players (the choice is the cards')
            for s in sorted(seats):
                seat = seats[s]
                if "ante" in seat["wagers"] and not seat["void"] and seat["decision"] is None \
                        and len(seat["cards"]) == 5:
                    choice = "bet" if bets(seat["cards"]) else "fold"
                    return await d.submit({"type": "decision", "seat": s, "decision": choice},
                                          who=f"player-{s}")
            return buttons.get("reveal", False) and await d.submit({"type": "reveal"})
        if st == "revealed":
            return await d.submit({"type": "settle"})
        if st == "validation":
            for val in v.get("validations", []):
                if val.get("pool_refused"):
                    return await d.submit({"type": "refuse", "seat": val["seat"], "reason": val["pool_refused"]},
                                          who=SUPERVISOR, source="supervisor")
                if val["award"] is None:   # a linked hit: the pool has not given its award yet
                    continue
                return await d.submit({"type": "validate", "seat": val["seat"]}, who=SUPERVISOR,
                                      source="supervisor")
            for hp in v.get("hand_pays", []):   # issue 29: a hand-pay's form, an emulated player's (test mode)
                if not hp["done"]:
                    number = f"AUTO-{str(v['round']['id'])[-6:]}-{hp['seat']}"
                    return await d.submit({"type": "hand_pay", "seat": hp["seat"], "player_id": f"EMULATED-{hp['seat']}",
                                           "form": number}, who=SUPERVISOR, source="supervisor")
        return False


class Play:
    def plan(self, seating: Seating) -> StudPlan:
        return plan(seating)

    def players(self, driver: Autoplay) -> Players:
        return Players(driver)

    def hand(self, table: Table, world: World) -> None:
        return None   # the emulated dealer's hand is only for a manual shoe the dealer draws from


PLAY = Play()
