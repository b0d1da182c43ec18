"""What every round machine shares with the table runtime.

The table's one consumer hands each event (a JSON-able dict with a "type") to
the round's `apply`, which either changes the round and returns its effects
(JSON-able dicts: lights to set, cards to request, a settlement to show), or
raises EventRefused and changes nothing. Because a round is a pure function of
its events, the journal can store the events verbatim and recovery replays them.
"""

from __future__ import annotations

from collections.abc import Iterable


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
