"""The casino war round as a state machine fed with events (5324.22(g)-(i)).

A round is a pure function of its events: the table journals every event it
hands to `apply` and, after a power cut, replays them into a fresh round. So
nothing here draws a card, reads a clock or touches a device. Cards arrive
as events from the shoe driver (`{"type": "card", "card": Card("Qh")}`: a Card as
the driver read it, written "Qh" in the journal), and the
machine knows from the procedure where each one goes: a burn card, a seat in
seat order, or the dealer (5324.22(h)(3), (i)(5)(i)).

`apply(event)` first checks that the state allows the event and that the
event is well formed and lawful; only then does it change anything. A refused
event raises EventRefused naming the state and the events it allows, and the
round is exactly as it was. `transitions` only sequences the states; the
rules are rules.py, and the closed round is written as the round record of
shared/spec/rounds.md and settled by record.settle_record, the function
`tablectl settle` uses.

Events (JSON-able dicts):
  {"type": "wager", "seat": 1..7, "wager": "initial"|"tie", "stake": cents}
  {"type": "no_more_bets"}
  {"type": "card", "card": Card}                  from the shoe, in the order drawn
  {"type": "cover_card"}                          the cover card came out (5324.22(h)(4))
  {"type": "no_card", "seat": n}                  the dealer passes a seat (5324.22(h)(3)(iii))
  {"type": "settle"}                              the dealer settles the deal just dealt
  {"type": "decision", "seat": n, "decision": "surrender"|"war", "war_tie": cents (optional)}
  {"type": "hand_pay", "seat": n, "player_id": "...", "form": "...", "supervisor": "..."}  a hand-pay's
                                                  tax form (a W-2G), filled in by the supervisor who pays it

A hand-pay (issue 29, controller/games/handpay.py): a wager settled for at least the round's threshold
(`hand_pay`, the profile's `[hand_pay]`) holds its seat: the dealer pays none of it (paylist.HELD) and,
once every wager is settled, the round waits in HAND_PAY for a supervisor to fill in each such seat's
form before it closes.
"""

from __future__ import annotations

import copy
from collections import Counter
from enum import Enum
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from transitions import Machine

from controller.cards import Card
from controller.games.base import Effect, Event, EventRefused, Handler, apply_event, handler
from controller.games.casino_war.events import DealtCard, Decision, HandPay, NoCard, Wager
from controller.games.handpay import Threshold, masked, qualifying
from controller.games.game import Json
from controller.records import wager as settled_wager

from .record import settle_record
from .rules import (DECISIONS, SEATS, Rules, first_deal_order, settle_first_deal,
                    settle_surrender, settle_war, war_deal_order)


class State(Enum):
    WAGERS = "wagers"              # initial and tie wagers on the layout (5324.22(g))
    FIRST_DEAL = "first_deal"      # after "no more bets": the original deal (h)(2)-(3)
    FIRST_SETTLE = "first_settle"  # dealt; initial and tie wagers to settle (i)(1)-(2)
    DECISIONS = "decisions"        # tie hands choose surrender or war (i)(3), (i)(5)
    WAR_DEAL = "war_deal"          # three burn cards, then the war cards (i)(5)(i)
    WAR_SETTLE = "war_settle"      # war, tie and initial wagers to settle (i)(5)(ii)-(iii)
    HAND_PAY = "hand_pay"          # every wager settled; a hand-pay's form before it is paid (issue 29)
    CLOSED = "closed"


S = State
EVENTS = ("wager", "no_more_bets", "card", "cover_card", "no_card", "settle", "decision", "hand_pay")


class CasinoWarRound:
    """One round of casino war, from the first wager to the closed record.

    `rules` are the table's (decks and odds); `burn` is 1 when the round opens
    a fresh shoe or a new dealer's shift (5324.22(h)(1)), as WarShoe.open_round says.
    """

    state: State   # set on the model by transitions' Machine in __init__

    def __init__(self, rules: Rules | None = None, burn: int = 0, hand_pay: Threshold | None = None) -> None:
        if burn not in (0, 1):
            raise ValueError(f"a round opens with 0 or 1 burn card, not {burn!r}")
        self.rules = rules or Rules()
        self.burn = burn
        self.wagers: dict[int, dict[str, int]] = {}   # seat -> {"initial": c, "tie": c}
        self.void: list[dict[str, Any]] = []                     # wagers that got no card (h)(3)(iii)
        self.order: list[tuple[str, int | None]] = []  # the deal in progress, slot by slot
        self.dealt_in_deal = 0
        self.drawn: list[Card] = []                    # every card out of the shoe, in order
        self.burned: list[Card] = []
        self.cards: dict[int, Card] = {}
        self.dealer_card: Card | None = None
        self.war_cards: dict[int, Card] = {}
        self.dealer_war_card: Card | None = None
        self.cover_out = False
        self.first: dict[int, dict[str, Any]] = {}               # first-deal settlement per seat
        self.tie_hands: list[int] = []
        self.decisions: dict[int, dict[str, Any]] = {}           # seat -> {"decision", "war_tie"?}
        self.on_table: dict[Any, list[Card]] = {}      # cards not yet in the discard rack
        self.record: dict[str, Any] | None = None
        self.settlement: dict[str, Any] | None = None
        self.hand_pay_at = hand_pay   # the threshold of a hand-pay (None: a round opened before issue 29)
        self.war_settled: dict[int, dict[str, Any]] = {}   # war-deal settlement per seat
        self.hand_pays: dict[int, dict[str, Any]] = {}     # seat -> its hand-pay's form (the id masked)
        self.machine = Machine(model=self, states=State, transitions=self._transitions(),
                               initial=State.WAGERS, auto_transitions=False,
                               ignore_invalid_triggers=False)

    def _transitions(self) -> list[dict[str, object]]:
        """The states each event leads to, its conditions the round's own methods (bound, so a reader
        and mypy follow them; `transitions` calls a callable as it is given)."""
        return [
            {"trigger": "wager", "source": S.WAGERS, "dest": None},
            {"trigger": "no_more_bets", "source": S.WAGERS, "dest": S.FIRST_DEAL},
            {"trigger": "no_card", "source": S.FIRST_DEAL, "dest": None},
            {"trigger": "cover_card", "source": [S.FIRST_DEAL, S.WAR_DEAL], "dest": None},
            {"trigger": "card", "source": S.FIRST_DEAL, "dest": S.FIRST_SETTLE,
             "conditions": [self.deal_complete]},
            {"trigger": "card", "source": S.FIRST_DEAL, "dest": None},
            {"trigger": "settle", "source": S.FIRST_SETTLE, "dest": S.DECISIONS,
             "conditions": [self.has_tie_hands]},
            {"trigger": "settle", "source": S.FIRST_SETTLE, "dest": S.HAND_PAY, "conditions": [self.forms_pending]},
            {"trigger": "settle", "source": S.FIRST_SETTLE, "dest": S.CLOSED},
            {"trigger": "decision", "source": S.DECISIONS, "dest": S.WAR_DEAL,
             "conditions": [self.all_decided, self.any_war]},
            {"trigger": "decision", "source": S.DECISIONS, "dest": S.HAND_PAY,
             "conditions": [self.all_decided, self.forms_pending]},
            {"trigger": "decision", "source": S.DECISIONS, "dest": S.CLOSED, "conditions": [self.all_decided]},
            {"trigger": "decision", "source": S.DECISIONS, "dest": None},
            {"trigger": "card", "source": S.WAR_DEAL, "dest": S.WAR_SETTLE, "conditions": [self.deal_complete]},
            {"trigger": "card", "source": S.WAR_DEAL, "dest": None},
            {"trigger": "settle", "source": S.WAR_SETTLE, "dest": S.HAND_PAY, "conditions": [self.forms_pending]},
            {"trigger": "settle", "source": S.WAR_SETTLE, "dest": S.CLOSED},
            {"trigger": "hand_pay", "source": S.HAND_PAY, "dest": S.CLOSED, "conditions": [self.no_forms_pending]},
            {"trigger": "hand_pay", "source": S.HAND_PAY, "dest": None},
        ]

    def handlers(self) -> Mapping[str, Handler]:
        """Each event's check and change (controller/games/base.py apply_event). Built when asked, from
        the methods as the class has them now (a test may put a failing one in their place)."""
        return {
            "wager": handler(Wager, self._check_wager, self._do_wager),
            "no_more_bets": handler(Event, self._check_no_more_bets, self._do_no_more_bets),
            "card": handler(DealtCard, self._check_card, self._do_card),
            "cover_card": handler(Event, self._check_cover_card, self._do_cover_card),
            "no_card": handler(NoCard, self._check_no_card, self._do_no_card),
            "settle": handler(Event, self._check_settle, self._do_settle),
            "decision": handler(Decision, self._check_decision, self._do_decision),
            "hand_pay": handler(HandPay, self._check_hand_pay, self._do_hand_pay),
        }

    def _move(self, kind: str) -> None:
        self.machine.events[kind].trigger(self)

    # -- the interface of controller/games/base.py --------------------------------

    def allowed(self) -> list[str]:
        """The event types the current state accepts."""
        return sorted(self.machine.get_triggers(self.state))

    def apply(self, event: object) -> list[Effect]:
        """Apply one event; its effects, or EventRefused with nothing changed (controller/games/base.py)."""
        return apply_event(self, event)

    def _saved(self) -> dict[str, Any]:
        """Everything a handler may change: the round's own attributes, and its state."""
        return copy.deepcopy({k: v for k, v in vars(self).items()
                              if k not in ("machine", "rules") and not callable(v)})

    def _restore(self, saved: dict[str, Any]) -> None:
        state = saved.pop("state")
        vars(self).update(saved)
        self.machine.set_state(state)

    def _applied(self, event: Event) -> None:
        """The adapter (controller/games/casino_war/at_table.py) keeps the round's events."""

    # -- conditions (pure) -----------------------------------------------------

    def deal_complete(self) -> bool:
        return self.dealt_in_deal == len(self.order)

    def has_tie_hands(self) -> bool:
        return bool(self.tie_hands)

    def all_decided(self) -> bool:
        return len(self.decisions) == len(self.tie_hands)

    def any_war(self) -> bool:
        return any(d["decision"] == "war" for d in self.decisions.values())

    def hand_pays_due(self) -> dict[int, list[dict[str, Any]]]:
        """Seat -> its wagers settled so far that are hand-pays (controller/games/handpay.py)."""
        if self.hand_pay_at is None:
            return {}
        out = {}
        for seat in sorted(set(self.first) | set(self.war_settled)):
            wagers = qualifying({**self.first.get(seat, {}), **self.war_settled.get(seat, {})}, self.hand_pay_at)
            if wagers:
                out[seat] = wagers
        return out

    def forms_due(self) -> list[int]:
        """Seats held for their hand-pay's form, not filled in yet."""
        return [s for s in sorted(self.hand_pays_due()) if s not in self.hand_pays]

    def forms_pending(self) -> bool:
        return bool(self.forms_due())

    def no_forms_pending(self) -> bool:
        return not self.forms_due()

    # -- what the dealer and the shoe driver ask --------------------------------

    def wants_card(self) -> bool:
        return self.state in (State.FIRST_DEAL, State.WAR_DEAL)

    def next_slot(self) -> tuple[str, int | None]:
        """Where the next card out of the shoe goes: ("burn"|"seat"|"dealer", seat)."""
        if not self.wants_card():
            raise RuntimeError(f"no card is dealt in state {self.state.value}")
        return self.order[self.dealt_in_deal]

    def snapshot(self) -> dict[str, Any]:
        """Everything the round holds, JSON-able: for screens, and to prove a refusal changed nothing."""
        def cards(d: Mapping[int, Card]) -> dict[str, str]:
            return {str(k): str(v) for k, v in d.items()}
        return copy.deepcopy({
            "state": self.state.value, "burn": self.burn, "rules": self.rules.as_record(),
            "wagers": {str(k): v for k, v in self.wagers.items()}, "void": self.void,
            "order": self.order, "dealt_in_deal": self.dealt_in_deal,
            "drawn": [str(c) for c in self.drawn], "burned": [str(c) for c in self.burned],
            "cards": cards(self.cards), "war_cards": cards(self.war_cards),
            "dealer_card": None if self.dealer_card is None else str(self.dealer_card),
            "dealer_war_card": None if self.dealer_war_card is None else str(self.dealer_war_card),
            "cover_out": self.cover_out, "first": {str(k): v for k, v in self.first.items()},
            "tie_hands": self.tie_hands, "decisions": {str(k): v for k, v in self.decisions.items()},
            "on_table": {str(k): [str(c) for c in v] for k, v in self.on_table.items()},
            "record": self.record, "settlement": self.settlement,
            "war_settled": {str(k): v for k, v in self.war_settled.items()},
            "hand_pays": {str(k): v for k, v in self.hand_pays.items()},
        })

    # -- checks: raise EventRefused, change nothing ------------------------------

    def _refuse(self, kind: str, reason: str) -> NoReturn:
        raise EventRefused(kind, self.state.value, self.allowed(), reason)

    def _seat(self, kind: str, seat: int) -> int:
        """A seat of this game's layout (the boundary bounds a seat by the room's largest table)."""
        if seat not in SEATS:
            self._refuse(kind, f"seat must be 1..7 (5324.22(a)), not {seat!r}")
        return seat

    def _check_wager(self, event: Wager) -> tuple[int, str, int]:
        seat = self._seat("wager", event.seat)
        which = event.wager
        if which not in ("initial", "tie"):
            self._refuse("wager", f"before the deal a wager is initial or tie, not {which!r} "
                         "(a war wager follows a tie hand, 5324.22(i)(5))")
        if event.verbal:
            self._refuse("wager", "a verbal wager is not accepted at casino war; wagers are "
                         "chips, plaques or coupons on the layout (5324.22(g)(1))")
        if which in self.wagers.get(seat, {}):
            self._refuse("wager", f"seat {seat} already has a {which} wager; a wager once placed "
                         "is not altered (5324.22(g)(2))")
        return seat, which, event.stake

    def _check_no_more_bets(self, event: Event) -> None:
        if not any("initial" in w for w in self.wagers.values()):
            self._refuse("no_more_bets", "no initial wager on the layout: nothing to deal to")

    def _check_card(self, event: DealtCard) -> Card:
        card = event.card
        if Counter(self.drawn)[card] >= self.rules.decks:
            self._refuse("card", f"{card} has already come out {self.rules.decks} times this "
                         f"round; a shoe of {self.rules.decks} decks holds no more (5324.22(c))")
        return card

    def _check_cover_card(self, event: Event) -> None:
        if self.cover_out:
            self._refuse("cover_card", "the cover card is already out")

    def _check_no_card(self, event: NoCard) -> int:
        seat = self._seat("no_card", event.seat)
        to_come = [s for kind, s in self.order[self.dealt_in_deal:] if kind == "seat"]
        if seat not in to_come:
            self._refuse("no_card", f"seat {seat} is not waiting for a card in this deal")
        if len([s for kind, s in self.order if kind == "seat"]) == 1:
            self._refuse("no_card", f"seat {seat} is the only seat in the round; void the "
                         "round instead")
        return seat

    def _check_settle(self, event: Event) -> None:
        return None

    def _check_decision(self, event: Decision) -> tuple[int, str, int | None]:
        seat = self._seat("decision", event.seat)
        waiting = [s for s in self.tie_hands if s not in self.decisions]
        if seat != waiting[0]:
            self._refuse("decision", f"seat {seat} is not the next tie hand; the dealer offers "
                         f"seat {waiting[0]} first, from the dealer's left (5324.22(i)(3))")
        decision = event.decision
        if event.war_tie is not None and decision != "war":
            self._refuse("decision", "a tie wager on the war deal is offered only to a "
                         "seat that goes to war (5324.22(i)(5))")
        return seat, decision, event.war_tie

    def _check_hand_pay(self, event: HandPay) -> tuple[int, str, str, str]:
        seat = self._seat("hand_pay", event.seat)
        who = event.supervisor.strip()
        if not who:
            self._refuse("hand_pay", "the supervisor who pays a hand-pay signs its form")
        if seat in self.hand_pays:
            self._refuse("hand_pay", f"seat {seat}'s hand-pay form is already done (form {self.hand_pays[seat]['form']})")
        if seat not in self.forms_due():
            self._refuse("hand_pay", f"seat {seat} has no hand-pay waiting for its form")
        if any(h["form"] == event.form for h in self.hand_pays.values()):
            self._refuse("hand_pay", f"form {event.form} is already another seat's this round")
        return seat, event.player_id, event.form, who

    # -- changes: called only after the checks passed ------------------------------

    def _do_wager(self, plan: tuple[int, str, int]) -> list[Effect]:
        seat, which, stake = plan
        self.wagers.setdefault(seat, {})[which] = stake
        return [{"type": "wager", "seat": seat, "wager": which, "stake": stake}]

    def _do_no_more_bets(self, plan: None) -> list[Effect]:
        effects: list[Effect] = [{"type": "no_more_bets"}]
        for seat in sorted(self.wagers):
            if "initial" not in self.wagers[seat]:
                # A tie wager alone is dealt no card (h)(3)(i): void, and the seat
                # plays the next round (h)(3)(iii).
                effects.append(self._void_seat(seat, "no initial wager, so no card"))
        self.order = first_deal_order([s for s in self.wagers if "initial" in self.wagers[s]],
                                      self.burn)
        self.dealt_in_deal = 0
        effects.append(self._next_card_effect())
        return effects

    def _void_seat(self, seat: int, why: str) -> dict[str, Any]:
        wagers = {k: settled_wager(v, "void", 0) for k, v in self.wagers.pop(seat).items()}
        entry = {"seat": seat, **wagers}
        self.void.append(entry)
        return {"type": "void", **copy.deepcopy(entry),
                "reason": f"{why}: void, and the seat plays the next round (5324.22(h)(3)(iii))"}

    def _do_no_card(self, seat: int) -> list[Effect]:
        self.order.remove(("seat", seat))
        return [self._void_seat(seat, "the seat was dealt no card"), self._next_card_effect()]

    def _do_cover_card(self, plan: None) -> list[Effect]:
        self.cover_out = True
        return [{"type": "cover_card", "note": "complete this round, then reshuffle before "
                 "the next (5324.22(h)(4))"}]

    def _do_card(self, card: Card) -> list[Effect]:
        kind, seat = self.order[self.dealt_in_deal]
        self.dealt_in_deal += 1
        self.drawn.append(card)
        deal = "first" if self.state is State.FIRST_DEAL else "war"
        effect: Effect = {"type": "card", "deal": deal, "to": kind, "card": str(card)}
        if kind == "burn":
            self.burned.append(card)
        elif kind == "seat" and seat is not None:   # (a seat's slot always names its seat)
            effect["seat"] = seat
            (self.cards if deal == "first" else self.war_cards)[seat] = card
            self.on_table.setdefault(seat, []).append(card)
        else:
            if deal == "first":
                self.dealer_card = card
            else:
                self.dealer_war_card = card
            self.on_table.setdefault("dealer", []).append(card)
        effects = [effect]
        if not self.deal_complete():
            effects.append(self._next_card_effect())
        return effects

    def _do_settle(self, plan: None) -> list[Effect]:
        if self.state is State.FIRST_SETTLE:
            return self._settle_first_deal()
        return self._settle_war()

    def _settle_first_deal(self) -> list[Effect]:
        """Initial and tie wagers of the original deal, from the dealer's left (5324.22(i)(1))."""
        seats: list[Json] = []
        for seat in sorted(self.cards):
            w = self.wagers[seat]
            initial, tie = settle_first_deal(w["initial"], w.get("tie"), self.cards[seat],
                                             self._dealer_card(self.dealer_card), self.rules)
            entry: dict[str, Any] = {"seat": seat}
            if initial is None:
                self.tie_hands.append(seat)
            else:
                entry["initial"] = initial
            if tie is not None:
                entry["tie"] = tie
            self.first[seat] = entry
            seats.append(copy.deepcopy(entry))
        return [{"type": "settle", "deal": "first", "seats": seats}]

    def _do_decision(self, plan: tuple[int, str, int | None]) -> list[Effect]:
        seat, decision, war_tie = plan
        entry: dict[str, str | int] = {"decision": decision}
        initial = self.wagers[seat]["initial"]
        effect: Effect
        if decision == "surrender":
            effect = {"type": "surrender", "seat": seat, "initial": settle_surrender(initial)}
        else:
            if war_tie is not None:
                entry["war_tie"] = war_tie
            effect = {"type": "war_wager", "seat": seat, "stake": initial,
                      "note": "the initial wager goes to the chip tray (5324.22(i)(5))"}
            if war_tie is not None:
                effect["war_tie"] = war_tie
        self.decisions[seat] = entry
        waiting = [s for s in self.tie_hands if s not in self.decisions]
        return [effect] + ([self._offer_effect(waiting[0])] if waiting else [])

    def _do_hand_pay(self, plan: tuple[int, str, str, str]) -> list[Effect]:
        seat, player_id, form, who = plan
        wagers = self.hand_pays_due()[seat]
        done = {"seat": seat, "amount": sum(w["win"] for w in wagers), "wagers": wagers, "form": form,
                "paid_by": who, "player": masked(player_id)}
        self.hand_pays[seat] = done
        return [{"type": "hand_paid", **done}]

    def _settle_war(self) -> list[Effect]:
        """War, war-deal tie and initial wagers of the seats at war (5324.22(i)(5)(ii))."""
        seats: list[Json] = []
        for seat in sorted(self.war_cards):
            initial, war, war_tie = settle_war(
                self.wagers[seat]["initial"], self.decisions[seat].get("war_tie"),
                self.war_cards[seat], self._dealer_card(self.dealer_war_card), self.rules)
            entry: dict[str, Json] = {"seat": seat, "initial": initial, "war": war}
            if war_tie is not None:
                entry["war_tie"] = war_tie
            self.war_settled[seat] = copy.deepcopy(entry)
            seats.append(entry)
        return [{"type": "settle", "deal": "war", "seats": seats}]

    # -- entering a state ------------------------------------------------------

    def _entered(self, state: State) -> list[Effect]:
        if state is State.FIRST_SETTLE or state is State.WAR_SETTLE:
            return [{"type": "deal_complete",
                     "deal": "first" if state is State.FIRST_SETTLE else "war"}]
        if state is State.DECISIONS:
            return [self._offer_effect(self.tie_hands[0])]
        if state is State.WAR_DEAL:
            at_war = [s for s in self.tie_hands if self.decisions[s]["decision"] == "war"]
            # Collect every hand but those going to war; the dealer's card stays (5324.22(i)(4), (5)).
            effects = [self._discard(lambda key: key != "dealer" and key not in at_war)]
            self.order = war_deal_order(at_war)
            self.dealt_in_deal = 0
            effects.append(self._next_card_effect())
            return [e for e in effects if e]
        if state is State.HAND_PAY:   # the whole settlement on the pay list, the hand-pays held (issue 29)
            self.settlement = settle_record(copy.deepcopy(self._build_record()))
            held: list[Json] = list(self.forms_due())
            return [{"type": "hand_pay_due", "seats": held}]
        if state is State.CLOSED:
            return self._close()
        return []

    def _offer_effect(self, seat: int) -> Effect:
        return {"type": "offer", "seat": seat, "options": list(DECISIONS),
                "note": "surrender half the initial wager, or go to war with a war wager "
                        "equal to it and the option of a tie wager (5324.22(i)(3), (i)(5))"}

    def _discard(self, which: Callable[[Any], bool]) -> dict[str, Any] | None:
        """Collect hands into the discard rack so each can be laid out again (5324.22(i)(4))."""
        keys = [k for k in self.on_table if which(k)]
        keys.sort(key=lambda k: (k == "dealer", k if k != "dealer" else 0))
        if not keys:
            return None
        hands = [{"hand": k, "cards": [str(c) for c in self.on_table.pop(k)]} for k in keys]
        return {"type": "discard", "hands": hands}

    def _close(self) -> list[Effect]:
        effects = [e for e in [self._discard(lambda key: True)] if e]
        self.record = self._build_record()
        self.settlement = settle_record(copy.deepcopy(self.record))
        effects.append({"type": "round_closed", "record": copy.deepcopy(self.record),
                        "settlement": copy.deepcopy(self.settlement),
                        "void": copy.deepcopy(self.void)})
        if self.cover_out:
            effects.append({"type": "reshuffle",
                            "note": "the cover card came out: reshuffle before the next round "
                                    "(5324.22(h)(4))"})
        return effects

    def _build_record(self) -> dict[str, Any]:
        """The round as shared/spec/rounds.md writes it: the cards in the order they left
        the shoe, so the burn cards are in the record too."""
        seats = []
        for seat in sorted(self.cards):
            entry: dict[str, Any] = {"seat": seat, "initial": self.wagers[seat]["initial"]}
            if "tie" in self.wagers[seat]:
                entry["tie"] = self.wagers[seat]["tie"]
            if seat in self.decisions:
                entry.update(self.decisions[seat])
            seats.append(entry)
        return {"game": "casino-war", "rules": self.rules.as_record(),
                "shoe": [str(c) for c in self.drawn], "burn": self.burn, "seats": seats}

    @staticmethod
    def _dealer_card(card: Card | None) -> Card:
        """The dealer's card of a deal that is settled (the deal gives the dealer the last card)."""
        if card is None:
            raise RuntimeError("a deal settled before the dealer's card")
        return card

    def _next_card_effect(self) -> Effect:
        kind, seat = self.order[self.dealt_in_deal]
        effect: Effect = {"type": "next_card", "to": kind}
        if seat is not None:
            effect["seat"] = seat
        return effect
