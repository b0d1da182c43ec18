"""The two decks of a poker table and their counts (5324.42(a)(5), (f)(6)(iv), (p)(3)).

Two decks are kept at each table, their backs visually distinguishable ((a)(5)(i)).
Dealt by hand, one deck is in use and the other stored. With an automated shuffler
both are used: their backs are of different colours, one is shuffled while the other
is dealt, and they alternate, each used every other round ((a)(5)(iii)).

The deck is counted at least every 15 minutes, by the dealer or by the shuffler; a
count that is not 52 sounds an alarm, the supervisor removes the deck and a new one
is put into play ((f)(6)(iv)); a hand in which missing or extra cards turn up is dead
and its deck replaced the same way ((p)(3)). Until the new deck is in, the table
cannot deal that deck.

Everything here is a value: each change returns a new `TableDecks`, and times are
whole seconds given in by the caller (no clock).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

COUNT_INTERVAL = 15 * 60   # seconds, 5324.42(f)(6)(iv)
DECK_SIZE = 52


class DeckError(ValueError):
    """A deck change the rules refuse; the message says why and nothing changes."""


@dataclass(frozen=True)
class Deck:
    id: str
    color: str      # the colour of the backs
    design: str = ""

    def __post_init__(self) -> None:
        for name in ("id", "color"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise DeckError(f"a deck needs its {name}, not {value!r}")


@dataclass(frozen=True)
class CountResult:
    """One count of a deck: how many cards, by whom, and what follows a wrong count."""

    deck: str
    counted: int
    by: str
    at: int
    alarm: str | None     # the alarm text when the count is not 52

    @property
    def ok(self) -> bool:
        return self.alarm is None


@dataclass(frozen=True)
class TableDecks:
    """The table's two decks: which is dealt this round, when each was last counted, which must go."""

    decks: tuple[Deck, Deck]
    shuffler: bool
    opened_at: int
    in_play: int = 0                                # index of the deck dealt this round
    counted_at: tuple[int, int] | None = None       # last good count of each deck (opening: (d))
    removed: tuple[str, ...] = ()                   # decks the supervisor must replace

    def __post_init__(self) -> None:
        a, b = self.decks
        if a.id == b.id:
            raise DeckError(f"both decks are {a.id!r}")
        if self.shuffler and a.color == b.color:
            raise DeckError(f"decks {a.id} and {b.id} both have {a.color} backs; with an automated shuffler "
                            "the backs are of different colours (5324.42(a)(5)(iii)(a))")
        if (a.color, a.design) == (b.color, b.design):
            raise DeckError(f"decks {a.id} and {b.id} look the same; the two decks are visually "
                            "distinguishable (5324.42(a)(5)(i))")
        if self.counted_at is None:
            object.__setattr__(self, "counted_at", (self.opened_at, self.opened_at))

    # --- which deck ------------------------------------------------------------------------

    @property
    def dealing(self) -> Deck:
        """The deck dealt this round."""
        deck = self.decks[self.in_play]
        if deck.id in self.removed:
            raise DeckError(f"deck {deck.id} was removed; a new deck must be put into play (5324.42(f)(6)(iv))")
        return deck

    @property
    def other(self) -> Deck:
        """The deck in the shuffler (with one) or stored in its place (without)."""
        return self.decks[1 - self.in_play]

    def next_round(self) -> "TableDecks":
        """After a round: with a shuffler the decks change places, each dealt every other round
        ((a)(5)(iii)(b)-(c)); dealt by hand, the same deck is shuffled and dealt again."""
        if not self.shuffler:
            return self
        nxt = 1 - self.in_play
        if self.decks[nxt].id in self.removed:
            raise DeckError(f"deck {self.decks[nxt].id} is due next but was removed; a new deck must be put "
                            "into play first (5324.42(f)(6)(iv))")
        return dataclasses.replace(self, in_play=nxt)

    def _index(self, deck_id: str) -> int:
        for i, d in enumerate(self.decks):
            if d.id == deck_id:
                return i
        raise DeckError(f"no deck {deck_id!r} at this table ({self.decks[0].id}, {self.decks[1].id})")

    # --- counts ------------------------------------------------------------------------------

    def count(self, deck_id: str, counted: int, by: str, at: int) -> tuple["TableDecks", CountResult]:
        """A count of a deck by the dealer or the shuffler (f)(6)(iv); not 52: alarm and removal."""
        i = self._index(deck_id)
        if by not in ("dealer", "shuffler"):
            raise DeckError(f"a deck is counted by the dealer or the shuffler, not {by!r}")
        if by == "shuffler" and not self.shuffler:
            raise DeckError("this table has no automated shuffler to count the deck")
        if isinstance(counted, bool) or not isinstance(counted, int) or counted < 0:
            raise DeckError(f"{counted!r} is not a number of cards")
        if isinstance(at, bool) or not isinstance(at, int) or at < self._counts[i]:
            raise DeckError(f"a count at {at!r} is before the last count of deck {deck_id}")
        if counted == DECK_SIZE:
            times = list(self._counts)
            times[i] = at
            return dataclasses.replace(self, counted_at=(times[0], times[1])), CountResult(deck_id, counted, by, at, None)
        alarm = (f"deck {deck_id} counted {counted} cards, not 52: the supervisor removes it and puts a new "
                 "deck into play (5324.42(f)(6)(iv))")
        removed = self.removed if deck_id in self.removed else self.removed + (deck_id,)
        return dataclasses.replace(self, removed=removed), CountResult(deck_id, counted, by, at, alarm)

    @property
    def _counts(self) -> tuple[int, int]:
        """The last counts; a table opened without them counted both decks when it opened (__post_init__)."""
        return self.counted_at if self.counted_at is not None else (self.opened_at, self.opened_at)

    @property
    def count_due(self) -> int:
        """When the deck in play must next be counted (every 15 minutes)."""
        return self._counts[self.in_play] + COUNT_INTERVAL

    def alarms(self, now: int) -> list[str]:
        """What the table must show now: an overdue count, a deck waiting for its replacement."""
        out = []
        deck = self.decks[self.in_play]
        if now > self.count_due and deck.id not in self.removed:
            late = (now - self._counts[self.in_play]) // 60
            out.append(f"deck {deck.id} was last counted {late} minutes ago; it is counted at least every "
                       "15 minutes (5324.42(f)(6)(iv))")
        for deck_id in self.removed:
            out.append(f"deck {deck_id} is out of play; a new deck must be put into play (5324.42(f)(6)(iv))")
        return out

    # --- replacement ---------------------------------------------------------------------------

    def remove(self, deck_id: str, reason: str) -> "TableDecks":
        """A deck taken out of play, e.g. after missing or extra cards were found in a hand (p)(3)."""
        self._index(deck_id)
        if not reason:
            raise DeckError("say why the deck is removed")
        if deck_id in self.removed:
            return self
        return dataclasses.replace(self, removed=self.removed + (deck_id,))

    def replace(self, deck_id: str, new: Deck, at: int) -> "TableDecks":
        """The supervisor puts a new deck in place of a removed one (counted when it comes in)."""
        i = self._index(deck_id)
        if deck_id not in self.removed:
            raise DeckError(f"deck {deck_id} is in play; only a removed deck is replaced")
        decks = list(self.decks)
        decks[i] = new
        times = list(self._counts)
        times[i] = at
        try:
            return TableDecks((decks[0], decks[1]), self.shuffler, self.opened_at, self.in_play, (times[0], times[1]),
                              tuple(d for d in self.removed if d != deck_id))
        except DeckError as exc:
            raise DeckError(f"the new deck {new.id}: {exc}") from None


__all__ = ["COUNT_INTERVAL", "CountResult", "DECK_SIZE", "Deck", "DeckError", "TableDecks"]
