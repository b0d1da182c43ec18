"""What the banked games at the table share: a round machine `m`, and the round's own events.

Each game at the table (caribbean_stud/at_table.py, casino_war/at_table.py) wraps its
round machine with events the machine does not know (the shoe, the deck count,
voiding), each declared once in the round's table of handlers: why the round's state
refuses it now, and what it does. `apply` dispatches by that table and `allowed`
reads it, with the machine's own, so what the view publishes as allowed is what the
round takes; both refuse the same way, so the dealer's screen reads one shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypedDict, TypeVar

from controller.games.base import Event as Event   # the one Event (controller/boundary.py)
from controller.games.base import EventRefused

R = TypeVar("R")

# The journal's JSON objects as the rounds handle them: an effect, a round's record or view. Any at that
# JSON boundary: the values are the journal's, narrowed where they are used.
Effect = dict[str, Any]
JsonDict = dict[str, Any]


class DeckCount(TypedDict):
    """The shuffler's count of a one-deck round's deck (its deck_count event, as the boundary read it)."""

    total: int
    anomalies: list[str]
    truncated: bool
    ok: bool


@dataclass(frozen=True)
class Handler(Generic[R]):
    """One of a round's own events: why its state refuses it now (None: it takes it), and what it does."""

    refused: Callable[[R], str | None]
    apply: Callable[[R, Event], list[Effect]]


class BankedRoundAtTable:
    """Mixin: `m` (the round machine), `closed`, `state` and `allowed` come from the game."""

    if TYPE_CHECKING:   # what the game's class provides (declared for the checker only)
        m: Any

        @property
        def state(self) -> str: ...

        @property
        def closed(self) -> bool: ...

        def allowed(self) -> list[str]: ...

    def refuse(self, kind: str, reason: str) -> NoReturn:
        raise EventRefused(kind, self.state, self.allowed(), reason)

    def refuse_if(self, kind: str, why: str | None) -> None:
        """Refuse `kind` when there is a reason (a handler's guard, as `allowed` reads it)."""
        if why:
            self.refuse(kind, why)
