"""What every round machine shares with the table runtime.

The table's one consumer hands each event to the round's `apply` as the boundary
admitted it (controller/boundary.py: the model of its declaration, its fields
typed, its cards `Card`), which either changes the round and returns its effects
(JSON-able dicts: lights to set, cards to request, a settlement to show), or
raises EventRefused and changes nothing. Because a round is a pure function of
its events, the journal stores each event's given fields and recovery reads them
back into the same models and replays them (boundary.journaled).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from controller.games.event import Event as Event   # the one Event of every round, re-exported

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

# An event as the round reads it: controller.boundary.Event, the model of its declaration (its type,
# its fields typed and bounded, its cards controller.cards.Card), the one Event of every round.
Effect = dict[str, "Json"]                       # what the table carries out: JSON-able
Change = Callable[[], list[Effect]]              # what an event does to the round, once it is checked
Handler = Callable[[Event], Change]              # an event's checks; raises EventRefused or gives its change
Plan = TypeVar("Plan")
E = TypeVar("E", bound=Event)


def expect_event(event: object) -> Event:
    """The event a round was handed, which is the boundary's model (or one read back from the journal
    into it): anything else, a bare dict above all, is a bug in the caller and fails loudly, never a
    refusal the round would journal as the dealer's."""
    if not isinstance(event, Event):
        raise TypeError(f"a round takes an event as controller.boundary admits it (an Event), not a "
                        f"{type(event).__name__}: read it with boundary.admitted or boundary.journaled")
    return event


def handler(takes: type[E], check: Callable[[E], Plan], change: Callable[[Plan], list[Effect]]) -> Handler:
    """An event's check and its change, paired in the machine's table of handlers: the check reads
    the event (the model `takes` declares, its fields typed) and refuses it or returns a plan, and only
    that plan reaches the change (mypy checks that the two agree on its type), so nothing the check did
    not see can change the round."""
    def checked(event: Event) -> Change:
        if not isinstance(event, takes):   # another declaration of the type: a caller's bug
            raise TypeError(f"{event.type} is declared as {takes.__module__}.{takes.__name__} here, "
                            f"not {type(event).__module__}.{type(event).__name__}")
        plan = check(event)
        return lambda: change(plan)
    return checked


@runtime_checkable
class RoundMachine(Protocol):
    """A game's round machine (controller/games/<game>/machine.py) as `apply_event` drives it.

    `handlers()` is the machine's table of each event's check and
    change (built with `handler` from the machine's own methods, so a reader follows each one from
    the table); `_move(type)` fires the event's transition (transitions); `_entered(state)` adds the
    effects of the state entered. `_saved()` and `_restore(saved)` take and put back everything the
    last three change.
    """

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
    """The one skeleton of a round machine's `apply`: the event is the boundary's model (its type and
    fields checked there, against its declaration), the state must allow it, the game checks its content
    against the round's state and rules (the check of its handler), then the round changes (the
    handler's change, the transition, the state entered). A handler that fails after the checks is a
    bug, and the round is put back as it was before the event: a refused or failed event never leaves
    a half-applied round behind."""
    kind = expect_event(event).type
    allowed = machine.allowed()
    if kind not in allowed:
        raise EventRefused(kind, machine.state.value, allowed)
    assert isinstance(event, Event)   # (expect_event said so)
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
    events: list[Event]
    record: dict[str, Json] | None

    def __init__(self, opening: Mapping[str, object]) -> None: ...   # a round is built from its opening

    @property
    def closed(self) -> bool: ...
    @property
    def state(self) -> str: ...
    def allowed(self) -> list[str]: ...
    # the boundary's model of the event (controller/boundary.py), checked by the round against its state
    # and rules; its effects as the table's consumer reads them (the round's own and the table's
    # "journal" entries: table.py reads each by its "type")
    def apply(self, event: Event) -> list[dict[str, Any]]: ...
    def view(self) -> dict[str, Json]: ...
    def lights(self) -> dict[int, str]: ...
    def lockout(self) -> bool: ...
    def cards_wanted(self) -> int: ...
    def deck_wanted(self) -> Any: ...
