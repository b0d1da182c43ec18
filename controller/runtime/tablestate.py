"""What the table carries from one round to the next, and how it comes back after a power cut.

Between rounds a table holds little: the progressive meter with its fraction of a
cent (Caribbean stud), where the shoe stands and whether a burn card is due
(casino war), who sits where with what chips and where the button is (poker), and
how many rounds it has opened. At each round's opening the
table journals all of it as a snapshot, in the same transaction as the round's
"round-opened" entry; after a restart, recovery is the latest snapshot plus the
entries since, which is at most one round and whatever happened between rounds,
however long the journal has grown.

Journal entries this module reads and writes:
  snapshot      (table)  {"number", "round", "game", "opening", "meters"?, "shoe"?}
  round-opened  (round)  the opening: rules, meter or shoe, seats, limits; and who opened it
  event         (round or table)  {"event", "source", "who"}: replayed in order
  refused       (round or table)  an event refused; for the audit, never replayed

The recovery policy, applied by controller/table.py with the adapters:

1. Power-up self-check first (controller/selfcheck.py): the software's digest
   (9 NYCRR 5321.18(b)(3)(iv)) and the journal's seal and chain. A failure, or a
   journal whose events do not replay into the rounds they belong to, is a fault:
   journaled, kept across restarts, and the table refuses to play until a
   supervisor clears it (journaled with who and why).
2. The round in progress is rebuilt by replaying its events into a fresh round;
   nothing is dealt until the shoe has been asked how many cards it has dealt
   since it was loaded and that has been compared with the journal:
   - Caribbean stud, nothing dealt yet and no deal begun: the deck is shuffled,
     counted (52, as 5324.42(f)(6)(iv) asks of a one-deck game) and loaded again;
     the wagers stand.
   - Caribbean stud, the shoe agrees with the journal: the round goes on (a stack
     cut short by the power cut is completed from the shoe).
   - Caribbean stud, the shoe dealt cards the journal does not have: cards are out
     that nobody can account for, a misdeal to the dealer: "all hands ... void and
     the cards ... re-shuffled" (5324.37(h)). With cards recorded the round machine
     settles the misdeal: every wager returned, and the progressive contributions
     counted and kept in the meter (shared/spec/rounds.md: a voided progressive
     wager's contribution stays). With none recorded yet the round is void before
     its deal: every wager returned as if never made, and the meter, which had
     counted nothing, does not move.
   - Casino war: every card is dealt face up (5324.22(h)(3), (i)(5)(i)), so a card
     the shoe dealt while the box was down lies on the layout: the dealer enters it
     (journaled, with who) before the shoe deals again, and the round goes on. A
     shoe that disagrees otherwise raises an alarm; a supervisor may void the round
     before its first settlement. A cover card that came out meanwhile is taken
     from the shoe's status: the round finishes, then the shoe is reshuffled
     (5324.22(h)(4)). The shoe's position and a burn card due (5324.22(h)(1)) are
     in the snapshot.
3. The acceptors report the chips on them when the controller reconnects: before
   the lock-out a chip beside an ante is the progressive wager (a missing one is
   withdrawn); after it, a chip not recognized is a late wager (5324.37(a)(3)(ii)).
4. Lights, the lock-out indicator and the meter display are set again from the
   rebuilt round: they are states, so setting them twice is harmless.
5. A round that had closed stays closed: its record is in the journal and it is
   never settled twice; the dealer opens the next one.
6. Poker: the hand is rebuilt from its actions; its cards lie where the dealer put
   them, so it goes on; a hand with no card dealt yet has its deck counted again.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from controller.games.base import EventRefused
from controller.progressive import ProgressiveMeter

from .contract import SEAT_EVENTS
from .stud import StudRound
from .war import WarRound


class RecoveryError(Exception):
    """The journal does not replay: an event it holds is refused by the round it belongs to."""


class TableState:
    """The table between rounds and the round in progress (`round`, an adapter)."""

    def __init__(self, profile: Any) -> None:
        self.profile = profile
        self.game: str = profile.game
        self.table_id: str = profile.table.id
        self.number = 0                 # rounds opened
        self.round: StudRound | WarRound | Any | None = None
        self.meter: ProgressiveMeter | None = None
        self.shoe: dict | None = None
        self.seats: dict[int, int] | None = None   # poker: seat -> stack between hands
        self.away: set[int] = set()                # poker: seats sitting out, (c)(3)(v)
        self.lammer: int | None = None             # poker: the seat with the kill lammer, (j)(9)
        self.deck_in_play = 0                      # poker: which of the two decks is dealt next, (a)(5)(iii)
        self.deck_counts: dict[str, dict] = {}     # poker: each deck's last count by the shuffler, (f)(6)(iv)
        # poker with a jackpot (5324.42(r)): the table's own fund (None on the room's pool), the
        # qualifying hands waiting for the floorperson's verification, and those recorded ((r)(4)).
        self.jackpot: dict | None = None
        # poker with a time-charge rake ((o)(2)(iii)): when each account began, what it has paid, and
        # the collections waiting for the floorperson's verification ((o)(2)(iii)(e)).
        self.time: dict = {"since": {}, "charged": {}, "pending": [], "verified": []}
        self.button: int | None = None
        self.first_button: int | None = None       # poker: drawn for before the first hand, (i)(3)(ii)
        if self.game not in ("caribbean-stud", "casino-war"):
            self.seats = {}
            if getattr(profile.poker, "jackpot", None) is not None:
                linked = getattr(profile, "link", None) is not None
                self.jackpot = {"fund": None if linked else 0, "pending": [], "verified": []}
        elif self.game == "caribbean-stud":
            from controller.games.caribbean_stud.machine import new_meter
            from controller.games.caribbean_stud.record import read_rules
            rules, _ = read_rules(profile.record_rules())
            self.meter = new_meter(rules, profile.caribbean_stud.progressive.initial_meter)
        else:
            self.shoe = {"dispensed": 0, "cover_out": False, "burn_due": True, "needs_load": True}

    # -- opening a round -------------------------------------------------------------------

    def can_open(self) -> str | None:
        """Why a round cannot open now (None: it can)."""
        if self.round is not None and not self.round.closed:
            return "the round in progress is not over"
        if self.shoe is not None and (self.shoe["needs_load"] or self.shoe["cover_out"]):
            return "the cover card came out or the shoe is empty: reshuffle and load the shoe (5324.22(h)(4))"
        if self.seats is not None and len(self.dealt_in()) < 2:
            return ("a hand needs two players at the table with the chips to play (5324.42(f)(2), "
                    "(c)(3)(iii))")
        return None

    def opening(self) -> dict:
        number = self.number + 1
        p = self.profile
        base = {"round": f"{self.table_id}-{number:06d}", "number": number, "game": self.game,
                "seats": p.seats}
        if self.seats is not None:
            from controller.poker.button import button_right_of_dealer, next_button
            from .poker import opening_for
            occupied = self.dealt_in()
            # (i)(3)(i): the first button goes in front of the first player to the dealer's right;
            # (i)(3)(iii): then it moves clockwise to the next player.
            if self.button is not None:
                button = next_button(self.button, occupied)
            elif self.first_button in occupied:
                button = self.first_button                # (i)(3)(ii): the seat the dealt card chose
            else:
                button = button_right_of_dealer(occupied)
            opening = opening_for(p, base["round"], number, {s: self.seats[s] for s in occupied}, button, self.lammer)
            deck = p.poker.decks[self.deck_in_play]
            opening["deck"] = {"id": deck.id, "color": deck.color, "design": deck.design}
            return opening
        if self.game == "caribbean-stud":
            meter = self.current_meter()
            opening = {**base, "rules": p.record_rules(meter.amount), "meter": meter.to_dict(),
                       "dealing": p.caribbean_stud.dealing,
                       "ante_limits": [p.table.minimum_wager, p.table.maximum_wager]}
            if p.caribbean_stud.no_hand_turn_over != "all":   # 5324.37(e)(5)(i), the facility's option
                opening["no_hand_turn_over"] = p.caribbean_stud.no_hand_turn_over
            if p.caribbean_stud.second_signer_above is not None:   # issue 18
                opening["second_signer_above"] = p.caribbean_stud.second_signer_above
            if getattr(p, "link", None) is not None:   # the pool's meter pays this table's hits (issue 10)
                opening["link"] = {"pool": p.link.pool, "table": p.link.table}
            return opening
        shoe = {k: self.shoe[k] for k in ("dispensed", "cover_out", "burn_due")}
        if not p.manual_shoe.reader:   # the dealer touches each card in (the key only when so: old rounds read)
            shoe["reader"] = False
        return {**base, "rules": p.record_rules(), "shoe": shoe,
                "wager_limits": [p.table.minimum_wager, p.table.maximum_wager]}

    def open_round(self, now: int | None = None) -> tuple[dict, list[dict]]:
        """Open the next round: its snapshot (the table state before it) and its effects. `now` (whole
        seconds) assesses a poker table's time charges; without it none are."""
        why = self.can_open()
        if why:
            raise EventRefused("next_round", self.round.state if self.round else "none", [], why)
        charges = self._charge_time(now) if self.seats is not None and now is not None else {}
        opening = self.opening()
        if charges:
            opening["time_charges"] = {str(k): v for k, v in sorted(charges.items())}
            self.time["pending"].append({"hand": opening["round"], "charges": opening["time_charges"],
                                         "total": sum(charges.values())})
        self.start(opening)
        snapshot = {"number": self.number, "round": opening["round"], "game": self.game, "opening": opening}
        if self.meter is not None:
            snapshot["meters"] = {"progressive": opening["meter"]}
        if self.shoe is not None:
            snapshot["shoe"] = dict(self.shoe)
        if self.seats is not None:
            snapshot["seats"] = {str(k): v for k, v in sorted(self.seats.items())}
            snapshot["away"] = sorted(self.away)
            snapshot["lammer"] = self.lammer
            snapshot["decks"] = {"in_play": self.deck_in_play, "counts": self.deck_counts}
            if self.jackpot is not None:
                snapshot["jackpot"] = copy.deepcopy(self.jackpot)
            snapshot["time"] = copy.deepcopy(self.time)
        return snapshot, [{"type": "opened", "round": opening["round"]}]

    def start(self, opening: dict) -> None:
        self.number = opening["number"]
        if self.seats is not None:
            from .poker import PokerRound
            self.round = PokerRound(opening)
            self.button = opening["button"] if opening["button"] is not None else self.button
        else:
            self.round = StudRound(opening) if self.game == "caribbean-stud" else WarRound(opening)

    def current_meter(self) -> ProgressiveMeter | None:
        if self.round is not None and self.game == "caribbean-stud":
            return self.round.meter
        return self.meter

    # -- between rounds ----------------------------------------------------------------------

    def after_close(self) -> None:
        """Carry the closed round's meter or shoe over to the table."""
        r = self.round
        if isinstance(r, StudRound):
            self.meter = r.meter
        elif isinstance(r, WarRound):
            self.shoe.update(r.shoe_after())
            if self.shoe["cover_out"]:
                self.shoe["needs_load"] = True
        elif self.seats is not None:
            self.seats.update(r.stacks_after())
            # (a)(5)(iii): with the shuffler the two decks change places after each hand, each
            # dealt every other hand; the one just dealt was counted before it ((f)(6)(iv)).
            dealt = r.opening.get("deck")
            if dealt is not None:
                if r.count is not None:
                    self.deck_counts[dealt["id"]] = {**r.count, "hand": r.round_id}
                self.deck_in_play = 1 - [d.id for d in self.profile.poker.decks].index(dealt["id"])
            if self.jackpot is not None:
                self._jackpot_after(r)
            kill = getattr(self.profile.poker, "kill", None)
            if kill is not None:   # (j)(9): a pot above the threshold won whole moves the lammer
                from controller.poker.kill import KillLammer, after_hand, rule_from_config
                self.lammer = after_hand(rule_from_config(kill), KillLammer(self.lammer), r.hand, r.order).seat

    def table_event(self, event: dict, who: str | None) -> list[dict]:
        """Events that belong to no round: a fresh shoe, a new dealer, a meter correction."""
        kind = event.get("type")
        if kind == "shoe_loaded" and self.shoe is not None:
            self.shoe.update(dispensed=0, cover_out=False, burn_due=True, needs_load=False)
            return [{"type": "shoe_ready"}]
        if kind in ("shoe_loaded", "deck_count"):
            return []  # a one-deck game counts and loads each round's deck inside the round
        if kind == "new_dealer" and self.shoe is not None:
            self.shoe["burn_due"] = True
            return []
        if kind == "correct_meter":
            return self._correct_meter(event, who)
        if kind in SEAT_EVENTS and self.seats is not None:
            return self._seating(event)
        if kind == "verify_jackpot" and self.jackpot is not None:
            return self._verify_jackpot(event, who)
        if kind == "verify_time_charges" and self.seats is not None:
            return self._verify_time(event, who)
        raise EventRefused(str(kind), "between rounds", ["next_round"], "no round is in progress")

    # -- poker seating (controller/runtime/contract.py) ----------------------------------------

    def buy_in_limits(self) -> tuple[int, int | None]:
        """The profile's buy-in; absent, at least the minimum to play, and no maximum."""
        p = self.profile.poker
        return (p.buy_in_min or self.minimum_to_play(), p.buy_in_max)

    def minimum_to_play(self) -> int:
        """(c)(3)(iii): chips for any forced bet and at least one bet at the posted table minimum."""
        p = self.profile.poker
        forced = getattr(p, "big_blind", None) or getattr(p, "bring_in", 0) or 0
        return p.ante + max(forced, self.profile.table.minimum_wager)

    def dealt_in(self) -> list[int]:
        """The seats the next hand deals in: present, with the chips to play."""
        least = self.minimum_to_play()
        return sorted(s for s, v in self.seats.items() if v >= least and s not in self.away)

    def seating_view(self) -> dict:
        least = self.minimum_to_play()
        low, high = self.buy_in_limits()
        return {"seats": [{"seat": s, "stack": v, "away": s in self.away, "short": v < least}
                          for s, v in sorted(self.seats.items())],
                "buy_in_min": low, "buy_in_max": high, "minimum_to_play": least,
                "button_draw": self.button is None and hasattr(self.profile.poker, "big_blind"),   # button games
                "first_button": self.first_button}

    def _button_card(self, e: Any) -> list[dict]:
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

    def _seating(self, event: dict) -> list[dict]:
        """A player sits down, tops up, sits out, comes back or leaves: between hands only."""
        from .contract import seat_event
        kind = str(event.get("type"))
        e, why = seat_event(event)
        allowed = list(SEAT_EVENTS)
        if why:
            raise EventRefused(kind, "between hands", allowed, why)
        if kind == "button_card":
            return self._button_card(e)
        if e.seat > self.profile.seats:
            raise EventRefused(kind, "between hands", allowed, f"seat must be 1..{self.profile.seats}")
        low, high = self.buy_in_limits()
        here = e.seat in self.seats
        if kind == "sit":
            if here:
                raise EventRefused(kind, "between hands", allowed, f"seat {e.seat} is taken")
            if e.stack < low or (high is not None and e.stack > high):
                raise EventRefused(kind, "between hands", allowed, f"a buy-in is {low} to "
                                   f"{high if high is not None else 'any'} cents at this table, not {e.stack}")
            self.seats[e.seat] = e.stack
            return []
        if not here:
            raise EventRefused(kind, "between hands", ["sit"], f"nobody sits at seat {e.seat}")
        if kind == "top_up":
            after = self.seats[e.seat] + e.amount
            if high is not None and after > high:
                raise EventRefused(kind, "between hands", allowed, f"a top-up brings a stack to at most the "
                                   f"maximum buy-in, {high} cents; seat {e.seat} would have {after}")
            self.seats[e.seat] = after
        elif kind == "sit_out":
            self.away.add(e.seat)
        elif kind == "sit_in":
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
            seats = sorted(self.seats)
            each, odd = divmod(owed, len(seats))
            due = {seat: each + (1 if i < odd else 0) for i, seat in enumerate(seats)}
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

    def time_view(self) -> dict | None:
        from controller.poker.rake import TimeCharge, rule_from_config
        rule = rule_from_config(self.profile.poker.rake)
        if not isinstance(rule, TimeCharge):
            return None
        return {"per": rule.per, "hourly": rule.hourly, "increment_minutes": rule.increment_minutes,
                "pending": list(self.time["pending"]), "verified": list(self.time["verified"][-20:])}

    def _verify_time(self, event: dict, who: str | None) -> list[dict]:
        """(o)(2)(iii)(e): the floorperson verifies the time charges collected; then they go to the drop box."""
        hand = event.get("hand")
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
        rec = r.record or {}
        if rec.get("void"):
            return
        if self.jackpot["fund"] is not None:
            self.jackpot["fund"] += rec.get("jackpot_drop") or 0
        for c in candidates(r.hand, rule_from_config(self.profile.poker.jackpot)):
            self.jackpot["pending"].append({"hand": r.round_id, "seat": r.order[c.player], "kind": c.kind,
                                            "hand_name": c.hand_name,
                                            "cards": "".join(str(CARDS[x]) for x in c.cards)})

    def jackpot_view(self) -> dict | None:
        if self.jackpot is None:
            return None
        rule = self.profile.poker.jackpot
        return {"kind": rule.kind, "qualifying_hand": rule.qualifying_hand, "amount": self.jackpot["fund"],
                "pending": list(self.jackpot["pending"]), "verified": list(self.jackpot["verified"])}

    def _verify_jackpot(self, event: dict, who: str | None) -> list[dict]:
        """(r)(4): the floorperson verifies a qualifying hand and the tracking form's line is recorded."""
        from .contract import verify_jackpot
        e, why = verify_jackpot(event)
        if why:
            raise EventRefused("verify_jackpot", "jackpot", [], f"the tracking form (5324.42(r)(4)): {why}")
        waiting = next((q for q in self.jackpot["pending"] if (q["hand"], q["seat"]) == (e.hand, e.seat)), None)
        if waiting is None:
            raise EventRefused("verify_jackpot", "jackpot", [], f"no qualifying hand of seat {e.seat} in hand "
                               f"{e.hand} waits for verification")
        line = {**waiting, "player": e.player.strip(), "phone": e.phone.strip(), "dealer": e.dealer.strip(),
                "dealer_license": e.dealer_license.strip(), "floorperson": who or "",
                "floor_license": e.floor_license.strip()}
        self.jackpot["pending"].remove(waiting)
        self.jackpot["verified"].append(line)
        return [{"type": "journal", "kind": "jackpot-hand", "payload": line}]

    def _correct_meter(self, event: dict, who: str | None) -> list[dict]:
        meter = self.current_meter()
        if meter is None:
            raise EventRefused("correct_meter", "between rounds", [], "this table has no progressive meter")
        amount, reason = event.get("amount"), event.get("reason")
        if type(amount) is not int or amount < 0:
            raise EventRefused("correct_meter", "between rounds", [], "amount must be whole cents, 0 or more")
        if not isinstance(reason, str) or not reason.strip():
            raise EventRefused("correct_meter", "between rounds", [], "a correction needs a reason")
        before = meter.amount
        meter.correct(amount, reason=reason, supervisor=who or "")
        return [{"type": "journal", "kind": "meter",
                 "payload": {"meter": "progressive", "reason": "correction", "before": before, "after": amount,
                             "amount": amount - before, "by": who, "note": reason.strip(),
                             "carry_before": meter.carry, "carry_after": meter.carry}}]

    # -- recovery ------------------------------------------------------------------------------

    @classmethod
    def from_snapshot(cls, profile: Any, snapshot: dict) -> "TableState":
        state = cls(profile)
        if snapshot.get("game") != state.game:
            raise RecoveryError(f"the journal is of a {snapshot.get('game')} table, the profile "
                                f"of {state.game}: use the profile this journal was written with")
        opening = snapshot["opening"]
        if "shoe" in snapshot:
            state.shoe = dict(snapshot["shoe"])
        if "seats" in snapshot:
            state.seats = {int(k): v for k, v in snapshot["seats"].items()}
            state.away = set(snapshot.get("away", []))
            state.lammer = snapshot.get("lammer")
            decks = snapshot.get("decks") or {}
            state.deck_in_play, state.deck_counts = decks.get("in_play", 0), dict(decks.get("counts", {}))
            if snapshot.get("jackpot") is not None:
                state.jackpot = copy.deepcopy(snapshot["jackpot"])
            if snapshot.get("time") is not None:
                state.time = copy.deepcopy(snapshot["time"])
        state.start(copy.deepcopy(opening))
        if state.meter is not None:
            state.meter = state.round.meter
        return state

    def replay(self, entries: Iterable[Any]) -> int:
        """Apply the journaled events after the snapshot; the number replayed."""
        count = 0
        for e in entries:
            if e.kind != "event":
                continue
            event = e.payload["event"]
            who = e.payload.get("who")
            try:
                if e.round_id is None:
                    self.table_event(event, who)
                elif self.round is not None and e.round_id == self.round.round_id:
                    if self.round.closed:
                        raise RecoveryError(f"entry {e.seq}: an event after round {e.round_id} closed")
                    self.round.apply(event)
                    if self.round.closed:
                        self.after_close()
                else:
                    raise RecoveryError(f"entry {e.seq}: an event of round {e.round_id}, which the "
                                        "latest snapshot did not open")
            except EventRefused as exc:
                raise RecoveryError(f"entry {e.seq} does not replay: {exc}") from None
            count += 1
        return count


def round_event(event: dict, who: str | None) -> dict:
    """The event as the round machine takes it (a validation or refusal names its supervisor,
    the signed-in one, never one the event claims)."""
    if event.get("type") == "validate":
        out = {"type": "validate", "seat": event.get("seat"), "supervisor": who or ""}
        if "second_signer" in event:   # set by the screens' server after checking the second PIN
            out["second_signer"] = event["second_signer"]
        return out
    if event.get("type") == "refuse":
        return {"type": "refuse", "seat": event.get("seat"), "supervisor": who or "",
                "reason": event.get("reason")}
    return event

