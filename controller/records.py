"""Strict reading of round records (docs/ROUNDS.md).

A record is the one shape in which a round is written down, so it is read
strictly: unknown fields, floats, booleans posing as numbers and non-positive
stakes are refused, and every refusal names the field by its path
(`seats[2].cards`) so a regulator or technician sees at once what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:   # parsed on use (expect_card imports it late)
    from controller.cards import Card


class RecordError(ValueError):
    """An invalid record; `path` names the field, `reason` says why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.path = path
        self.reason = reason


def loads(text: str) -> Any:
    """Parse JSON. Floats are parsed, not refused here, so that the field reader
    that meets one (expect_int, expect_card, ...) refuses it with the field's path."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError("", f"not JSON: {exc}") from None
    except RecursionError:
        raise RecordError("", "nested too deeply to read (a round record is a few levels deep)") from None
    except ValueError as exc:   # Python's limit on an integer's digits
        raise RecordError("", f"a number too long to read: {str(exc).split(';')[0]}") from None


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def expect_object(value: Any, path: str, allowed: Iterable[str],
                  required: Iterable[str] = ()) -> Mapping[str, Any]:
    """A JSON object with only `allowed` keys and every `required` one."""
    if not isinstance(value, dict):
        raise RecordError(path, "must be an object")
    allowed = set(allowed)
    for key in value:
        if key not in allowed:
            raise RecordError(join(path, key), "unknown field")
    for key in required:
        if key not in value:
            raise RecordError(join(path, key), "is required")
    return value


def expect_int(value: Any, path: str, *, minimum: int | None = None,
               maximum: int | None = None) -> int:
    """A whole number (not a bool, not a float) within bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(path, f"must be a whole number, not {json.dumps(value)}")
    if minimum is not None and value < minimum:
        raise RecordError(path, f"{value} is below the minimum of {minimum}")
    if maximum is not None and value > maximum:
        raise RecordError(path, f"{value} is above the maximum of {maximum}")
    return value


def expect_stake(value: Any, path: str) -> int:
    """A stake in integer cents, greater than 0."""
    return expect_int(value, path, minimum=1)


def expect_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(path, f"must be true or false, not {json.dumps(value)}")
    return value


def expect_choice(value: Any, path: str, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise RecordError(path, f"must be one of {', '.join(choices)}, not {json.dumps(value)}")
    return value


def expect_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(path, "must be a list")
    return value


def wager(stake: int, outcome: str, net: int) -> dict[str, int | str]:
    """One settled wager as the spec writes it."""
    return {"stake": stake, "outcome": outcome, "net": net}


def expect_card(value: Any, path: str) -> Card:
    """One card token; the error names the field."""
    from controller.cards import CardError, parse_card
    try:
        return parse_card(value)
    except CardError as exc:
        raise RecordError(path, str(exc)) from None

