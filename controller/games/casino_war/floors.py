"""Casino war's regulatory floors (9 NYCRR 5324.22), each written once.

The profile check (profile.py) refuses a table profile below them, the rules
(rules.py) and the shoe (shoe.py) refuse rules below them, and the par sheet
prices the floor odds; all read this module. Pure data: no I/O, no pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

WAR_DECKS = (6, 7, 8)   # (c): six, seven or eight decks
# (j): the tie wager 10:1, the war wager 2:1, and 3:1 when the war deal ties.
WAR_MIN_ODDS: Mapping[str, int] = MappingProxyType({"tie_odds": 10, "war_odds": 2, "war_tie_odds": 3})

# (a): the most betting positions, the provision, and what they are.
SEAT_LIMIT: tuple[int, str, str] = (7, "5324.22(a)", "betting positions")
SEATS = range(1, SEAT_LIMIT[0] + 1)
