"""A small stand-in for controller/table.py, for developing and testing the screens.

It implements the interface of docs/RUNTIME-INTERFACE.md (submit, published,
subscribe, unsubscribe) with the real round machines and the real poker engine,
so what the screens show is what the rules decide; it has no devices and no
journal file: "devices" are events the tests submit with source="device", the
shoe is a stacked list of cards, and the journal is a list in memory that the
tests read (each supervisor action with who and when).
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt

from controller.cards import format_cards, parse_card
from controller.games.base import EventRefused
from controller.games.caribbean_stud.machine import CaribbeanStudRound, new_meter
from controller.games.caribbean_stud.rules import StudRules
from controller.games.casino_war.machine import CasinoWarRound

SUPERVISOR_ONLY = {"validate", "refuse", "void_round", "clear_fault", "correct_meter", "accept_software"}

STUD_STEPS = {
    "open": "Take antes and progressive wagers; press No more bets when betting is done.",
    "no_more_bets": "Lock-out is on. Press Deal to deal the stacks.",
    "dealing": "Dealing.",
    "dealer_fifth": "The dealer has four cards: deal one more to the dealer.",
    "decisions": "Each player bets or folds; press Reveal when every seat has decided.",
    "revealed": "Dealer's hand is shown. Press Settle.",
    "validation": "Progressive wins wait for a supervisor's validation.",
    "closed": "Round over. Press Next round.",
    "void": "Round void: collect the cards and reshuffle, then Next round.",
}
WAR_STEPS = {
    "wagers": "Take initial and tie wagers; press No more bets when betting is done.",
    "first_deal": "Press Deal to deal one card to each seat and the dealer.",
    "first_settle": "Press Settle to settle initial and tie wagers.",
    "decisions": "Tie hand: the player surrenders or goes to war.",
    "war_deal": "Press War to burn three and deal the war cards.",
    "war_settle": "Press Settle to settle the war.",
    "closed": "Round over. Press Next round.",
}


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


class FakeTable:
    def __init__(self, game: str, *, deck: list[str] | None = None, meter: int = 2_500_000,
                 seats: int = 7, poker_stacks: tuple[int, ...] = (1000, 3000, 5000)) -> None:
        self.game = game
        self.seat_count = seats
        self.deck = list(deck or [])
        self.journal: list[dict] = []
        self.queues: list[asyncio.Queue] = []
        self.round_no = 1
        self.fault: dict | None = None
        self.alarms: list[dict] = []
        self.devices = [{"name": "shoe", "status": "emulated", "detail": "stacked deck"},
                        {"name": "shuffler", "status": "emulated", "detail": "card count 52"}]
        self.validations_refused: set[int] = set()
        self.effects: list[dict] = []
        if game == "caribbean-stud":
            self.rules = StudRules()
            self.meter = new_meter(self.rules, meter)
            self.devices.append({"name": "progressive", "status": "emulated", "detail": "7 acceptors"})
            self._new_round()
        elif game == "casino-war":
            self._new_round()
        elif game == "poker":
            self.poker_stacks = poker_stacks
            self.button = len(poker_stacks) - 1
            self._new_round()
        else:
            raise ValueError(game)

    # -- the interface ---------------------------------------------------------------------

    def subscribe(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue()
        self.queues.append(q)
        return q

    def unsubscribe(self, q) -> None:
        if q in self.queues:
            self.queues.remove(q)

    async def submit(self, event: dict, *, source: str, who: str | None = None) -> dict:
        kind = event.get("type")
        if kind in SUPERVISOR_ONLY and (source != "supervisor" or not who):
            return {"ok": False, "error": f"{kind} refused: a supervisor's action"}
        self.journal.append({"kind": "event", "event": copy.deepcopy(event), "source": source,
                             "who": who, "at": _now()})
        try:
            effects = self._apply(event, who)
        except (EventRefused, ValueError) as exc:   # the poker engine's IllegalAction is a ValueError
            return {"ok": False, "error": str(exc)}
        self.effects.extend(effects)
        self._publish()
        return {"ok": True, "effects": effects}

    def _publish(self) -> None:
        state = self.published()
        for q in self.queues:
            q.put_nowait(state)

    # -- rounds ---------------------------------------------------------------------------

    def _round_id(self) -> str:
        return f"R-{self.round_no:04d}"

    def _new_round(self) -> None:
        self.settlement = None
        self.validations_refused = set()
        self.voided = None
        if self.game == "caribbean-stud":
            self.round = CaribbeanStudRound(self.rules, self.meter, dealing_mode="automated",
                                            round_id=self._round_id())
        elif self.game == "casino-war":
            self.round = CasinoWarRound()
        else:
            from controller.poker.hand import Hand, HandSetup
            from controller.poker.variants import variant
            n = len(self.poker_stacks)
            self.hand = Hand(HandSetup(variant=variant("NT"), starting_stacks=self.poker_stacks,
                                       antes=(0,) * n, blinds=(50, 100) + (0,) * (n - 2),
                                       small_bet=100, big_bet=100))

    def _draw(self, count: int) -> list[str]:
        if len(self.deck) < count:
            raise ValueError("the stacked deck is empty")
        out, self.deck = self.deck[:count], self.deck[count:]
        return out

    def _apply(self, event: dict, who: str | None) -> list[dict]:
        kind = event["type"]
        if kind == "void_round":
            self.voided = {"reason": event.get("reason"), "supervisor": who}
            self.journal.append({"kind": "void_round", "who": who, "reason": event.get("reason"), "at": _now()})
            return [{"type": "void_round", "reason": event.get("reason")}]
        if kind == "clear_fault":
            self.fault = None
            self.alarms = [a for a in self.alarms if a["kind"] != "fault"]
            self.journal.append({"kind": "clear_fault", "who": who, "reason": event.get("reason"), "at": _now()})
            return []
        if kind == "correct_meter":
            self.meter.correct(event["amount"], reason=event.get("reason", ""), supervisor=who)
            self.journal.append({"kind": "correct_meter", "who": who, "amount": event["amount"],
                                 "meter": self.meter.amount, "at": _now()})
            return []
        if kind == "next_round":
            if self.game == "poker":
                if not self.hand.finished:
                    raise ValueError("the hand is not over")
                self.poker_stacks = tuple(s for s in self.hand.result.finishing_stacks)
            elif self.round.state.value not in ("closed", "void") and not self.voided:
                raise ValueError(f"next_round refused in state {self.round.state.value}")
            self.round_no += 1
            self._new_round()
            return []
        if kind == "fault":      # a device reports a fault (tests)
            self.fault = {"reason": event["reason"], "since": _now()}
            return []
        if kind == "deck_count":  # the shuffler's card count (tests)
            if event["count"] != 52:
                self.alarms.append({"kind": "deck_count",
                                    "message": f"Shuffler counted {event['count']} cards, not 52"})
            return []
        if kind == "device":     # a device's status changes (tests)
            for d in self.devices:
                if d["name"] == event["name"]:
                    d.update(status=event["status"], detail=event.get("detail", ""))
            return []
        if self.game == "caribbean-stud":
            return self._stud(event, who)
        if self.game == "casino-war":
            return self._war(event)
        return self._poker(event)

    def _stud(self, event: dict, who: str | None) -> list[dict]:
        r: CaribbeanStudRound = self.round
        kind = event["type"]
        if kind == "deal":
            if r.state.value != "no_more_bets":
                raise EventRefused("deal", r.state.value, r.allowed())
            effects = []
            while r.state.value in ("no_more_bets", "dealing"):
                effects += r.apply({"type": "stack", "cards": self._draw(5)})
            return effects
        if kind == "validate":
            effects = r.apply({"type": "validate", "seat": event["seat"], "supervisor": who})
            for e in effects:
                if e["type"] == "pay_progressive":
                    self.journal.append({"kind": "pay_progressive", "who": who, "seat": e["seat"],
                                         "amount": e["amount"], "meter": self.meter.amount, "at": _now()})
            return effects
        if kind == "refuse":
            self.validations_refused.add(event["seat"])
            self.journal.append({"kind": "refuse", "who": who, "seat": event["seat"],
                                 "reason": event.get("reason"), "at": _now()})
            return []
        effects = r.apply(event)
        for e in effects:
            if e["type"] == "settlement":
                self.settlement = e["steps"]
        return effects

    def _war(self, event: dict) -> list[dict]:
        r: CasinoWarRound = self.round
        kind = event["type"]
        if kind in ("deal", "war"):
            state = "first_deal" if kind == "deal" else "war_deal"
            if r.state.value != state:
                raise EventRefused(kind, r.state.value, r.allowed())
            effects = []
            while r.state.value == state:
                effects += r.apply({"type": "card", "card": self._draw(1)[0]})
            return effects
        effects = r.apply(event)
        steps = []
        for e in effects:
            if e["type"] == "settle":
                for s in e["seats"]:   # 5324.22(i)(1): from the dealer's left, clockwise
                    for name in ("initial", "tie", "war", "war_tie"):
                        w = s.get(name)
                        if w:
                            step = {"win": "pay", "lose": "collect", "push": "push"}.get(w["outcome"], "collect")
                            steps.append({"seat": s["seat"], "step": step, "wager": name, "amount": abs(w["net"])})
            if e["type"] == "surrender":
                w = e["initial"]
                steps.append({"seat": e["seat"], "step": "collect", "wager": "initial", "amount": -w["net"]})
        if steps:
            order = {"collect": 0, "push": 1, "pay": 2}
            # Each deal settled in turn: the first deal's, then the war's.
            self.settlement = (self.settlement or []) + sorted(steps, key=lambda s: (order[s["step"]], s["seat"]))
        return effects

    def _poker(self, event: dict) -> list[dict]:
        from controller.poker.actions import (BET_RAISE, BRING_IN, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, FOLD, SHOW,
                                              Action)
        from controller.poker.hand import Phase
        h = self.hand
        kind = event["type"]
        player = event.get("seat", 1) - 1 if "seat" in event else h.to_act
        if kind == "deal_hole":
            owed = h.dealer_owes()["hole"]
            for p in sorted(owed):
                h.apply(Action(DEAL_HOLE, p, tuple([None] * len(owed[p]))))
            return []
        if kind == "deal_board":
            cards = tuple(int(parse_card(c)) for c in event["cards"])
            h.apply(Action(DEAL_BOARD, None, cards))
            return []
        if kind == "fold":
            h.apply(Action(FOLD, player))
        elif kind == "check_call":
            h.apply(Action(CHECK_CALL, player))
        elif kind == "bring_in":
            h.apply(Action(BRING_IN, player))
        elif kind == "bet_raise":
            h.apply(Action(BET_RAISE, player, None, event["amount"]))
        elif kind == "show":
            h.apply(Action(SHOW, player, tuple(int(parse_card(c)) for c in event["cards"])))
        elif kind == "muck":
            h.apply(Action(SHOW, player, None))
        else:
            raise ValueError(f"{kind} is not a poker event here")
        if h.phase is Phase.SHOWDOWN and not h.showing:
            h.finish()
        return []

    # -- published state ------------------------------------------------------------------

    def meter_amount(self) -> int:
        return self.meter.amount

    def published(self) -> dict:
        base = {"table": {"id": "T-1", "name": f"Test {self.game}", "game": self.game, "seats": self.seat_count},
                "devices": copy.deepcopy(self.devices), "fault": copy.deepcopy(self.fault),
                "settlement": copy.deepcopy(self.settlement), "validations": []}
        alarms = list(self.alarms)
        if self.fault:
            alarms.append({"kind": "fault", "message": f"Fault: {self.fault['reason']}"})
        for d in self.devices:
            if d["status"] in ("disconnected", "missing"):
                alarms.append({"kind": "device", "message": f"{d['name']} {d['status']}"})
        if self.game == "caribbean-stud":
            base.update(self._stud_state(alarms))
        elif self.game == "casino-war":
            base.update(self._war_state())
        else:
            base.update(self._poker_state())
        base["alarms"] = alarms
        return base

    def _buttons(self, names: list[tuple[str, str]], enabled: set[str]) -> list[dict]:
        return [{"event": e, "label": label, "enabled": e in enabled} for e, label in names]

    def _stud_state(self, alarms: list[dict]) -> dict:
        r: CaribbeanStudRound = self.round
        snap = r.snapshot()
        state = "void" if self.voided else snap["state"]
        allowed = set(r.allowed()) if not self.voided else set()
        enabled = set()
        if "no_more_bets" in allowed and snap["antes"]:
            enabled.add("no_more_bets")
        if "stack" in allowed and state == "no_more_bets":
            enabled.add("deal")
        if "reveal" in allowed and r.all_decided():
            enabled.add("reveal")
        if "settle" in allowed:
            enabled.add("settle")
        if state in ("closed", "void"):
            enabled.add("next_round")
        buttons = self._buttons([("no_more_bets", "No more bets"), ("deal", "Deal"), ("reveal", "Reveal"),
                                 ("settle", "Settle"), ("next_round", "Next round")], enabled)
        result = {s["seat"]: s for s in (snap["result"] or {}).get("seats", [])}
        seats = []
        for key, ante in sorted(snap["antes"].items(), key=lambda kv: int(kv[0])):
            seat = int(key)
            wagers = {"ante": ante}
            if seat in snap["progressive"]:
                wagers["progressive"] = self.rules.progressive.wager
            if snap["decisions"].get(key) == "bet":
                wagers["bet"] = ante * self.rules.bet_multiple
            light = snap["lights"].get(key, "off")
            seats.append({"seat": seat, "wagers": wagers, "cards": snap["hands"].get(key, []),
                          "decision": snap["decisions"].get(key), "light": light,
                          "void": seat in snap["void"], "hand": result.get(seat, {}).get("hand")})
        for key, light in snap["lights"].items():
            if light == "late":
                alarms.append({"kind": "late_wager", "seat": int(key),
                               "message": f"Seat {key}: progressive wager after the lock-out, not recognized"})
            if light == "removed":
                alarms.append({"kind": "wager_removed", "seat": int(key),
                               "message": f"Seat {key}: progressive wager removed"})
        dealer_cards = snap["hands"].get("dealer", [])
        rev = snap["revealed"]
        dealer = {"cards": dealer_cards if rev else dealer_cards[:1] + ["??"] * max(0, len(dealer_cards) - 1),
                  "up_card": dealer_cards[0] if dealer_cards else None,
                  "hand": rev["hand"] if rev else None, "qualifies": rev["qualifies"] if rev else None}
        validations = []
        before = None
        if self.meter.last_awards:
            before = self.meter.last_awards[-1]["meter_before_awards"]
        for key, award in sorted(snap["pending"].items(), key=lambda kv: -int(kv[0])):
            seat = int(key)
            if key in snap["validated"] or seat in self.validations_refused:
                continue
            validations.append({"seat": seat, "cards": award["cards"], "hand": award["hand"],
                                "award": award["award"], "meter": before})
        return {"round": {"id": self._round_id(), "state": state, "next_step": STUD_STEPS[state],
                          "buttons": buttons},
                "seats": seats, "dealer": dealer,
                "meter": {"amount": self.meter.amount, "reset": self.meter.reset_amount,
                          "pending": [v["award"] for v in validations]},
                "validations": validations}

    def _war_state(self) -> dict:
        r: CasinoWarRound = self.round
        snap = r.snapshot()
        state = snap["state"]
        allowed = set(r.allowed())
        enabled = set()
        if "no_more_bets" in allowed and snap["wagers"]:
            enabled.add("no_more_bets")
        if state == "first_deal":
            enabled.add("deal")
        if state == "war_deal":
            enabled.add("war")
        if "settle" in allowed:
            enabled.add("settle")
        if state == "closed":
            enabled.add("next_round")
        buttons = self._buttons([("no_more_bets", "No more bets"), ("deal", "Deal"), ("settle", "Settle"),
                                 ("war", "War"), ("next_round", "Next round")], enabled)
        seats = []
        for key, w in sorted(snap["wagers"].items(), key=lambda kv: int(kv[0])):
            wagers = dict(w)
            d = snap["decisions"].get(key)
            if d and d["decision"] == "war":
                wagers["war"] = w["initial"]
                if "war_tie" in d:
                    wagers["war_tie"] = d["war_tie"]
            cards = [c for c in (snap["cards"].get(key), snap["war_cards"].get(key)) if c]
            waiting = [s for s in snap["tie_hands"] if str(s) not in snap["decisions"]]
            decision = d["decision"] if d else ("offer" if waiting and waiting[0] == int(key) else None)
            seats.append({"seat": int(key), "wagers": wagers, "cards": cards, "decision": decision,
                          "light": None, "void": False, "hand": None})
        dealer = [c for c in (snap["dealer_card"], snap["dealer_war_card"]) if c]
        return {"round": {"id": self._round_id(), "state": state, "next_step": WAR_STEPS[state],
                          "buttons": buttons},
                "seats": seats, "dealer": {"cards": dealer, "up_card": snap["dealer_card"], "hand": None,
                                           "qualifies": None}}

    def _poker_state(self) -> dict:
        h = self.hand
        n = h.n
        seat = lambda p: p + 1  # noqa: E731 - players 0.. are seats 1..
        opts = h.options()
        options = []
        if opts is not None:
            if opts.fold:
                options.append({"action": "fold"})
            options.append({"action": "check"} if opts.check else {"action": "call", "min": opts.call,
                                                                    "max": opts.call})
            if opts.bring_in:
                options.append({"action": "bring_in", "min": opts.bring_in, "max": opts.bring_in})
            if opts.raise_word:
                options.append({"action": opts.raise_word, "min": opts.raise_min, "max": opts.raise_max})
        pots = h.result.pots if h.finished else h.pots()
        players = []
        for p in range(n):
            known = [format_cards([c])[0] if c is not None else "??" for c in h.hole[p]]
            players.append({"seat": seat(p), "stack": h.stacks[p], "bet": h.bets[p], "cards": known,
                            "folded": not h.live[p], "all_in": h.live[p] and h.stacks[p] == 0
                            and h.committed[p] > 0})
        owes = h.dealer_owes()
        phase = h.phase.value
        if phase == "deal":
            step = ("Deal the hole cards." if owes["hole"] else f"Deal {owes['board']} board card(s).")
        elif phase == "bet":
            step = f"Seat {seat(h.to_act)} to act."
        elif phase == "showdown":
            step = f"Showdown: seat {seat(h.to_act)} shows or mucks."
        else:
            step = "Hand over: push the pots, then Next hand."
        showdown = None
        if h.finished:
            showdown = {"pots": [{"amount": p.amount, "awards": {str(seat(k)): v for k, v in p.awards.items()}}
                                 for p in h.result.pots]}
        poker = {"variant": "No-limit Texas hold'em", "button": seat(n - 1),
                 "blinds": {"small": 50, "big": 100, "small_seat": 1, "big_seat": 2},
                 "to_act": seat(h.to_act) if h.to_act is not None else None, "options": options,
                 "pot": sum(p.amount for p in pots) + (0 if h.finished else sum(h.bets)),
                 "side_pots": [{"amount": p.amount, "eligible": [seat(e) for e in p.eligible]}
                               for p in pots[1:]],
                 "main_pot": pots[0].amount if pots else 0,
                 "rake": h.result.rake if h.finished else 0,
                 "jackpot_drop": h.result.jackpot_drop if h.finished else 0,
                 "board": format_cards(h.board), "players": players, "showdown": showdown,
                 "phase": phase, "owes": {"hole": bool(owes["hole"]), "board": owes["board"]}}
        enabled = {"next_round"} if h.finished else set()
        return {"round": {"id": self._round_id(), "state": phase, "next_step": step,
                          "buttons": self._buttons([("next_round", "Next hand")], enabled)},
                "seats": [], "dealer": None, "poker": poker}
