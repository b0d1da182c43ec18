"""A poker hand at the live table: the engine's hand, the dealer's entries, the seats between hands.

The engine (controller/poker/hand.py) takes a hand one action at a time, in PHH
notation ("d dh p1 AsKs", "p3 cbr 600", "p2 sm -"), and refuses what the rules
refuse without changing anything. At the table the dealer enters the cards and
the players' actions (the dealer's screen sends exactly that notation), the
shuffler counts the deck before the hand (5324.42(f)(6)(iv): a deck is played only
when it holds 52 cards), and between hands players sit down and leave and the
button moves. Like the banked games, a hand is a pure function of its journaled
events, so recovery replays them; its record is the PHH text of the hand
(shared/spec/poker.md), which `tablectl poker replay` replays.

Events:
  {"type": "deck_count", "total", "anomalies", "truncated"}   the shuffler's reader
  {"type": "action", "action": "<PHH action>"}                  the dealer's entry
Between hands (controller/runtime/tablestate.py):
  {"type": "sit", "seat": n, "stack": cents}   {"type": "leave", "seat": n}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from controller.games.base import EventRefused

FULL_DECK = 52
COUNT_PROVISION = "5324.42(f)(6)(iv)"
DEALING = ("dh", "db")


def setup_of(opening: Mapping[str, Any]):
    """The engine's HandSetup for an opening (what the snapshot journals)."""
    from controller.poker import jackpot, rake
    from controller.poker.hand import HandSetup
    from controller.poker.variants import variant_for
    s = opening["setup"]
    return HandSetup(variant=variant_for(opening["game"], opening["structure"]),
                     starting_stacks=tuple(opening["stacks"]), antes=tuple(s["antes"]), blinds=tuple(s["blinds"]),
                     bring_in=s["bring_in"], small_bet=s["small_bet"], big_bet=s["big_bet"],
                     raise_cap=s["raise_cap"],
                     rake=rake.rule_from_fields(opening["rake"]) if opening.get("rake") else None,
                     jackpot=jackpot.rule_from_fields(opening["jackpot"]) if opening.get("jackpot") else None)


def opening_for(profile: Any, round_id: str, number: int, seats: dict[int, int], button: int | None) -> dict:
    """The next hand of a poker table: players in PHH order (after the button), forced bets, stakes."""
    from controller.poker import jackpot, rake
    from controller.poker.hand import DEFAULT_RAISE_CAP
    from controller.poker.variants import variant_for
    p = profile.poker
    variant = variant_for(profile.game, p.structure)
    occupied = sorted(s for s, stack in seats.items() if stack > 0)
    if variant.button:
        after = [s for s in occupied if s > button] + [s for s in occupied if s <= button]
        order = after                                  # the small blind first, the button last
        blinds = [0] * len(order)
        forced = [p.small_blind, p.big_blind] if p.small_blind else [p.big_blind]
        if len(order) == 2 and p.small_blind:
            forced = [p.small_blind, p.big_blind]      # PHH heads-up order; the engine reverses it
        for i, amount in enumerate(forced[:len(order)]):
            blinds[i] = amount
        bring_in = 0
    else:
        order = occupied                               # stud: from the dealer's left
        blinds = [0] * len(order)
        bring_in = p.bring_in
    if variant.fixed_limit:
        small, big = p.small_bet, p.big_bet
    else:
        small = big = p.min_bet or getattr(p, "big_blind", None) or p.bring_in
    return {"round": round_id, "number": number, "game": profile.game, "structure": p.structure,
            "seat_count": profile.seats, "order": order, "stacks": [seats[s] for s in order],
            "button": button if variant.button else None,
            "setup": {"antes": [p.ante] * len(order), "blinds": blinds, "bring_in": bring_in, "small_bet": small,
                      "big_bet": big, "raise_cap": p.raise_cap or (DEFAULT_RAISE_CAP if variant.fixed_limit
                                                                   else None)},
            "rake": rake.rule_fields(rake.rule_from_config(p.rake)),
            "jackpot": jackpot.rule_fields(jackpot.rule_from_config(p.jackpot)) if p.jackpot else None}


class PokerRound:
    """One hand of poker as the table plays it; `apply` is all-or-nothing."""

    def __init__(self, opening: Mapping[str, Any]) -> None:
        from controller.poker.hand import Hand
        self.opening = copy.deepcopy(dict(opening))
        self.game = opening["game"]
        self.round_id: str = opening["round"]
        self.order: list[int] = list(opening["order"])
        self.setup = setup_of(opening)
        self.hand = Hand(self.setup)
        self.events: list[dict] = []
        self.count: dict | None = None
        self.shuffles = 0
        self.alarms: list[dict] = []
        self.record: dict | None = None
        self.meter = None

    # -- state ---------------------------------------------------------------------------

    @property
    def state(self) -> str:
        return "closed" if self.closed else self.hand.phase.value

    @property
    def closed(self) -> bool:
        return self.hand.finished

    def deck_wanted(self) -> int | None:
        if self.closed or self.count is not None or self.hand.log:
            return None
        return self.shuffles

    def cards_wanted(self) -> int:
        return 0   # poker is dealt from the dealer's hand, not a shoe (5324.42(f)(6)(i))

    def lockout(self) -> bool:
        return False

    def lights(self) -> dict:
        return {}

    def stacks_after(self) -> dict[int, int]:
        return {seat: stack for seat, stack in zip(self.order, self.hand.result.finishing_stacks)}

    # -- events ------------------------------------------------------------------------------

    def allowed(self) -> list[str]:
        return [] if self.closed else ["action", "deck_count", "shoe_check"]

    def refuse(self, kind: str, reason: str):
        raise EventRefused(kind, self.state, self.allowed(), reason)

    def apply(self, event: Any) -> list[dict]:
        kind = event.get("type") if isinstance(event, dict) else None
        if self.closed:
            self.refuse(str(kind), "the hand is over")
        if kind == "deck_count":
            effects = self._deck_count(event)
        elif kind == "action":
            effects = self._action(event)
        elif kind == "shoe_check":
            effects = self._restart()
        else:
            self.refuse(repr(kind), "not an event of a poker hand (actions are PHH notation)")
        self.events.append(copy.deepcopy(event))
        return effects

    def _deck_count(self, e: dict) -> list[dict]:
        total, anomalies, truncated = e.get("total"), e.get("anomalies", []), e.get("truncated", False)
        if type(total) is not int or not isinstance(anomalies, list) or not isinstance(truncated, bool):
            self.refuse("deck_count", "total (a whole number), anomalies (a list) and truncated (true/false)")
        if self.hand.log:
            self.refuse("deck_count", "the hand has begun; the deck was counted before it")
        ok = total == FULL_DECK and not anomalies and not truncated
        self.count = {"total": total, "anomalies": list(anomalies), "truncated": truncated, "ok": ok}
        self.alarms = [a for a in self.alarms if a["kind"] != "deck_count"]
        if ok:
            return []
        alarm = {"kind": "deck_count", "message": f"the deck counted {total} cards, not {FULL_DECK}: it is not "
                 f"played ({COUNT_PROVISION}); the supervisor replaces it"}
        self.alarms.append(alarm)
        return [{"type": "alarm", **alarm}]

    def _restart(self) -> list[dict]:
        """After a restart the dealer's cards are where the journal left them; a hand not yet dealt
        has its deck counted again."""
        if not self.hand.log:
            self.count = None
            self.shuffles += 1
        return [{"type": "resumed"}]

    def _action(self, e: dict) -> list[dict]:
        from controller.poker.actions import ActionSyntaxError, parse_action
        from controller.poker.errors import IllegalAction
        text = e.get("action")
        try:
            action = parse_action(text)
        except ActionSyntaxError as exc:
            self.refuse("action", str(exc))
        if action is None:
            self.refuse("action", "no action in it")
        if action.kind in DEALING and not (self.count and self.count["ok"]):
            self.refuse("action", "no card is dealt before the deck counts 52 "
                        f"({COUNT_PROVISION})")
        try:
            self.hand.apply(action)
        except IllegalAction as exc:
            self.refuse("action", str(exc))
        except ValueError as exc:   # the engine's other refusals of what it was given
            self.refuse("action", str(exc))
        if not self.hand.finished:
            return []
        from controller.poker.phh import hand_to_phh
        result = self.hand.result
        self.record = {"game": self.game, "round": self.round_id, "phh": hand_to_phh(self.hand),
                       "seats": self.order, "stacks_before": list(self.setup.starting_stacks),
                       "stacks_after": list(result.finishing_stacks), "rake": result.rake,
                       "jackpot_drop": result.jackpot_drop, "void": result.void}
        return [{"type": "journal", "kind": "round-record", "payload": self.record}, {"type": "closed"}]

    # -- the published hand ---------------------------------------------------------------

    def view(self) -> dict:
        from controller.poker.deck import card_text
        h = self.hand
        to_act = h.to_act if not self.closed else None
        options = []
        o = h.options() if not self.closed else None
        if o is not None:
            if o.fold:
                options.append({"action": "f", "min": None, "max": None})
            options.append({"action": "cc", "min": o.call, "max": o.call})
            if o.bring_in:
                options.append({"action": "pb", "min": o.bring_in, "max": o.bring_in})
            if o.raise_word:
                options.append({"action": "cbr", "min": o.raise_min, "max": o.raise_max, "word": o.raise_word})
        pots = h.pots()
        owed = h.dealer_owes() if not self.closed else {"hole": {}, "board": 0}
        players = [{"seat": seat, "player": i + 1, "stack": h.stacks[i], "bet": h.bets[i],
                    "cards": [card_text(c) for c in h.hole[i]], "folded": h.folded[i],
                    "all_in": h.stacks[i] == 0 and not h.folded[i]} for i, seat in enumerate(self.order)]
        turn = None
        if to_act is not None:
            turn = ("bet" if o is not None else "show" if h.phase.value == "showdown"
                    else "discard" if getattr(h, "discard_turn", None) else "draw")
        poker = {"variant": h.variant.code, "button": self.opening.get("button"),
                 "blinds": list(self.setup.blinds), "to_act": None if to_act is None else to_act + 1,
                 "turn": turn, "options": options, "pot": sum(p.amount for p in pots),
                 "side_pots": [{"amount": p.amount, "eligible": [self.order[i] for i in p.eligible]}
                               for p in pots[1:]],
                 "rake": h.result.rake if h.result else None,
                 "jackpot_drop": h.result.jackpot_drop if h.result else None,
                 "board": [card_text(c) for c in h.board], "players": players,
                 "owed": {"hole": {str(i + 1): len(f) for i, f in owed["hole"].items()}, "board": owed["board"]},
                 "actions": h.actions(), "showdown": self.record if self.closed else None,
                 "deck": self.count}
        seats = [{"seat": p["seat"], "wagers": {"bet": p["bet"]}, "cards": p["cards"],
                  "decision": "fold" if p["folded"] else None, "light": None, "void": False, "hand": None}
                 for p in players]
        return {"round": {"id": self.round_id, "state": self.state, "next_step": self.next_step(to_act, owed),
                          "buttons": [{"event": "next_round", "label": "Next hand", "enabled": self.closed}]},
                "seats": seats, "dealer": {"cards": poker["board"], "up_card": None, "hand": None,
                                           "qualifies": None},
                "settlement": None, "validations": [], "alarms": list(self.alarms), "poker": poker}

    def next_step(self, to_act: int | None, owed: dict) -> str:
        if self.closed:
            return "Hand over: push the pots, then press Next hand."
        if self.count is None:
            return "Waiting for the shuffler's count of the deck."
        if not self.count["ok"]:
            return "Deck count wrong: call a supervisor; the deck is not played."
        if owed["hole"] or owed["board"]:
            return "Deal the cards the hand is owed, and enter them."
        if to_act is not None:
            return f"Seat {self.order[to_act]} (p{to_act + 1}) to act."
        return "Enter the next action."
