"""The regulatory floors as the profile check applies them: a value below one is refused
naming the floor and the provision that sets it.

The numbers are each game's floors.py's (controller/games/<game>/floors.py), the same its rules refuse below; this
module only phrases them for the technician (`is below the minimum 5:1 of 9 NYCRR
5324.37(g)(2)`) and raises them the way controller/config/toml_lines.py places on a line.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from controller.games.caribbean_stud import floors as stud
from controller.games.casino_war import floors as war
from controller.games.poker import floors as poker

NYCRR = "9 NYCRR "
SEAT_LIMITS = {"caribbean-stud": stud.SEAT_LIMIT, "casino-war": war.SEAT_LIMIT, **poker.SEAT_LIMITS}


def _refuse(*issues: tuple[tuple[str | int, ...], Any, str]) -> typing.NoReturn:
    """Raise refusals found by a cross-field check.

    Pydantic stops a model at the first error its validator raises, so a check
    that finds several collects them and raises once; each issue is (key path
    relative to the model, value, reason) and is reported on its own line.
    """
    summary = "; ".join(f"{'.'.join(map(str, p))} = {v} {m}" for p, v, m in issues)
    raise PydanticCustomError("regulation", "{summary}", {"summary": summary, "issues": issues})


def _floor_error(reason: str) -> PydanticCustomError:
    return PydanticCustomError("regulation", "{reason}", {"reason": reason})


def _at_least(minimum: int, shown: str, provision: str) -> AfterValidator:
    """A regulatory floor on one value: below it, name the minimum and the provision."""
    def check(value: int) -> int:
        if value < minimum:
            raise _floor_error(f"is below the minimum {shown} of {NYCRR}{provision}")
        return value
    return AfterValidator(check)


def _at_most(maximum: int, shown: str, provision: str) -> AfterValidator:
    def check(value: int) -> int:
        if value > maximum:
            raise _floor_error(f"is above the maximum {shown} of {NYCRR}{provision}")
        return value
    return AfterValidator(check)


# --- Caribbean stud, 5324.37(g) ------------------------------------------------------

def paytable_odds(hand: str) -> AfterValidator:
    """(g)(2): the least odds of a bet wager won with `hand`."""
    least = stud.STUD_PAYTABLE_MINIMUM[hand]
    return _at_least(least, f"{least}:1", "5324.37(g)(2)")


def progressive_award(hand: str) -> AfterValidator:
    """(g)(4): the least fixed award (cents) of a progressive hand."""
    cents = stud.STUD_PROGRESSIVE_MINIMUM[hand]
    return _at_least(cents, f"{cents} (${cents // 100:,})", "5324.37(g)(4)")


STRAIGHT_FLUSH_PERCENT_MIN = _at_least(stud.STUD_STRAIGHT_FLUSH_MIN_PERCENT,
                                       f"{stud.STUD_STRAIGHT_FLUSH_MIN_PERCENT} percent", "5324.37(g)(4)")
STRAIGHT_FLUSH_PERCENT_MAX = _at_most(100, "100 percent", "5324.37(g)(4)")
CONTRIBUTION = _at_least(stud.STUD_MIN_CONTRIBUTION_BP,
                         f"{stud.STUD_MIN_CONTRIBUTION_BP} ({stud.STUD_MIN_CONTRIBUTION_BP // 100} percent)",
                         "5324.37(g)(5)")


# --- Casino war, 5324.22 -------------------------------------------------------------

def _war_decks(decks: int) -> int:
    if decks not in war.WAR_DECKS:
        raise _floor_error(f"is not six, seven or eight decks as {NYCRR}5324.22(c) requires")
    return decks


WAR_DECKS = AfterValidator(_war_decks)


def war_least_odds(name: str) -> AfterValidator:
    """(j)(2)-(3): the least odds of the tie wager, the war, and a tie in the war."""
    least = war.WAR_MIN_ODDS[name]
    return _at_least(least, f"{least}:1", "5324.22(j)(2)" if name == "tie_odds" else "5324.22(j)(3)")


# --- Poker, 5324.42 ------------------------------------------------------------------

RAKE_RATE = _at_most(poker.POKER_MAX_RAKE_BP,
                     f"{poker.POKER_MAX_RAKE_BP} ({poker.POKER_MAX_RAKE_BP // 100} percent)", "5324.42(o)(2)(i)")
