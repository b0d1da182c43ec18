"""Caribbean stud poker's regulatory floors (9 NYCRR 5324.37), each written once.

The profile check (profile.py) refuses a table profile below them, the rules
(rules.py) refuse rules below them, and the par sheet prices the floor paytable;
all read this module, so a floor cannot differ between the check at start and the
rules that settle a round. Pure data: no I/O, no pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

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

# (a)(1): the most betting positions, the provision, and what they are.
SEAT_LIMIT: tuple[int, str, str] = (7, "5324.37(a)(1)", "betting positions")
SEATS = range(1, SEAT_LIMIT[0] + 1)
