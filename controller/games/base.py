"""What every round machine shares with the table runtime.

The table's one consumer hands each event (a JSON-able dict with a "type") to
the round's `apply`, which either changes the round and returns its effects
(JSON-able dicts: lights to set, cards to request, a settlement to show), or
raises EventRefused and changes nothing. Because a round is a pure function of
its events, the journal can store the events verbatim and recovery replays them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from controller.games.game import Json


class EventRefused(Exception):
    """An event the round's state does not allow, or that breaks a rule.

    Carries the state and the events that state allows, so the dealer's
    screen can say what to do instead.
    """

    def __init__(self, event: str, state: str, allowed: Iterable[str], reason: str = "") -> None:
        self.event = event
        self.state = state
        self.allowed = sorted(allowed)
        self.reason = reason
        why = f": {reason}" if reason else ""
        super().__init__(
            f"{event} refused in state {state}{why}; allowed now: {', '.join(self.allowed) or 'none'}"
        )


# -- the round machine: one apply() for every game ----------------------------------------

# An event as the round reads it: the journal's JSON object (its cards controller.cards.Card, as the
# boundary read them), its type and fields checked by apply_event. Any at that JSON boundary: each
# value is checked by the handler's check as it reads it, before anything changes.
Event = Mapping[str, Any]
Effect = dict[str, "Json"]                       # what the table carries out: JSON-able
Fields = dict[str, tuple[set[str], set[str]]]   # event type -> (the fields it may carry, those it must)
Change = Callable[[], list[Effect]]              # what an event does to the round, once it is checked
Handler = Callable[[Event], Change]              # an event's checks; raises EventRefused or gives its change
Plan = TypeVar("Plan")


def handler(check: Callable[[Event], Plan], change: Callable[[Plan], list[Effect]]) -> Handler:
    """An event's check and its change, paired in the machine's table of handlers: the check reads
    the event and refuses it or returns a plan, and only that plan reaches the change (mypy checks
    that the two agree on its type), so nothing the check did not see can change the round."""
    def checked(event: Event) -> Change:
        plan = check(event)
        return lambda: change(plan)
    return checked


@runtime_checkable
class RoundMachine(Protocol):
    """A game's round machine (controller/games/<game>/machine.py) as `apply_event` drives it.

    `FIELDS` names each event's fields; `handlers()` is the machine's table of each event's check and
    change (built with `handler` from the machine's own methods, so a reader follows each one from
    the table); `_move(type)` fires the event's transition (transitions); `_entered(state)` adds the
    effects of the state entered. `_saved()` and `_restore(saved)` take and put back everything the
    last three change.
    """

    FIELDS: Fields
    @property
    def state(self) -> Enum: ...   # read here, moved by transitions

    def allowed(self) -> list[str]: ...
    def handlers(self) -> Mapping[str, Handler]: ...
    def _move(self, kind: str) -> None: ...
    def _saved(self) -> Any: ...
    def _restore(self, saved: Any) -> None: ...
    def _entered(self, state: Any) -> list[Effect]: ...
    def _applied(self, event: Event) -> None: ...


def apply_event(machine: RoundMachine, event: object) -> list[Effect]:
    """The one skeleton of a round machine's `apply`: the event's type and fields are checked, the
    game checks its content (the check of its handler), then the round changes (the handler's change,
    the transition, the state entered). A handler that fails after the checks is a bug, and the round
    is put back as it was before the event: a refused or failed event never leaves a half-applied
    round behind."""
    kind = event.get("type") if isinstance(event, dict) else None
    allowed = machine.allowed()
    state = machine.state.value
    if not isinstance(kind, str) or not isinstance(event, dict):   # (no type unless a dict)
        raise EventRefused(repr(kind), state, allowed, 'an event is an object with a "type"')
    if kind not in allowed:
        raise EventRefused(kind, state, allowed)
    names, required = machine.FIELDS[kind]
    for key in event:
        if key != "type" and key not in names:
            raise EventRefused(kind, state, allowed, f"unknown field {key!r}")
    for key in sorted(required - set(event)):
        raise EventRefused(kind, state, allowed, f"{key!r} is required")
    change = machine.handlers()[kind](event)   # the checks: nothing has changed yet
    saved = machine._saved()
    try:
        before = machine.state
        effects = change()
        machine._move(kind)   # transitions: the state this leads to
        if machine.state is not before:
            effects.extend(machine._entered(machine.state))
    except Exception:
        machine._restore(saved)
        raise
    machine._applied(event)
    return effects


# -- the round at the table: what the table's consumer, its workers and its screens use ----------

@runtime_checkable
class RoundAtTable(Protocol):
    """A round as the live table holds it (controller/games/caribbean_stud/at_table.py, war.py, poker.py): the
    consumer applies events to it, the dealer's worker asks it for cards and a deck, the outputs
    worker for its lights, the published view for its screen, recovery replays its events."""

    round_id: str
    game: str
    opening: dict[str, Json]
    events: list[dict[str, Json]]
    record: dict[str, Json] | None

    def __init__(self, opening: Mapping[str, object]) -> None: ...   # a round is built from its opening

    @property
    def closed(self) -> bool: ...
    @property
    def state(self) -> str: ...
    def allowed(self) -> list[str]: ...
    # the journal's event, checked by the round; its effects as the table's consumer reads them (the
    # round's own and the table's "journal" entries: table.py reads each by its "type")
    def apply(self, event: Any) -> list[dict[str, Any]]: ...
    def view(self) -> dict[str, Json]: ...
    def lights(self) -> dict[int, str]: ...
    def lockout(self) -> bool: ...
    def cards_wanted(self) -> int: ...
    def deck_wanted(self) -> Any: ...
