"""Reconnection delays: doubling from a short first wait to a ceiling, reset by a success.

A device unplugged for a second comes back at once; one left unplugged costs a
look every few seconds, not a busy loop. Pure: the caller sleeps.
"""

from __future__ import annotations


class Backoff:
    def __init__(self, initial: float = 0.1, maximum: float = 5.0, factor: float = 2.0) -> None:
        if not 0 < initial <= maximum or factor < 1:
            raise ValueError(f"backoff needs 0 < initial ({initial}) <= maximum ({maximum}) and factor >= 1")
        self.initial = initial
        self.maximum = maximum
        self.factor = factor
        self._next = initial

    def next(self) -> float:
        delay = self._next
        self._next = min(self.maximum, self._next * self.factor)
        return delay

    def reset(self) -> None:
        self._next = self.initial
