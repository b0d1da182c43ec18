"""Emulated players, dealer and supervisor: `tablectl run --autoplay`, for demos and soak runs.

Autoplay is one more client of the table: it reads the published state and acts
as the people at the table would, through the same doors they use. Players put
chips on the emulated acceptors and the dealer presses the emulated lock-out
button (so the progressive wagers and "no more bets" come through the real
driver); antes, wagers, decisions and the dealer's other steps are submitted as
the dealer's screen submits them; a supervisor named "autoplay-supervisor"
validates progressive wins (journaled with that name, 5324.37(f)(2)(iii)).

Every choice is a function of the seed and the round id, and every step of the
published state, so a round resumed after a restart is played on exactly as
planned. This module is the driver every game shares (the loop, the submissions,
the bounded waits, who sits in); how a game's players and dealer play is the
game's own (controller/games/<game>/play.py, its PlayPart).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import structlog

from controller.games import registry
from controller.games.game import Json

if TYPE_CHECKING:
    from controller.runtime.world import World
    from controller.table import Table

SUPERVISOR = "autoplay-supervisor"
DEALER = "autoplay-dealer"
SETTLE_PATIENCE = 1.0   # seconds to let a chip or the lock-out reach the table before trying again

log = structlog.get_logger("controller.autoplay")


@dataclass
class Plan:
    """The emulated players' wagers of a round: who sits in and what each stakes. A game's plan
    (games/<game>/play.py) adds its players' own choices."""

    wagers: dict[int, int] = field(default_factory=dict)       # seat -> ante or initial wager


@dataclass(frozen=True)
class Seating:
    """Who sits in a round and how each stakes: the same for every game, so a plan is a function of
    the seed and the round id alone."""

    rng: random.Random
    players: tuple[int, ...]
    low: int
    top: int
    step: int

    def stake(self) -> int:
        return self.rng.randrange(self.low, self.top + 1, self.step) if self.top > self.low else self.low


def seating(round_id: str, seed: int | None, seats: int, low: int, high: int) -> Seating:
    rng = random.Random(f"{seed}:{round_id}")
    players = [s for s in range(1, seats + 1) if rng.random() < 0.6] or [rng.randint(1, seats)]
    return Seating(rng, tuple(players), low, max(low, min(high, low * 4)), max(100, low))


def make_plan(game: str, round_id: str, seed: int | None, seats: int, low: int, high: int) -> Plan:
    """The emulated players' wagers for a round, by the game's play (controller/games/game.py PlayPart)."""
    return registry.game(game).play.plan(seating(round_id, seed, seats, low, high))


class Autoplay:
    """The driver every game's emulated table shares: the loop on the published state, the dealer's
    and players' submissions, bounded waits. What the players and the dealer do is the game's
    (`players` of its PlayPart)."""

    def __init__(self, table: Table, world: World | None, seed: int | None) -> None:
        self.table = table
        self.world = world
        self.seed = seed
        p = table.profile
        self.profile = p
        self.entry = registry.game(p.game)
        self.seats, self.low, self.high = p.seats, p.table.minimum_wager, p.table.maximum_wager
        self._touched: dict[Hashable, float] = {}
        self.players = self.entry.play.players(self)

    def seating(self, round_id: str) -> Seating:
        """Who sits in this round, and how each stakes, for the game's plan."""
        return seating(round_id, self.seed, self.seats, self.low, self.high)

    async def run(self) -> None:
        q = self.table.subscribe()
        try:
            while True:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError   # swallowed by a callee (wait_for, Python 3.11)
                if await self.step(self.table.published()):
                    continue
                waiter = asyncio.ensure_future(q.get())
                try:
                    await asyncio.wait({waiter}, timeout=SETTLE_PATIENCE / 2)
                finally:
                    waiter.cancel()
                while not q.empty():
                    q.get_nowait()
        finally:
            self.table.unsubscribe(q)

    async def submit(self, event: dict[str, Json], who: str = DEALER, source: str = "autoplay") -> bool:
        result = await self.table.submit(event, source=source, who=who)
        if not result["ok"]:
            from controller.games.handpay import redacted
            log.debug("autoplay_refused", what=redacted(event), error=result["error"])   # a player's id masked
        return bool(result["ok"])

    def recently(self, key: Hashable) -> bool:
        return time.monotonic() - self._touched.get(key, -1e9) < SETTLE_PATIENCE

    def touched(self, key: Hashable) -> bool:
        return key in self._touched

    def touch(self, key: Hashable) -> None:
        self._touched[key] = time.monotonic()

    def forget(self, keep: Callable[[Hashable], bool]) -> None:
        """Forget the touches `keep` does not keep (those of a round gone by)."""
        self._touched = {k: v for k, v in self._touched.items() if keep(k)}

    async def step(self, view: dict[str, Any]) -> bool:   # Any: the published JSON, read by key
        r = view.get("round") or {}
        if view.get("fault") or self.table.stopped:
            return False
        buttons = {b["event"]: b["enabled"] for b in r.get("buttons", [])}
        if r.get("id") is None:   # before the first round: the game's players, and its dealer
            return await self.players.between(view, r, buttons)
        if r["state"] in ("closed", "void"):
            if await self.players.between(view, r, buttons):
                return True
            return buttons.get("next_round", False) and await self.submit({"type": "next_round"})
        return await self.players.step(view, r, buttons)
