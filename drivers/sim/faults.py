"""Fault knobs: what the wire does to the next frames going one way.

Each knob is a rule "the next N frames (of these types) are dropped / garbled /
delayed by S seconds", consumed in the order set. The emulators ask `take()`
for every frame they send or receive; tests and `tablectl sim` set the rules,
from any thread.
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


@dataclass(frozen=True, slots=True)
class Fault:
    action: str          # "drop", "garble" or "delay"
    seconds: float = 0.0


class Faults:
    """Rules for one direction of one device's wire."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rules: list[_Rule] = []
        self.dropped = 0
        self.garbled = 0
        self.delayed = 0

    def _add(self, action: str, n: int, types: Iterable[int] | None, seconds: float = 0.0) -> None:
        if n < 1:
            raise ValueError(f"a fault applies to at least one frame, not {n}")
        if seconds < 0:
            raise ValueError(f"a delay cannot be negative ({seconds})")
        with self._lock:
            self._rules.append(_Rule(action, n, None if types is None else frozenset(types), seconds))

    def drop(self, n: int = 1, types: Iterable[int] | None = None) -> None:
        self._add("drop", n, types)

    def garble(self, n: int = 1, types: Iterable[int] | None = None) -> None:
        self._add("garble", n, types)

    def delay(self, seconds: float, n: int = 1, types: Iterable[int] | None = None) -> None:
        self._add("delay", n, types, seconds)

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()

    @property
    def armed(self) -> int:
        with self._lock:
            return sum(r.remaining for r in self._rules)

    def take(self, type_: int) -> Fault | None:
        with self._lock:
            for rule in self._rules:
                if rule.types is None or type_ in rule.types:
                    rule.remaining -= 1
                    if rule.remaining == 0:
                        self._rules.remove(rule)
                    if rule.action == "drop":
                        self.dropped += 1
                    elif rule.action == "garble":
                        self.garbled += 1
                    else:
                        self.delayed += 1
                    return Fault(rule.action, rule.seconds)
        return None


def garble(data: bytes, rng: random.Random, *, keep_first: int = 1) -> bytes:
    """Flip bits of one byte after the first `keep_first`: the frame stays recognisable as one, and fails its CRC."""
    out = bytearray(data)
    i = rng.randrange(keep_first, len(out))
    out[i] ^= rng.randrange(1, 256)
    return bytes(out)
