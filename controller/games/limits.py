"""The table's wager limits, in the words the dealer reads when a wager is refused.

A refusal that says only "outside the limits" sends the dealer to the placard;
naming the limit (and which one) lets the dealer tell the player at once.
"""

from __future__ import annotations


def dollars(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def outside_limits(what: str, amount: int, low: int, high: int) -> str | None:
    """Why `amount` cannot be wagered as `what` at a table taking `low`..`high` cents; None: it can."""
    if amount < low:
        return f"{what} of {dollars(amount)} is below the table's minimum of {dollars(low)}"
    if amount > high:
        return f"{what} of {dollars(amount)} is above the table's maximum of {dollars(high)}"
    return None
