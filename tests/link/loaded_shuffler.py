"""A loaded emulated shuffler: now and then a flush in one of the first stacks of five it deals.

For the crash lane of tests/link/test_crash_linked.py only. Progressive hits
(flush or better, 5324.37(g)(4)) come about once in 270 hands, so a short lane of
random decks makes one or two claims at best. Imported by the lane's zygote
before it forks (crash_lab `preload`), it patches the emulated shuffler so that
after its own random shuffle, with probability LOADED, the five cards of one of
the first two stacks are made one suit (a flush, now and then better). The
cards still go from the shuffler to the shoe and the table as any deck does;
the table finds, claims and pays the hit itself, like the stacked decks of
tests/link/test_live_hits.py, and the emulated shoe's record of what it dealt
stays the check of the journal's cards.
"""

from __future__ import annotations

from drivers.sim.shuffler import ShufflerEmulator

LOADED = 0.6     # share of shuffles with a flush placed in one of the first two stacks
STACKS = 2       # a flush goes to the stack of the first or the second hand dealt


class LoadedRandom:
    """The emulator's own random source, with its shuffle loaded."""

    def __init__(self, base, emulator: ShufflerEmulator) -> None:
        self.base = base
        self.emulator = emulator

    def __getattr__(self, name):
        return getattr(self.base, name)

    def shuffle(self, order: list[int]) -> None:
        self.base.shuffle(order)
        deck = self.emulator._deck or []
        if len(deck) != 52 or self.base.random() >= LOADED:
            return
        stack = self.base.randrange(STACKS)
        suit = self.base.randrange(4)
        chosen = self.base.sample([i for i, c in enumerate(deck) if int(c) % 4 == suit], 5)
        for place, index in zip(range(5 * stack, 5 * stack + 5), chosen, strict=True):
            at = order.index(index)
            order[place], order[at] = order[at], order[place]


_finish = ShufflerEmulator._finish


def _loaded_finish(self, job: int, *, from_shuffle: bool) -> None:
    if from_shuffle and not isinstance(self.rng, LoadedRandom):
        self.rng = LoadedRandom(self.rng, self)
    return _finish(self, job, from_shuffle=from_shuffle)


ShufflerEmulator._finish = _loaded_finish
