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
planned. Caribbean stud: bet with a pair or better, or ace-king; casino war:
mostly go to war on a tie, each card drawn from the emulated manual shoe by the
dealer's hand as the step names it.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import structlog

from controller.cards import parse_cards
from controller.games import registry

SUPERVISOR = "autoplay-supervisor"
DEALER = "autoplay-dealer"
SETTLE_PATIENCE = 1.0   # seconds to let a chip or the lock-out reach the table before trying again

log = structlog.get_logger("controller.autoplay")


@dataclass
class Plan:
    wagers: dict[int, int] = field(default_factory=dict)       # seat -> ante or initial wager
    progressive: set[int] = field(default_factory=set)          # Caribbean stud
    tie: dict[int, int] = field(default_factory=dict)           # casino war
    war: dict[int, bool] = field(default_factory=dict)          # casino war: go to war on a tie
    war_tie: dict[int, int] = field(default_factory=dict)


def make_plan(game: str, round_id: str, seed: int | None, seats: int, low: int, high: int) -> Plan:
    """The emulated players' wagers for a round: who sits in, and what each stakes, by the game's `plan`
    (controller/games/registry.py)."""
    rng = random.Random(f"{seed}:{round_id}")
    players = [s for s in range(1, seats + 1) if rng.random() < 0.6] or [rng.randint(1, seats)]
    step = max(100, low)
    top = max(low, min(high, low * 4))
    plan = Plan()
    more = registry.game(game).play.plan
    assert more is not None, f"{game} is autoplayed without a plan of wagers"
    for s in players:
        plan.wagers[s] = rng.randrange(low, top + 1, step) if top > low else low
        more(plan, s, rng, low)
    return plan


def stud_plan(plan: Plan, seat: int, rng: random.Random, low: int) -> None:
    """A Caribbean stud player adds the progressive wager more often than not."""
    if rng.random() < 0.6:
        plan.progressive.add(seat)


def war_plan(plan: Plan, seat: int, rng: random.Random, low: int) -> None:
    """A casino war player: a tie wager now and then; to war on a tie, mostly, with its tie wager."""
    if rng.random() < 0.25:
        plan.tie[seat] = max(100, low // 5)
    plan.war[seat] = rng.random() < 0.85
    if rng.random() < 0.2:
        plan.war_tie[seat] = max(100, low // 5)


def stud_bets(cards: list[str]) -> bool:
    """Bet with a pair or better, or ace-king (a common simple strategy); otherwise fold."""
    from controller.hands import high
    parsed = parse_cards(cards)
    return high.category(high.value(parsed)) != "high-card" or {12, 11} <= {c.rank for c in parsed}


class EmulatedHand:
    """Only the dealer's left hand on an emulated manual shoe (5324.22(h)(2)): whenever the round names
    a card to draw, it draws it. For a person playing an emulated casino war table from the screens,
    who has no shoe to take a card from; everything else is theirs to click."""

    def __init__(self, table: Any, world: Any) -> None:
        self.table = table
        self.world = world
        self.drawn_for: tuple | None = None

    async def run(self) -> None:
        q = self.table.subscribe()
        try:
            while True:
                view = self.table.published()
                r = view.get("round") or {}
                at = (r.get("id"), (view.get("shoe") or {}).get("dispensed"))
                if r.get("draw") is not None and not r.get("touch_in") and at != self.drawn_for:
                    self.drawn_for = at   # once per card the round has counted: none drawn in its place
                    await asyncio.to_thread(self.world.shoe.draw)
                    continue
                try:
                    await asyncio.wait_for(q.get(), SETTLE_PATIENCE)
                except asyncio.TimeoutError:
                    pass
                while not q.empty():
                    q.get_nowait()
        finally:
            self.table.unsubscribe(q)


class Autoplay:
    def __init__(self, table: Any, world: Any, seed: int | None) -> None:
        self.table = table
        self.world = world
        self.seed = seed
        p = table.profile
        self.game = p.game
        self.entry = registry.game(p.game)   # how the game is played here: its `autoplay` and `plan`
        self.seats, self.low, self.high = p.seats, p.table.minimum_wager, p.table.maximum_wager
        self._plans: dict[str, Plan] = {}
        self._touched: dict[Any, float] = {}

    def plan(self, round_id: str) -> Plan:
        if round_id not in self._plans:
            self._plans = {round_id: make_plan(self.game, round_id, self.seed, self.seats, self.low, self.high)}
        return self._plans[round_id]

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

    async def submit(self, event: dict, who: str = DEALER, source: str = "autoplay") -> bool:
        result = await self.table.submit(event, source=source, who=who)
        if not result["ok"]:
            log.debug("autoplay_refused", what=event, error=result["error"])
        return result["ok"]

    def recently(self, key: Any) -> bool:
        return time.monotonic() - self._touched.get(key, -1e9) < SETTLE_PATIENCE

    def touch(self, key: Any) -> None:
        self._touched[key] = time.monotonic()

    async def step(self, view: dict) -> bool:
        r = view.get("round") or {}
        if view.get("fault") or self.table._stopped.is_set():
            return False
        if "seating" in view and await self.seat_players(view, r):
            return True
        buttons = {b["event"]: b["enabled"] for b in r.get("buttons", [])}
        if r.get("id") is None:   # a poker table's first hand waits for the dealer
            return "seating" in view and buttons.get("next_round", False) and await self.submit({"type": "next_round"})
        if r["state"] in ("closed", "void"):
            if self.entry.devices.progressive and self._chips():
                await asyncio.to_thread(self._clear_chips)   # the progressive stakes were collected
                return True
            return buttons.get("next_round", False) and await self.submit({"type": "next_round"})
        return await getattr(self, self.entry.play.name)(view, r, buttons)   # stud, war or poker below

    # -- Caribbean stud ------------------------------------------------------------------

    def _chips(self) -> frozenset[int]:
        prog = getattr(self.world, "progressive", None)
        return prog.chips() if prog is not None else frozenset()

    def _clear_chips(self) -> None:
        for s in self._chips():
            self.world.progressive.remove_wager(s)

    async def stud(self, view: dict, r: dict, buttons: dict) -> bool:
        st, plan = r["state"], self.plan(r["id"])
        seats = {s["seat"]: s for s in view["seats"]}
        prog = getattr(self.world, "progressive", None)
        if st == "open":
            for s, ante in sorted(plan.wagers.items()):
                if "ante" not in seats[s]["wagers"]:
                    return await self.submit({"type": "ante", "seat": s, "amount": ante}, who=f"player-{s}")
            if prog is None:
                return await self.submit({"type": "no_more_bets"})
            chips = prog.chips()
            waiting = False
            # a linked progressive that is unplayable takes no wager (5321.18(c)): players keep their chips
            playable = (view.get("progressive") or {}).get("available", True)
            for s in range(1, self.seats + 1):
                want, recognized = s in plan.progressive and playable, "progressive" in seats[s]["wagers"]
                if self.recently((r["id"], s)):
                    waiting = waiting or (want and not recognized)
                    continue
                if want and not recognized:
                    self.touch((r["id"], s))
                    await asyncio.to_thread(prog.remove_wager if s in chips else prog.place_wager, s)
                    return True
                if not want and s in chips:
                    self.touch((r["id"], s))
                    await asyncio.to_thread(prog.remove_wager, s)
                    return True
            if waiting or self.recently((r["id"], "lockout")):
                return False
            self.touch((r["id"], "lockout"))
            await asyncio.to_thread(prog.press_and_release_lockout)
            return True
        if st == "no_more_bets":
            return buttons.get("deal", False) and await self.submit({"type": "deal"})
        if st == "decisions":
            # every seat with an ante, not only this seed's plan: a round recovered after a restart
            # with another seed was anted by the first one's players (the choice is the cards')
            for s in sorted(seats):
                seat = seats[s]
                if "ante" in seat["wagers"] and not seat["void"] and seat["decision"] is None \
                        and len(seat["cards"]) == 5:
                    choice = "bet" if stud_bets(seat["cards"]) else "fold"
                    return await self.submit({"type": "decision", "seat": s, "decision": choice},
                                             who=f"player-{s}")
            return buttons.get("reveal", False) and await self.submit({"type": "reveal"})
        if st == "revealed":
            return await self.submit({"type": "settle"})
        if st == "validation":
            for v in view.get("validations", []):
                if v.get("pool_refused"):
                    return await self.submit({"type": "refuse", "seat": v["seat"], "reason": v["pool_refused"]},
                                             who=SUPERVISOR, source="supervisor")
                if v["award"] is None:   # a linked hit: the pool has not given its award yet
                    continue
                return await self.submit({"type": "validate", "seat": v["seat"]}, who=SUPERVISOR,
                                         source="supervisor")
        return False

    # -- poker ---------------------------------------------------------------------------------

    async def seat_players(self, view: dict, r: dict) -> bool:
        """Between hands: six players, each sitting down again with 100 big bets when broke."""
        if r.get("id") is not None and r["state"] != "closed":
            return False
        seating = view["seating"]
        p = self.table.profile.poker
        stack = 100 * (getattr(p, "big_blind", None) or p.big_bet or p.min_bet or 100)
        stack = max(seating["buy_in_min"], min(seating["buy_in_max"] or stack, stack))
        here = {s["seat"]: s for s in seating["seats"]}
        for seat in range(1, min(6, self.seats) + 1):
            if seat in here and here[seat]["short"]:   # broke: leaves, and sits down again next time
                return await self.submit({"type": "leave", "seat": seat}, who=f"player-{seat}")
            if seat not in here:
                return await self.submit({"type": "sit", "seat": seat, "stack": stack}, who=f"player-{seat}")
        return False

    async def poker(self, view: dict, r: dict, buttons: dict | None = None) -> bool:
        pk = view.get("poker") or {}
        if not (pk.get("deck") or {}).get("ok"):
            return False
        actions = pk["actions"]
        owed = pk["owed"]
        if (owed["hole"] or owed["board"]) and pk.get("turn") != "discard":   # a discard comes first
            used = {t[i:i + 2] for a in actions for t in a.split()[2:] if a.startswith("d ")
                    for i in range(0, len(t), 2)}
            deck = [c for c in await asyncio.to_thread(self.world.dealer_deck) if c not in used]
            if owed["hole"]:
                seat = min(owed["hole"], key=int)
                n = len(owed["hole"][seat])
                player = next(pl["player"] for pl in pk["players"] if pl["seat"] == int(seat))
                action = f"d dh p{player} {''.join(deck[:n])}"
            else:
                action = f"d db {''.join(deck[:owed['board']])}"
            return await self.submit({"type": "action", "action": action})
        if pk.get("to_act") is None:
            return False
        rng = random.Random(f"{self.seed}:{r['id']}:{len(actions)}")
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
        return await self.submit({"type": "action", "action": f"p{who} {choice}"}, who=f"player-{who}")

    # -- casino war ------------------------------------------------------------------------

    async def draw(self, round_id: str, dispensed: int | None) -> bool:
        """The emulated dealer's left hand takes the next card out of the manual shoe (5324.22(h)(2)),
        once for each card the round has counted, so a card still on its way is not followed by
        another drawn in its place."""
        shoe = self.world.shoe if self.world is not None else None
        key = ("drew", round_id, dispensed)
        if shoe is None or not hasattr(shoe, "draw") or key in self._touched:
            return False
        self._touched = {k: v for k, v in self._touched.items()
                         if not (isinstance(k, tuple) and k[0] == "drew" and k[1] != round_id)}
        self._touched[key] = time.monotonic()
        await asyncio.to_thread(shoe.draw)
        return True

    async def war(self, view: dict, r: dict, buttons: dict) -> bool:
        st, plan = r["state"], self.plan(r["id"])
        seats = {s["seat"]: s for s in view["seats"]}
        if st == "wagers":
            for s, stake in sorted(plan.wagers.items()):
                w = seats[s]["wagers"]
                if "initial" not in w:
                    return await self.submit({"type": "wager", "seat": s, "wager": "initial", "stake": stake},
                                             who=f"player-{s}")
                if s in plan.tie and "tie" not in w:
                    return await self.submit({"type": "wager", "seat": s, "wager": "tie", "stake": plan.tie[s]},
                                             who=f"player-{s}")
            return await self.submit({"type": "no_more_bets"})
        shoe = view.get("shoe") or {}
        if shoe.get("unrecorded") and self.world is not None and self.world.shoe is not None:
            dealt = await asyncio.to_thread(self.world.shoe.dealt)
            index = shoe["dispensed"] - shoe["unrecorded"]
            if index < len(dealt):
                return await self.submit({"type": "card", "card": dealt[index]}, source="panel")
            return False
        draw = r.get("draw")
        if draw is not None:
            return await self.draw(r["id"], shoe.get("dispensed"))
        if st == "first_deal":
            return buttons.get("deal", False) and await self.submit({"type": "deal"})
        if st in ("first_settle", "war_settle"):
            return await self.submit({"type": "settle"})
        if st == "decisions":
            up = (view.get("dealer") or {}).get("up_card")
            for s in sorted(seats):
                seat = seats[s]
                if seat["decision"] is None and seat["cards"] and up and seat["cards"][0][0] == up[0] \
                        and "initial" in seat["wagers"]:
                    event = {"type": "decision", "seat": s,
                             "decision": "war" if plan.war.get(s, True) else "surrender"}
                    if event["decision"] == "war" and s in plan.war_tie:
                        event["war_tie"] = plan.war_tie[s]
                    return await self.submit(event, who=f"player-{s}")
            return False
        if st == "war_deal":
            return buttons.get("war", False) and await self.submit({"type": "war"})
        return False
