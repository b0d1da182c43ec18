"""High card autoplayed (controller/games/game.py PlayPart): the emulated players and dealer.

Every player autoplay seats stakes one wager (autoplay's `make_plan` draws it); the game adds
nothing to the plan. The dealer's steps are the round's buttons in order: no more bets once a
wager is down, deal, settle, next round; the shoe deals the cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from controller.games.game import Json

ORDER = ("no_more_bets", "deal", "settle", "next_round")   # the dealer's buttons, as the round enables them


def plan(plan: Any, seat: int, rng: random.Random, low: int) -> None:
    """A high card player's wager is the plan's one stake: nothing more to plan."""


def dealer_step(view: Mapping[str, Json], plan: Mapping[int, int]) -> dict[str, Json] | None:
    """The next event the emulated dealer submits for the published round, None: nothing to do now."""
    r = view.get("round")
    if not isinstance(r, dict):
        return None
    if r.get("state") == "wagers":
        seats = view.get("seats")
        placed: set[Json] = set()
        for s in seats if isinstance(seats, list) else []:
            if isinstance(s, dict) and s.get("wagers"):
                placed.add(s.get("seat"))
        for seat, stake in sorted(plan.items()):
            if seat not in placed:
                return {"type": "wager", "seat": seat, "stake": stake}
    buttons = r.get("buttons")
    enabled = {b.get("event") for b in (buttons if isinstance(buttons, list) else [])
               if isinstance(b, dict) and b.get("enabled")}
    for event in ORDER:
        if event in enabled:
            return {"type": event}
    return None


class Play:
    name = "high_card"   # autoplay's way of playing it (controller/runtime/autoplay.py asks for a method so named)

    @property
    def plan(self) -> Callable[..., None] | None:
        return plan


PLAY = Play()
