"""A poker table between hands: who sits where with what chips, the button, the decks, the house's take.

Carried from hand to hand and journaled in each hand's snapshot: the seats and
their stacks, who sits out ((c)(3)(v)), the kill lammer ((j)(9)), which of the
two decks is dealt next and each deck's last count ((a)(5)(iii), (f)(6)(iv)),
the button, a jackpot's fund and the qualifying hands waiting for the
floorperson ((r)), and a time-charge rake's accounts ((o)(2)(iii)). Seating
events come between hands only (controller/games/poker/contract.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from controller.games.base import EventRefused

from controller.games.poker.contract import SEAT_EVENTS, ButtonCard, Sit, SitIn, SitOut, TopUp
from controller.games.poker.events import VerifyTimeCharges
from controller.games.event import as_declared
from controller.games.game import Json
from controller.runtime.tablestate import Effect, Event, JsonDict, TableState

if TYPE_CHECKING:
    from controller.games.poker.at_table import PokerRound


class PokerTableState(TableState):
    """controller/runtime/tablestate.py TableState for poker (controller/games/registry.py)."""

    seats: dict[int, int]   # always set here, where TableState has None for the games without seats
    opens_first_round = False   # a poker table waits for its dealer: players are still sitting down

    def __init__(self, profile: Any) -> None:
        super().__init__(profile)
        self.seats = {}                            # seat -> stack between hands
        self.away: set[int] = set()                # seats sitting out, (c)(3)(v)
        self.lammer: int | None = None             # the seat with the kill lammer, (j)(9)
        self.deck_in_play = 0                      # which of the two decks is dealt next, (a)(5)(iii)
        self.deck_counts: dict[str, JsonDict] = {}     # each deck's last count by the shuffler, (f)(6)(iv)
        # with a jackpot (5324.42(r)): the table's own fund (None on the room's pool), the
        # qualifying hands waiting for the floorperson's verification, and those recorded ((r)(4)).
        self.jackpot = None
        # with a time-charge rake ((o)(2)(iii)): when each account began, what it has paid, and
        # the collections waiting for the floorperson's verification ((o)(2)(iii)(e)).
        self.time: JsonDict = {"since": {}, "charged": {}, "pending": [], "verified": []}
        self.button: int | None = None
        # after a misdeal or a dead hand ((p)(1), (p)(3)): the round dealt again, its button and
        # blinds (a straddle posted as it was), its deck shuffled back in: none of it moves
        self.redeal: JsonDict | None = None
        self.first_button: int | None = None       # drawn for before the first hand, (i)(3)(ii)
        if getattr(profile.poker, "jackpot", None) is not None:
            linked = getattr(profile, "link", None) is not None
            self.jackpot = {"fund": None if linked else 0, "pending": [], "verified": []}

    def settlement_of(self, record: JsonDict) -> object:
        """A hand's settlement on the table's output: who sat where, the stacks, what the house took."""
        if not record:   # a hand closes with its record; none: nothing to say
            return None
        return {k: record[k] for k in ("seats", "stacks_before", "stacks_after", "rake", "jackpot_drop")}

    # -- opening a hand ----------------------------------------------------------------------

    def _cannot_open(self) -> str | None:
        if len(self.dealt_in()) < 2:
            return ("a hand needs two players at the table with the chips to play (5324.42(f)(2), "
                    "(c)(3)(iii))")
        return None

    def _game_opening(self, base: JsonDict) -> JsonDict:
        from controller.poker.button import button_right_of_dealer, next_button

        from controller.games.poker.at_table import opening_for
        p = self.profile
        number = base["number"]
        occupied = self.dealt_in()
        # (i)(3)(i): the first button goes in front of the first player to the dealer's right;
        # (i)(3)(iii): then it moves clockwise to the next player.
        redeal = self.redeal if self.redeal is not None and self.redeal["button"] in occupied else None
        if redeal is not None:
            button = redeal["button"]                 # (p)(1): the same round dealt again
        elif self.button is not None:
            button = next_button(self.button, occupied)
        elif self.first_button in occupied:
            button = self.first_button                # (i)(3)(ii): the seat the dealt card chose
        else:
            button = button_right_of_dealer(occupied)
        opening = opening_for(p, base["round"], number, {s: self.seats[s] for s in occupied}, button, self.lammer)
        if redeal is not None:
            opening["redeal"] = redeal["round"]
            if redeal.get("blinds") and redeal["order"] == opening["order"] and opening.get("straddle"):
                opening["setup"]["blinds"] = list(redeal["blinds"])   # the straddle posted again, as it was
        deck = p.poker.decks[self.deck_in_play]
        opening["deck"] = {"id": deck.id, "color": deck.color, "design": deck.design}
        if self.redeal is not None and self.redeal.get("dead_deck"):
            opening["deck"]["dead"] = True   # (p)(3): not dealt again until a new deck is counted in
        return opening

    def _opening_for(self, now: int | None) -> JsonDict:
        charges = self._charge_time(now) if now is not None else {}
        opening = self.opening()
        if charges:
            opening["time_charges"] = {str(k): v for k, v in sorted(charges.items())}
            self.time["pending"].append({"hand": opening["round"], "charges": opening["time_charges"],
                                         "total": sum(charges.values())})
        return opening

    def _started(self, opening: JsonDict) -> None:
        self.button = opening["button"] if opening["button"] is not None else self.button
        self.redeal = None

    def _carried(self, snapshot: JsonDict, opening: JsonDict) -> None:
        snapshot["seats"] = {str(k): v for k, v in sorted(self.seats.items())}
        snapshot["away"] = sorted(self.away)
        snapshot["lammer"] = self.lammer
        snapshot["decks"] = {"in_play": self.deck_in_play, "counts": self.deck_counts}
        if self.jackpot is not None:
            snapshot["jackpot"] = copy.deepcopy(self.jackpot)
        snapshot["time"] = copy.deepcopy(self.time)

    def _restore(self, snapshot: JsonDict) -> None:
        if "seats" not in snapshot:
            return
        self.seats = {int(k): v for k, v in snapshot["seats"].items()}
        self.away = set(snapshot.get("away", []))
        self.lammer = snapshot.get("lammer")
        decks = snapshot.get("decks") or {}
        self.deck_in_play, self.deck_counts = decks.get("in_play", 0), dict(decks.get("counts", {}))
        if snapshot.get("jackpot") is not None:
            self.jackpot = copy.deepcopy(snapshot["jackpot"])
        if snapshot.get("time") is not None:
            self.time = copy.deepcopy(snapshot["time"])

    # -- between hands -----------------------------------------------------------------------

    def after_close(self) -> None:
        r = cast("PokerRound", self.round)   # the hand just closed: a poker table opens only PokerRounds
        self.seats.update(r.stacks_after())
        # (a)(5)(iii): with the shuffler the two decks change places after each hand, each
        # dealt every other hand; the one just dealt was counted before it ((f)(6)(iv)).
        dealt = r.opening.get("deck")
        void = (r.record or {}).get("void")
        if void:
            # (p)(1): a misdeal returns every card to the dealer for a reshuffle and the round is dealt
            # again: the same button and blinds (the straddle as it was), the same deck back in.
            self.redeal = {"round": r.round_id, "button": r.opening.get("button"), "order": list(r.order),
                           "blinds": list(r.setup.blinds) if r.setup.blinds != tuple(r.opening["setup"]["blinds"])
                           else None, "dead_deck": bool(r.hand.result is not None and r.hand.result.replace_deck)}
        if dealt is not None:
            if r.count is not None:
                self.deck_counts[dealt["id"]] = {**r.count, "hand": r.round_id}
            if not void:
                self.deck_in_play = 1 - [d.id for d in self.profile.poker.decks].index(dealt["id"])
        if self.jackpot is not None:
            self._jackpot_after(r)
        kill = getattr(self.profile.poker, "kill", None)
        if kill is not None:   # (j)(9): a pot above the threshold won whole moves the lammer
            from controller.poker.kill import KillLammer, after_hand, rule_from_config
            self.lammer = after_hand(rule_from_config(kill), KillLammer(self.lammer), r.hand, r.order).seat

    def _handlers(self) -> dict[str, Callable[[Event, str | None], list[Effect]]]:
        """The poker table's own events between hands, each with its handler: the seating, and the
        floorperson's verifications (a jackpot's only at a table with one)."""
        out: dict[str, Callable[[Event, str | None], list[Effect]]] = dict.fromkeys(
            SEAT_EVENTS, lambda event, who: self._seating(event))
        if self.jackpot is not None:
            out["verify_jackpot"] = self._verify_jackpot
        out["verify_time_charges"] = self._verify_time
        return out

    NEXT_ROUND = "Next hand"
    BEFORE_FIRST = "Seat the players, then press Next hand."

    def published(self) -> dict[str, Json]:
        """The seating, the jackpot (None without one) and the time charges (None without a time-charge
        rake): controller/games/poker/contract.py Seating, JackpotView, TimeChargesView."""
        return {"seating": self.seating_view(), "jackpot": self.jackpot_view(), "time_charges": self.time_view()}

    def _table_events(self) -> Iterable[str]:
        return self._handlers()

    def _table_event(self, kind: Any, event: Event, who: str | None) -> list[Effect] | None:
        handler = self._handlers().get(kind)
        return None if handler is None else handler(event, who)

    # -- poker seating (controller/games/poker/contract.py) ----------------------------------------

    def buy_in_limits(self) -> tuple[int, int | None]:
        """The profile's buy-in; absent, at least the minimum to play, and no maximum."""
        p = self.profile.poker
        return (p.buy_in_min or self.minimum_to_play(), p.buy_in_max)

    def minimum_to_play(self) -> int:
        """(c)(3)(iii): chips for any forced bet and at least one bet at the posted table minimum."""
        p = self.profile.poker
        forced: int = getattr(p, "big_blind", None) or getattr(p, "bring_in", 0) or 0
        ante: int = p.ante   # the profile is untyped here (TableState's): its validated integer cents
        minimum: int = self.profile.table.minimum_wager
        return ante + max(forced, minimum)

    def dealt_in(self) -> list[int]:
        """The seats the next hand deals in: present, with the chips to play."""
        least = self.minimum_to_play()
        return sorted(s for s, v in self.seats.items() if v >= least and s not in self.away)

    def seating_view(self) -> JsonDict:
        least = self.minimum_to_play()
        low, high = self.buy_in_limits()
        return {"seats": [{"seat": s, "stack": v, "away": s in self.away, "short": v < least}
                          for s, v in sorted(self.seats.items())],
                "buy_in_min": low, "buy_in_max": high, "minimum_to_play": least,
                "button_draw": self.button is None and hasattr(self.profile.poker, "big_blind"),   # button games
                "first_button": self.first_button}

    def _button_card(self, e: ButtonCard) -> list[Effect]:
        """(i)(3)(ii): a card dealt face up to each player before the first hand; the highest by rank,
        then suit, takes the button."""
        from controller.cards import parse_card
        from controller.poker.button import ButtonError, button_by_card
        allowed = list(SEAT_EVENTS)
        if self.button is not None or not hasattr(self.profile.poker, "big_blind"):
            raise EventRefused("button_card", "between hands", allowed, "no button to draw for: the game has none, "
                               "or it is placed and moves clockwise after each hand (5324.42(i)(3)(iii))")
        players = self.dealt_in()
        dealt = {int(k): v for k, v in e.cards.items()}
        if sorted(dealt) != players:
            raise EventRefused("button_card", "between hands", allowed, f"one card to each player: seats "
                               f"{', '.join(map(str, players))}")
        try:
            self.first_button = button_by_card({seat: int(parse_card(c)) for seat, c in dealt.items()})
        except ButtonError as exc:
            raise EventRefused("button_card", "between hands", allowed, str(exc)) from None
        return []

    def _seating(self, event: Event) -> list[Effect]:
        """A player sits down, tops up, sits out, comes back or leaves: between hands only."""
        from controller.games.poker.contract import seat_event
        kind = event.type
        e, why = seat_event(event)
        allowed = list(SEAT_EVENTS)
        if why:
            raise EventRefused(kind, "between hands", allowed, why)
        assert e is not None   # no reason to refuse: the event follows the contract, and `kind` is its type
        if isinstance(e, ButtonCard):
            return self._button_card(e)
        if e.seat > self.profile.seats:
            raise EventRefused(kind, "between hands", allowed, f"seat must be 1..{self.profile.seats}")
        low, high = self.buy_in_limits()
        here = e.seat in self.seats
        chip = self.profile.poker.chip
        whole = f"chips come in whole {chip}-cent chips at this table, not "
        if isinstance(e, Sit):
            if here:
                raise EventRefused(kind, "between hands", allowed, f"seat {e.seat} is taken")
            if e.stack < low or (high is not None and e.stack > high):
                raise EventRefused(kind, "between hands", allowed, f"a buy-in is {low} to "
                                   f"{high if high is not None else 'any'} cents at this table, not {e.stack}")
            if e.stack % chip:   # every bet, pot and award is then whole chips too (issue 30)
                raise EventRefused(kind, "between hands", allowed, f"{whole}{e.stack} cents")
            self.seats[e.seat] = e.stack
            return []
        if not here:
            raise EventRefused(kind, "between hands", ["sit"], f"nobody sits at seat {e.seat}")
        if isinstance(e, TopUp):
            if e.amount % chip:
                raise EventRefused(kind, "between hands", allowed, f"{whole}{e.amount} cents")
            after = self.seats[e.seat] + e.amount
            if high is not None and after > high:
                raise EventRefused(kind, "between hands", allowed, f"a top-up brings a stack to at most the "
                                   f"maximum buy-in, {high} cents; seat {e.seat} would have {after}")
            self.seats[e.seat] = after
        elif isinstance(e, SitOut):
            self.away.add(e.seat)
        elif isinstance(e, SitIn):
            self.away.discard(e.seat)
        else:   # leave: the chips go with the player; a new seat is a new time account
            del self.seats[e.seat]
            self.away.discard(e.seat)
            self.time["since"].pop(str(e.seat), None)
            self.time["charged"].pop(str(e.seat), None)
        return []

    # -- a poker table's time charges (5324.42(o)(2)(iii)) ----------------------------------------

    def _charge_time(self, now: int) -> dict[int, int]:
        """The time charges due at a hand's opening, taken from the seats' chips: each increment begun,
        in advance ((o)(2)(iii)(c)); per player, every seated player, active or not ((a)); per table, the
        table's fee shared by the seated players (the odd cents from the lowest seats)."""
        from controller.poker.rake import TimeCharge, rule_from_config, time_charges
        rule = rule_from_config(self.profile.poker.rake)
        if not isinstance(rule, TimeCharge) or not self.seats:
            return {}
        since, charged = self.time["since"], self.time["charged"]
        for seat in self.seats:
            since.setdefault(str(seat), now)
        if rule.per == "player":
            due = {int(k): v for k, v in time_charges(rule, {k: since[k] for k in map(str, self.seats)}, now,
                                                      charged).items()}
        else:
            owed = time_charges(rule, {k: since[k] for k in map(str, self.seats)}, now,
                                {"table": charged.get("table", 0)}).get("table", 0)
            seats, chip = sorted(self.seats), self.profile.poker.chip   # shared in whole chips (issue 30)
            each, odd = divmod(owed // chip, len(seats))
            due = {seat: (each + (1 if i < odd else 0)) * chip for i, seat in enumerate(seats)}
        taken = {seat: min(amount, self.seats[seat]) for seat, amount in due.items() if amount > 0}
        after = {**self.seats, **{seat: self.seats[seat] - c for seat, c in taken.items()}}
        least = self.minimum_to_play()
        if sum(1 for s, v in after.items() if v >= least and s not in self.away) < 2:
            raise EventRefused("next_round", "none", [], "the time charges due would leave fewer than two "
                               "players with the chips to play (5324.42(o)(2)(iii), (c)(3)(iii))")
        self.seats.update(after)
        for seat, c in taken.items():
            key = "table" if rule.per == "table" else str(seat)
            charged[key] = charged.get(key, 0) + c
        return taken

    def time_view(self) -> JsonDict | None:
        from controller.poker.rake import TimeCharge, rule_from_config
        rule = rule_from_config(self.profile.poker.rake)
        if not isinstance(rule, TimeCharge):
            return None
        return {"per": rule.per, "hourly": rule.hourly, "increment_minutes": rule.increment_minutes,
                "pending": list(self.time["pending"]), "verified": list(self.time["verified"][-20:])}

    def _verify_time(self, event: Event, who: str | None) -> list[Effect]:
        """(o)(2)(iii)(e): the floorperson verifies the time charges collected; then they go to the drop box."""
        hand = as_declared(event, VerifyTimeCharges).hand
        waiting = next((t for t in self.time["pending"] if t["hand"] == hand), None)
        if waiting is None:
            raise EventRefused("verify_time_charges", "time charges", [], f"no time charges of hand {hand!r} "
                               "wait for verification")
        line = {**waiting, "floorperson": who or ""}
        self.time["pending"].remove(waiting)
        self.time["verified"].append(line)
        return [{"type": "journal", "kind": "time-charges", "payload": line}]

    # -- a poker table's jackpot (5324.42(r)) ----------------------------------------------------

    def _jackpot_after(self, r: Any) -> None:
        """A closed hand: its drop into the table's own fund ((r)(3)); its qualifying hands wait for
        the floorperson ((r)(4))."""
        from controller.cards import CARDS
        from controller.poker.jackpot import candidates, rule_from_config
        jackpot = self.jackpot
        assert jackpot is not None   # called only at a table with a jackpot (after_close)
        rec = r.record or {}
        if rec.get("void"):
            return
        if jackpot["fund"] is not None:
            jackpot["fund"] += rec.get("jackpot_drop") or 0
        for c in candidates(r.hand, rule_from_config(self.profile.poker.jackpot)):
            jackpot["pending"].append({"hand": r.round_id, "seat": r.order[c.player], "kind": c.kind,
                                            "hand_name": c.hand_name,
                                            "cards": "".join(str(CARDS[x]) for x in c.cards)})

    def jackpot_view(self) -> JsonDict | None:
        if self.jackpot is None:
            return None
        rule = self.profile.poker.jackpot
        return {"kind": rule.kind, "qualifying_hand": rule.qualifying_hand, "amount": self.jackpot["fund"],
                "pending": list(self.jackpot["pending"]), "verified": list(self.jackpot["verified"])}

    def _verify_jackpot(self, event: Event, who: str | None) -> list[Effect]:
        """(r)(4): the floorperson verifies a qualifying hand and the tracking form's line is recorded."""
        from controller.games.poker.contract import verify_jackpot
        jackpot = self.jackpot
        assert jackpot is not None   # called only at a table with a jackpot (_table_event)
        e, why = verify_jackpot(event)
        if why:
            raise EventRefused("verify_jackpot", "jackpot", [], f"the tracking form (5324.42(r)(4)): {why}")
        assert e is not None   # no reason to refuse: it follows the contract
        waiting = next((q for q in jackpot["pending"] if (q["hand"], q["seat"]) == (e.hand, e.seat)), None)
        if waiting is None:
            raise EventRefused("verify_jackpot", "jackpot", [], f"no qualifying hand of seat {e.seat} in hand "
                               f"{e.hand} waits for verification")
        line = {**waiting, "player": e.player.strip(), "phone": e.phone.strip(), "dealer": e.dealer.strip(),
                "dealer_license": e.dealer_license.strip(), "floorperson": who or "",
                "floor_license": e.floor_license.strip()}
        jackpot["pending"].remove(waiting)
        jackpot["verified"].append(line)
        return [{"type": "journal", "kind": "jackpot-hand", "payload": line}]
