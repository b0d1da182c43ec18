"""The regulatory floors and ceilings of 9 NYCRR, each written once.

The profile check (controller/config) refuses a table profile below them, the
rules (controller/games/*/rules.py, controller/poker/rake.py) refuse rules
below them, and the par sheets price the floor paytables; all read this
module, so a floor cannot differ between the check at start and the rules
that settle a round. Pure data: no I/O, no pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# --- Caribbean stud poker, 5324.37 -------------------------------------------------

# (g)(2): the least odds N:1 a bet wager may pay, by the player's hand.
STUD_PAYTABLE_MINIMUM: Mapping[str, int] = MappingProxyType({
    "pair-or-less": 1, "two-pair": 2, "three-of-a-kind": 3, "straight": 4, "flush": 5,
    "full-house": 7, "four-of-a-kind": 20, "straight-flush": 50, "royal-flush": 100,
})
# (g)(4): the least progressive awards (cents) of the fixed levels; the straight flush's
# $5,000 when fixed, or at least 10 percent of the meter.
STUD_PROGRESSIVE_MINIMUM: Mapping[str, int] = MappingProxyType({
    "flush": 5_000, "full-house": 10_000, "four-of-a-kind": 50_000, "straight-flush": 500_000,
})
STUD_STRAIGHT_FLUSH_MIN_PERCENT = 10
STUD_MIN_CONTRIBUTION_BP = 7_000   # (g)(5): a rate of progression of no less than 70 percent

# --- Casino war, 5324.22 -----------------------------------------------------------

WAR_DECKS = (6, 7, 8)   # (c): six, seven or eight decks
# (j): the tie wager 10:1, the war wager 2:1, and 3:1 when the war deal ties.
WAR_MIN_ODDS: Mapping[str, int] = MappingProxyType({"tie_odds": 10, "war_odds": 2, "war_tie_odds": 3})

# --- Poker, 5324.42 ----------------------------------------------------------------

POKER_MAX_RAKE_BP = 1_000   # (o)(2)(i)(a): at most 10 percent of the sums bet in a round
POKER_MIN_PLAYERS = 2       # (f)(2)

# --- Seats: game -> (most seats, provision, what they are) -----------------------------

# Where 5324.42 sets no limit of its own for a game, the room's limit of 11
# (5324.42(a)(1), (f)(2)) would still let more players sit than one deck
# (5324.42(a)(5)(i)) can be dealt to by the game's own procedure, so the deck sets
# the limit there.
SEAT_LIMITS: Mapping[str, tuple[int, str, str]] = MappingProxyType({
    "caribbean-stud": (7, "5324.37(a)(1)", "betting positions"),
    "casino-war": (7, "5324.22(a)", "betting positions"),
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


def seats(game: str) -> range:
    """The betting positions or players' seats a game may have, numbered from 1."""
    return range(1, SEAT_LIMITS[game][0] + 1)
