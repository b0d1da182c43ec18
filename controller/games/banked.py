"""What the banked games at the table share: a round machine `m` and the table's own events.

Each game at the table (stud.py, war.py) wraps its round machine with events the
machine does not know (the shoe, the deck count, voiding); both answer "what is
allowed now" and refuse the same way, so the dealer's screen reads one shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from controller.games.base import EventRefused


class BankedRoundAtTable:
    """Mixin: `m` (the round machine), `closed`, `state` and ADAPTER_EVENTS come from the game."""

    ADAPTER_EVENTS: tuple[str, ...] = ()

    if TYPE_CHECKING:   # what the game's class provides (declared for the checker only)
        m: Any

        @property
        def state(self) -> str: ...

        @property
        def closed(self) -> bool: ...

    def refuse(self, kind: str, reason: str) -> NoReturn:
        raise EventRefused(kind, self.state, self.allowed(), reason)

    def allowed(self) -> list[str]:
        if self.closed:
            return []
        return sorted(set(self.m.allowed()) | set(self.ADAPTER_EVENTS))
