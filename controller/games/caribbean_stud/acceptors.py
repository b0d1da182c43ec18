"""What a chip on or off a seat's progressive acceptor means in a Caribbean stud round (5324.37(a)(3)).

The acceptors are the progressive controller's (controller/runtime/devices.py hears them); what a
chip felt there is, is the round's to say, so it lives with the round and is asked through the
game's devices (GameDevices.acceptors).
"""

from __future__ import annotations

from controller.games.caribbean_stud.at_table import StudRound
from controller.games.game import Json


def chip_sensed(seat: int, present: bool, round_: StudRound, *, quiet: bool = False) -> list[dict[str, Json]]:
    """A chip on or off a seat's acceptor, in the round's terms.

    Before the lock-out a chip beside an ante is a progressive wager and a chip
    taken away withdraws it; after the lock-out a new chip is a late wager, which
    the round refuses to recognize and flags (5324.37(a)(3)(ii)). `quiet`: the
    whole state read on connecting, which repeats what may already be known.
    """
    if round_.closed:
        return []
    m = round_.m
    recognized = seat in m.d.progressive
    before_lockout = m.state.value == "open"
    if present and not recognized:
        if before_lockout:
            return [{"type": "progressive", "seat": seat}] if seat in m.d.antes else []
        if quiet and seat in m.d.late:
            return []
        return [{"type": "progressive", "seat": seat}]
    if not present and recognized:
        if before_lockout:
            return [{"type": "remove", "seat": seat, "wager": "progressive"}]
        if not quiet and seat not in round_.removed:
            return [{"type": "chip_removed", "seat": seat}]
    return []
