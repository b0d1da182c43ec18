"""The actions of a poker hand, read from and written as PHH action notation (phh-std).

    d db CARDS        the dealer deals board cards (a common card in stud, 5324.42(h)(8))
    d dh pN CARDS     the dealer deals cards to player N (?? for a card not seen)
    pN pb             player N posts the bring-in (h)(4)
    pN f / cc         folds / checks or calls
    pN cbr AMOUNT     completes, bets or raises to AMOUNT in front of them
    pN sd [CARDS]     discards CARDS and draws as many; stands pat without CARDS
    pN sm [CARDS|-]   shows CARDS (all the player's cards; - for those already known)
                      at the showdown, or mucks without them
    pN dd CARDS       this project's action: discards CARDS with no replacement
                      (pineapple and crazy pineapple, 5324.42(n)(7), (n)(9))

Irregularities, entered by the dealer (this project's actions, 5324.42(p)):

    d misdeal WHY       shuffle | position | faceup | skipped: a misdeal (p)(1)(i)-(iv)
    d dead WHY          missing | extra: cards missing or extra found; the hand is dead (p)(3)
    d ineligible CARDS  cards dealt to an ineligible player, discarded (p)(2)
    d faceup CARDS      a card found face up in the deck, to the discards (p)(4); two or
                        more are a misdeal (p)(1)(iii)
    d offtable CARDS    a card dealt off the table, to the discards (p)(8)
    d expose pN CARD    a card dealt face down turned face up: stud (p)(6)-(7); hold'em and
    d expose pN CARD burn   Omaha (p)(9), the card to the discards or kept as the burn card
    pN foul HOW         unprotected | contributor | refund | reconstructed: the player's hand
                        fouled or collected by the dealer (p)(5)
    pN left             the player left without comment, the hand unprotected (p)(5)(iv)
    pN contend part|all after the third hole card of seven-card stud was exposed (p)(6)(i)-(ii)

Anything after a `#` is commentary. Player numbers start at 1 as in PHH; the engine
numbers players from 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from controller.cards import CARDS


class ActionSyntaxError(ValueError):
    """Text that is not an action of the notation; the message says what is wrong."""


# kinds
DEAL_HOLE = "dh"
DEAL_BOARD = "db"
BRING_IN = "pb"
FOLD = "f"
CHECK_CALL = "cc"
BET_RAISE = "cbr"
DRAW = "sd"
SHOW = "sm"
DISCARD = "dd"   # this project's: a pineapple discard, which draws no replacement (5324.42(n))
# this project's: irregularities (5324.42(p))
MISDEAL = "misdeal"
DEAD = "dead"
INELIGIBLE = "ineligible"
FACE_UP = "faceup"
OFF_TABLE = "offtable"
EXPOSE = "expose"
FOUL = "foul"
LEFT = "left"
CONTEND = "contend"
PLAYER_KINDS = frozenset({BRING_IN, FOLD, CHECK_CALL, BET_RAISE, DRAW, SHOW, DISCARD, FOUL, LEFT, CONTEND})
IRREGULARITIES = frozenset({MISDEAL, DEAD, INELIGIBLE, FACE_UP, OFF_TABLE, EXPOSE, FOUL, LEFT, CONTEND})
WORDS = {
    MISDEAL: ("shuffle", "position", "faceup", "skipped"),
    DEAD: ("missing", "extra"),
    FOUL: ("unprotected", "contributor", "refund", "reconstructed"),
    CONTEND: ("part", "all"),
    EXPOSE: ("burn",),
}

SHOW_KNOWN = "-"   # `cards` of a show that names no cards: the cards already known

_CARD: dict[str, int | None] = {str(c): int(c) for c in CARDS}
_CARD["??"] = None

Cards = tuple[int | None, ...]   # card ints in the order named; None a card not seen


class Action(NamedTuple):
    """One action: `player` from 0; `cards` a tuple of card ints (None unknown); `amount` for cbr.

    A show (`sm`) has `cards` set to the cards shown, or SHOW_KNOWN; a muck has None.
    `word` qualifies an irregularity (`d misdeal position`, `p3 foul refund`).
    """

    kind: str
    player: int | None = None
    cards: Cards | str | None = None
    amount: int | None = None
    word: str | None = None

    def notation(self) -> str:
        return format_action(self)

    def __str__(self) -> str:
        return format_action(self)


def cards_text(cards: Iterable[int | None] | str | None) -> str:
    if cards is None or isinstance(cards, str):   # no cards, or SHOW_KNOWN: written as they are
        return cards or ""
    return "".join("??" if c is None else str(CARDS[c]) for c in cards)


def format_action(action: Action) -> str:
    kind, player, cards, amount, word = action
    if kind in IRREGULARITIES:
        return _format_irregularity(kind, player, cards, word)
    if kind == DEAL_BOARD:
        return f"d db {cards_text(cards)}"
    if kind == DEAL_HOLE:
        return f"d dh p{player + 1 if isinstance(player, int) else player} {cards_text(cards)}"
    actor = f"p{player + 1}" if isinstance(player, int) else f"p{player}"
    if kind == BET_RAISE:
        return f"{actor} cbr {amount}"
    if kind in (DRAW, SHOW, DISCARD):
        if not cards:
            return f"{actor} {kind}"
        if cards == SHOW_KNOWN:
            return f"{actor} sm -"
        return f"{actor} {kind} {cards_text(cards)}"
    return f"{actor} {kind}"


def _format_irregularity(kind: str, player: int | None, cards: Cards | str | None, word: str | None) -> str:
    actor = f"p{player + 1}" if isinstance(player, int) else f"p{player}"
    tail = f" {word}" if word else ""
    if kind in (FOUL, LEFT, CONTEND):
        return f"{actor} {kind}{tail}"
    if kind == EXPOSE:
        return f"d {kind} {actor} {cards_text(cards or ())}{tail}"
    if kind in (MISDEAL, DEAD):
        return f"d {kind}{tail}"
    return f"d {kind} {cards_text(cards or ())}"


def _word(kind: str, word: str) -> str:
    if word not in WORDS[kind]:
        raise ActionSyntaxError(f"{word!r} is not a {kind} here ({', '.join(WORDS[kind])})")
    return word


def parse_cards(text: str) -> Cards:
    """'AsKd??' -> (As, Kd, None); refuses anything else by name."""
    if len(text) % 2 or not text:
        raise ActionSyntaxError(f"{text!r} is not a list of cards (two characters each, e.g. AsKd, ?? unknown)")
    out = []
    for i in range(0, len(text), 2):
        token = text[i:i + 2]
        try:
            out.append(_CARD[token])
        except KeyError:
            raise ActionSyntaxError(
                f"{token!r} is not a card (rank of 23456789TJQKA then suit of cdhs, or ??)") from None
    return tuple(out)


def _player(token: str) -> int:
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit() or token[1] == "0":
        raise ActionSyntaxError(f"{token!r} is not a player (p1, p2, ...)")
    return int(token[1:]) - 1


def _amount(token: str) -> int:
    if not token.isdigit():
        raise ActionSyntaxError(f"{token!r} is not an amount (whole chips or cents)")
    return int(token)


_PARSED: dict[str, Action | None] = {}


def parse_action(text: str) -> Action | None:
    """The action a PHH action string names, or None for a no-op (empty or only commentary).

    Actions repeat from hand to hand ("p3 cc"), so what was read is remembered.
    """
    try:
        return _PARSED[text]
    except (KeyError, TypeError):
        pass
    action = _parse_action(text)
    if len(_PARSED) > 50_000:
        _PARSED.clear()
    _PARSED[text] = action
    return action


def _parse_action(text: str) -> Action | None:
    if not isinstance(text, str):
        raise ActionSyntaxError(f"{text!r} is not a string")
    hash_at = text.find("#")
    words = (text[:hash_at] if hash_at >= 0 else text).split()
    if not words:
        return None
    n = len(words)
    first = words[0]
    if first == "d":
        if n == 3 and words[1] == "db":
            return Action(DEAL_BOARD, None, parse_cards(words[2]))
        if n == 4 and words[1] == "dh":
            return Action(DEAL_HOLE, _player(words[2]), parse_cards(words[3]))
        verb = words[1] if n > 1 else ""
        if n == 3 and verb in (MISDEAL, DEAD):
            return Action(verb, None, None, None, _word(verb, words[2]))
        if n == 3 and verb in (INELIGIBLE, FACE_UP, OFF_TABLE):
            return Action(verb, None, parse_cards(words[2]))
        if verb == EXPOSE and n in (4, 5):
            return Action(EXPOSE, _player(words[2]), parse_cards(words[3]), None,
                          _word(EXPOSE, words[4]) if n == 5 else None)
        raise ActionSyntaxError("a dealer action is 'd db CARDS' or 'd dh pN CARDS' (or an irregularity: "
                                "misdeal, dead, ineligible, faceup, offtable, expose)")
    player = _player(first)
    verb = words[1] if n > 1 else ""
    if n == 2 and verb in (FOLD, CHECK_CALL, BRING_IN):
        return Action(verb, player)
    if n == 3 and verb == BET_RAISE:
        return Action(BET_RAISE, player, None, _amount(words[2]))
    if verb == DRAW and n in (2, 3):
        return Action(DRAW, player, parse_cards(words[2]) if n == 3 else ())
    if verb == DISCARD and n == 3:
        return Action(DISCARD, player, parse_cards(words[2]))
    if verb in (FOUL, CONTEND) and n == 3:
        return Action(verb, player, None, None, _word(verb, words[2]))
    if verb == LEFT and n == 2:
        return Action(LEFT, player)
    if verb == SHOW and n in (2, 3):
        if n == 2:
            return Action(SHOW, player, None)
        return Action(SHOW, player, SHOW_KNOWN if words[2] == SHOW_KNOWN else parse_cards(words[2]))
    raise ActionSyntaxError(f"{' '.join(words)!r} is not a PHH action (pb, f, cc, cbr N, sd, sm)")


__all__ = [
    "Action", "ActionSyntaxError", "BET_RAISE", "BRING_IN", "CHECK_CALL", "CONTEND", "DEAD", "DEAL_BOARD",
    "DEAL_HOLE", "DISCARD", "DRAW", "EXPOSE", "FACE_UP", "FOLD", "FOUL", "INELIGIBLE", "IRREGULARITIES", "LEFT",
    "MISDEAL", "OFF_TABLE", "SHOW", "SHOW_KNOWN", "WORDS", "cards_text", "format_action", "parse_action",
    "parse_cards",
]
