"""Poker hand evaluators: high (5324.42(b)(2), 5324.37(b)), lows (5324.42(b)(4)-(5)), Omaha, Caribbean.

Every evaluator gives a `HandValue` whose `value` is an int totally ordered within
that evaluator, higher always better (also for lows, so a winner is always `max`).
The submodules are not imported here: a settle of one record imports only what it uses.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, cast

from controller.cards import Card, CardError


class HandError(CardError):
    """Cards that cannot form the hand asked for: wrong count, a card twice, not a card."""


class HandValue(NamedTuple):
    """A hand's standing: `value` orders hands (higher better), `name` is the spec's word, `cards` the five used."""

    value: int
    name: str
    cards: tuple[Card, ...]


__all__ = ["HandError", "HandValue"]


def check_cards(cards: object, counts: tuple[int, ...], what: str) -> tuple[Card, ...]:
    """The cards as a tuple of `Card`, or a `HandError` that says what is wrong and where.

    Accepts `Card`s, plain ints 0..51 and the spec's two-character tokens ("As").
    """
    from controller.cards import CARDS, parse_card

    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__iter__"):
        raise HandError(f"{what}: expected a list of cards, got {type(cards).__name__} {cards!r}")
    out: list[Card] = []
    seen: set[int] = set()
    for i, c in enumerate(cast(Iterable[object], cards)):
        if isinstance(c, str):
            try:
                c = parse_card(c)
            except CardError as exc:
                raise HandError(f"{what}: card [{i}]: {exc}") from None
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
            c = CARDS[c]
        else:
            raise HandError(f"{what}: card [{i}] {c!r} is not a card")
        if c in seen:
            raise HandError(f"{what}: {c} appears twice")
        seen.add(c)
        out.append(c)
    if len(out) not in counts:
        wanted = " or ".join(str(n) for n in counts)
        raise HandError(f"{what}: needs {wanted} cards, got {len(out)}")
    return tuple(out)


__all__ += ["check_cards"]


def fast_path_error(cards: object, counts: tuple[int, ...], what: str) -> HandError:
    """The error for input a `*value` fast path could not index: what is wrong, by position.

    The fast paths take `Card`s (or ints 0..51) only; text tokens go through `evaluate`.
    """
    cs = check_cards(cards, counts, what)  # raises for a non-card, a repeat or a wrong count
    tokens = [c for c in cast(Iterable[object], cards) if not isinstance(c, int)]
    return HandError(
        f"{what}: the value functions take Card ints 0..51, not {tokens[0]!r}"
        f" (use the evaluate function for text, or parse_cards)" if tokens
        else f"{what}: cannot value {' '.join(map(str, cs))}"
    )


__all__ += ["fast_path_error"]
