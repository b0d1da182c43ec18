"""The Caribbean stud round as a state machine fed with events (5324.37(a)(3), (d)-(f), (h)).

A round is a pure function of its events and of what it was opened with (the
rules, the meter as it stood, the dealing mode): the table journals every event
it hands to `apply` and, after a power cut, replays them into a fresh round with
the meter restored from the journal. So nothing here reads a clock, draws a card
or touches a device; cards arrive as events and the procedure of 5324.37(d) says
where each one goes.

`apply(event)` checks that the state allows the event and that the event is well
formed and lawful before it changes anything; a refused event raises EventRefused
naming the state and the events it allows, and the round (and the meter) are
exactly as they were. `transitions` only sequences the phases; settlement is
record.settle, the function `tablectl settle` uses, fed with the round record of
shared/spec/rounds.md that the round writes.

Events (dicts as journaled, JSON-able but for their cards: each a controller.cards.Card, read where
it entered the table; the journal writes it "Qh"):
  {"type": "ante", "seat": 1..7, "amount": cents}     ante on the layout (sets or changes it)
  {"type": "progressive", "seat": n}                  the acceptor saw a progressive wager
  {"type": "remove", "seat": n, "wager": "ante"|"progressive"}  a wager taken back before the lock-out
  {"type": "no_more_bets"}                            the dealer's call and the lock-out button
  {"type": "card", "card": "Qh", "to": n|"dealer"}    manual deal (d)(1), one card; "to" only
                                                      when a card went elsewhere than the
                                                      procedure says; also the dealer's fifth (h)
  {"type": "stack", "cards": [...]}                   automated deal (d)(2): one stack
  {"type": "end_deal"}                                the dealer ends the deal as it lies
  {"type": "dealer_misdeal", "reason": "..."}         any other misdeal to the dealer (h)
  {"type": "decision", "seat": n, "decision": "bet"|"fold"}   (e)(1)
  {"type": "reveal"}                                  the dealer's hole cards (e)(3)
  {"type": "settle"}                                  (e)(4)-(5)
  {"type": "validate", "seat": n, "supervisor": "..."}        a progressive win validated (f)(2)
  {"type": "refuse", "seat": n, "supervisor": "...", "reason": "..."}  a supervisor refuses a
                                                      progressive win (f)(2): e.g. the light was not lit
  {"type": "pool_awards", "awards": [{"seat", "hand", "amount", ...}]}  a linked progressive: the
                                                      pool's answer to the round's claim (issue 10)
  {"type": "pool_awards", "refused": "..."}           the pool refused the claim: no award to pay
  {"type": "hand_pay", "seat": n, "player_id": "...", "form": "...", "supervisor": "..."}  a hand-pay's
                                                      tax form (a W-2G) filled in by the supervisor who pays it

Effects (JSON-able dicts, in the order the table carries them out):
  {"type": "light", "seat", "light": "on"|"late"|"removed"|"off"}   the seat's acceptor light
  {"type": "lockout", "on": bool}                     the lock-out indicator
  {"type": "dealt", "to", "cards", "face": "up"|"down"}  cards as they reach a hand
  {"type": "expose", "card"}                          the dealer's up card of an automated deal (d)(3)
  {"type": "void_hand", "seat", "count", "ante"}      a seat dealt the wrong number of cards (h)
  {"type": "deal_dealer_card"}                        the dealer got four: deal a fifth (h)
  {"type": "collect", "seat", "wager", "amount"}      a folded ante into the tray (e)(1)
  {"type": "bet_placed", "seat", "amount"}
  {"type": "reveal", "cards", "hand", "qualifies"}
  {"type": "settlement", "record", "result", "steps"}  the settled round; steps in the order of (e)(4)-(5)
  {"type": "meter", "amount"}                         the progressive meter to display after the round
  {"type": "validate_progressive", "seat", "hand", "cards", "award"}  a win waiting for a supervisor (f)(2)
  {"type": "pay_progressive", "seat", "hand", "amount", "supervisor"}
  {"type": "refuse_progressive", "seat", "hand", "amount", "supervisor", "reason", "returned",
   "meter_before", "meter_after"}                     a refused win is not paid; `returned` cents went
                                                      back into the meter by a correction
  {"type": "claim_progressive", "pool", "hits"}      a linked round's hits, claimed from the pool
  {"type": "hand_paid", "seat", "amount", "wagers", "form", "paid_by", "player"}  a hand-pay's form
                                                      done (`player` the identification masked)
  {"type": "void_round", "reason"}, {"type": "reshuffle"}, {"type": "closed"}

On a linked progressive (`linked` names the pool) the table's own meter never
moves: contributions went to the pool at the lock-out, and each hit is paid what
the pool's meter gave it at its turn (9 NYCRR 5321.18(b)(3)(iii)), which the round
learns from the `pool_awards` event before a supervisor can validate it.

A hand-pay (issue 29, controller/games/handpay.py): a seat whose wager won at least the round's
threshold (`hand_pay`, the profile's `[hand_pay]`) is held in VALIDATION until a supervisor fills in
its form (`hand_pay`); a progressive award counts once it is validated. The dealer pays nothing of
that seat until then (paylist.HELD).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NoReturn

from transitions import Machine

from controller.cards import Card, format_cards
from controller.games.base import Effect, Event, EventRefused, Handler, apply_event, handler
from controller.games.caribbean_stud.events import (Ante, DealerMisdeal, DealtCard, Decision, HandPay, PoolAwards,
                                                    Progressive, Refuse, Remove, Stack, Validate)
from controller.games.handpay import Threshold, masked, qualifying
from controller.games.limits import outside_limits
from controller.progressive import Fixed, ProgressiveMeter

from . import deal as dealing
from .record import GAME, settle
from .rules import SEATS, StudRules, claim_linked, refund, settlement_steps, with_pool_awards

CARDS = dealing.CARDS_PER_HAND
DEALER = dealing.DEALER
Recipient = dealing.Recipient


class State(Enum):
    OPEN = "open"                  # open for wagers (5324.37(c))
    NO_MORE_BETS = "no_more_bets"  # lock-out on, no card out yet (5324.37(a)(3)(ii))
    DEALING = "dealing"            # (d)(1) card by card, or (d)(2) stack by stack
    DEALER_FIFTH = "dealer_fifth"  # the dealer got four cards: one more (h)
    DECISIONS = "decisions"        # each seat bets or folds (e)(1)
    REVEALED = "revealed"          # the dealer's hand shown (e)(3)
    VALIDATION = "validation"      # progressive wins wait for a supervisor (f)(2), and hand-pays for their form
    CLOSED = "closed"
    VOID = "void"                  # every hand void, reshuffle (h)


S = State
LATE = [S.NO_MORE_BETS, S.DEALING, S.DEALER_FIFTH, S.DECISIONS, S.REVEALED, S.VALIDATION]
EVENTS = ("ante", "progressive", "remove", "no_more_bets", "card", "stack", "end_deal",
          "dealer_misdeal", "decision", "reveal", "settle", "validate", "refuse", "pool_awards", "hand_pay")


def new_meter(rules: StudRules, amount: int, carry: int = 0) -> ProgressiveMeter:
    """A meter configured as the table's progressive rules say."""
    p = rules.progressive
    return ProgressiveMeter(amount=amount, reset=p.reset, contribution_bp=p.contribution_bp,
                            awards=p.awards, carry=carry, limit=p.limit)


@dataclass
class RoundData:
    """Everything a round holds besides its state; deep-copied to prove a refusal changed nothing."""

    antes: dict[int, int] = field(default_factory=dict)
    progressive: set[int] = field(default_factory=set)
    lights: dict[int, str] = field(default_factory=dict)
    late: list[int] = field(default_factory=list)        # progressive wagers after the lock-out
    order: list[Any] = field(default_factory=list)       # recipients of the deal, in procedure order
    next: int = 0                                        # position in `order`
    ended: bool = False                                  # the dealer ended the deal
    hands: dict[Any, list[Card]] = field(default_factory=dict)
    dealt: list[Card] = field(default_factory=list)      # every card out, in order
    void: list[int] = field(default_factory=list)
    decisions: dict[int, str] = field(default_factory=dict)
    revealed: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> award waiting for validation
    validated: dict[int, str] = field(default_factory=dict)
    refused: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {supervisor, reason, returned}
    hand_pays: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> its form (the id masked)
    void_reason: str | None = None


class CaribbeanStudRound:
    """One round of Caribbean stud, from the first ante to the closed (or voided) record.

    `meter` is the table's progressive meter; the round adds its contributions and
    pays its awards when it settles (or keeps the contributions when it is voided),
    with the same functions as `tablectl settle`, carrying the fraction of a cent.
    """

    state: State   # set on the model by transitions' Machine in __init__

    def __init__(self, rules: StudRules, meter: ProgressiveMeter, *, dealing_mode: str = dealing.MANUAL,
                 round_id: str | None = None, ante_limits: tuple[int, int] | None = None,
                 linked: str | None = None, hand_pay: Threshold | None = None) -> None:
        if dealing_mode not in dealing.MODES:
            raise ValueError(f"dealing must be one of {', '.join(dealing.MODES)}, not {dealing_mode!r}")
        p = rules.progressive
        if (meter.contribution_bp, meter.reset_amount, meter.awards, meter.limit) != (
                p.contribution_bp, p.reset, p.awards, p.limit):
            raise ValueError("the meter is not configured as the rules' progressive (use new_meter)")
        self.rules = rules
        self.meter = meter
        self.mode = dealing_mode
        self.round_id = round_id
        self.ante_limits = ante_limits
        self.linked = linked   # the pool's name: a linked progressive pays the hits, not `meter`
        self.hand_pay_at = hand_pay   # the threshold of a hand-pay (None: a round opened before issue 29)
        self.d = RoundData()
        self.events: list[Event] = []
        self.machine = Machine(model=self, states=State, transitions=self._transitions(), initial=State.OPEN,
                               auto_transitions=False, ignore_invalid_triggers=False)

    def _transitions(self) -> list[dict[str, object]]:
        """The phases each event leads to, its conditions the round's own methods (bound, so a reader
        and mypy follow them; `transitions` calls a callable as it is given)."""
        over = self.deal_over
        dealt: list[dict[str, object]] = [
            {"trigger": t, "source": S.DEALING, "dest": dest, "conditions": cond}
            for t in ("card", "stack", "end_deal")
            for dest, cond in ((S.VOID, [over, self.dealer_misdealt]), (S.DEALER_FIFTH, [over, self.dealer_short]),
                               (S.DECISIONS, [over]))]
        return [
            {"trigger": "ante", "source": S.OPEN, "dest": None},
            {"trigger": "progressive", "source": [S.OPEN, *LATE], "dest": None},
            {"trigger": "remove", "source": S.OPEN, "dest": None},
            {"trigger": "no_more_bets", "source": S.OPEN, "dest": S.NO_MORE_BETS},
            {"trigger": "card", "source": S.NO_MORE_BETS, "dest": S.DEALING},
            {"trigger": "stack", "source": S.NO_MORE_BETS, "dest": S.DEALING},
            *dealt,
            {"trigger": "card", "source": S.DEALING, "dest": None},
            {"trigger": "stack", "source": S.DEALING, "dest": None},
            {"trigger": "card", "source": S.DEALER_FIFTH, "dest": S.DECISIONS},
            {"trigger": "dealer_misdeal", "source": [S.NO_MORE_BETS, S.DEALING, S.DEALER_FIFTH, S.DECISIONS],
             "dest": S.VOID},
            {"trigger": "decision", "source": S.DECISIONS, "dest": None},
            {"trigger": "reveal", "source": S.DECISIONS, "dest": S.REVEALED, "conditions": [self.all_decided]},
            {"trigger": "settle", "source": S.REVEALED, "dest": S.VALIDATION, "conditions": [self.awards_pending]},
            {"trigger": "settle", "source": S.REVEALED, "dest": S.CLOSED},
            {"trigger": "validate", "source": S.VALIDATION, "dest": S.CLOSED, "conditions": [self.all_validated]},
            {"trigger": "validate", "source": S.VALIDATION, "dest": None},
            {"trigger": "refuse", "source": S.VALIDATION, "dest": S.CLOSED, "conditions": [self.all_validated]},
            {"trigger": "refuse", "source": S.VALIDATION, "dest": None},
            {"trigger": "pool_awards", "source": S.VALIDATION, "dest": None},
            {"trigger": "hand_pay", "source": S.VALIDATION, "dest": S.CLOSED, "conditions": [self.all_validated]},
            {"trigger": "hand_pay", "source": S.VALIDATION, "dest": None},
        ]

    def handlers(self) -> Mapping[str, Handler]:
        """Each event's check and change (controller/games/base.py apply_event). Built when asked, from
        the methods as the class has them now (a test may put a failing one in their place)."""
        return {
            "ante": handler(Ante, self._check_ante, self._do_ante),
            "progressive": handler(Progressive, self._check_progressive, self._do_progressive),
            "remove": handler(Remove, self._check_remove, self._do_remove),
            "no_more_bets": handler(Event, self._check_no_more_bets, self._do_no_more_bets),
            "card": handler(DealtCard, self._check_card, self._do_card),
            "stack": handler(Stack, self._check_stack, self._do_stack),
            "end_deal": handler(Event, self._check_end_deal, self._do_end_deal),
            "dealer_misdeal": handler(DealerMisdeal, self._check_dealer_misdeal, self._do_dealer_misdeal),
            "decision": handler(Decision, self._check_decision, self._do_decision),
            "reveal": handler(Event, self._check_reveal, self._do_reveal),
            "settle": handler(Event, self._check_settle, self._do_settle),
            "validate": handler(Validate, self._check_validate, self._do_validate),
            "refuse": handler(Refuse, self._check_refuse, self._do_refuse),
            "pool_awards": handler(PoolAwards, self._check_pool_awards, self._do_pool_awards),
            "hand_pay": handler(HandPay, self._check_hand_pay, self._do_hand_pay),
        }

    def _move(self, kind: str) -> None:
        self.machine.events[kind].trigger(self)

    # -- the interface of controller/games/base.py ---------------------------------------

    def allowed(self) -> list[str]:
        """The event types the current state accepts with this dealing mode."""
        found = set(self.machine.get_triggers(self.state))
        if not self.linked or not self.awaiting_pool():
            found.discard("pool_awards")
        if not self.forms_due():
            found.discard("hand_pay")
        if self.mode == dealing.AUTOMATED and self.state is not S.DEALER_FIFTH:
            found.discard("card")
        if self.mode == dealing.MANUAL:
            found.discard("stack")
        return sorted(found)

    def apply(self, event: object) -> list[Effect]:
        """Apply one event; its effects, or EventRefused with nothing changed (controller/games/base.py)."""
        return apply_event(self, event)

    def _saved(self) -> tuple[Any, ...]:
        return copy.deepcopy(self.d), self.meter.to_dict(), self.state

    def _restore(self, saved: tuple[Any, ...]) -> None:
        # The meter is the table's too (the adapter holds it): put back in place, not replaced.
        self.d, meter, state = saved
        self.meter.__dict__.update(ProgressiveMeter.from_dict(meter).__dict__)
        self.machine.set_state(state)

    def _applied(self, event: Event) -> None:
        self.events.append(event)   # a model: frozen

    @classmethod
    def replay(cls, rules: StudRules, meter: ProgressiveMeter, events: list[Event], *,
               dealing_mode: str = dealing.MANUAL, round_id: str | None = None,
               ante_limits: tuple[int, int] | None = None, linked: str | None = None,
               hand_pay: Threshold | None = None) -> CaribbeanStudRound:
        """Rebuild a round from its events (the boundary's models, as it took them live)."""
        r = cls(rules, meter, dealing_mode=dealing_mode, round_id=round_id, ante_limits=ante_limits, linked=linked,
                hand_pay=hand_pay)
        for e in events:
            r.apply(e)
        return r

    def snapshot(self) -> dict[str, Any]:
        """Everything the round holds, JSON-able: for screens, and to prove a refusal changed nothing."""
        d = self.d
        return copy.deepcopy({
            "state": self.state.value, "mode": self.mode,
            "antes": {str(k): v for k, v in d.antes.items()}, "progressive": sorted(d.progressive),
            "lights": {str(k): v for k, v in d.lights.items()}, "late": d.late,
            "order": d.order, "next": d.next, "ended": d.ended,
            "hands": {str(k): format_cards(v) for k, v in d.hands.items()},
            "dealt": format_cards(d.dealt), "void": d.void,
            "decisions": {str(k): v for k, v in d.decisions.items()}, "revealed": d.revealed,
            "record": d.record, "result": d.result,
            "pending": {str(k): v for k, v in d.pending.items()},
            "validated": {str(k): v for k, v in d.validated.items()},
            "refused": {str(k): v for k, v in d.refused.items()},
            "hand_pays": {str(k): v for k, v in d.hand_pays.items()},
            "void_reason": d.void_reason, "meter": self.meter.to_dict(),
        })

    # -- conditions (pure) ---------------------------------------------------------------

    def deal_over(self) -> bool:
        return self.d.ended or self.d.next >= len(self.d.order)

    def dealer_short(self) -> bool:
        return len(self.d.hands[DEALER]) == CARDS - 1

    def dealer_misdealt(self) -> bool:
        return len(self.d.hands[DEALER]) not in (CARDS, CARDS - 1)

    def all_decided(self) -> bool:
        return not self._undecided()

    def awards_pending(self) -> bool:
        """A progressive win waits for a supervisor, or a hand-pay for its form."""
        return bool(self.d.pending) or bool(self.hand_pays_due())

    def all_validated(self) -> bool:
        """Every pending win is decided: validated or refused (5324.37(f)(2)); every hand-pay's form done."""
        return set(self.d.validated) | set(self.d.refused) == set(self.d.pending) and not self.forms_due()

    def hand_pays_due(self) -> dict[int, list[dict[str, Any]]]:
        """Seat -> its wagers that are hand-pays (controller/games/handpay.py), of the settled round: a
        progressive award counts once validated (a refused or undecided one is no win yet)."""
        if self.hand_pay_at is None or self.d.result is None or self.state is S.VOID:
            return {}
        out = {}
        for seat in self.d.result.get("seats", []):
            n = seat["seat"]
            undecided = n in self.d.pending and n not in self.d.validated
            wagers = qualifying(seat, self.hand_pay_at, frozenset({"progressive"}) if undecided else frozenset())
            if wagers:
                out[n] = wagers
        return out

    def forms_due(self) -> list[int]:
        """Seats held for their hand-pay's form, not filled in yet."""
        return [s for s in sorted(self.hand_pays_due()) if s not in self.d.hand_pays]

    def awaiting_pool(self) -> list[int]:
        """Seats of a linked round whose award the pool has not given yet."""
        return [s for s, a in sorted(self.d.pending.items()) if a["award"] is None and "pool_refused" not in a]

    def _undecided(self) -> list[int]:
        return [s for s in sorted(self.d.antes) if s not in self.d.void and s not in self.d.decisions]

    # -- checks: raise EventRefused, change nothing --------------------------------------

    def _refuse(self, kind: str, reason: str) -> NoReturn:
        raise EventRefused(kind, self.state.value, self.allowed(), reason)

    def _seat(self, kind: str, seat: int) -> int:
        """A seat of this game's layout (the boundary bounds a seat by the room's largest table)."""
        if seat not in SEATS:
            self._refuse(kind, f"seat must be 1..7 (5324.37(a)(1)), not {seat!r}")
        return seat

    def _card(self, kind: str, c: Card) -> Card:
        if c in self.d.dealt:
            self._refuse(kind, f"{c} has already been dealt this round; one deck holds it once")
        return c

    def _check_ante(self, e: Ante) -> tuple[int, int]:
        seat = self._seat("ante", e.seat)
        if self.ante_limits is not None:
            low, high = self.ante_limits
            why = outside_limits("an ante", e.amount, low, high)
            if why:
                self._refuse("ante", why)
        return seat, e.amount

    def _check_progressive(self, e: Progressive) -> int:
        seat = self._seat("progressive", e.seat)
        if self.state is S.OPEN:
            if seat not in self.d.antes:
                self._refuse("progressive", f"seat {seat} has no ante; a progressive wager goes with "
                             "an ante (5324.37(c)(2))")
            if seat in self.d.progressive:
                self._refuse("progressive", f"seat {seat}'s progressive wager is already recognized")
        return seat

    def _check_remove(self, e: Remove) -> tuple[int, str]:
        seat = self._seat("remove", e.seat)
        which = e.wager
        if which == "ante" and seat not in self.d.antes:
            self._refuse("remove", f"seat {seat} has no ante")
        if which == "progressive" and seat not in self.d.progressive:
            self._refuse("remove", f"seat {seat} has no progressive wager")
        return seat, which

    def _check_no_more_bets(self, e: Event) -> None:
        if not self.d.antes:
            self._refuse("no_more_bets", "no ante on the layout: nothing to deal to")

    def _check_card(self, e: DealtCard) -> tuple[Card, Recipient]:
        c = self._card("card", e.card)
        if self.state is S.DEALER_FIFTH:
            if e.to not in (None, DEALER):
                self._refuse("card", "the dealer is waiting for a fifth card (5324.37(h))")
            return c, DEALER
        order = self.d.order or dealing.manual_order(sorted(self.d.antes))
        expected = order[self.d.next] if self.d.next < len(order) else None
        to = e.to if e.to is not None else expected
        if to is None:
            self._refuse("card", "the deal is complete; end it or declare a misdeal")
        if to != DEALER and to not in self.d.antes:
            self._refuse("card", f"to must be a seat with an ante or \"dealer\", not {to!r}")
        return c, to

    def _check_stack(self, e: Stack) -> list[Card]:
        cards: list[Card] = []
        for c in e.cards:
            self._card("stack", c)
            if c in cards:
                self._refuse("stack", f"{c} appears twice in the stack")
            cards.append(c)
        return cards

    def _check_end_deal(self, e: Event) -> None:
        return None

    def _check_dealer_misdeal(self, e: DealerMisdeal) -> str:
        if not e.reason.strip():
            self._refuse("dealer_misdeal", "a misdeal needs a reason")
        return e.reason.strip()

    def _check_decision(self, e: Decision) -> tuple[int, str]:
        seat = self._seat("decision", e.seat)
        if seat not in self.d.antes:
            self._refuse("decision", f"seat {seat} has no hand this round")
        if seat in self.d.void:
            self._refuse("decision", f"seat {seat}'s hand is void (5324.37(h))")
        if seat in self.d.decisions:
            self._refuse("decision", f"seat {seat} has already decided ({self.d.decisions[seat]})")
        return seat, e.decision

    def _check_reveal(self, e: Event) -> None:
        waiting = self._undecided()
        if waiting:
            self._refuse("reveal", "waiting for a decision from seat(s) "
                         f"{', '.join(map(str, waiting))} (5324.37(e)(3))")

    def _check_settle(self, e: Event) -> None:
        return None

    def _check_validate(self, e: Validate) -> tuple[int, str]:
        seat = self._seat("validate", e.seat)
        who = e.supervisor
        if not who.strip():
            self._refuse("validate", "supervisor must name who validates (5324.37(f)(2)(iii))")
        if seat not in self.d.pending:
            self._refuse("validate", f"seat {seat} has no progressive win waiting")
        self._undecided_win("validate", seat)
        self._pool_answered("validate", seat)
        if "pool_refused" in self.d.pending[seat]:
            self._refuse("validate", f"the pool refused the claim ({self.d.pending[seat]['pool_refused']}): "
                                     "there is no award to pay; refuse the win with the reason")
        return seat, who.strip()

    def _undecided_win(self, kind: str, seat: int) -> None:
        if seat in self.d.validated:
            self._refuse(kind, f"seat {seat}'s win is already validated by {self.d.validated[seat]}")
        if seat in self.d.refused:
            self._refuse(kind, f"seat {seat}'s win is already refused by {self.d.refused[seat]['supervisor']}")

    def _check_refuse(self, e: Refuse) -> tuple[int, str, str]:
        seat = self._seat("refuse", e.seat)
        who, reason = e.supervisor, e.reason
        if not who.strip():
            self._refuse("refuse", "supervisor must name who refuses the win (5324.37(f)(2)(iii))")
        if reason is None or not reason.strip():
            self._refuse("refuse", "a refusal needs a reason (e.g. the acceptor light was not lit)")
        if seat not in self.d.pending:
            self._refuse("refuse", f"seat {seat} has no progressive win waiting")
        self._undecided_win("refuse", seat)
        self._pool_answered("refuse", seat)
        return seat, who.strip(), reason.strip()

    def _pool_answered(self, kind: str, seat: int) -> None:
        if seat in self.awaiting_pool():
            self._refuse(kind, f"seat {seat}'s award is not known yet: the pool {self.linked!r} has not answered "
                               "the round's claim (5321.18(c): it is sent again until the pool is reached)")

    def _check_hand_pay(self, e: HandPay) -> tuple[int, str, str, str]:
        seat = self._seat("hand_pay", e.seat)
        who = e.supervisor.strip()
        if not who:
            self._refuse("hand_pay", "the supervisor who pays a hand-pay signs its form")
        if seat in self.d.hand_pays:
            self._refuse("hand_pay", f"seat {seat}'s hand-pay form is already done (form "
                                     f"{self.d.hand_pays[seat]['form']}, paid by {self.d.hand_pays[seat]['paid_by']})")
        if seat in self.d.pending and seat not in self.d.validated and seat not in self.d.refused:
            # the form is of the seat's whole win: the award's validation (or refusal) comes first
            self._refuse("hand_pay", f"seat {seat}'s progressive win is not validated yet: validate it first")
        if seat not in self.hand_pays_due():
            self._refuse("hand_pay", f"seat {seat} has no hand-pay waiting for its form")
        if any(h["form"] == e.form for h in self.d.hand_pays.values()):
            self._refuse("hand_pay", f"form {e.form} is already another seat's this round")
        return seat, e.player_id, e.form, who

    def _check_pool_awards(self, e: PoolAwards) -> list[dict[str, Any]] | str:
        waiting = self.awaiting_pool()
        if (e.awards is None) == (e.refused is None):
            self._refuse("pool_awards", "either awards (the pool's answer) or refused (why the pool refused)")
        if e.refused is not None:
            if not e.refused.strip():
                self._refuse("pool_awards", "refused: the pool's reason")
            return e.refused.strip()
        assert e.awards is not None   # (one of the two, said just above)
        seen = []
        for i, a in enumerate(e.awards):
            seat = a.seat
            if seat not in waiting or seat in seen:
                self._refuse("pool_awards", f"awards[{i}].seat: {seat!r} is not a claimed hit waiting for the pool")
            if a.hand != self.d.pending[seat]["hand"]:
                self._refuse("pool_awards", f"awards[{i}]: the pool paid seat {seat} a {a.hand!r}, "
                                            f"the round claimed a {self.d.pending[seat]['hand']!r}")
            seen.append(seat)
        if sorted(seen) != waiting:
            self._refuse("pool_awards", f"the pool's awards are for seats {sorted(seen)}, the round claimed {waiting}")
        return [a.model_dump(exclude_unset=True) for a in e.awards]   # as the pool sent each

    # -- changes (cannot fail after the checks) ------------------------------------------

    def _light(self, seat: int, light: str) -> Effect:
        self.d.lights[seat] = light
        return {"type": "light", "seat": seat, "light": light}

    def _do_ante(self, plan: tuple[int, int]) -> list[Effect]:
        seat, amount = plan
        self.d.antes[seat] = amount
        return []

    def _do_progressive(self, seat: int) -> list[Effect]:
        if self.state is S.OPEN:
            self.d.progressive.add(seat)
            return [self._light(seat, "on")]
        # 5324.37(a)(3)(ii): after "no more bets" the wager is not recognized.
        self.d.late.append(seat)
        return [self._light(seat, "late")]

    def _do_remove(self, plan: tuple[int, str]) -> list[Effect]:
        seat, which = plan
        effects = []
        if which == "ante":
            del self.d.antes[seat]
        if seat in self.d.progressive:  # a progressive wager goes with its ante (5324.37(c)(2))
            self.d.progressive.discard(seat)
            effects.append(self._light(seat, "removed"))
        return effects

    def _do_no_more_bets(self, plan: None) -> list[Effect]:
        seats = sorted(self.d.antes)
        self.d.order = (dealing.manual_order(seats) if self.mode == dealing.MANUAL
                        else dealing.stack_order(seats))
        self.d.hands = {r: [] for r in (*seats, DEALER)}
        return [{"type": "lockout", "on": True}]

    def _give(self, to: Recipient, cards: list[Card], face: str = "down") -> dict[str, Any]:
        self.d.hands[to].extend(cards)
        self.d.dealt.extend(cards)
        return {"type": "dealt", "to": to, "cards": format_cards(cards), "face": face}

    def _do_card(self, plan: tuple[Card, Recipient]) -> list[Effect]:
        c, to = plan
        if self.state is S.DEALER_FIFTH:
            return [self._give(DEALER, [c])]
        expected = self.d.order[self.d.next] if self.d.next < len(self.d.order) else None
        if to == expected:
            self.d.next += 1
        # 5324.37(d)(1)(ii): the dealer's first card is dealt face up.
        face = "up" if to == DEALER and not self.d.hands[DEALER] else "down"
        return [self._give(to, [c], face)]

    def _do_stack(self, cards: list[Card]) -> list[Effect]:
        to = self.d.order[self.d.next]
        self.d.next += 1
        return [self._give(to, cards)]

    def _do_end_deal(self, plan: None) -> list[Effect]:
        self.d.ended = True
        return []

    def _do_dealer_misdeal(self, reason: str) -> list[Effect]:
        self.d.void_reason = reason
        return []

    def _do_decision(self, plan: tuple[int, str]) -> list[Effect]:
        seat, choice = plan
        self.d.decisions[seat] = choice
        if choice == "fold":  # 5324.37(e)(1): the ante goes to the tray at once
            return [{"type": "collect", "seat": seat, "wager": "ante", "amount": self.d.antes[seat]}]
        return [{"type": "bet_placed", "seat": seat, "amount": self.d.antes[seat] * self.rules.bet_multiple}]

    def _do_reveal(self, plan: None) -> list[Effect]:
        return []

    def _do_settle(self, plan: None) -> list[Effect]:
        return self._settle(misdeal=False)

    def _do_validate(self, plan: tuple[int, str]) -> list[Effect]:
        seat, who = plan
        self.d.validated[seat] = who
        award = self.d.pending[seat]
        return [{"type": "pay_progressive", "seat": seat, "hand": award["hand"], "amount": award["award"],
                 "supervisor": who}]

    def _do_hand_pay(self, plan: tuple[int, str, str, str]) -> list[Effect]:
        seat, player_id, form, who = plan
        wagers = self.hand_pays_due()[seat]
        done = {"seat": seat, "amount": sum(w["win"] for w in wagers), "wagers": wagers, "form": form,
                "paid_by": who, "player": masked(player_id)}
        self.d.hand_pays[seat] = done
        return [{"type": "hand_paid", **done}]

    def _do_pool_awards(self, plan: list[dict[str, Any]] | str) -> list[Effect]:
        if isinstance(plan, str):   # the pool refused the claim, for this reason
            refused = plan
            for seat in self.awaiting_pool():
                self.d.pending[seat]["pool_refused"] = refused
            return [{"type": "alarm", "kind": "claim_refused",
                     "message": f"the pool refused the round's progressive claim: {refused}; "
                                "a supervisor must refuse the win"}]
        awards, result = plan, self.d.result
        if result is None:
            raise RuntimeError("the pool's awards came for a round not settled")   # VALIDATION follows the settlement
        for a in awards:
            self.d.pending[a["seat"]]["award"] = a["amount"]
            self.d.pending[a["seat"]]["pool"] = {k: v for k, v in a.items() if k not in ("seat", "hand", "amount")}
        self.d.result = with_pool_awards(result, awards)
        return [{"type": "validate_progressive", **self.d.pending[a["seat"]]} for a in awards]

    def _do_refuse(self, plan: tuple[int, str, str]) -> list[Effect]:
        # A refused award is not paid. If it was taken out of the meter, exactly that
        # award goes back in, by a correction naming the reason and the supervisor
        # (the meter's only way to move besides contributions and awards), up to the
        # meter's limit, the rest into its overflow (rules.refund). For a royal flush
        # (the whole meter) that is its share put back on top of the reset: the restart
        # and the house's seed stand (rules.SEED_ON_REFUSAL, said in the refusal's
        # confirmation); other awards of the round are not paid again at another meter.
        seat, who, reason = plan
        award = self.d.pending[seat]
        if self.linked:   # the pool returns what its meter paid when the award is voided there
            self.d.refused[seat] = {"supervisor": who, "reason": reason, "returned": 0}
            return [{"type": "refuse_progressive", "seat": seat, "hand": award["hand"], "amount": award["award"],
                     "supervisor": who, "reason": reason, "returned": 0, "pool": self.linked}]
        from_meter = not isinstance(self.meter.awards.get(award["hand"]), Fixed)
        before = self.meter.amount
        after, overflow, returned = refund(before, self.meter.overflow, award["award"], from_meter, self.meter.limit)
        if returned:   # rules.SEED_ON_REFUSAL: what went back, on top of the restarted meter
            self.meter.correct(after, supervisor=who,
                               reason=f"progressive win of seat {seat} ({award['hand']}) refused: {reason}")
            self.meter.overflow = overflow
        self.d.refused[seat] = {"supervisor": who, "reason": reason, "returned": returned}
        effects = [{"type": "refuse_progressive", "seat": seat, "hand": award["hand"], "amount": award["award"],
                    "supervisor": who, "reason": reason, "returned": returned,
                    "meter_before": before, "meter_after": self.meter.amount}]
        if returned:
            effects.append({"type": "meter", "amount": self.meter.amount})
        return effects

    # -- entering a phase ----------------------------------------------------------------

    def _entered(self, state: State) -> list[Effect]:
        if state is S.DEALER_FIFTH:
            return self._mark_void_hands() + [{"type": "deal_dealer_card"}]
        if state is S.DECISIONS:
            effects = self._mark_void_hands()
            if self.mode == dealing.AUTOMATED:
                # 5324.37(d)(3): the bottom card of the dealer's stack is exposed.
                effects.append({"type": "expose", "card": str(self.d.hands[DEALER][0])})
            return effects
        if state is S.REVEALED:
            from controller.hands import high
            from controller.hands.caribbean import dealer_qualifies
            cards = self.d.hands[DEALER]
            self.d.revealed = {"cards": format_cards(cards), "hand": high.category(high.value(cards)),
                               "qualifies": dealer_qualifies(cards)}
            return [{"type": "reveal", **self.d.revealed}]
        if state is S.VOID:
            reason = self.d.void_reason or (
                f"the dealer was dealt {len(self.d.hands[DEALER])} cards (5324.37(h))")
            self.d.void_reason = reason
            void: list[Effect] = [{"type": "void_round", "reason": reason}]
            reshuffle: list[Effect] = [{"type": "reshuffle"}]
            return void + self._settle(misdeal=True) + reshuffle + self._close()
        if state is S.CLOSED:
            return self._close()
        return []

    def _mark_void_hands(self) -> list[Effect]:
        """5324.37(h): a seat dealt other than five cards is void; its ante goes back."""
        effects: list[Effect] = []
        for seat in sorted(self.d.antes):
            count = len(self.d.hands[seat])
            if count != CARDS and seat not in self.d.void:
                self.d.void.append(seat)
                effects.append({"type": "void_hand", "seat": seat, "count": count, "ante": self.d.antes[seat]})
        return effects

    def _close(self) -> list[Effect]:
        effects: list[Effect] = [{"type": "lockout", "on": False}]
        for seat in sorted(self.d.lights):
            if self.d.lights[seat] != "off":
                effects.append(self._light(seat, "off"))
        effects.append({"type": "closed"})
        return effects

    # -- settlement ----------------------------------------------------------------------

    def build_record(self) -> dict[str, Any]:
        """The round record of shared/spec/rounds.md, as this round was dealt and decided."""
        seats = []
        for seat in sorted(self.d.antes):
            entry: dict[str, Any] = {"seat": seat, "ante": self.d.antes[seat]}
            if seat in self.d.progressive and not self.linked:
                entry["progressive"] = True
            if seat in self.d.decisions:
                entry["decision"] = self.d.decisions[seat]
            entry["cards"] = format_cards(self.d.hands.get(seat, []))
            seats.append(entry)
        rules = self.rules.to_record(self.meter.amount, self.meter.overflow)
        if self.linked:   # the base game alone: the pool's meter, not a record's, pays the progressive
            del rules["progressive"]
        return {"game": GAME, "rules": rules, "dealer": format_cards(self.d.hands.get(DEALER, [])), "seats": seats}

    def _settle(self, misdeal: bool) -> list[Effect]:
        record = self.build_record()
        if self.linked:
            return self._settle_linked(record, misdeal)
        settled = settle(record, carry=self.meter.carry, misdeal=misdeal)
        out = settled.output
        # The live meter moves by the same pure functions; any difference is a bug, not a rounding.
        added = self.meter.contribute(settled.progressive_stakes) if settled.progressive_stakes else 0
        if out.get("progressive", {}).get("contributions", 0) != added or self.meter.carry != settled.carry:
            raise AssertionError("the meter and the settlement disagree on the contributions")
        effects: list[dict[str, Any]] = []
        if settled.payout is not None:
            paid = self.meter.pay([(a.seat, a.hand) for a in settled.payout.awards], round_id=self.round_id)
            if paid != settled.payout:
                raise AssertionError("the meter and the settlement disagree on the awards")
            hands = {s["seat"]: s for s in out["seats"]}
            for a in paid.awards:
                award = {"seat": a.seat, "hand": a.hand, "cards": hands[a.seat]["cards"], "award": a.amount}
                self.d.pending[a.seat] = award
                effects.append({"type": "validate_progressive", **award})
        self.d.record, self.d.result = record, out
        steps = settlement_steps(out, folds_collected=True)
        meter = [{"type": "meter", "amount": self.meter.amount}] if settled.progressive_stakes else []
        return [{"type": "settlement", "record": record, "result": out, "steps": steps}] + meter + effects

    def _settle_linked(self, record: dict[str, Any], misdeal: bool) -> list[Effect]:
        """The base game settles here; the hits wait for the pool's awards (see `claim_linked`)."""
        base = settle(record, carry=0, misdeal=misdeal).output
        if self.linked is None:
            raise RuntimeError("a linked settlement at a table with no pool")
        out, hits = claim_linked(self.rules, base, self.d.progressive, self.d.decisions, self.linked)
        hands = {s["seat"]: s for s in out["seats"]}
        for seat, hand in hits:
            self.d.pending[seat] = {"seat": seat, "hand": hand, "cards": hands[seat]["cards"], "award": None}
        self.d.record, self.d.result = record, out
        steps = settlement_steps(out, folds_collected=True)
        effects: list[dict[str, Any]] = [{"type": "settlement", "record": record, "result": out, "steps": steps}]
        if hits:
            effects.append({"type": "claim_progressive", "pool": self.linked,
                            "hits": [dict(self.d.pending[s]) for s, _ in hits]})
        return effects
