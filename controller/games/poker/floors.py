"""The poker games' regulatory floors and ceilings (9 NYCRR 5324.42), each written once.

The profile check (profile.py) refuses a table profile beyond them; the rake's ceiling is the poker
engine's own (controller/poker/rake.py MAX_RATE_BP), which the rake applies to the rules it is given.
Pure data: no I/O, no pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from controller.poker.rake import MAX_RATE_BP

POKER_MAX_RAKE_BP = MAX_RATE_BP   # (o)(2)(i)(a): at most 10 percent of the sums bet in a round (the engine's)
POKER_MIN_PLAYERS = 2       # (f)(2)

# --- Seats: game -> (most seats, provision, what they are) -----------------------------

# Where 5324.42 sets no limit of its own for a game, the room's limit of 11
# (5324.42(a)(1), (f)(2)) would still let more players sit than one deck
# (5324.42(a)(5)(i)) can be dealt to by the game's own procedure, so the deck sets
# the limit there.
SEAT_LIMITS: Mapping[str, tuple[int, str, str]] = MappingProxyType({
    "seven-card-stud": (8, "5324.42(h)(2)", "players"),
    "seven-card-stud-low": (8, "5324.42(h)(2)", "players"),
    "seven-card-stud-hi-lo": (8, "5324.42(h)(2)", "players"),
    "seven-card-stud-hi-lo-8": (8, "5324.42(h)(2)", "players"),
    # 5324.42(m) has no seat paragraph: 9 x 5 cards + 3 burns = 48 of 52; a tenth player needs 53.
    "five-card-stud": (9, "5324.42(a)(5)(i) and (m)(3), (m)(6)-(7)",
                       "players one deck deals five cards each plus three burns"),
    "texas-holdem": (11, "5324.42(i)(2)", "players"),
    "omaha": (10, "5324.42(j)(2)", "players"),
    "omaha-hi-lo-8": (10, "5324.42(j)(2)", "players"),
    # 5324.42(k) has no seat paragraph: the first deal of five cards each must come from one deck.
    "five-card-draw": (10, "5324.42(a)(5)(i) and (k)(4)", "players one deck deals five cards each"),
    "five-card-draw-low": (10, "5324.42(a)(5)(i) and (k)(4)", "players one deck deals five cards each"),
    "triple-draw-2-7": (7, "5324.42(l)(2)", "players"),
    # 5324.42(n) has no seat paragraph: 11 x 3 + 3 burns + 5 board = 41 cards, so the room's 11 holds.
    "pineapple": (11, "5324.42(a)(1), (f)(2)", "players"),
    "crazy-pineapple": (11, "5324.42(a)(1), (f)(2)", "players"),
})
