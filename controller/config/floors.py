"""How a profile check refuses: a value past a regulatory floor or ceiling, named with the provision.

Each game's profile model (controller/games/<game>/profile.py) holds its floors'
numbers (its floors.py, which its rules read too) and phrases them with these
helpers; this module only words a refusal for the technician (`is below the
minimum 5:1 of 9 NYCRR 5324.37(g)(2)`) and raises it the way
controller/config/toml_lines.py places on a line.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

NYCRR = "9 NYCRR "

Issue = tuple[tuple[str | int, ...], Any, str]   # (key path relative to the model, value, reason)


def refuse(*issues: Issue) -> typing.NoReturn:
    """Raise refusals found by a cross-field check.

    Pydantic stops a model at the first error its validator raises, so a check
    that finds several collects them and raises once; each issue is (key path
    relative to the model, value, reason) and is reported on its own line.
    """
    summary = "; ".join(f"{'.'.join(map(str, p))} = {v} {m}" for p, v, m in issues)
    raise PydanticCustomError("regulation", "{summary}", {"summary": summary, "issues": issues})


def floor_error(reason: str) -> PydanticCustomError:
    """One value refused by a provision, `reason` following `key = value`."""
    return PydanticCustomError("regulation", "{reason}", {"reason": reason})


def at_least(minimum: int, shown: str, provision: str) -> AfterValidator:
    """A regulatory floor on one value: below it, name the minimum and the provision."""
    def check(value: int) -> int:
        if value < minimum:
            raise floor_error(f"is below the minimum {shown} of {NYCRR}{provision}")
        return value
    return AfterValidator(check)


def at_most(maximum: int, shown: str, provision: str) -> AfterValidator:
    """A regulatory ceiling on one value: above it, name the maximum and the provision."""
    def check(value: int) -> int:
        if value > maximum:
            raise floor_error(f"is above the maximum {shown} of {NYCRR}{provision}")
        return value
    return AfterValidator(check)
