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
        self.button: int | None = None
        if self.game not in ("caribbean-stud", "casino-war"):
            self.seats = {}
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
        if self.seats is not None and sum(1 for v in self.seats.values() if v > 0) < 2:
            return "a hand needs two players with chips at the table (5324.42(f)(2))"
        return None

    def opening(self) -> dict:
        number = self.number + 1
        p = self.profile
        base = {"round": f"{self.table_id}-{number:06d}", "number": number, "game": self.game,
                "seats": p.seats}
        if self.seats is not None:
            from .poker import opening_for
            occupied = sorted(s for s, v in self.seats.items() if v > 0)
            button = next((s for s in occupied if self.button is None or s > self.button), occupied[0])
            return opening_for(p, base["round"], number, self.seats, button)
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

    def open_round(self) -> tuple[dict, list[dict]]:
        """Open the next round: its snapshot (the table state before it) and its effects."""
        why = self.can_open()
        if why:
            raise EventRefused("next_round", self.round.state if self.round else "none", [], why)
        opening = self.opening()
        self.start(opening)
        snapshot = {"number": self.number, "round": opening["round"], "game": self.game, "opening": opening}
        if self.meter is not None:
            snapshot["meters"] = {"progressive": opening["meter"]}
        if self.shoe is not None:
            snapshot["shoe"] = dict(self.shoe)
        if self.seats is not None:
            snapshot["seats"] = {str(k): v for k, v in sorted(self.seats.items())}
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
        if kind in ("sit", "leave") and self.seats is not None:
            return self._sit(event)
        raise EventRefused(str(kind), "between rounds", ["next_round"], "no round is in progress")

    def _sit(self, event: dict) -> list[dict]:
        """A player sits down with chips, or leaves, between hands."""
        kind, seat = event["type"], event.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.profile.seats:
            raise EventRefused(kind, "between hands", ["sit", "leave"], f"seat must be 1..{self.profile.seats}")
        if kind == "leave":
            if seat not in self.seats:
                raise EventRefused(kind, "between hands", ["sit"], f"nobody sits at seat {seat}")
            del self.seats[seat]
            return []
        stack = event.get("stack")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise EventRefused(kind, "between hands", ["sit"], "stack must be whole cents above 0")
        if self.seats.get(seat, 0) > 0:
            raise EventRefused(kind, "between hands", ["leave"], f"seat {seat} is taken")
        self.seats[seat] = stack
        return []

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

