"""Casino war at the live table: the round machine, the shoe position, the dealer's buttons.

The round machine (controller/games/casino_war/machine.py) knows where each card
goes (5324.22(h)-(i)). The table adds the six-to-eight-deck manual dealing shoe
they come from (5324.22(d)): the dealer presses "deal" (and "war" for the war
deal), then draws each card by hand (h)(2) as the next step names it (the burn,
each seat in order, the dealer, the war's three burns and its cards); the
card-reading shoe reports each card drawn and the cover card as events, and
the table remembers where in the shoe it is, so that after a restart it can
tell whether cards were drawn that the box did not record. Casino war cards are dealt face up (5324.22(h)(3), (i)(5)(i)), so such
cards are not lost: the dealer enters them from the layout (and a burn card from
the top of the discard rack) before the shoe deals again. Like the machine, this
is a pure function of its journaled events.

Events besides the machine's:
  {"type": "shoe_card", "card": Card}       one card drawn from the shoe, as its reader read it
  {"type": "shoe_unread", "drawn": n}       card n drawn, its face not read: its place stays due and
                                            the dealer touches the card in (a "card" event)
  {"type": "cover_reached"}                 the shoe diverted the cover card (5324.22(h)(4))
  {"type": "deal"} / {"type": "war"}        the dealer starts the original / the war deal
  {"type": "void_round", "reason": ".."}    a supervisor voids the round before its first settlement
  {"type": "shoe_check", "dispensed": n, "cover_reached": bool}   after a restart
  {"type": "shoe_loaded", "cards": n}       a fresh shoe before the round's first card (burn due)
  {"type": "new_dealer"}                    a new dealer burns a card first (5324.22(h)(1))
The machine's "card" event is the dealer entering a card the box did not record, or,
where the profile's manual shoe has no reader ([manual_shoe] reader = false), the
dealer touching in each card as it is drawn; "cover_reached" is then the dealer's
"Cover card out" and "shoe_loaded" the dealer's "Shoe loaded".
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from controller.cards import CardError, expect_card
from controller.games.base import EventRefused, expect_event
from controller.games.casino_war import events as declared
from controller.games.casino_war.events import CoverCard, DealtCard
from controller.games.event import as_declared
from controller.games.limits import outside_limits
from controller.games.banked import BankedRoundAtTable, Effect, Event, Handler, JsonDict
from controller.games.casino_war.machine import CasinoWarRound, State
from controller.games.casino_war.paylist import pay_list
from controller.games.casino_war.rules import Rules
from controller.games.handpay import Threshold
from controller.games.views import Alarm, Button, RoundState

GAME = "casino-war"
MACHINE_EVENTS = ("wager", "no_more_bets", "card", "cover_card", "no_card", "settle", "decision", "hand_pay")
WAGER_NAMES = ("initial", "tie", "war", "war_tie")


class WarRound(BankedRoundAtTable):
    """One round of casino war as the table plays it; `apply` is all-or-nothing."""

    game = GAME

    def __init__(self, opening: Mapping[str, Any]) -> None:
        self.opening = copy.deepcopy(dict(opening))
        self.round_id: str = opening["round"]
        self.rules = Rules(**opening["rules"])
        self.seat_count: int = opening["seats"]
        limits = opening.get("wager_limits")
        self.limits = tuple(limits) if limits else None
        shoe = opening["shoe"]
        self.burn_due = bool(shoe["burn_due"])
        self.dispensed: int = shoe["dispensed"]   # cards out of the shoe since it was loaded
        self.cover_out = bool(shoe["cover_out"])
        self.reader = shoe.get("reader", True)   # False: the dealer touches each card in (no card reader)
        self.hand_pay = Threshold.from_dict(opening.get("hand_pay"))   # issue 29 (None: a round opened before)
        self.m = CasinoWarRound(self.rules, burn=int(self.burn_due), hand_pay=self.hand_pay)
        self.machine_events: list[Event] = []
        self.events: list[Event] = []
        self.dealing = False
        self.war_dealing = False
        self.unrecorded = 0          # cards the shoe dealt while the box was down, to be entered
        self.unread = False          # the card just drawn was not read: the dealer touches it in
        self.void: JsonDict | None = None
        self.alarms: list[Alarm] = []
        self.record: JsonDict | None = None

    # -- state -------------------------------------------------------------------------

    @property
    def state(self) -> str:
        return "void" if self.void else self.m.state.value

    @property
    def closed(self) -> bool:
        return self.void is not None or self.m.state is State.CLOSED

    def cards_wanted(self) -> int:
        if self.closed or self.unrecorded or self.unread:
            return 0
        st = self.m.state
        if (st is State.FIRST_DEAL and self.dealing) or (st is State.WAR_DEAL and self.war_dealing):
            return 1
        return 0

    def deck_wanted(self) -> None:
        return None  # the shoe is loaded between rounds (controller/runtime/tablestate.py)

    def lockout(self) -> bool:
        return not self.closed and self.m.state is not State.WAGERS

    def lights(self) -> dict[int, str]:
        return {}

    def shoe_after(self) -> JsonDict:
        """The shoe as the next round finds it."""
        burned = bool(self.m.burned) and self.m.burn == 1
        return {"dispensed": self.dispensed, "cover_out": self.cover_out,
                "burn_due": self.burn_due and not burned}

    # -- applying events ---------------------------------------------------------------

    def apply(self, event: Event) -> list[Effect]:
        kind = expect_event(event).type   # the boundary's model (controller/boundary.py), never a dict
        if self.closed and (kind in self.OWN or kind in MACHINE_EVENTS):
            self.refuse(kind, "the round is over")
        own = self.OWN.get(kind)
        if own is not None:
            effects = own.apply(self, event)
        elif kind in MACHINE_EVENTS:
            if kind == "card":
                effects = self._entered_card(event)
            else:
                if kind == "wager":
                    self._check_limits(event)
                effects = self._machine(event)
        else:
            raise EventRefused(repr(kind), self.state, self.allowed(), "not an event of casino war")
        self.events.append(event)   # a model: frozen
        return effects

    def _check_limits(self, event: Event) -> None:
        wager = as_declared(event, declared.Wager)
        stake = wager.stake
        if self.limits and wager.wager == "initial":
            low, high = self.limits
            why = outside_limits("an initial wager", stake, low, high)
            if why:
                self.refuse("wager", why)

    def _machine(self, event: Event) -> list[Effect]:
        effects = self.m.apply(event)
        self.machine_events.append(event)
        out = list(effects)
        for e in effects:
            if e["type"] == "hand_paid":
                # Issue 29: the form's record, in the journal before the seat is paid (the same commit as
                # the event); the only entry besides the event itself that holds the identification in full.
                form = as_declared(event, declared.HandPay)
                out.append({"type": "journal", "kind": "hand-pay", "payload": {
                    "round": self.round_id, **{k: v for k, v in e.items() if k != "type"},
                    "player_id": form.player_id}})
            if e["type"] == "round_closed":
                self.record = {"game": GAME, "round": self.round_id, "record": e["record"],
                               "settlement": e["settlement"], "void_wagers": e["void"],
                               "shoe_after": self.shoe_after()}
                if self.m.hand_pays:   # each hand-pay's form, the player's identification masked
                    self.record["hand_pays"] = {str(k): v for k, v in sorted(self.m.hand_pays.items())}
                out.append({"type": "journal", "kind": "round-record", "payload": self.record})
                out.append({"type": "closed"})
        return out

    def _entered_card(self, event: Event) -> list[Effect]:
        if self.unread:
            # the card the reader could not read, touched in by the dealer in the place still due
            effects = self._machine(event)
            self.unread = False
            self.alarms = [a for a in self.alarms if a["kind"] != "card_unread"]
            return effects
        if not self.reader and not self.unrecorded:
            # a shoe without a reader: the dealer touches in the card just drawn, in its place
            if not self.cards_wanted():
                self.refuse("card", "no card is drawn now: press Deal (or Deal the war) first")
            effects = self._machine(event)
            self.dispensed += 1
            return effects
        if not self.unrecorded:
            self.refuse("card", "cards come from the shoe; the dealer enters one only when the box "
                        "missed it (after a restart)")
        effects = self._machine(event)
        self.unrecorded -= 1
        if not self.unrecorded:
            self.alarms = [a for a in self.alarms if a["kind"] != "unrecorded_cards"]
        return effects

    # -- the round's own events: what each does, and why the round's state does not take it now ------

    def _no_draw(self) -> str | None:
        if self.unrecorded:
            return f"{self.unrecorded} card(s) the box did not record must be entered first"
        return None if self.cards_wanted() else "a card came out of the shoe with no deal under way"

    def _no_cover(self) -> str | None:
        return "the cover card is already out" if self.cover_out else None

    def _no_deal(self) -> str | None:
        return None if self.m.state is State.FIRST_DEAL and not self.dealing \
            else "the deal follows \"no more bets\", once"

    def _no_war(self) -> str | None:
        return None if self.m.state is State.WAR_DEAL and not self.war_dealing \
            else "the war deal follows the decisions of the tie hands, once (5324.22(i)(5))"

    def _no_void(self) -> str | None:
        return None if self.m.state in (State.WAGERS, State.FIRST_DEAL, State.FIRST_SETTLE) \
            else "the original deal is settled: finish the round"

    def _no_reload(self) -> str | None:
        return None if self.m.state is State.WAGERS else "the shoe was reloaded in the middle of a round"

    def _no_new_dealer(self) -> str | None:
        return None if self.m.state is State.WAGERS else "a new dealer takes over between rounds"

    def _always(self) -> str | None:
        return None

    def _no_entered_card(self) -> str | None:
        """The table's own condition on the machine's card: the dealer enters one only where the shoe did not."""
        if self.unread or self.unrecorded:
            return None
        if not self.reader:
            return None if self.cards_wanted() else "no card is drawn now: press Deal (or Deal the war) first"
        return "cards come from the shoe; the dealer enters one only when the box missed it (after a restart)"

    def allowed(self) -> list[str]:
        if self.closed:
            return []
        own = {k for k, h in self.OWN.items() if h.refused(self) is None}
        machine = {k for k in self.m.allowed() if k in MACHINE_EVENTS and k != "cover_card"}
        if self._no_entered_card() is not None:
            machine.discard("card")
        # the lock-out with nothing to deal to is no step: an event of nothing but its type, refused
        if not any("initial" in w for w in self.m.wagers.values()):
            machine.discard("no_more_bets")
        return sorted(own | machine)

    def _on_shoe_card(self, e: Event) -> list[Effect]:
        try:
            c = expect_card(as_declared(e, declared.ShoeCard).card)   # a Card: read from the shoe's frame by its driver
        except CardError as exc:
            self.refuse("shoe_card", str(exc))
        self.refuse_if("shoe_card", self._no_draw())
        effects = self._machine(DealtCard(card=c))
        self.dispensed += 1
        return effects

    def _on_shoe_unread(self, e: Event) -> list[Effect]:
        drawn = as_declared(e, declared.ShoeUnread).drawn
        if drawn < 1:
            self.refuse("shoe_unread", "drawn must be the card's number in the shoe")
        self.refuse_if("shoe_unread", self._no_draw())
        self.unread = True
        self.dispensed += 1
        alarm: Alarm = {"kind": "card_unread",
                 "message": f"The shoe did not read card {drawn}: touch in the card just drawn."}
        self.alarms.append(alarm)
        return [{"type": "alarm", **alarm}]

    def _on_cover_reached(self, e: Event) -> list[Effect]:
        self.refuse_if("cover_reached", self._no_cover())
        effects = self._machine(CoverCard()) if self.m.state in (State.FIRST_DEAL,
                                                                           State.WAR_DEAL) else []
        self.cover_out = True
        return effects + [{"type": "alarm", "kind": "cover_card",
                           "message": "the cover card is out: finish this round, then reshuffle (5324.22(h)(4))"}]

    def _on_deal(self, e: Event) -> list[Effect]:
        self.refuse_if("deal", self._no_deal())
        self.dealing = True
        return []

    def _on_war(self, e: Event) -> list[Effect]:
        self.refuse_if("war", self._no_war())
        self.war_dealing = True
        return []

    def _on_void_round(self, e: Event) -> list[Effect]:
        reason = as_declared(e, declared.VoidRound).reason
        if not reason.strip():
            self.refuse("void_round", "a void needs a reason")
        self.refuse_if("void_round", self._no_void())
        wagers = [{"seat": s, **w} for s, w in sorted(self.m.wagers.items())]
        wagers += [{"seat": v["seat"], **{k: v[k]["stake"] for k in WAGER_NAMES if k in v}} for v in self.m.void]
        self.void = {"reason": reason.strip(), "wagers": sorted(wagers, key=lambda w: w["seat"]),
                     "cards": [str(c) for c in self.m.drawn]}
        self.record = {"game": GAME, "round": self.round_id, "void": self.void, "shoe_after": self.shoe_after()}
        return [{"type": "void_round", "reason": reason.strip()},
                {"type": "journal", "kind": "round-record", "payload": self.record}, {"type": "closed"}]

    def _on_shoe_check(self, e: Event) -> list[Effect]:
        check = as_declared(e, declared.ShoeCheck)   # a whole number and true/false: the door checks them
        told, cover = check.dispensed, check.cover_reached
        effects: list[Effect] = []
        if cover and not self.cover_out:
            effects += self._on_cover_reached(e)
        if told == self.dispensed:
            return effects + [{"type": "resumed", "dispensed": told}]
        if told > self.dispensed and self.cards_wanted():
            self.unrecorded = told - self.dispensed
            self.dispensed = told
            alarm: Alarm = {"kind": "unrecorded_cards",
                     "message": f"the shoe dealt {self.unrecorded} card(s) while the box was down: enter each "
                                "from the layout (face up, 5324.22(h)(3)) in the order dealt"}
            self.alarms.append(alarm)
            return effects + [{"type": "alarm", **alarm}]
        alarm = {"kind": "device", "message": f"the shoe reports {told} card(s) dealt, the journal "
                                             f"{self.dispensed}: check the shoe; a supervisor may void the round"}
        self.alarms.append(alarm)
        return effects + [{"type": "alarm", **alarm}]

    def _on_shoe_loaded(self, e: Event) -> list[Effect]:
        self.refuse_if("shoe_loaded", self._no_reload())
        self._rebuild(burn=True)
        self.dispensed, self.cover_out = 0, False
        return []

    def _on_new_dealer(self, e: Event) -> list[Effect]:
        self.refuse_if("new_dealer", self._no_new_dealer())
        self._rebuild(burn=True)
        return []

    def _rebuild(self, burn: bool) -> None:
        m = CasinoWarRound(self.rules, burn=int(burn), hand_pay=self.hand_pay)
        for event in self.machine_events:
            m.apply(event)
        self.m, self.burn_due = m, burn

    # The round's own events (besides its machine's), each with why its state refuses it now (None: it
    # takes it) and what it does: apply dispatches by it, allowed() reads it.
    OWN: Mapping[str, Handler[WarRound]] = {
        "shoe_card": Handler(_no_draw, _on_shoe_card), "shoe_unread": Handler(_no_draw, _on_shoe_unread),
        "cover_reached": Handler(_no_cover, _on_cover_reached), "deal": Handler(_no_deal, _on_deal),
        "war": Handler(_no_war, _on_war), "void_round": Handler(_no_void, _on_void_round),
        "shoe_check": Handler(_always, _on_shoe_check), "shoe_loaded": Handler(_no_reload, _on_shoe_loaded),
        "new_dealer": Handler(_no_new_dealer, _on_new_dealer),
    }

    # -- the published round -------------------------------------------------------------

    def view(self) -> JsonDict:
        m = self.m
        seats = []
        for seat in range(1, self.seat_count + 1):
            wagers = dict(m.wagers.get(seat, {}))
            decision = m.decisions.get(seat, {})
            if decision.get("decision") == "war":
                wagers["war"] = wagers.get("initial", 0)
                if "war_tie" in decision:
                    wagers["war_tie"] = decision["war_tie"]
            cards = [str(c) for c in (m.cards.get(seat), m.war_cards.get(seat)) if c is not None]
            seats.append({"seat": seat, "wagers": wagers, "cards": cards, "decision": decision.get("decision"),
                          "light": None, "void": any(v["seat"] == seat for v in m.void) or self.void is not None,
                          "hand": None})
        dealer_cards = [str(c) for c in (m.dealer_card, m.dealer_war_card) if c is not None]
        round_: RoundState = {"id": self.round_id, "state": self.state, "next_step": self.next_step(),
                              "buttons": self.buttons(), "allowed": self.allowed(), "draw": self.next_draw(),
                              "touch_in": (not self.reader or self.unread) and self.next_draw() is not None}
        return {"round": round_,
                "seats": seats, "dealer": {"cards": dealer_cards, "up_card": dealer_cards[0] if dealer_cards else None,
                                           "hand": None, "qualifies": None},
                "settlement": pay_list(m.first, m.settlement, held=frozenset(m.forms_due())),   # from the first Settle on (5324.22(i)(1))
                "validations": [], "hand_pays": self._hand_pays_view(), "alarms": list(self.alarms),
                "shoe": {"dispensed": self.dispensed, "cover_out": self.cover_out, "burn": m.burn,
                         "unrecorded": self.unrecorded}}

    def _hand_pays_view(self) -> list[JsonDict]:
        """The seats held for a hand-pay's form (issue 29), as at Caribbean stud: what they won, and the form
        once it is done (the player's identification masked: the screens never see it in full)."""
        m = self.m
        due = m.hand_pays_due()
        out = []
        for seat in sorted(set(due) | set(m.hand_pays)):
            done = m.hand_pays.get(seat)
            wagers = done["wagers"] if done else due[seat]
            out.append({"seat": seat, "amount": sum(w["win"] for w in wagers), "wagers": wagers,
                        "threshold": self.hand_pay.to_dict() if self.hand_pay else None, "done": done is not None,
                        **({k: done[k] for k in ("form", "paid_by", "player")} if done else {})})
        return out

    def buttons(self) -> list[Button]:
        st = self.m.state
        buttons: list[Button] = [
            {"event": "no_more_bets", "label": "No more bets",
             "enabled": st is State.WAGERS and any("initial" in w for w in self.m.wagers.values())},
            {"event": "deal", "label": "Deal", "enabled": st is State.FIRST_DEAL and not self.dealing},
            {"event": "settle", "label": "Settle", "enabled": st in (State.FIRST_SETTLE, State.WAR_SETTLE)},
            {"event": "war", "label": "Deal the war", "enabled": st is State.WAR_DEAL and not self.war_dealing},
            {"event": "next_round", "label": "Next round", "enabled": self.closed},
            # A new dealer at the table burns one card before dealing (5324.22(h)(1)): the change is
            # pressed between rounds, before no more bets, and the round's first card is the burn.
            {"event": "new_dealer", "label": "New dealer", "enabled": st is State.WAGERS and not self.m.burn},
        ]
        if not self.reader:   # no reader to see it: the dealer says when the cover card comes out (5324.22(h)(4))
            buttons.append({"event": "cover_reached", "label": "Cover card out",
                            "enabled": not self.closed and not self.cover_out and st is not State.WAGERS})
        return buttons

    def next_step(self) -> str:
        step = self._step()
        if self.cover_out and not self.closed and "cover card" not in step:
            step += " The cover card is out: after this round the cards are reshuffled (5324.22(h)(4))."
        return step

    def _step(self) -> str:
        st, m = self.m.state, self.m
        if self.void:
            return "Round void: return every wager, then press Next round."
        if self.unrecorded:
            return f"Enter the {self.unrecorded} card(s) the shoe dealt while the box was down."
        if st is State.WAGERS:
            burn = (" The first card is a burn card: to the discard rack face down (5324.22(h)(1))."
                    if m.burn else "")
            return "Take initial and tie wagers; press No more bets when done." + burn
        if st is State.FIRST_DEAL:
            if not self.dealing:
                return ("Press Deal: the burn card first, face down to the discard rack (5324.22(h)(1))."
                        if m.burn and not m.burned else "Press Deal.")
            return self._draw_step()
        if st is State.FIRST_SETTLE:
            return "Press Settle: the original deal's wagers (5324.22(i)(1))."
        if st is State.DECISIONS:
            waiting = [s for s in m.tie_hands if s not in m.decisions]
            return f"Seat {waiting[0]} tied: surrender or go to war (5324.22(i)(3))."
        if st is State.WAR_DEAL:
            return "Press Deal the war: three burn cards, then the cards." if not self.war_dealing \
                else self._draw_step()
        if st is State.WAR_SETTLE:
            return "Press Settle: the war (5324.22(i)(5)(ii))."
        if st is State.HAND_PAY:
            held = m.forms_due()
            return (f"Hand-pay: seat{'s' if len(held) > 1 else ''} {', '.join(map(str, held))} won past the reporting "
                    "threshold; a supervisor fills in the tax form (W-2G) before it is paid. Pay the other seats.")
        return "Round over: collect the cards, then press Next round."


    def next_draw(self) -> JsonDict | None:
        """The card the dealer draws from the shoe next and where it goes: {"to": "burn"|"seat"|"dealer",
        "seat", "burn": k of "burns", "deal": "first"|"war"}; None when no card is drawn now."""
        if not self.cards_wanted() and not self.unread:
            return None
        m = self.m
        kind, seat = m.next_slot()
        deal = "first" if m.state is State.FIRST_DEAL else "war"
        draw: JsonDict = {"to": kind, "seat": seat, "deal": deal}
        if kind == "burn":
            burns = [i for i, (k, _) in enumerate(m.order) if k == "burn"]
            draw.update(burn=burns.index(m.dealt_in_deal) + 1, burns=len(burns))
        return draw

    def _draw_step(self) -> str:
        """The dealer's next hand movement, one card at a time (5324.22(h)(2)): which card, and where."""
        d = self.next_draw()
        if d is None:
            return "Dealing."
        if d["to"] == "burn" and d["deal"] == "first":
            where = "the burn card, face down to the discard rack without showing it (5324.22(h)(1))"
        elif d["to"] == "burn":
            where = (f"war burn card {d['burn']} of {d['burns']}, face down to the discard rack "
                     "(5324.22(i)(5)(i))")
        elif d["to"] == "seat" and d["deal"] == "first":
            where = f"seat {d['seat']}'s card, face up (5324.22(h)(3)(i))"
        elif d["to"] == "seat":
            where = f"seat {d['seat']}'s war card, face up beside the first (5324.22(i)(5)(i))"
        elif d["deal"] == "first":
            where = "the dealer's card, face up (5324.22(h)(3)(ii))"
        else:
            where = "the dealer's war card, face up (5324.22(i)(5)(i))"
        if self.unread:
            return f"The shoe did not read the card just drawn: touch it in: {where}."
        if not self.reader:
            return f"Draw the next card from the shoe with the left hand, then touch it in: {where}."
        return f"Draw the next card from the shoe with the left hand: {where}."


def settlement_steps(settled: Mapping[str, Any]) -> list[JsonDict]:
    """The settled round as the dealer works through it: collect, then pushes, then pay."""
    collect, returned, pay = [], [], []
    for s in settled.get("seats", []):
        for name in WAGER_NAMES:
            w = s.get(name)
            if w is None:
                continue
            step = {"seat": s["seat"], "wager": name}
            if w["net"] < 0:
                collect.append({**step, "step": "collect", "amount": -w["net"]})
            elif w["net"] == 0:
                returned.append({**step, "step": "push", "amount": w["stake"]})
            else:
                pay.append({**step, "step": "pay", "amount": w["net"]})
    return collect + returned + pay
