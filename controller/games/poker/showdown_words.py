"""The winning hand named at the showdown (issue 30, 8): "Seat 3 wins with a flush, ace high", the high
and the low apart at a split game, so the dealer pushes each pot saying what won it and a player who
disputes it hears the table's reading, not the console's.

The winners are read as the hand engine read them (controller/poker/hand.py `_award`): the same
evaluators (controller/poker/showdown.py `hand_value`) over the same cards, the same halves (a half
no contender qualifies for goes to the high), the ties kept; the names come from the evaluators' own
`HandValue` (controller/hands), put in the room's words here. The console only shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.cards import RANK_NAMES
from controller.hands import HandValue
from controller.poker import showdown
from controller.poker.variants import HandKind

PLURAL = {"6": "sixes"}


def _rank(card: int) -> str:
    return RANK_NAMES[card >> 2]


def _ranks(card: int) -> str:
    name = _rank(card)
    return PLURAL.get(name, name + "s")


def high_words(hv: HandValue) -> str:
    """A high hand as the room says it: "a flush, ace high", "two pair, kings and sevens"."""
    five = hv.cards   # in reading order: the biggest group first, then the higher rank (a wheel ends with its ace)
    top = five[0]
    words = {
        "royal-flush": "a royal flush",
        "straight-flush": f"a straight flush, {_rank(top)} high",
        "four-of-a-kind": f"four of a kind, {_ranks(top)}",
        "full-house": f"a full house, {_ranks(top)} full of {_ranks(five[3])}",
        "flush": f"a flush, {_rank(top)} high",
        "straight": f"a straight, {_rank(top)} high",
        "three-of-a-kind": f"three of a kind, {_ranks(top)}",
        "two-pair": f"two pair, {_ranks(top)} and {_ranks(five[2])}",
        "pair": f"a pair of {_ranks(top)}",
        "high-card": f"{_rank(top)} high",
    }
    return words.get(hv.name, hv.name)


def low_words(hv: HandValue) -> str:
    """A low hand by its cards, worst first, as the room reads it: "8-6-4-2-A low"."""
    return f"{hv.name} low"


def _named(kind: HandKind, own: list[int], board: list[int]) -> str | None:
    from controller.hands import high, low, omaha
    cards = own + board
    if kind is HandKind.HIGH:
        return high_words(high.evaluate(cards))
    if kind is HandKind.OMAHA_HIGH:
        return high_words(omaha.high(own, board))
    found: HandValue | None
    if kind is HandKind.LOW_A5:
        found = low.a5(cards)
    elif kind is HandKind.LOW_8:
        found = low.eight_or_better(cards)
    elif kind is HandKind.LOW_27:
        found = low.deuce_seven(own)
    else:
        found = omaha.low8(own, board)
    return None if found is None else low_words(found)


def winning_hands(hand: Any, seat_of: Sequence[int]) -> list[list[dict[str, Any]]]:
    """For each pot of a finished hand (main first, as `result.pots`): who won which half with what,
    [{"seat", "half": "high" | "low" | None (the whole pot), "hand": words}]; a pot nobody contested
    (everyone else folded) names no hand. Nothing before the hand is over."""
    result = hand.result
    if result is None or getattr(result, "void", None):
        return []
    kinds_of_game = list(hand.variant.hands)
    board = list(hand.board)
    out: list[list[dict[str, Any]]] = []
    for pot in result.pots:
        contenders = list(pot.eligible)
        if len(contenders) < 2:
            out.append([])
            continue
        own = {p: [c for c in hand.hole[p] if c is not None] for p in contenders}
        values = {k: {p: showdown.hand_value(k, own[p], board) for p in contenders} for k in kinds_of_game}
        kinds = [k for k in kinds_of_game if any(values[k][p] is not None for p in contenders)]
        named: list[dict[str, Any]] = []
        for kind in kinds:
            best = max(v for p in contenders if (v := values[kind][p]) is not None)
            for p in contenders:
                if values[kind][p] == best and p in (pot.awards or {}):
                    half = None if len(kinds) == 1 else ("low" if kind.low else "high")
                    named.append({"seat": seat_of[p], "half": half, "hand": _named(kind, own[p], board)})
        out.append(named)
    return out


def in_words(pot_winners: list[dict[str, Any]]) -> str:
    """One pot's winners as the dealer says them: "Seat 3 wins with a flush, ace high"."""
    parts = []
    for w in pot_winners:
        half = f" the {w['half']}" if w["half"] else ""
        parts.append(f"Seat {w['seat']} wins{half} with {w['hand']}")
    return "; ".join(parts)
