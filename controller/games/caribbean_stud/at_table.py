"""Caribbean stud at the live table: the round machine, the deck it is dealt from, the dealer's buttons.

The round machine (controller/games/caribbean_stud/machine.py) follows the
procedure of 5324.37 card by card. At the table there is more: the shuffler
counts the round's single deck before it goes into the shoe, the automated shoe
dispenses it card by card (five to a stack, 5324.37(d)(2)), the dealer presses
"deal", and after a power cut the shoe may have dealt cards the box never
recorded. This adapter adds exactly that, and stays what the machine is: a pure
function of the events the table journals, so recovery replays the same events
into a fresh adapter and gets the same round.

Events it takes besides the machine's (controller/games/caribbean_stud/machine.py):
  {"type": "deck_count", "total": n, "anomalies": [..], "truncated": bool}   the shuffler's reader
  {"type": "shoe_loaded", "cards": n}          the counted deck is in the shoe
  {"type": "shoe_card", "card": Card}          one card out of the shoe, as its driver read it
  {"type": "deal"}                             the dealer starts the deal
  {"type": "void_round", "reason": ".."}       a supervisor voids the round (or confirms the dealer's misdeal)
  {"type": "dealer_misdeal", "reason": ".."}   the dealer's misdeal (5324.37(h)): with a card out it only
                                               asks; a signed-in supervisor's void_round carries it out
  {"type": "shoe_check", "dispensed": n}       after a restart: what the shoe says it dealt
  {"type": "reshuffle"}                        count and load again (no card out yet)
  {"type": "chip_removed", "seat": n}          a recognized progressive wager's chip left its acceptor
                                               after the lock-out: the wager stands, the dealer is warned

Effects it adds: {"type": "journal", "kind", "payload"} (entries the table writes in
the same transaction as the event: meter movements, the round record), {"type":
"shuffle"} (ask the shuffler for a shuffle and count), {"type": "alarm", ...}.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from controller.cards import Card, CardError, expect_card, format_cards
from controller.games.base import EventRefused, expect_event
from controller.games.caribbean_stud import events as declared
from controller.games.caribbean_stud.events import DealerMisdeal, DealtCard, Stack
from controller.games.event import as_declared
from controller.games.banked import BankedRoundAtTable, DeckCount, Effect, Event, Handler, JsonDict
from controller.games.caribbean_stud import deal as dealing
from controller.games.caribbean_stud.machine import CaribbeanStudRound, State, new_meter
from controller.games.caribbean_stud.paylist import FIXED, METER, pay_list
from controller.games.handpay import Threshold
from controller.games.caribbean_stud.turnover import ALL, cards_to_turn_over
from controller.games.caribbean_stud.record import GAME, read_rules
from controller.games.caribbean_stud.rules import SEED_ON_REFUSAL, StudRules, refund, with_refusals
from controller.games.views import Alarm, Button, RoundState
from controller.progressive import PercentOfMeter, ProgressiveMeter, WholeMeter, seed_from_overflow

FULL_DECK = 52
STACK = dealing.CARDS_PER_HAND
MACHINE_EVENTS = ("ante", "progressive", "remove", "no_more_bets", "card", "stack", "end_deal",
                  "dealer_misdeal", "decision", "reveal", "settle", "validate", "refuse", "pool_awards", "hand_pay")
CARDS_OUT = (State.DEALING, State.DEALER_FIFTH, State.DECISIONS)
COUNT_PROVISION = "5324.42(f)(6)(iv)"  # a deck that does not count 52 is not played; applied to every one-deck game
MISDEAL = "5324.37(h)"
VOID_ASKED = "void_pending"   # the alarm of a misdeal the dealer asked for and no supervisor confirmed yet


def _decision(event: Event) -> declared.Validate | declared.Refuse:
    """A supervisor's validation or refusal as the round takes it, signed by the table
    (controller/runtime/tablestate.py round_event): anything else is a caller's bug."""
    if isinstance(event, declared.Refuse):
        return event
    return as_declared(event, declared.Validate)


def meter_for(rules: StudRules, state: Mapping[str, Any]) -> ProgressiveMeter:
    """The table's meter as journaled, configured as `rules` say (a profile may change between rounds)."""
    meter = ProgressiveMeter.from_dict(state)
    p = rules.progressive
    if (meter.contribution_bp, meter.reset_amount, meter.awards, meter.limit) == (
            p.contribution_bp, p.reset, p.awards, p.limit):
        return meter
    fresh = new_meter(rules, meter.amount, meter.carry)
    for name, value in vars(meter).items():
        if name not in ("reset_amount", "contribution_bp", "awards", "limit"):
            setattr(fresh, name, value)
    return fresh


class StudRound(BankedRoundAtTable):
    """One round of Caribbean stud as the table plays it; `apply` is all-or-nothing."""

    game = GAME

    def __init__(self, opening: Mapping[str, Any]) -> None:
        self.opening = copy.deepcopy(dict(opening))
        self.round_id: str = opening["round"]
        self.rules, _ = read_rules(opening["rules"])
        self.meter = meter_for(self.rules, opening["meter"])
        self.mode: str = opening["dealing"]
        self.seat_count: int = opening["seats"]
        limits = opening.get("ante_limits")
        self.pool: str | None = (opening.get("link") or {}).get("pool")   # a linked progressive (issue 10)
        self.m = CaribbeanStudRound(self.rules, self.meter, dealing_mode=self.mode, round_id=self.round_id,
                                    ante_limits=tuple(limits) if limits else None, linked=self.pool,
                                    hand_pay=Threshold.from_dict(opening.get("hand_pay")))
        self.events: list[Event] = []
        self.count: DeckCount | None = None   # the shuffler's count of this round's deck
        self.loaded = False              # the shoe holds this round's deck
        self.dispensed = 0               # cards out of the shoe since it was loaded, as journaled
        self.dealing = False             # the dealer pressed "deal"
        self.buffer: list[Card] = []           # the part of a stack that has come out so far
        self.void: JsonDict | None = None    # voided before any card was recorded
        self.alarms: list[Alarm] = []
        self.shuffles = 0                # counts and loads asked for, so a lost request is asked again
        self.removed: list[int] = []     # recognized progressive chips taken off after the lock-out
        self.settlement: list[JsonDict] | None = None
        self.record: JsonDict | None = None
        self.award_meter: dict[int, int] = {}   # seat -> the meter its award came from (before it)
        self.award_source: dict[int, str] = {}  # seat -> METER (off the meter) or FIXED (a fixed award)
        self.second_signer_above: int | None = opening.get("second_signer_above")
        # Rounds opened since issue 26 take the second signer for a refusal too; one journaled before
        # (its opening without the flag) replays as it was played, for recovery and `rounds show`.
        self.second_signer_refuses: bool = opening.get("second_signer_refuses") is True
        self.countersigned: dict[int, str] = {}   # seat -> the second supervisor who signed its award's decision
        self.signing: str | None = None   # the second signer of the validation or refusal being applied
        self.turn_over_option: str = opening.get("no_hand_turn_over", ALL)   # 5324.37(e)(5)(i)

    # -- state -------------------------------------------------------------------------

    @property
    def state(self) -> str:
        return "void" if self.void else self.m.state.value

    @property
    def closed(self) -> bool:
        return self.void is not None or self.m.state in (State.CLOSED, State.VOID)

    @property
    def deck_ok(self) -> bool:
        return self.count is not None and self.count["ok"]

    def cards_recorded(self) -> int:
        return len(self.m.d.dealt) + len(self.buffer)

    def lockout(self) -> bool:
        return not self.closed and self.m.state is not State.OPEN

    def lights(self) -> dict[int, str]:
        return {} if self.void else dict(self.m.d.lights)

    def deck_wanted(self) -> int | None:
        """The shuffle to ask for (its number this round), or None: one per round, one per reshuffle."""
        if self.closed or self.count is not None or self.dealing or self.cards_recorded():
            return None
        return self.shuffles

    def cards_wanted(self) -> int:
        """Cards to ask the shoe for now (0: none); a stack's rest in automated dealing."""
        if self.closed or not self.dealing:
            return 0
        st = self.m.state
        if st is State.DEALER_FIFTH:
            return 1
        if st in (State.NO_MORE_BETS, State.DEALING) and not (st is State.DEALING and self.m.deal_over()):
            return STACK - len(self.buffer) if self.mode == dealing.AUTOMATED else 1
        return 0

    # -- applying events ---------------------------------------------------------------

    def apply(self, event: Event) -> list[Effect]:
        kind = expect_event(event).type   # the boundary's model (controller/boundary.py), never a dict
        own = self.OWN.get(kind)
        if own is not None:
            if self.closed:
                self.refuse(str(kind), "the round is over")
            effects = own.apply(self, event)
        elif kind == "dealer_misdeal" and (self.dealing or self.cards_recorded()):
            effects = self._ask_void(event)
        elif kind in MACHINE_EVENTS:
            if self.void:
                self.refuse(kind, "the round is void")
            second = self._second_signer(event) if kind in ("validate", "refuse") else None   # as guarded (issue 26)
            why = self._no_machine_card(kind)
            if why:
                self.refuse(kind, why)
            self.signing = second if kind in ("validate", "refuse") else None
            effects = self._machine(event)
            if second:
                self.countersigned[_decision(event).seat] = second
        else:
            raise EventRefused(repr(kind), self.state, self.allowed(), "not an event of Caribbean stud")
        self.events.append(event)   # a model: frozen
        return effects

    def _machine(self, event: Event) -> list[Effect]:
        before = self.meter.to_dict()
        effects = self.m.apply(event)
        out = list(effects)
        for e in effects:
            if e["type"] == "settlement":
                self.settlement = e["steps"]
                if self.pool:   # the pool's meter moved, not the table's: the link journals it
                    continue
                entries = meter_entries(self.rules, before, e["result"], self.meter)
                self.award_meter = award_meters(self.rules, entries)
                self.award_source = {j["payload"]["seat"]: METER if j["payload"]["from_meter"] else FIXED
                                     for j in entries if j["payload"]["reason"] == "award"}
                out += entries
            elif e["type"] == "refuse_progressive" and e["returned"]:
                # 5324.37(f)(2): the refused award goes back into the meter, journaled as a
                # correction with the supervisor and the reason, so the ledger still balances.
                out.append({"type": "journal", "kind": "meter", "payload": {
                    "meter": "progressive", "reason": "correction", "before": e["meter_before"],
                    "after": e["meter_after"], "amount": e["returned"], "by": e["supervisor"],
                    "note": f"progressive win of seat {e['seat']} ({e['hand']}) refused: {e['reason']}",
                    "refused": {"seat": e["seat"], "hand": e["hand"], "award": e["amount"]},
                    "carry_before": self.meter.carry, "carry_after": self.meter.carry,
                    **({} if self.meter.limit is None else {"overflow_after": self.meter.overflow})}})
            if e["type"] in ("pay_progressive", "refuse_progressive"):
                self._hit_decided(e)
            if e["type"] == "hand_paid":
                # Issue 29: the form's record, in the journal before the seat is paid (the same commit as
                # the event); the only entry besides the event itself that holds the identification in full.
                form = as_declared(event, declared.HandPay)
                out.append({"type": "journal", "kind": "hand-pay", "payload": {
                    "round": self.round_id, **{k: v for k, v in e.items() if k != "type"},
                    "player_id": form.player_id}})
            if e["type"] == "closed":
                out.append(self._record_entry())
        return out

    def _hit_decided(self, e: Effect) -> None:
        """A win validated or refused goes into the meter's list of hits (5320.8) with both signers;
        a refused one is no hit (issue 29). The pool keeps a linked table's list."""
        seat, second = e["seat"], self.signing
        if second:
            self.countersigned[seat] = second
        if self.pool:
            return
        hit = {"round": self.round_id, "seat": seat, "hand": e["hand"], "amount": e["amount"],
               "validated_by": e["supervisor"], "second_signer": second}
        if e["type"] == "refuse_progressive":
            hit.update(refused=e["reason"], returned=e["returned"])
        self.meter.decided(hit)

    def needs_second_signer(self, seat: int) -> bool:
        """An award above the profile's amount is signed by two supervisors (issue 18)."""
        award = (self.m.d.pending.get(seat) or {}).get("award")
        return self.second_signer_above is not None and award is not None and award > self.second_signer_above

    def _second_signer(self, event: Event) -> str | None:
        """The second supervisor a validate or refuse event names (None: none needed).

        A refusal decides the same money as a validation (the award goes back to the meter, or
        the pool's award is voided), so above the profile's amount it takes the same two people:
        otherwise one supervisor alone could refuse a large win that validating needs two for."""
        decision = _decision(event)
        kind, second, seat = decision.type, decision.second_signer, decision.seat
        if not self.needs_second_signer(seat):
            return None
        if kind == "refuse" and not self.second_signer_refuses:
            return second.strip() if second is not None and second.strip() else None
        doing = "validates" if kind == "validate" else "refuses"
        if second is None or not second.strip():
            amount = self.m.d.pending[seat]["award"]
            self.refuse(kind, f"seat {seat}'s award of {amount} cents is above {self.second_signer_above}: "
                        f"a second supervisor {'signs it' if kind == 'validate' else 'signs the refusal'} too")
        if second.strip() == decision.supervisor:
            self.refuse(kind, f"the second signer is another supervisor, not the one who {doing}")
        return second.strip()

    def _record_entry(self) -> JsonDict:
        d = self.m.d
        record, settlement = d.record, d.result
        refused = {seat: r["reason"] for seat, r in d.refused.items()}
        if refused and not self.pool and record is not None and settlement is not None:
            # Issue 29: the record says what was paid: a refused win is no win, in the record's seats
            # (`tablectl settle` reads them) and in the settlement every reader adds up.
            record = {**record, "seats": [{**s, "progressive_refused": refused[s["seat"]]} if s["seat"] in refused
                                          else s for s in record["seats"]]}
            settlement = with_refusals(settlement, refused, self.rules)
        self.record = {"game": GAME, "round": self.round_id, "record": record, "settlement": settlement,
                       "steps": self.settlement, "misdeal": d.void_reason if self.m.state is State.VOID else None,
                       "validated": {str(k): v for k, v in d.validated.items()},
                       "refused": {str(k): {**v, "award": d.pending[k]["award"], "hand": d.pending[k]["hand"]}
                                   for k, v in d.refused.items()},
                       "meter_after": self.meter.amount, "carry_after": self.meter.carry}
        if d.hand_pays:   # issue 29: each hand-pay's form, the player's identification masked
            self.record["hand_pays"] = {str(k): v for k, v in sorted(d.hand_pays.items())}
        if self.countersigned:   # the second signer, wherever the first is shown (issue 29)
            self.record["countersigned"] = {str(k): v for k, v in sorted(self.countersigned.items())}
        if self.pool:   # the progressive was the pool's: its awards are in the settlement
            self.record["pool"] = self.pool
        else:   # the meter as it closed the round: what `tablectl meters` reads after the last snapshot
            self.record["meters"] = {"progressive": self.meter.to_dict()}
        return {"type": "journal", "kind": "round-record", "payload": self.record}

    # -- the round's own events: what each does, and why the round's state does not take it now ------

    def _cards_out(self) -> str | None:
        return "cards are out" if self.dealing or self.cards_recorded() else None

    def _no_shoe_card(self) -> str | None:
        if not self.dealing:
            return "a card came out of the shoe with no deal under way"
        return None if self.cards_wanted() else "the deal is complete"

    def _no_deal(self) -> str | None:
        if self.m.state is not State.NO_MORE_BETS:
            return "the deal follows \"no more bets\" (5324.37(a)(3)(ii))"
        if self.dealing:
            return "the deal is already under way"
        if not self.deck_ok:
            why = "not been counted" if self.count is None else f"counted {self.count['total']}"
            return f"the deck has {why}; a deck is dealt only after it counts {FULL_DECK} ({COUNT_PROVISION})"
        if not self.loaded:
            return "the counted deck is not in the shoe yet"
        return None

    def _no_void(self) -> str | None:
        st = self.m.state
        if st in CARDS_OUT or st in (State.OPEN, State.NO_MORE_BETS):
            return None
        return "the dealer's hand is revealed: settle the round (5324.37(e)(3)-(5))"

    def _no_chip_flag(self) -> str | None:
        if self.m.state is State.OPEN or not self.m.d.progressive:
            return "only a recognized progressive wager after the lock-out is flagged"
        return None

    def _always(self) -> str | None:
        return None

    def _no_machine_card(self, kind: str) -> str | None:
        """The table's own condition on a machine's event: the automated shoe deals its cards."""
        if kind == "stack" or (kind == "card" and self.dealing and self.mode == dealing.AUTOMATED
                               and self.m.state is not State.DEALER_FIFTH):
            return "the automated shoe is dealing this round; its cards come from the shoe"
        return None

    def allowed(self) -> list[str]:
        if self.closed:
            return []
        own = {k for k, h in self.OWN.items() if h.refused(self) is None}
        machine = {k for k in self.m.allowed() if self._no_machine_card(k) is None}
        # the machine's events that carry nothing but their type: taken only when the round is ready for
        # them (the lock-out with an ante on the layout, the reveal once every hand has decided)
        if not self.m.d.antes:
            machine.discard("no_more_bets")
        if not self.m.all_decided():
            machine.discard("reveal")
        return sorted(own | machine)

    def _on_deck_count(self, e: Event) -> list[Effect]:
        count = as_declared(e, declared.DeckCount)   # its fields typed at the door
        total, anomalies, truncated = count.total, count.anomalies, count.truncated
        if self._cards_out():
            self.refuse("deck_count", "the deal has begun; the deck was counted before it")
        ok = total == FULL_DECK and not anomalies and not truncated
        self.count = {"total": total, "anomalies": list(anomalies), "truncated": truncated, "ok": ok}
        if ok:
            self.alarms = [a for a in self.alarms if a["kind"] != "deck_count"]
            return []
        what = ", ".join(anomalies) + (" and more" if truncated else "")
        alarm: Alarm = {"kind": "deck_count", "message": f"the deck counted {total} cards, not {FULL_DECK}"
                 + (f" ({what})" if what else "") + f": no deal from it ({COUNT_PROVISION}); call a supervisor"}
        self.alarms = [a for a in self.alarms if a["kind"] != "deck_count"] + [alarm]
        return [{"type": "alarm", **alarm}]

    def _on_shoe_loaded(self, e: Event) -> list[Effect]:
        if self._cards_out():
            self.refuse("shoe_loaded", "the shoe was loaded in the middle of the deal")
        self.loaded, self.dispensed, self.buffer = True, 0, []
        return []

    def _on_deal(self, e: Event) -> list[Effect]:
        why = self._no_deal()
        if why:
            self.refuse("deal", why)
        self.dealing = True
        return []

    def _on_shoe_card(self, e: Event) -> list[Effect]:
        try:
            c = expect_card(as_declared(e, declared.ShoeCard).card)   # a Card: read from the shoe's frame by its driver
        except CardError as exc:
            self.refuse("shoe_card", str(exc))
        if not self.dealing:
            self.refuse("shoe_card", "a card came out of the shoe with no deal under way")
        if c in self.m.d.dealt or c in self.buffer:
            self.refuse("shoe_card", f"{c} has already come out this round; one deck holds it once")
        st = self.m.state
        if self.mode == dealing.MANUAL or st is State.DEALER_FIFTH:
            effects = self._machine(DealtCard(card=c))
        elif len(self.buffer) + 1 == STACK:
            effects = self._machine(Stack(cards=[*self.buffer, c]))
            self.buffer = []
        else:
            if not (st is State.NO_MORE_BETS or (st is State.DEALING and not self.m.deal_over())):
                self.refuse("shoe_card", "the deal is complete")
            self.buffer.append(c)
            effects = [{"type": "dealing", "cards": format_cards(self.buffer)}]
        self.dispensed += 1
        return effects

    def _ask_void(self, e: Event) -> list[Effect]:
        """The dealer's misdeal with a card out: every wager would go back, so a signed-in
        supervisor confirms it (void_round) before anything is returned (issue 15). Before
        any card is out the dealer's misdeal voids at once: no one has seen a card."""
        reason = as_declared(e, DealerMisdeal).reason
        if not reason.strip() or len(reason) > 200:
            self.refuse("dealer_misdeal", "a misdeal needs a reason (at most 200 characters)")
        if "dealer_misdeal" not in self.m.allowed():
            self.refuse("dealer_misdeal", "the dealer's hand is revealed: settle the round (5324.37(e)(3)-(5))")
        alarm: Alarm = {"kind": VOID_ASKED, "reason": reason.strip(),
                 "message": f"void awaits supervisor: the dealer called a misdeal ({reason.strip()}); "
                            f"a supervisor confirms it on the supervisor's screen ({MISDEAL})"}
        self.alarms = [a for a in self.alarms if a["kind"] != VOID_ASKED] + [alarm]
        return [{"type": "alarm", **alarm}]

    def _on_void_round(self, e: Event) -> list[Effect]:
        reason = as_declared(e, declared.VoidRound).reason
        if not reason.strip():
            self.refuse("void_round", "a void needs a reason")
        effects = self._void(reason.strip())   # refused: nothing changed, the request still stands
        self.alarms = [a for a in self.alarms if a["kind"] != VOID_ASKED]
        return effects

    def _void(self, reason: str) -> list[Effect]:
        st = self.m.state
        if st in CARDS_OUT:
            return self._machine(DealerMisdeal(reason=reason))
        self.refuse_if("void_round", self._no_void())
        # Nothing recorded as dealt: every wager goes back as if never made, and no
        # progressive wager was counted, so the meter does not move.
        d = self.m.d
        wagers = [{"seat": s, "ante": d.antes[s], **({"progressive": self.rules.progressive.wager}
                                                     if s in d.progressive else {})} for s in sorted(d.antes)]
        self.void = {"reason": reason, "wagers": wagers}
        self.record = {"game": GAME, "round": self.round_id, "void": self.void,
                       "meter_after": self.meter.amount, "carry_after": self.meter.carry}
        if self.pool:   # a linked table contributed at the lock-out: the pool keeps it, as for a misdeal
            self.record["pool"] = self.pool
        return [{"type": "void_round", "reason": reason}, {"type": "lockout", "on": False},
                {"type": "journal", "kind": "round-record", "payload": self.record}, {"type": "closed"}]

    def _on_shoe_check(self, e: Event) -> list[Effect]:
        told = as_declared(e, declared.ShoeCheck).dispensed   # a whole number, 0 or more: the door checks it
        out_here = self.dealing or self.cards_recorded()
        if not out_here:
            # Nothing dealt from this deck yet: count and load it again rather than trust a
            # shuffle and a load that may have happened while the box was down.
            return self._on_reshuffle(e)
        if self.loaded and told == self.dispensed:
            return [{"type": "resumed", "dispensed": told}]
        return self._void(f"after a restart the shoe reports {told} card(s) dealt from this deck and the "
                          f"journal {self.dispensed}: cards the box did not record are out; "
                          f"misdeal, all hands void and the cards re-shuffled ({MISDEAL})")

    def _on_chip_removed(self, e: Event) -> list[Effect]:
        seat = as_declared(e, declared.ChipRemoved).seat
        if seat not in self.m.d.progressive or self.m.state is State.OPEN:
            self.refuse("chip_removed", "only a recognized progressive wager after the lock-out is flagged")
        if seat not in self.removed:
            self.removed.append(seat)
        return [{"type": "alarm", "kind": "wager_removed", "seat": seat,
                 "message": f"seat {seat}'s progressive wager was taken off its acceptor after no more bets"}]

    def _on_reshuffle(self, e: Event) -> list[Effect]:
        if self._cards_out():
            self.refuse("reshuffle", "cards are out; void the round instead")
        self.count, self.loaded, self.dispensed, self.buffer = None, False, 0, []
        self.shuffles += 1
        self.alarms = [a for a in self.alarms if a["kind"] != "deck_count"]
        return []

    # -- the published round -------------------------------------------------------------

    def view(self) -> JsonDict:
        d, st = self.m.d, self.m.state
        revealed = d.revealed
        seats = []
        results = {s["seat"]: s for s in (d.result or {}).get("seats", [])}
        for seat in range(1, self.seat_count + 1):
            wagers: dict[str, int] = {}
            if seat in d.antes:
                wagers["ante"] = d.antes[seat]
                if d.decisions.get(seat) == "bet":
                    wagers["bet"] = d.antes[seat] * self.rules.bet_multiple
            if seat in d.progressive:
                wagers["progressive"] = self.rules.progressive.wager
            seats.append({"seat": seat, "wagers": wagers, "cards": format_cards(d.hands.get(seat, [])),
                          "decision": d.decisions.get(seat), "light": d.lights.get(seat, "off"),
                          "void": seat in d.void or self.void is not None,
                          "hand": results.get(seat, {}).get("hand")})
        dealer_cards = d.hands.get(dealing.DEALER, [])
        up = str(dealer_cards[0]) if dealer_cards and st is not State.NO_MORE_BETS else None
        dealer = {"cards": format_cards(dealer_cards) if revealed or self.closed else ([up] if up else []),
                  "up_card": up, "hand": revealed["hand"] if revealed else None,
                  "qualifies": revealed["qualifies"] if revealed else None}
        pending = [self._pending_view(s, a) for s, a in sorted(d.pending.items())
                   if s not in d.validated and s not in d.refused]
        alarms = list(self.alarms)
        alarms += [{"kind": "late_wager", "seat": s, "message": f"seat {s}'s progressive wager came after no more "
                    "bets: not recognized (5324.37(a)(3)(ii))"} for s in sorted(set(d.late)) if not self.closed]
        alarms += [{"kind": "wager_removed", "seat": s, "message": f"seat {s}'s progressive wager was taken off "
                    "its acceptor after no more bets"} for s in self.removed if not self.closed]
        round_: RoundState = {"id": self.round_id, "state": self.state, "next_step": self.next_step(),
                              "buttons": self.buttons(), "allowed": self.allowed()}
        return {"round": round_,
                "seats": seats, "dealer": dealer, "settlement": self._pay_list(), "turn_over": self.turn_over(),
                "meter": {"amount": self.meter.amount, "reset": self.meter.reset_amount,
                          "carry": self.meter.carry, "pending": pending, "overflow": self.meter.overflow,
                          "limit": self.meter.limit, "pending_change": self.meter.pending},
                "validations": pending, "hand_pays": self._hand_pays_view(), "alarms": alarms,
                "deck": {"count": self.count, "loaded": self.loaded, "dispensed": self.dispensed,
                         "dealing": self.dealing}}

    def _hand_pays_view(self) -> list[JsonDict]:
        """The seats held for a hand-pay's form (issue 29): what they won, and the form once it is done
        (the player's identification masked: the screens never see it in full)."""
        d = self.m.d
        due = self.m.hand_pays_due()
        out = []
        for seat in sorted(set(due) | set(d.hand_pays)):
            done = d.hand_pays.get(seat)
            wagers = done["wagers"] if done else due[seat]
            out.append({"seat": seat, "amount": sum(w["win"] for w in wagers), "wagers": wagers,
                        "threshold": self.m.hand_pay_at.to_dict() if self.m.hand_pay_at else None,
                        "done": done is not None,
                        **({k: done[k] for k in ("form", "paid_by", "player")} if done else {})})
        return out

    def turn_over(self) -> list[int] | None:
        """The seats whose cards the dealer turns over now (None: not yet, the dealer's hand is not shown)."""
        d = self.m.d
        if not d.revealed or self.void:
            return None
        hands = [s for s in d.antes if d.decisions.get(s) == "bet" and s not in d.void]
        return cards_to_turn_over(self.turn_over_option, d.revealed["qualifies"], hands, d.progressive)

    def _pay_list(self) -> list[JsonDict] | None:
        if self.settlement is None:
            return None
        d = self.m.d
        return pay_list(self.settlement, d.pending, d.validated, d.refused, self.award_source,
                        held=frozenset(self.m.forms_due()))

    def _pending_view(self, seat: int, a: JsonDict) -> JsonDict:
        """A win waiting for the supervisor, with the meter it was paid from (5324.37(f)(2))."""
        out = {"seat": seat, "cards": a["cards"], "hand": a["hand"], "award": a["award"],
               "second_signer": self.needs_second_signer(seat)}
        if not self.pool:
            source = self.award_source.get(seat, METER)
            return {**out, "meter": self.award_meter.get(seat, self.meter.amount), "source": source,
                    "on_refusal": self._on_refusal(a, source == METER)}
        out.update(pool=self.pool, meter=(a.get("pool") or {}).get("meter_before"))
        if a["award"] is None:
            out["waiting"] = a.get("pool_refused") or f"waiting for the pool {self.pool}'s award"
        if "pool_refused" in a:
            out["pool_refused"] = a["pool_refused"]
        out["on_refusal"] = (f"Refusing: not paid, not a hit; the pool {self.pool} is told and its award voided "
                             "there (its meter, not this table's).")
        return out

    def _on_refusal(self, a: JsonDict, from_meter: bool) -> str:
        """What refusing this win does to the meter, said before the supervisor presses Refuse (issue 29)."""
        from controller.journal.readback import money
        if not from_meter:
            return "Refusing: not paid, not a hit; a fixed award is the house's: the meter does not move."
        after, overflow, returned = refund(self.meter.amount, self.meter.overflow, a["award"], True, self.meter.limit)
        text = (f"Refusing: not paid, not a hit; its {money(returned)} goes back into the meter, which then stands "
                f"at {money(after)}")
        if overflow != self.meter.overflow:
            text += f" (its limit; {money(overflow - self.meter.overflow)} of it into the overflow)"
        if isinstance(self.meter.awards.get(a["hand"]), WholeMeter):
            text += f"; the meter restarted at {money(self.meter.reset_amount)} and {SEED_ON_REFUSAL}"
        return text + "."

    def buttons(self) -> list[Button]:
        st, closed = self.m.state, self.closed
        can_deal = (st is State.NO_MORE_BETS and not self.dealing and self.deck_ok and self.loaded)
        return [
            {"event": "no_more_bets", "label": "No more bets", "enabled": st is State.OPEN and bool(self.m.d.antes)},
            {"event": "deal", "label": "Deal", "enabled": can_deal},
            {"event": "reveal", "label": "Reveal", "enabled": st is State.DECISIONS and self.m.all_decided()},
            {"event": "settle", "label": "Settle", "enabled": st is State.REVEALED},
            {"event": "next_round", "label": "Next round", "enabled": closed},
        ]

    def next_step(self) -> str:
        d, st = self.m.d, self.m.state
        if self.void:
            return "Round void: return every wager, then press Next round."
        if st is State.OPEN:
            return "Take antes and progressive wagers; press No more bets (the lock-out) when done."
        if st is State.NO_MORE_BETS:
            if self.count is not None and not self.count["ok"]:
                return "Deck count wrong: call a supervisor; the round cannot be dealt."
            if not self.deck_ok or not self.loaded:
                return "Waiting for the shuffler's count and the shoe to be loaded."
            return "Press Deal." if not self.dealing else "Dealing from the shoe."
        if st in (State.DEALING, State.DEALER_FIFTH):
            return "Dealing: give each stack to its seat, the last to the dealer."
        if st is State.DECISIONS:
            waiting = [s for s in sorted(d.antes) if s not in d.void and s not in d.decisions]
            return (f"Seat {waiting[0]}: bet or fold." if waiting else "Press Reveal.")
        if st is State.REVEALED:
            seats = self.turn_over()
            if not d.revealed["qualifies"] and self.turn_over_option != ALL:
                which = (f"only the cards of seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}, "
                         "with a progressive wager" if seats else "no player's cards (no progressive wager)")
                return (f"No hand: turn over {which} (5324.37(e)(5)(i)); then press Settle.")
            if not d.revealed["qualifies"]:
                return "No hand: turn over the players' cards from your right, then press Settle."
            return "Turn over the players' cards from your right, then press Settle."
        if st is State.VALIDATION and self.pool and self.m.awaiting_pool():
            return (f"A progressive win is claimed from the pool {self.pool}; waiting for its award "
                    "(sent again until the pool answers, 5321.18(c)). Leave the cards on the layout: the win "
                    "is paid before they are collected (5324.37(f)(1)).")
        forms = self.m.forms_due()
        if st is State.VALIDATION and forms and len(d.validated) + len(d.refused) == len(d.pending):
            held = ", ".join(map(str, forms))
            return (f"Hand-pay: seat{'s' if len(forms) > 1 else ''} {held} won past the reporting threshold; a "
                    "supervisor fills in the tax form (W-2G) before it is paid. Pay the other seats.")
        if st is State.VALIDATION:
            return "A progressive win waits for a supervisor to validate or refuse it (5324.37(f)(2))."
        return "Round over: collect the cards, then press Next round."

    # The round's own events (besides its machine's), each with why its state refuses it now (None: it
    # takes it) and what it does: apply dispatches by it, allowed() reads it.
    OWN: Mapping[str, Handler[StudRound]] = {
        "deck_count": Handler(_cards_out, _on_deck_count), "shoe_loaded": Handler(_cards_out, _on_shoe_loaded),
        "shoe_card": Handler(_no_shoe_card, _on_shoe_card), "deal": Handler(_no_deal, _on_deal),
        "void_round": Handler(_no_void, _on_void_round), "shoe_check": Handler(_always, _on_shoe_check),
        "reshuffle": Handler(_cards_out, _on_reshuffle), "chip_removed": Handler(_no_chip_flag, _on_chip_removed),
    }


def award_meters(rules: StudRules, entries: list[Effect]) -> dict[int, int]:
    """Seat -> the meter its award came from, before it: every royal flush of a round shares
    the meter as it stood before the first of them (5324.37(g)(6)), not the reset after it."""
    shared: dict[str, int] = {}
    out = {}
    for j in entries:
        p = j["payload"]
        if p["reason"] != "award":
            continue
        if isinstance(rules.progressive.awards[p["hand"]], WholeMeter):
            out[p["seat"]] = shared.setdefault(p["hand"], p["before"])
        else:
            out[p["seat"]] = p["before"]
    return out


def meter_entries(rules: StudRules, before: Mapping[str, Any], result: Mapping[str, Any],
                  meter: ProgressiveMeter) -> list[Effect]:
    """Journal entries for each movement of the meter at a settlement, in order:
    the round's contributions, then each award at the meter as it stood (5324.37(g)(5)-(6))."""
    prog = result.get("progressive")
    if not prog:
        return []
    name = "progressive"
    m = prog["meter_before"]
    stakes = [s["progressive"]["stake"] for s in result["seats"] if "progressive" in s]
    to_overflow = prog.get("to_overflow", 0)   # past the limit: into the overflow meter (5320.8)
    contribution = {"meter": name, "reason": "contribution", "before": m,
                    "after": m + prog["contributions"] - to_overflow, "amount": prog["contributions"],
                    "wagers": len(stakes), "wagered": sum(stakes), "rate_bp": rules.progressive.contribution_bp,
                    "carry_before": before["carry"], "carry_after": meter.carry}
    if "limit" in prog:
        contribution.update(limit=prog["limit"], to_overflow=to_overflow, overflow_before=prog["overflow_before"],
                            overflow_after=prog["overflow_before"] + to_overflow)
    out = [contribution]
    m += prog["contributions"] - to_overflow
    overflow = prog.get("overflow_before", 0) + to_overflow
    awards = rules.progressive.awards
    restarted: set[str] = set()
    for a in prog["awards"]:
        kind = awards[a["hand"]]
        entry = {"meter": name, "reason": "award", "seat": a["seat"], "hand": a["hand"],
                 "amount": a["amount"], "before": m, "from_meter": isinstance(kind, (PercentOfMeter, WholeMeter))}
        if isinstance(kind, PercentOfMeter):
            m -= a["amount"]
        elif isinstance(kind, WholeMeter) and a["hand"] not in restarted:
            restarted.add(a["hand"])
            m = rules.progressive.reset
            entry["seeded"] = m
            if "limit" in prog:   # the overflow seeds the restarted meter up to the limit
                used = seed_from_overflow(m, overflow, rules.progressive.limit)
                entry.update(from_overflow=used, overflow_after=overflow - used)
                m += used
                overflow -= used
        entry["after"] = m
        out.append(entry)
    if m != prog["meter_after"] or m != meter.amount:
        raise AssertionError(f"meter entries end at {m}, the settlement at {prog['meter_after']}")
    return [{"type": "journal", "kind": "meter", "payload": p} for p in out]
