"""What the table carries from one round to the next, and how it comes back after a power cut.

Between rounds a table holds little: the progressive meter with its fraction of a
cent (Caribbean stud, stud_table.py), where the shoe stands and whether a burn
card is due (casino war, war_table.py), who sits where with what chips and where
the button is (poker, poker_table.py), and how many rounds it has opened. This
module holds what every game's table state shares; `TableState(profile)` is the
game's own, as its entry in controller/games/registry.py names it. At each round's opening the
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

1. Power-up self-check first (controller/journal/selfcheck.py): the software's digest
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

from controller import boundary
from controller.games import registry
from controller.games.base import EventRefused, RoundAtTable
from controller.games.event import as_declared
from controller.games.game import Json
from controller.progressive import ProgressiveMeter

Event = boundary.Event   # the boundary's model of an event (controller/boundary.py), read again from the journal
# The journal's JSON objects as the table state handles them: an effect, an opening, a snapshot or a view.
# Any at that JSON boundary: the values are the journal's, narrowed where they are used.
Effect = dict[str, Any]
JsonDict = dict[str, Any]


class RecoveryError(Exception):
    """The journal does not replay: an event it holds is refused by the round it belongs to."""


class TableState:
    """The table between rounds and the round in progress (`round`, an adapter).

    `TableState(profile)` makes the state of the profile's game (its registry entry's `table`);
    a game's subclass adds what it carries and how its round opens, through the hooks below.
    """

    # What a game carries between rounds, None where the game has none (read by the table and its view).
    meter: ProgressiveMeter | None = None      # Caribbean stud
    shoe: JsonDict | None = None                   # casino war
    seats: dict[int, int] | None = None        # poker: seat -> stack between hands
    jackpot: JsonDict | None = None                # poker with a jackpot
    # Whether a new table opens its first round by itself (False: it waits for its dealer, as a
    # poker table does while its players sit down).
    opens_first_round: bool = True

    def __new__(cls, profile: Any) -> "TableState":
        chosen = registry.game(profile.game).table.state if cls is TableState else cls
        return super().__new__(chosen)

    def __init__(self, profile: Any) -> None:
        self.profile = profile
        self.game: str = profile.game
        self.table_id: str = profile.table.id
        self.number = 0                 # rounds opened
        self.round: RoundAtTable | Any | None = None

    # -- a game's hooks ----------------------------------------------------------------------

    def round_class(self) -> type:
        return registry.game(self.game).table.round

    def events(self, source: str) -> boundary.Catalogue:
        """What `source` may submit at this table (its game's declarations, as the table's `events`)."""
        return registry.game(self.game).table.events(source, self.profile)

    def _game_opening(self, base: JsonDict) -> JsonDict:
        """The game's round opening, from what every opening names (`base`)."""
        raise NotImplementedError

    def _cannot_open(self) -> str | None:
        """Why the game's next round cannot open yet (None: it can)."""
        return None

    def _opening_for(self, now: int | None) -> JsonDict:
        """The opening of the next round (a poker table charges its time here)."""
        return self.opening()

    def _carried(self, snapshot: JsonDict, opening: JsonDict) -> None:
        """What the game carries between rounds, into the round's snapshot."""

    def _restore(self, snapshot: JsonDict) -> None:
        """What the game carried, back from a snapshot (before its round is rebuilt)."""

    def _restored(self) -> None:
        """After the round is rebuilt from a snapshot."""

    def _started(self, opening: JsonDict) -> None:
        """A round has opened (`self.round` is it)."""

    def _table_event(self, kind: Any, event: Event, who: str | None) -> list[Effect] | None:
        """A between-rounds event of the game's own; None when it is not one."""
        return None

    def after_close(self) -> None:
        """Carry the closed round's meter, shoe or stacks over to the table."""

    def at_start(self) -> list[tuple[str, JsonDict]]:
        """Journal entries (kind, payload) the game writes once the table is rebuilt at its start."""
        return []

    # -- opening a round -------------------------------------------------------------------

    def allowed(self) -> list[str]:
        """The events the table takes now, between rounds (published as the round's "allowed" then): the
        next round when it can open, what `table_event` takes, and the game's own (`_table_events`)."""
        taken = {"shoe_loaded", "deck_count", *self._table_events()}
        if self.current_meter() is not None:
            taken.add("correct_meter")
        if self.can_open() is None:
            taken.add("next_round")
        return sorted(taken)

    def _table_events(self) -> Iterable[str]:
        """The game's own between-rounds events (those its `_table_event` takes)."""
        return ()

    # How the dealer's screen names a round of the game, and what it says before the first opens.
    NEXT_ROUND = "Next round"
    BEFORE_FIRST = "Opening the first round."

    def published(self) -> dict[str, Json]:
        """What the game's table publishes besides its round (poker: the seating, the jackpot, the time
        charges), by key of the published view; nothing for most games."""
        return {}

    def offered(self) -> tuple[str, list[JsonDict]] | None:
        """What the dealer may do while the next round cannot open: the next step's addition and its
        buttons (None: nothing but wait)."""
        return None

    def can_open(self) -> str | None:
        """Why a round cannot open now (None: it can)."""
        if self.round is not None and not self.round.closed:
            return "the round in progress is not over"
        return self._cannot_open()

    def opening(self) -> JsonDict:
        number = self.number + 1
        base = {"round": f"{self.table_id}-{number:06d}", "number": number, "game": self.game,
                "seats": self.profile.seats}
        return self._game_opening(base)

    def open_round(self, now: int | None = None) -> tuple[JsonDict, list[Effect]]:
        """Open the next round: its snapshot (the table state before it) and its effects. `now` (whole
        seconds) assesses a poker table's time charges; without it none are."""
        why = self.can_open()
        if why:
            raise EventRefused("next_round", self.round.state if self.round else "none", [], why)
        opening = self._opening_for(now)
        self.start(opening)
        snapshot = {"number": self.number, "round": opening["round"], "game": self.game, "opening": opening}
        self._carried(snapshot, opening)
        return snapshot, [{"type": "opened", "round": opening["round"]}]

    def start(self, opening: JsonDict) -> None:
        self.number = opening["number"]
        self.round = self.round_class()(opening)
        self._started(opening)

    def current_meter(self) -> ProgressiveMeter | None:
        return self.meter

    def wants_shoe_loaded(self) -> bool:
        """Whether the table's shoe must be (re)loaded before the next round (casino war's manual shoe
        after its cover card); the table then asks its devices once."""
        return False

    def settlement_of(self, record: JsonDict) -> object:
        """What a closed round's line on the table's output gives as its settlement (a game whose
        record holds more, such as a poker hand's seats and stacks, says so)."""
        return record.get("settlement")

    # -- between rounds ----------------------------------------------------------------------

    def table_event(self, event: Event, who: str | None) -> list[Effect]:
        """Events that belong to no round: a fresh shoe, a new dealer, a meter correction."""
        kind = event.type
        effects = self._table_event(kind, event, who)
        if effects is not None:
            return effects
        if kind in ("shoe_loaded", "deck_count"):
            return []  # a one-deck game counts and loads each round's deck inside the round
        if kind == "correct_meter":
            return self._correct_meter(event, who)
        raise EventRefused(str(kind), "between rounds", ["next_round"], "no round is in progress")

    def _correct_meter(self, event: Event, who: str | None) -> list[Effect]:
        meter = self.current_meter()
        if meter is None:
            raise EventRefused("correct_meter", "between rounds", [], "this table has no progressive meter")
        correction = as_declared(event, boundary.CorrectMeter)   # whole cents, 0 or more: the door checks them
        amount, reason = correction.amount, correction.reason
        if not reason.strip():
            raise EventRefused("correct_meter", "between rounds", [], "a correction needs a reason")
        before = meter.amount
        meter.correct(amount, reason=reason, supervisor=who or "")
        return [{"type": "journal", "kind": "meter",
                 "payload": {"meter": "progressive", "reason": "correction", "before": before, "after": amount,
                             "amount": amount - before, "by": who, "note": reason.strip(),
                             "carry_before": meter.carry, "carry_after": meter.carry}}]

    # -- recovery ------------------------------------------------------------------------------

    @classmethod
    def from_snapshot(cls, profile: Any, snapshot: JsonDict) -> "TableState":
        state = cls(profile)
        if snapshot.get("game") != state.game:
            raise RecoveryError(f"the journal is of a {snapshot.get('game')} table, the profile "
                                f"of {state.game}: use the profile this journal was written with")
        opening = snapshot["opening"]
        state._restore(snapshot)
        state.start(copy.deepcopy(opening))
        state._restored()
        return state

    def replay(self, entries: Iterable[Any]) -> int:
        """Apply the journaled events after the snapshot; the number replayed."""
        count = 0
        for e in entries:
            if e.kind != "event":
                continue
            who = e.payload.get("who")
            event = boundary.journaled(e.payload["event"], e.payload.get("source"), self.events,
                                       near=self.round_class().__module__.rpartition(".")[0])
            if isinstance(event, str):   # the journal's event no longer reads as declared
                raise RecoveryError(f"entry {e.seq} does not replay: {event}")
            try:
                if e.round_id is None:
                    self.table_event(event, who)
                elif self.round is not None and e.round_id == self.round.round_id:
                    if self.round.closed:
                        raise RecoveryError(f"entry {e.seq}: an event after round {e.round_id} closed")
                    self.round.apply(event)   # read again into the model it was admitted as
                    if self.round.closed:
                        self.after_close()
                else:
                    raise RecoveryError(f"entry {e.seq}: an event of round {e.round_id}, which the "
                                        "latest snapshot did not open")
            except EventRefused as exc:
                raise RecoveryError(f"entry {e.seq} does not replay: {exc}") from None
            count += 1
        return count


def round_event(event: boundary.Event, who: str | None) -> boundary.Event:
    """The event as the round machine takes it: a supervisor's validation or refusal names its
    supervisor, the signed-in one, never one the event claims (its declaration's `signed` model)."""
    signed = event.signed()
    if signed is None:
        return event
    given = event.given()   # the fields the screen sent, as the door read them
    out: dict[str, object] = {"type": event.type, "seat": given.get("seat"), "supervisor": who or ""}
    if event.type == "refuse":
        out["reason"] = given.get("reason")
    if "second_signer" in given:   # set by the screens' server after checking the second PIN
        out["second_signer"] = given["second_signer"]
    for name in ("player_id", "form"):   # a hand-pay's form (issue 29), as the screen gave it
        if name in given:
            out[name] = given[name]
    return signed.model_validate(out)
