"""The two ways a poker hand is refused: a bad set-up, or an action the rules forbid."""

from __future__ import annotations


class SetupError(ValueError):
    """A table or hand set-up that 5324.42 does not allow; `field` names what is wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


class IllegalAction(ValueError):
    """An action refused by the rules; the hand is left exactly as it was.

    The message names the action as PHH writes it (`p3 cbr 50: below the minimum
    raise of 100`) so the dealer's screen and `tablectl poker replay` say the same.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"{action}: {reason}")
        self.action = action
        self.reason = reason


def whole(value: object, field: str, minimum: int) -> int:
    """A whole number of chips or cents at least `minimum`, or SetupError naming `field`.

    Money is never a float, and a bool is not a number of chips."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(field, f"must be a whole number of chips or cents, not {value!r}")
    if value < minimum:
        raise SetupError(field, f"{value} is below {minimum}")
    return value
