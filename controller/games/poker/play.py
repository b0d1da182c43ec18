"""The poker games of 9 NYCRR 5324.42 autoplayed: the emulated dealer and players (controller/games/game.py PlayPart).

Six players sit down between hands (again with 100 big bets when broke); the
dealer deals each card the hand owes from the emulated deck; the players mostly
check or call, now and then raise or fold, by the seed, the hand and the action.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from controller.games.game import Record
from controller.runtime.autoplay import Plan, Seating

if TYPE_CHECKING:
    from controller.runtime.autoplay import Autoplay
    from controller.runtime.world import World
    from controller.table import Table


def _as_dict(state: Record) -> dict[str, Any]:
    """The published state as the table gives it; what each key holds is this game's own view."""
    # Any: the published JSON read by key as this game wrote it; a wrong shape fails the emulated step at once
    return dict(state)


class Players:
    """The emulated players and dealer at one poker table."""

    def __init__(self, driver: Autoplay) -> None:
        self.driver = driver

    async def between(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        """Between hands: six players, each sitting down again with 100 big bets when broke; then the
        dealer starts the first hand (a later one the driver starts)."""
        d, r = self.driver, _as_dict(round_)
        if "seating" in view and await self.seat_players(_as_dict(view), r):
            return True
        if r.get("id") is None:   # a poker table's first hand waits for the dealer
            return "seating" in view and buttons.get("next_round", False) and await d.submit({"type": "next_round"})
        return False

    async def seat_players(self, view: dict[str, Any], r: dict[str, Any]) -> bool:
        if r.get("id") is not None and r["state"] != "closed":
            return False
        d = self.driver
        seating = view["seating"]
        p = d.profile.poker
        stack = 100 * (getattr(p, "big_blind", None) or p.big_bet or p.min_bet or 100)
        stack = max(seating["buy_in_min"], min(seating["buy_in_max"] or stack, stack))
        here = {s["seat"]: s for s in seating["seats"]}
        for seat in range(1, min(6, d.seats) + 1):
            if seat in here and here[seat]["short"]:   # broke: leaves, and sits down again next time
                return await d.submit({"type": "leave", "seat": seat}, who=f"player-{seat}")
            if seat not in here:
                return await d.submit({"type": "sit", "seat": seat, "stack": stack}, who=f"player-{seat}")
        return False

    async def step(self, view: Record, round_: Record, buttons: Mapping[str, bool]) -> bool:
        d, r = self.driver, _as_dict(round_)
        pk = _as_dict(view).get("poker") or {}
        if not (pk.get("deck") or {}).get("ok"):
            return False
        actions = pk["actions"]
        owed = pk["owed"]
        if (owed["hole"] or owed["board"]) and pk.get("turn") != "discard":   # a discard comes first
            assert d.world is not None, "autoplay deals from the emulated deck"
            used = {t[i:i + 2] for a in actions for t in a.split()[2:] if a.startswith("d ")
                    for i in range(0, len(t), 2)}
            deck = [c for c in await asyncio.to_thread(d.world.dealer_deck) if c not in used]
            if owed["hole"]:
                seat = min(owed["hole"], key=int)
                n = len(owed["hole"][seat])
                player = next(pl["player"] for pl in pk["players"] if pl["seat"] == int(seat))
                action = f"d dh p{player} {''.join(deck[:n])}"
            else:
                action = f"d db {''.join(deck[:owed['board']])}"
            return await d.submit({"type": "action", "action": action})
        if pk.get("to_act") is None:
            return False
        rng = random.Random(f"{d.seed}:{r['id']}:{len(actions)}")
        me = next(pl for pl in pk["players"] if pl["seat"] == pk["to_act"])
        who = me["player"]
        turn = pk.get("turn")
        if turn == "bet":
            opts = {o["action"]: o for o in pk["options"]}
            raise_ = next((opts[k] for k in ("bet", "raise", "complete") if k in opts), None)
            if "bring_in" in opts:
                choice = "pb"
            elif raise_ is not None and rng.random() < 0.15:
                choice = f"cbr {raise_['min']}"
            elif "fold" in opts and "call" in opts and rng.random() < 0.15:
                choice = "f"
            else:
                choice = "cc"
        elif turn == "discard":
            choice = "dd " + "".join(me["cards"][:pk["discard"]])
        elif turn == "show":
            choice = "sm -"
        else:
            choice = "sd"   # stands pat
        return await d.submit({"type": "action", "action": f"p{who} {choice}"}, who=f"player-{who}")


class Play:
    def plan(self, seating: Seating) -> Plan:
        """A poker table's players sit down with stacks (Players.between); no wagers planned by round."""
        return Plan()

    def players(self, driver: Autoplay) -> Players:
        return Players(driver)

    def hand(self, table: Table, world: World) -> None:
        return None   # the emulated dealer's hand is only for a manual shoe the dealer draws from


PLAY = Play()
