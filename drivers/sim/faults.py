"""Fault knobs: what the wire does to the next frames going one way.

Each knob is a rule "the next N frames (of these types) are dropped / garbled /
delayed by S seconds", consumed in the order set. The emulators ask `take()`
for every frame they send or receive; tests and `tablectl sim` set the rules,
from any thread.

Two more knobs are faults of a device's firmware rather than of the wire, and
apply to the events a device sends (`take_event()`, asked once per new event):
"replay" sends an event it sent before again, as a new event under a new SEQ
(a frame a faulty shoe replays out of order); "reorder" sends the next event
after the one behind it. The link's SEQ cannot catch either; the card's own
count must (drivers/shoe/protocol.py Tally).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass
class _Rule:
    action: str
    remaining: int
    types: frozenset[int] | None
    seconds: float = 0.0
    back: int = 1
    after: int = 0    # events of its types to let pass untouched before it applies


@dataclass(frozen=True, slots=True)
class Fault:
    action: str          # "drop", "garble", "delay"; for events, "replay" or "reorder"
    seconds: float = 0.0
    back: int = 1        # replay: which earlier event, 1 = the last one sent


class Faults:
    """Rules for one direction of one device's wire."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rules: list[_Rule] = []
        self.dropped = 0
        self.garbled = 0
        self.delayed = 0
        self.replayed = 0
        self.reordered = 0

    def _add(self, action: str, n: int, types: Iterable[int] | None, seconds: float = 0.0, back: int = 1,
             after: int = 0) -> None:
        if n < 1:
            raise ValueError(f"a fault applies to at least one frame, not {n}")
        if seconds < 0:
            raise ValueError(f"a delay cannot be negative ({seconds})")
        if back < 1:
            raise ValueError(f"a replay repeats an event already sent (back >= 1), not {back}")
        with self._lock:
            self._rules.append(_Rule(action, n, None if types is None else frozenset(types), seconds, back, after))

    def drop(self, n: int = 1, types: Iterable[int] | None = None) -> None:
        self._add("drop", n, types)

    def garble(self, n: int = 1, types: Iterable[int] | None = None) -> None:
        self._add("garble", n, types)

    def delay(self, seconds: float, n: int = 1, types: Iterable[int] | None = None) -> None:
        self._add("delay", n, types, seconds)

    def replay(self, n: int = 1, types: Iterable[int] | None = None, back: int = 1, after: int = 0) -> None:
        """Before each of the next `n` events (of these types, once `after` have passed), send again the
        event sent `back` events earlier of the same type, as a new event (device to host only)."""
        self._add("replay", n, types, back=back, after=after)

    def reorder(self, n: int = 1, types: Iterable[int] | None = None, after: int = 0) -> None:
        """Send each of the next `n` events (of these types, once `after` have passed) after the event
        behind it (device to host only)."""
        self._add("reorder", n, types, after=after)

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()

    @property
    def armed(self) -> int:
        with self._lock:
            return sum(r.remaining for r in self._rules)

    def take(self, type_: int) -> Fault | None:
        """The wire's fault for the next frame of `type_` going this way, if any."""
        return self._take(type_, ("drop", "garble", "delay"))

    def take_event(self, type_: int) -> Fault | None:
        """The firmware's fault (replay, reorder) for the next new event of `type_`, if any."""
        return self._take(type_, ("replay", "reorder"))

    def _take(self, type_: int, actions: tuple[str, ...]) -> Fault | None:
        with self._lock:
            for rule in self._rules:
                if rule.action in actions and (rule.types is None or type_ in rule.types):
                    if rule.after:
                        rule.after -= 1
                        return None   # this one passes untouched; the rule waits for a later one
                    rule.remaining -= 1
                    if rule.remaining == 0:
                        self._rules.remove(rule)
                    if rule.action == "drop":
                        self.dropped += 1
                    elif rule.action == "garble":
                        self.garbled += 1
                    elif rule.action == "delay":
                        self.delayed += 1
                    elif rule.action == "replay":
                        self.replayed += 1
                    else:
                        self.reordered += 1
                    return Fault(rule.action, rule.seconds, rule.back)
        return None


def garble(data: bytes, rng: random.Random, *, keep_first: int = 1) -> bytes:
    """Flip bits of one byte after the first `keep_first`: the frame stays recognisable as one, and fails its CRC."""
    out = bytearray(data)
    i = rng.randrange(keep_first, len(out))
    out[i] ^= rng.randrange(1, 256)
    return bytes(out)
