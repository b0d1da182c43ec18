"""High card at the live table: the round machine, the dispensing shoe's cards, the dealer's buttons.

Each round is dealt from a fresh deck, as Caribbean stud's: the table asks the shuffler for a
shuffle (`deck_wanted()`), the shuffler counts the deck ("deck_count": 52 cards, or no deal from
it) and loads it into the dispensing shoe ("shoe_loaded"). Once the dealer has pressed Deal the
table asks `cards_wanted()` and the shoe (emulated on a test table) dispenses them one at a
time: each comes back as a "shoe_card" event and goes to the place the machine says (each seat
with a wager, then the dealer). A supervisor
may void the round before it is settled. Like the machine, this is a pure function of its
journaled events: recovery replays them.

Events besides the machine's:
  {"type": "deck_count", "total": n, "anomalies": [..], "truncated": bool}   the shuffler's count
  {"type": "shoe_loaded", "cards": n}    the counted deck in the shoe
  {"type": "deal"}                       the dealer starts the deal (after no more bets)
  {"type": "shoe_card", "card": "Qh"}    a card out of the shoe
  {"type": "shoe_check", "dispensed": n} after a restart: the shoe's count
  {"type": "void_round", "reason": ".."} a supervisor voids the round before its settlement
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from controller.games.base import EventRefused, expect_event
from controller.games.event import Event, as_declared
from controller.games.game import Json

from high_card import events as declared   # its events declared: what boundary.journaled reads back into
from high_card.machine import Effect, HighCardRound, State
from high_card.rules import DECK, NAME, WAGER, Rules


class HighCardAtTable:
    """One round of high card as the table plays it (controller/games/base.py RoundAtTable)."""

    game = NAME

    def __init__(self, opening: Mapping[str, object]) -> None:
        self.opening: dict = copy.deepcopy(dict(opening))
        self.round_id: str = self.opening["round"]
        low, high = self.opening["wager_limits"]
        self.limits = (int(low), int(high))
        self.m = HighCardRound(Rules(**self.opening["rules"]), self.opening["seats"])
        self.dispensed: int = self.opening["shoe"]["dispensed"]
        self.dealing = False
        self.shuffles = 1                       # the shuffle asked for this round (a miscount asks again)
        self.count: dict[str, Json] | None = None   # the shuffler's count of the deck
        self.loaded = False                     # the counted deck is in the shoe
        self.events: list[Event] = []
        self.record: dict | None = None
        self.void: dict[str, Json] | None = None
        self.alarms: list[dict] = []
        self.own: Mapping[str, Callable[[Event], list[Effect]]] = {
            "deck_count": self._deck_count, "shoe_loaded": self._shoe_loaded,
            "deal": self._deal, "shoe_card": self._shoe_card, "shoe_check": self._shoe_check,
            "void_round": self._void_round}

    # -- state ----------------------------------------------------------------------------------

    @property
    def state(self) -> str:
        return "void" if self.void is not None else self.m.state.value

    @property
    def closed(self) -> bool:
        return self.void is not None or self.m.state is State.CLOSED

    def allowed(self) -> list[str]:
        if self.closed:
            return []
        before = not self.dealing and not self.m.cards
        own = ["void_round", "shoe_check"] + (["deck_count", "shoe_loaded"] if before else []) \
            + (["deal"] if self.m.state is State.DEALING and not self.dealing and self.deck_ok else []) \
            + (["shoe_card"] if self.cards_wanted() else [])
        return sorted(set(self.m.allowed()) - {"card"} | set(own))

    def cards_wanted(self) -> int:
        return 1 if not self.closed and self.m.state is State.DEALING and self.dealing else 0

    @property
    def deck_ok(self) -> bool:
        return self.loaded and self.count is not None and bool(self.count["ok"])

    def deck_wanted(self) -> int | None:
        """The shuffle to ask the shuffler for (its number this round); None once the deck is counted."""
        if self.closed or self.dealing or self.count is not None:
            return None
        return self.shuffles

    def lockout(self) -> bool:
        return not self.closed and self.m.state is not State.WAGERS

    def lights(self) -> dict:
        return {}

    # -- events ----------------------------------------------------------------------------------

    def apply(self, event: Any) -> list[dict]:
        kind: str | None = expect_event(event).type   # as the boundary admitted it (controller/boundary.py)
        if self.closed:
            raise EventRefused(str(kind), self.state, [], "the round is over")
        handler = self.own.get(kind) if isinstance(kind, str) else None
        if handler is not None:
            effects = handler(event)
        elif kind == "card" or kind not in self.m.allowed():
            raise EventRefused(str(kind), self.state, self.allowed(),
                               "cards come from the shoe" if kind == "card" else "")
        else:
            if kind == "wager":
                self._check_limits(event)
            effects = self._machine(event)
        self.events.append(event)   # a model: frozen
        return effects

    def _refuse(self, kind: str, why: str) -> EventRefused:
        return EventRefused(kind, self.state, self.allowed(), why)

    def _check_limits(self, event: Event) -> None:
        stake, (low, high) = as_declared(event, declared.Wager).stake, self.limits
        if not low <= stake <= high:
            raise self._refuse("wager", f"a wager is {low} to {high} cents at this table")

    def _machine(self, event: Event) -> list[dict]:
        effects: list[dict] = list(self.m.apply(event))
        if self.m.state is State.CLOSED:
            self.record = {"game": NAME, "round": self.round_id,
                           "record": {"game": NAME, "round": self.round_id, **self.m.record()},
                           "settlement": self.m.settlement, "shoe_after": {"dispensed": self.dispensed}}
            effects += [{"type": "journal", "kind": "round-record", "payload": self.record}, {"type": "closed"}]
        return effects

    def _deck_count(self, e: Event) -> list[Effect]:
        count = as_declared(e, declared.DeckCount)   # its fields typed at the door
        total, anomalies, truncated = count.total, count.anomalies, count.truncated
        if self.dealing:
            raise self._refuse("deck_count", "the deal has begun; the deck was counted before it")
        ok = total == DECK and not anomalies and not truncated
        self.count = {"total": total, "anomalies": list(anomalies), "truncated": truncated, "ok": ok}
        self.alarms = [a for a in self.alarms if a["kind"] != "deck_count"]
        if ok:
            return []
        self.count, self.loaded, self.shuffles = None, False, self.shuffles + 1   # shuffle and count again
        alarm: dict[str, Json] = {"kind": "deck_count", "message": f"the deck counted {total} cards, not {DECK}: "
                                  "no deal from it; it is shuffled and counted again"}
        self.alarms.append(alarm)
        return [{"type": "alarm", **alarm}]

    def _shoe_loaded(self, e: Event) -> list[Effect]:
        if self.dealing:
            raise self._refuse("shoe_loaded", "the shoe was loaded in the middle of the deal")
        self.loaded = True
        return []

    def _deal(self, e: Event) -> list[Effect]:
        if self.m.state is not State.DEALING or self.dealing:
            raise self._refuse("deal", 'the deal follows "no more bets", once')
        if not self.deck_ok:
            raise self._refuse("deal", "the deck is not counted and in the shoe yet")
        self.dealing = True
        return []

    def _shoe_card(self, e: Event) -> list[Effect]:
        if not self.cards_wanted():
            raise self._refuse("shoe_card", "a card came out of the shoe with no deal under way")
        effects = self._machine(declared.DealtCard(card=as_declared(e, declared.ShoeCard).card))
        self.dispensed += 1
        return effects

    def _shoe_check(self, e: Event) -> list[Effect]:
        told = as_declared(e, declared.ShoeCheck).dispensed   # a whole number: the door checks it
        if told == self.dispensed:
            return [{"type": "resumed", "dispensed": told}]
        alarm: dict[str, Json] = {"kind": "device", "message": f"the shoe reports {told} card(s) dealt, the "
                                  f"journal {self.dispensed}: a supervisor voids the round"}
        self.alarms.append(alarm)
        return [{"type": "alarm", **alarm}]

    def _void_round(self, e: Event) -> list[Effect]:
        reason = as_declared(e, declared.VoidRound).reason
        if not reason.strip():
            raise self._refuse("void_round", "a void needs a reason")
        if self.m.state is State.CLOSED:
            raise self._refuse("void_round", "the round is settled")
        wagers: list[Json] = [{"seat": s, WAGER: stake} for s, stake in sorted(self.m.wagers.items())]
        self.void = {"reason": reason.strip(), "wagers": wagers}
        self.record = {"game": NAME, "round": self.round_id, "void": self.void,
                       "shoe_after": {"dispensed": self.dispensed}}
        return [{"type": "void_round", "reason": reason.strip()},
                {"type": "journal", "kind": "round-record", "payload": self.record}, {"type": "closed"}]

    # -- the published round -------------------------------------------------------------------

    def view(self) -> dict:
        m = self.m
        seats = [{"seat": s, "wagers": {WAGER: m.wagers[s]} if s in m.wagers else {},
                  "cards": [str(m.cards[s])] if s in m.cards else [],
                  "outcome": m.outcomes.get(s),
                  "decision": None, "light": None, "void": self.void is not None, "hand": None}
                 for s in range(1, m.seats + 1)]
        dealer = [str(m.dealer)] if m.dealer is not None else []
        return {"round": {"id": self.round_id, "state": self.state, "allowed": self.allowed(),
                          "next_step": self.next_step(), "buttons": self.buttons()},
                "seats": seats, "dealer": {"cards": dealer, "up_card": dealer[0] if dealer else None,
                                           "hand": None, "qualifies": None},
                "settlement": settlement_steps(m.settlement), "validations": [], "alarms": list(self.alarms),
                "shoe": {"dispensed": self.dispensed, "loaded": self.loaded, "count": self.count}}

    def buttons(self) -> list[dict]:
        st = self.m.state
        return [
            {"event": "no_more_bets", "label": "No more bets", "enabled": st is State.WAGERS and bool(self.m.wagers)},
            {"event": "deal", "label": "Deal", "enabled": st is State.DEALING and not self.dealing and self.deck_ok},
            {"event": "settle", "label": "Settle", "enabled": st is State.SETTLING},
            {"event": "next_round", "label": "Next round", "enabled": self.closed},
        ]

    def next_step(self) -> str:
        st = self.m.state
        if self.void is not None:
            return "Round void: return every wager, then press Next round."
        if st is State.WAGERS:
            return "Take one wager per player; press No more bets when done."
        if st is State.DEALING:
            if not self.deck_ok:
                return "Waiting for the shuffler's count of the deck and the shoe."
            if not self.dealing:
                return "Press Deal: one card to each wager, then the dealer's."
            seat = self.m.next_place()
            return f"Dealing: seat {seat}'s card." if seat is not None else "Dealing: the dealer's card."
        if st is State.SETTLING:
            return "Press Settle: higher card wins even money, a tie pushes."
        return "Round over: collect the cards, then press Next round."


def settlement_steps(settled: Mapping[str, Json] | None) -> list[dict[str, Json]] | None:
    """The settled round as the dealer works through it (the console's pay list): collect the
    losing wagers, return the ties, pay the winners; None before the settlement."""
    if settled is None:
        return None
    collect, push, pay = [], [], []
    seats = settled.get("seats")
    for s in seats if isinstance(seats, list) else []:
        w = s[WAGER] if isinstance(s, dict) else None
        assert isinstance(s, dict) and isinstance(w, dict)
        stake, won = w["stake"], w["net"]
        assert isinstance(stake, int) and isinstance(won, int)
        step: dict[str, Json] = {"seat": s["seat"], "wager": WAGER}
        if won < 0:
            collect.append({**step, "step": "collect", "amount": -won})
        elif won == 0:
            push.append({**step, "step": "push", "amount": stake})
        else:
            pay.append({**step, "step": "pay", "amount": won})
    return collect + push + pay
