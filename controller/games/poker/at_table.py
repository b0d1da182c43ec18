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

Events (declared once, with their types, in controller/games/poker/contract.py):
  {"type": "deck_count", "total", "anomalies", "truncated"}   the shuffler's reader
  the dealer's console: deal_hole {up}, deal_board {cards}, fold / check_call / bring_in {seat},
  bet_raise {seat, amount}, draw {seat, count}, discard {seat, count}, show {seat, cards},
  muck {seat}; each becomes the PHH action(s) it means, journaled as sent
  {"type": "action", "action": "<PHH action>"}   anything else the engine takes (irregularities)
  {"type": "void_round", "reason"}   a signed-in supervisor confirms the misdeal or dead hand the dealer
                                     called with cards out (issue 15); until then it is only asked
Between hands (controller/runtime/tablestate.py): sit, top_up, sit_out, sit_in, leave.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from controller.games.base import EventRefused, expect_event
from controller.games.banked import DeckCount, Effect, Event, JsonDict
from controller.games.event import as_declared
from controller.games.poker import events as declared
from controller.games.poker.contract import HAND_EVENTS
from controller.games.poker.showdown_words import winning_hands
from controller.games.views import Alarm, RoundState

if TYPE_CHECKING:
    from controller.poker.hand import HandSetup

FULL_DECK = 52
COUNT_PROVISION = "5324.42(f)(6)(iv)"
DEALING = ("dh", "db")
DEAD_DECK = "the last hand's deck was called dead (5324.42(p)(3))"
VOID_ASKED = "void_pending"   # the alarm of a void the dealer called with cards out, not yet confirmed


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def raise_presets(h: Any, o: Any, pot: int) -> list[dict[str, Any]]:
    """The console's preset bets and raises, each a whole number of the table's chips (issue 30): the
    least, half the pot and the pot (pot-sized: the call, then the pot after it), and all in."""
    if o is None or not o.raise_word or o.raise_min is None or o.raise_max is None:
        return []
    chip = h.setup.chip
    all_in = h.bets[o.player] + h.stacks[o.player]
    out = [{"key": "min", "label": "All-in" if o.raise_min == all_in else "Min", "amount": o.raise_min}]
    if o.raise_max == o.raise_min:
        return out
    facing = max(h.bets)
    after = pot + sum(h.bets) + (facing - h.bets[o.player])
    for key, label, size in (("half", "½ pot", after // 2), ("pot", "Pot", after)):
        to = facing + size // chip * chip
        if o.raise_min < to < o.raise_max:
            out.append({"key": key, "label": label, "amount": to})
    out.append({"key": "max", "label": "All-in" if o.raise_max == all_in else "Max", "amount": o.raise_max})
    return out


def setup_of(opening: Mapping[str, Any]) -> HandSetup:
    """The engine's HandSetup for an opening (what the snapshot journals)."""
    from controller.poker import jackpot, rake
    from controller.poker.hand import HandSetup
    from controller.poker.variants import variant_for
    s = opening["setup"]
    return HandSetup(variant=variant_for(opening["game"], opening["structure"]),
                     starting_stacks=tuple(opening["stacks"]), antes=tuple(s["antes"]), blinds=tuple(s["blinds"]),
                     bring_in=s["bring_in"], small_bet=s["small_bet"], big_bet=s["big_bet"],
                     raise_cap=s["raise_cap"], chip=s.get("chip", 1), kill_blind=s.get("kill_blind"),
                     rake=rake.rule_from_fields(opening["rake"]) if opening.get("rake") else None,
                     jackpot=jackpot.rule_from_fields(opening["jackpot"]) if opening.get("jackpot") else None)


def opening_for(profile: Any, round_id: str, number: int, seats: dict[int, int], button: int | None,
                lammer: int | None = None) -> JsonDict:
    """The next hand of a poker table: players in PHH order (after the button), forced bets, stakes;
    with the kill lammer in front of a player, that player's kill blind and the raised limits ((j)(9))."""
    from controller.poker import jackpot, rake
    from controller.poker.hand import DEFAULT_RAISE_CAP
    from controller.poker.variants import variant_for
    p = profile.poker
    variant = variant_for(profile.game, p.structure)
    occupied = sorted(s for s, stack in seats.items() if stack > 0)
    if variant.button:
        assert button is not None   # a button game's opening always places it (PokerTableState._game_opening)
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
    opening = {"round": round_id, "number": number, "game": profile.game, "structure": p.structure,
               "seat_count": profile.seats, "order": order, "stacks": [seats[s] for s in order],
               "button": button if variant.button else None,
               "setup": {"antes": [p.ante] * len(order), "blinds": blinds, "bring_in": bring_in, "small_bet": small,
                         "big_bet": big, "raise_cap": p.raise_cap or (DEFAULT_RAISE_CAP if variant.fixed_limit
                                                                      else None), "chip": p.chip},
               "rake": rake.rule_fields(rake.rule_from_config(p.rake)),
               "jackpot": jackpot.rule_fields(jackpot.rule_from_config(p.jackpot)) if p.jackpot else None,
               "straddle": getattr(p, "straddle", None) if len(order) > 2 else None, "kill": None}
    kill = getattr(p, "kill", None)
    if kill is not None and lammer in order:
        from controller.poker.kill import kill_setup, rule_from_config
        killed = kill_setup(setup_of(opening), order.index(lammer), rule_from_config(kill))
        opening["setup"].update(blinds=list(killed.blinds), small_bet=killed.small_bet, big_bet=killed.big_bet,
                                kill_blind=killed.kill_blind)
        opening["kill"] = {"seat": lammer, "kind": kill.kind}
        opening["straddle"] = None
    return opening


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
        self.events: list[Event] = []
        self.count: DeckCount | None = None
        # (p)(3): the last hand's deck was called dead (cards missing or extra): it is not dealt again;
        # a supervisor puts a new deck in play (replace_deck), which the shuffler counts before it is dealt.
        self.dead_deck = bool((opening.get("deck") or {}).get("dead"))
        self.shuffles = 0
        self.alarms: list[Alarm] = []
        self.raked = (0, 0)   # the rake and jackpot drop the dealer has put in the rake area so far
        self.void_asked: Event | None = None   # the dealer's void with cards out, until a supervisor confirms
        self.record: JsonDict | None = None
        self.meter = None

    # -- state ---------------------------------------------------------------------------

    @property
    def state(self) -> str:
        return "closed" if self.closed else self.hand.phase.value

    @property
    def closed(self) -> bool:
        return self.hand.finished

    def deck_wanted(self) -> int | None:
        if self.closed or self.count is not None or self.hand.log or self.dead_deck:
            return None
        return self.shuffles

    def cards_wanted(self) -> int:
        return 0   # poker is dealt from the dealer's hand, not a shoe (5324.42(f)(6)(i))

    def lockout(self) -> bool:
        return False

    def lights(self) -> dict[int, str]:
        return {}

    def stacks_after(self) -> dict[int, int]:
        result = self.hand.result
        assert result is not None   # read once the hand is finished (TableState.after_close): it has its result
        return {seat: stack for seat, stack in zip(self.order, result.finishing_stacks, strict=True)}

    # -- events ------------------------------------------------------------------------------

    def allowed(self) -> list[str]:
        if self.closed:
            return []
        return ["deck_count", "shoe_check", "replace_deck", *HAND_EVENTS] + (["void_round"] if self.void_asked else [])

    def refuse(self, kind: str, reason: str) -> NoReturn:
        raise EventRefused(kind, self.state, self.allowed(), reason)

    def apply(self, event: Event) -> list[Effect]:
        kind = expect_event(event).type   # the boundary's model (controller/boundary.py), never a dict
        if self.closed:
            self.refuse(kind, "the hand is over")
        handler = self.HANDLERS.get(kind)
        if handler is None and kind in HAND_EVENTS:
            handler = PokerRound._entry
        if handler is None:
            self.refuse(repr(kind), "not an event of a poker hand (controller/games/poker/contract.py)")
        effects = handler(self, event)
        self.events.append(event)   # a model: frozen
        return effects

    def straddler(self) -> int | None:
        """The seat that may straddle now: the one after the big blind, before any card ((c)(11))."""
        if not self.opening.get("straddle") or self.hand.log or self.closed:
            return None
        posted = [i for i, b in enumerate(self.setup.blinds) if b]
        if len(posted) < 2 or len(posted) > 2 or posted[-1] + 1 >= len(self.order):
            return None   # no blinds to follow, or straddled already
        return self.order[posted[-1] + 1]

    def _straddle(self, event: Event) -> list[Effect]:
        from controller.poker.hand import Hand
        from controller.games.poker.contract import Straddle, hand_event
        e, why = hand_event(event)
        if why:
            self.refuse("straddle", why)
        assert isinstance(e, Straddle)   # the contract parsed it by its type, "straddle"
        seat = self.straddler()
        if seat is None:
            self.refuse("straddle", "no straddle now: the profile offers none, or the cards are out (5324.42(c)(11))")
        if e.seat != seat:
            self.refuse("straddle", f"only seat {seat}, after the big blind, may straddle (5324.42(c)(11))")
        setup = self.setup.with_straddle()
        if self.hand.stacks[self.order.index(seat)] < self.opening["straddle"]:
            self.refuse("straddle", f"seat {seat} has not the chips to straddle")
        self.setup, self.hand = setup, Hand(setup)
        return []

    def player_of(self, seat: int) -> int:
        """The PHH player number of a seat in this hand."""
        if seat not in self.order:
            self.refuse("action", f"seat {seat} is not in this hand")
        return self.order.index(seat) + 1

    def _phh(self, e: Any) -> list[str]:
        """The PHH actions a console event means."""
        kind = e.type
        if kind == "action":
            return [e.action]
        if kind == "deal_board":
            return ["d db " + "".join(e.cards)]
        if kind == "deal_hole":
            owed = self.hand.dealer_owes()["hole"]
            assert isinstance(owed, dict)   # Hand.dealer_owes: "hole" is seat -> faces up, "board" a count
            if not owed:
                self.refuse(kind, "no hole card is owed now")
            out, ups = [], {int(k): list(v) for k, v in e.up.items()}
            for i, faces in sorted(owed.items()):
                seat = self.order[i]
                mine = ups.pop(seat, [])
                if len(mine) != sum(faces):
                    self.refuse(kind, f"seat {seat} is owed {sum(faces)} up card(s); {len(mine)} entered")
                out.append(f"d dh p{i + 1} " + "".join(mine.pop(0) if up else "??" for up in faces))
            if ups:
                self.refuse(kind, f"no up card is owed to seat(s) {', '.join(map(str, sorted(ups)))}")
            return out
        p = self.player_of(e.seat)
        if kind == "expose":
            return self._exposure(p, e.card, e.burn)
        if kind == "fold":
            return [f"p{p} f"]
        if kind == "check_call":
            return [f"p{p} cc"]
        if kind == "bring_in":
            return [f"p{p} pb"]
        if kind == "bet_raise":
            return [f"p{p} cbr {e.amount}"]
        if kind == "draw":
            return [f"p{p} sd" + (" " + "??" * e.count if e.count else "")]
        if kind == "discard":
            return [f"p{p} dd " + "??" * e.count]
        if kind == "show":
            return [f"p{p} sm " + "".join(e.cards)]
        return [f"p{p} sm -"]   # muck

    def taken_so_far(self) -> tuple[int, int]:
        """The rake and the jackpot drop the hand has taken so far, round by round (rake.py)."""
        pots = self.hand.pots()
        return sum(p.rake for p in pots), sum(p.jackpot for p in pots)

    def rake_due(self) -> tuple[int, int] | None:
        """(o)(2)(i)(b), (o)(2)(ii)(b): the rake of the betting round just ended, collected from the pots
        and placed in the rake area as play progresses (then the jackpot drop, (r)(3)): what the dealer
        has not yet put there; None when nothing is due (or the hand is over: the pots are pushed)."""
        if self.closed:
            return None
        rake, drop = self.taken_so_far()
        due = (rake - self.raked[0], drop - self.raked[1])
        return due if any(due) else None

    def _rake_taken(self, e: Event) -> list[Effect]:
        if self.rake_due() is None:
            self.refuse("rake_taken", "no rake is due: it is taken when a betting round ends")
        self.raked = self.taken_so_far()
        return []

    def _exposure(self, p: int, card: str, burn: bool) -> list[str]:
        """A hole card turned up in the dealing ((p)(6), (p)(7), (p)(9)). Touched before "Hole cards
        dealt", the card was not dealt on the record yet: it is dealt (unseen) first, then exposed; the
        engine decides what the exposure comes to (the up card owed comes face down, both hole cards of
        seven-card stud up: dead with the ante back, the third: the player's choice, hold'em: exchanged)."""
        h = self.hand
        i = p - 1
        start = h.dealt_from[i]
        from controller.poker.stub import card_text
        unseen = any(c is None or card_text(c) == card for c, up in zip(h.hole[i][start:], h.up[i][start:], strict=True)
                     if not up)
        owed = h.owed[i]
        out = [] if unseen or not owed or owed[0] else [f"d dh p{p} ??"]
        return out + [f"d expose p{p} {card}" + (" burn" if burn else "")]

    def _entry(self, event: Event, confirmed: bool = False) -> list[Effect]:
        from controller.poker.actions import ActionSyntaxError, parse_action
        from controller.poker.errors import IllegalAction
        from controller.games.poker.contract import hand_event
        kind = event.type
        e, why = hand_event(event)
        if why:
            self.refuse(kind, why)
        texts = self._phh(e)
        due = self.rake_due()
        if due is not None and kind in ("deal_hole", "deal_board", "draw", "discard"):
            self.refuse(kind, f"the rake of the last betting round ({_money(due[0])}) goes into the rake area "
                              "first: touch Rake taken (5324.42(o)(2)(i)(b))")
        before = copy.deepcopy(self.hand)
        try:
            for text in texts:
                try:
                    action = parse_action(text)
                except ActionSyntaxError as exc:
                    self.refuse(kind, str(exc))
                if action is None:
                    self.refuse(kind, "no action in it")
                if action.kind in DEALING and self.dead_deck:
                    self.refuse(kind, f"{DEAD_DECK}: it is not dealt again until a new deck is counted in")
                if action.kind in DEALING and not (self.count and self.count["ok"]):
                    self.refuse(kind, f"no card is dealt before the deck counts 52 ({COUNT_PROVISION})")
                try:
                    self.hand.apply(action)
                except (IllegalAction, ValueError) as exc:   # the engine's refusals of what it was given
                    self.refuse(kind, str(exc))
        except Exception:   # a refusal, or a bug in the engine: the hand as it was (controller/games/base.py)
            self.hand = before   # all or nothing
            raise
        if not confirmed and self.hand.finished and self.hand.result is not None and self.hand.result.void \
                and any(a is not None and a.kind in DEALING for a in before.log):
            # every chip back with cards out: the dealer asks, a supervisor confirms (issue 15)
            self.hand = before
            alarm: Alarm = {"kind": VOID_ASKED,
                     "message": f"void awaits supervisor: {' '.join(texts)}; every chip goes back once a "
                                "supervisor confirms it on the supervisor's screen (5324.42(p))"}
            self.void_asked = event
            self.alarms = [a for a in self.alarms if a["kind"] != VOID_ASKED] + [alarm]
            return [{"type": "alarm", **alarm}]
        self.void_asked = None   # the dealer went on with the hand: the request lapses
        self.alarms = [a for a in self.alarms if a["kind"] != VOID_ASKED]
        if not self.hand.finished:
            return []
        return self._finish()

    def _confirm_void(self, event: Event) -> list[Effect]:
        """A signed-in supervisor confirms the void the dealer asked for (the table lets only a
        supervisor send void_round)."""
        if self.void_asked is None:
            self.refuse("void_round", "no misdeal or dead hand awaits a supervisor; the dealer calls it first")
        return self._entry(self.void_asked, confirmed=True)

    def _deck_count(self, e: Event) -> list[Effect]:
        count = as_declared(e, declared.DeckCount)   # its fields typed at the door
        total, anomalies, truncated = count.total, count.anomalies, count.truncated
        if self.hand.log:
            self.refuse("deck_count", "the hand has begun; the deck was counted before it")
        if self.dead_deck:
            self.refuse("deck_count", f"{DEAD_DECK}: a supervisor puts a new deck in play first")
        ok = total == FULL_DECK and not anomalies and not truncated
        self.count = {"total": total, "anomalies": list(anomalies), "truncated": truncated, "ok": ok}
        self.alarms = [a for a in self.alarms if a["kind"] != "deck_count"]
        if ok:
            return []
        alarm: Alarm = {"kind": "deck_count", "message": f"the deck counted {total} cards, not {FULL_DECK}: it is not "
                 f"played ({COUNT_PROVISION}); the supervisor replaces it"}
        self.alarms.append(alarm)
        return [{"type": "alarm", **alarm}]

    def _replace_deck(self, e: Event) -> list[Effect]:
        """(f)(6)(iv): a deck that did not count 52 is removed by the supervisor and a new one put into
        play; the shuffler shuffles and counts it before any card of the hand is dealt."""
        if self.hand.log:
            self.refuse("replace_deck", "the hand has begun: its deck is replaced after it (5324.42(p)(3))")
        if self.dead_deck:   # (p)(3): the new deck replaces the one called dead
            self.dead_deck = False
            self.count = None
            self.shuffles += 1
            return []
        if self.count is None or self.count["ok"]:
            self.refuse("replace_deck", "the deck counted 52 or is not counted yet: nothing to replace")
        self.count = None
        self.shuffles += 1
        self.alarms = [a for a in self.alarms if a["kind"] != "deck_count"]
        return []

    def _restart(self, e: Event) -> list[Effect]:
        """After a restart the dealer's cards are where the journal left them; a hand not yet dealt
        has its deck counted again."""
        if not self.hand.log:
            self.count = None
            self.shuffles += 1
        return [{"type": "resumed"}]

    # The hand's events besides the dealer's entries (HAND_EVENTS, each the PHH action(s) it means: _entry).
    HANDLERS: Mapping[str, Callable[[PokerRound, Event], list[Effect]]] = {
        "deck_count": _deck_count, "straddle": _straddle, "shoe_check": _restart, "replace_deck": _replace_deck,
        "void_round": _confirm_void, "rake_taken": _rake_taken,
    }

    def _finish(self) -> list[Effect]:
        from controller.poker.phh import hand_to_phh
        result = self.hand.result
        assert result is not None   # the hand is finished (_entry): it has its result
        self.record = {"game": self.game, "round": self.round_id, "phh": hand_to_phh(self.hand, fields={"seats": list(self.order)}),
                       "deck": (self.opening.get("deck") or {}).get("id"),
                       "seats": self.order, "stacks_before": list(self.setup.starting_stacks),
                       "stacks_after": list(result.finishing_stacks), "rake": result.rake,
                       "jackpot_drop": result.jackpot_drop, "void": result.void,
                       "time_charges": sum((self.opening.get("time_charges") or {}).values())}
        return [{"type": "journal", "kind": "round-record", "payload": self.record}, {"type": "closed"}]

    # -- the published hand ---------------------------------------------------------------

    def view(self) -> JsonDict:
        """The published hand, as controller/games/poker/contract.py PokerView declares it."""
        from controller.poker.stub import card_text
        h = self.hand
        seat_of = self.order
        to_act = h.to_act if not self.closed else None
        o = h.options() if not self.closed else None
        options: list[dict[str, Any]] = []
        if o is not None:
            if o.fold:
                options.append({"action": "fold", "min": None, "max": None})
            if o.bring_in:
                options.append({"action": "bring_in", "min": o.bring_in, "max": o.bring_in})
            elif o.check:
                options.append({"action": "check", "min": None, "max": None})
            else:
                options.append({"action": "call", "min": o.call, "max": o.call})
            if o.raise_word:
                options.append({"action": o.raise_word, "min": o.raise_min, "max": o.raise_max})
        pots = h.pots()
        owed: dict[str, Any] = h.dealer_owes() if not self.closed else {"hole": {}, "board": 0}   # hole: seat -> faces
        # A player who ended the obligation to wager ((p)(6)(i)) holds the chips set aside, not all in.
        players = [{"seat": seat, "player": i + 1, "stack": h.stacks[i] + h.reserved.get(i, 0), "bet": h.bets[i],
                    "cards": [card_text(c) if c is not None else "??" for c in h.hole[i]], "up": list(h.up[i]),
                    "folded": h.folded[i], "all_in": h.stacks[i] == 0 and not h.folded[i] and i not in h.reserved,
                    "ended": i in h.reserved} for i, seat in enumerate(seat_of)]
        phase = h.phase.value
        turn = None
        if to_act is not None:
            turn = ("bet" if o is not None else "show" if phase == "showdown"
                    else "contend" if to_act in h.choosing else "discard" if h.discard_turn else "draw")
        discard = h.street.discard if turn == "discard" else 0
        result = h.result
        showdown = None
        if result is not None:
            if getattr(self, "_named", (None,))[0] is not result:   # read once a hand, not at every publish
                self._named = (result, winning_hands(h, seat_of))
            named = self._named[1]
            showdown = {"pots": [{"amount": pt.amount, "awards": {str(seat_of[i]): a for i, a in
                                                                  sorted((pt.awards or {}).items())},
                                  "winners": named[k] if k < len(named) else []}
                                 for k, pt in enumerate(result.pots)],
                        "rake": result.rake, "jackpot_drop": result.jackpot_drop}
        poker = {"variant": h.variant.code, "phase": phase, "turn": turn, "button": self.opening.get("button"),
                 "chip": self.setup.chip, "presets": raise_presets(h, o, sum(p.amount for p in pots)),
                 "blinds": self._blinds(), "to_act": None if to_act is None else seat_of[to_act],
                 "options": options, "pot": sum(p.amount for p in pots) + sum(h.bets),   # all in the middle
                 "main_pot": pots[0].amount if pots else 0,
                 "side_pots": [{"amount": p.amount, "eligible": [seat_of[i] for i in p.eligible]}
                               for p in pots[1:]],
                 "rake": result.rake if result else None,
                 "jackpot_drop": result.jackpot_drop if result else None,
                 "raked": result.rake if result else self.taken_so_far()[0],
                 "dropped": result.jackpot_drop if result else self.taken_so_far()[1],
                 "rake_due": ({"rake": due[0], "jackpot": due[1]} if (due := self.rake_due()) else None),
                 "board": [card_text(c) for c in h.board], "players": players,
                 "owed": {"hole": {str(seat_of[i]): list(f) for i, f in owed["hole"].items()},
                          "board": owed["board"]},
                 "discard": discard, "actions": h.actions(), "showdown": showdown,
                 "deck": ({"total": None, "anomalies": [DEAD_DECK], "truncated": False, "ok": False, "dead": True}
                          if self.dead_deck else self.count),
                 "straddle": ({"seat": self.straddler(), "amount": self.opening["straddle"]}
                              if self.straddler() is not None else None),
                 "kill": self.opening.get("kill"), "dealing_deck": {k: v for k, v in self.opening["deck"].items() if k != "dead"} if self.opening.get("deck") else None,
                 "time_charges": dict(self.opening.get("time_charges") or {})}
        seats = [{"seat": p["seat"], "wagers": {"bet": p["bet"]}, "cards": p["cards"],
                  "decision": "fold" if p["folded"] else None, "light": None, "void": False, "hand": None}
                 for p in players]
        round_: RoundState = {"id": self.round_id, "state": self.state, "next_step": self.next_step(to_act, owed),
                              "allowed": self.allowed(),
                              "buttons": [{"event": "next_round", "label": "Next hand", "enabled": self.closed}]}
        return {"round": round_,
                "seats": seats, "dealer": {"cards": poker["board"], "up_card": None, "hand": None,
                                           "qualifies": None},
                "settlement": None, "validations": [], "alarms": list(self.alarms), "poker": poker}

    def _blinds(self) -> JsonDict:
        """Who posted which blind (heads-up the button posts the small one, (i)(4))."""
        posted = [(a, i) for i, a in enumerate(self.hand.blind_seats) if a]
        out: dict[str, int | None] = {"small": None, "big": None, "small_seat": None, "big_seat": None}
        if not posted:
            return out
        kill = self.setup.kill_blind
        if kill is not None:   # the kill blind is the kill player's own (j)(9); the others as usual
            k = kill if self.hand.n > 2 else 1 - kill
            posted = [x for x in posted if x[1] != k]
        if len(posted) > 2 and self.opening.get("straddle"):   # the straddle: the last, twice the big blind
            straddle = posted.pop()
            out.update(straddle=straddle[0], straddle_seat=self.order[straddle[1]])
        if not posted:
            return out
        big = max(posted)
        out.update(big=big[0], big_seat=self.order[big[1]])
        rest = [x for x in posted if x[1] != big[1]]
        if rest:
            small = min(rest)
            out.update(small=small[0], small_seat=self.order[small[1]])
        return out

    def next_step(self, to_act: int | None, owed: JsonDict) -> str:
        if self.closed:
            return "Hand over: push the pots, then press Next hand."
        due = self.rake_due()
        if due is not None:   # (o)(2)(i)(b), (o)(2)(ii)(b); the jackpot drop after the rake, (r)(3)
            drop = f", then the jackpot drop {_money(due[1])} into the drop" if due[1] else ""
            return (f"Rake {_money(due[0])} into the rake area{drop} (5324.42(o)(2)); then touch Rake taken."
                    if due[0] else f"Jackpot drop {_money(due[1])} into the drop (5324.42(r)(3)); then touch Rake taken.")
        charges = self.opening.get("time_charges")
        if charges and not self.hand.log:   # (o)(2)(iii)(d): into the rake area, verified by the floorperson
            listed = ", ".join(f"seat {s} ${c // 100}.{c % 100:02d}" for s, c in charges.items())
            collect = f"Collect the time charges ({listed}) into the rake area. "
        else:
            collect = ""
        return collect + self._next_step(to_act, owed)

    def _next_step(self, to_act: int | None, owed: JsonDict) -> str:
        if self.dead_deck:
            return ("The last hand's deck was called dead (5324.42(p)(3)): call a supervisor to put a new deck "
                    "in play; it is counted before it is dealt.")
        if self.count is None:
            deck = self.opening.get("deck")
            return "Waiting for the shuffler's count of the " + (f"{deck['color']} deck ({deck['id']})."
                                                                  if deck else "deck.")
        if not self.count["ok"]:
            return "Deck count wrong: call a supervisor to replace the deck; it is not played."
        h = self.hand
        if to_act is not None and h.phase.value == "deal":
            seat = self.order[to_act]
            if to_act in h.choosing:
                return (f"Seat {seat}'s third hole card was turned up: the player chooses End obligation (no more "
                        "wagers, only the pot so far) or Contend for the pot (5324.42(p)(6)(i)-(ii)).")
            if h.discard_turn:
                return f"Seat {seat} discards {h.street.discard}: touch Discard."
            return f"Seat {seat} draws: touch how many cards are thrown (Stand pat for none)."
        if owed["hole"]:
            ups = sum(sum(f) for f in owed["hole"].values())
            straddler = self.straddler()
            if straddler is not None:
                dollars, cents = divmod(self.opening["straddle"], 100)
                return (f"Seat {straddler} may straddle (${dollars}.{cents:02d}); then deal the hole "
                        "cards and touch Hole cards dealt.")
            kill = self.opening.get("kill")
            if kill and not self.hand.log:
                return (f"Seat {kill['seat']} has the {kill['kind']} lammer: its kill blind is posted and the limits "
                        "are raised (5324.42(j)(9)). Deal the hole cards and touch Hole cards dealt.")
            deck = self.opening.get("deck")
            which = f" from the {deck['color']} deck ({deck['id']})" if deck and not self.hand.log else ""
            return ("Deal the hole cards" + which + (f", touch the {ups} up card(s) dealt," if ups else "")
                    + " then touch Hole cards dealt.")
        if owed["board"]:
            n = owed["board"]
            return f"Deal {n} board card{'s' if n > 1 else ''} and touch {'them' if n > 1 else 'it'}."
        if to_act is not None:
            seat = self.order[to_act]
            if h.phase.value == "showdown":
                return f"Showdown: seat {seat} shows (touch the cards) or mucks."
            return f"Seat {seat} to act."
        return "Enter the next action."
