"""Irregularities of 5324.42(p), entered by the dealer as events on a hand.

Each event is an action of this project's notation (controller/poker/actions.py), so
it is journaled and replayed with the hand like any other. Like every action, an
event the rules do not allow here raises `IllegalAction` naming it and changes
nothing; every check is made before anything changes.

This module holds the rules: whether the event may be entered now and which provision
it comes to. What the hand then does (void itself, call a player's hand dead, exchange
an exposed card ...) is the hand's own, through its public methods named for the
provision (hand.py, "irregularities"); nothing here changes the hand's state itself.

- `d misdeal WHY` (p)(1): every card back for a reshuffle and every chip back; the
  hand is void. A wrong starting position or a skipped eligible player is a misdeal
  only until two players have put chips in of their own accord ((ii), (iv)); blinds,
  antes and the bring-in are not voluntary. A failed shuffle or cut (i) and more than
  one card face up in the deck (iii) are misdeals whenever found.
- `d ineligible CARDS` (p)(2): cards dealt to a player who may not play are discarded
  and the hand goes on.
- `d dead missing|extra` (p)(3): the hand is dead, every chip goes back to who put it
  in, and the deck is replaced (`HandResult.replace_deck`).
- `d faceup CARD` (p)(4): the card is not used and goes to the discards; two or more
  cards face up are a misdeal ((p)(1)(iii)). `d offtable CARD` (p)(8): the same.
- `pN foul HOW` (p)(5): an unprotected hand, or one whose player contributed to the
  error, is dead without redress; a protected hand collected or fouled by the dealer
  is dead and the player gets back every chip they put in ((iii)); a reconstructed hand
  plays on ((ii)). Stud hole cards are protected ((i)): `unprotected` is refused there.
  `pN left` (p)(5)(iv): the player left without a word, the hand unprotected: it is
  collected and discarded.
- `d expose pN CARD` in seven-card stud (p)(6): a first or second hole card turned up
  in the dealing: the up card still to come is dealt face down; both turned up: the
  hand is dead and the ante returned. The third hole card (seventh street) turned up:
  the player chooses, `pN contend part` (no more wagers, only the pot formed so far,
  like an all-in) or `pN contend all`. Five-card stud (p)(7): the hole card turned up,
  the second card is dealt face down.
- `d expose pN CARD [burn]` in hold'em and Omaha (p)(9) (and pineapple, read the same
  way): the exposed card is replaced from the top of the deck and goes face down to the
  discards, or with `burn` is the burn card before the flop.

An exposure is entered while that street is dealt, before anyone bets on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.poker.actions import (
    CONTEND, DEAD, EXPOSE, FACE_UP, FOUL, INELIGIBLE, LEFT, MISDEAL, OFF_TABLE, Action, format_action,
)
from controller.poker.stub import card_text
from controller.poker.errors import IllegalAction
from controller.poker.outcome import Phase

if TYPE_CHECKING:
    from controller.poker.hand import Hand

MISDEAL_CAUSES = {
    "shuffle": "the cards were not shuffled and cut as 5324.42(e) requires (5324.42(p)(1)(i))",
    "position": "the deal began at the wrong player (5324.42(p)(1)(ii))",
    "faceup": "more than one card was found face up in the deck (5324.42(p)(1)(iii))",
    "skipped": "an eligible seated player was not dealt in (5324.42(p)(1)(iv))",
}


def _refuse(action: Action, reason: str) -> IllegalAction:
    return IllegalAction(format_action(action), reason)


def apply_irregularity(hand: "Hand", action: Action) -> None:
    if hand.phase is Phase.COMPLETE:
        raise _refuse(action, "the hand is over")
    kind = action.kind
    if kind == MISDEAL:
        _misdeal(hand, action)
    elif kind == DEAD:
        _dead(hand, action)
    elif kind in (INELIGIBLE, FACE_UP, OFF_TABLE):
        _stray_cards(hand, action)
    elif kind == EXPOSE:
        _expose(hand, action)
    elif kind in (FOUL, LEFT):
        _foul(hand, action)
    elif kind == CONTEND:
        _contend(hand, action)
    else:   # pragma: no cover - IRREGULARITIES lists exactly these
        raise _refuse(action, "not an irregularity")


# --- void hands ---------------------------------------------------------------------------

def _misdeal(hand: "Hand", action: Action) -> None:
    cause = action.word
    if cause is None or cause not in MISDEAL_CAUSES:
        raise _refuse(action, f"name the misdeal's cause ({', '.join(MISDEAL_CAUSES)})")
    if cause in ("position", "skipped") and len(hand.voluntary) >= 2:
        names = ", ".join(f"p{p + 1}" for p in sorted(hand.voluntary))
        raise _refuse(action, f"{names} have put chips in voluntarily: it is too late for a misdeal "
                              f"(5324.42(p)(1)({'ii' if cause == 'position' else 'iv'}))")
    hand.misdeal(action, MISDEAL_CAUSES[cause])


def _dead(hand: "Hand", action: Action) -> None:
    found = "missing cards were found" if action.word == "missing" else "extra cards were found"
    hand.call_round_dead(action, found)


# --- cards that leave the stub unused ---------------------------------------------------------

def _stray_cards(hand: "Hand", action: Action) -> None:
    cards = action.cards or ()
    if not cards or isinstance(cards, str):
        raise _refuse(action, "no cards named")
    if action.kind != INELIGIBLE and None in cards:
        raise _refuse(action, "a card seen face up must be named")
    if action.kind == OFF_TABLE and len(cards) > 1:
        raise _refuse(action, "one card at a time")
    why = hand.deck.refusal(tuple(cards))
    if why:
        raise _refuse(action, why)
    if action.kind == FACE_UP and len(cards) > 1:
        hand.misdeal(action, MISDEAL_CAUSES["faceup"])
        return
    hand.discard_unused(action, tuple(cards))


# --- exposed hole cards --------------------------------------------------------------------------

def _expose(hand: "Hand", action: Action) -> None:
    v = hand.variant
    p = action.player
    cards = action.cards or ()
    card = cards[0] if len(cards) == 1 else None
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < hand.n:
        raise _refuse(action, f"there is no such player in a hand of {hand.n}")
    if not hand.live[p]:
        raise _refuse(action, f"p{p + 1} is out of the hand")
    if card is None or isinstance(card, str):
        raise _refuse(action, "name the one card turned face up")
    if v.draw_game:
        raise _refuse(action, f"5324.42(p) sets no rule for an exposed card in {v.name}; the card stays "
                              "in the hand")
    if hand.phase not in (Phase.DEAL, Phase.BET) or hand.betting_begun:
        raise _refuse(action, f"an exposed card is dealt with while the {hand.street.name} is dealt, before "
                              "the betting on it")
    if v.board_game and hand.street_index != 0:
        raise _refuse(action, "hole cards are dealt before the flop; the board is dealt face up")
    start = hand.dealt_from[p]
    held = hand.hole[p]
    spot = next((k for k in range(start, len(held)) if held[k] == card and not hand.up[p][k]), None)
    if spot is None:
        # an unseen card dealt this street may be the one turned up
        spot = next((k for k in range(start, len(held)) if held[k] is None and not hand.up[p][k]), None)
        if spot is None:
            raise _refuse(action, f"p{p + 1} was dealt no card face down on the {hand.street.name} that could be "
                                  f"{card_text(card)}")
        why = hand.deck.unavailable(card)
        if why:
            raise _refuse(action, why)
    if action.word == "burn" and not v.board_game:
        raise _refuse(action, "only in hold'em and Omaha is an exposed card kept as the burn card (5324.42(p)(9)(ii))")
    if v.board_game:
        _expose_board_game(hand, action, p, card, spot)
    else:
        _expose_stud(hand, action, p, card, spot)


def _expose_board_game(hand: "Hand", action: Action, p: int, card: int, spot: int) -> None:
    """(p)(9): the exposed card is exchanged for the top card of the deck."""
    if action.word == "burn" and hand.preburn is not None:
        raise _refuse(action, f"{card_text(hand.preburn)} is already the burn card before the flop; this one "
                              "goes to the discards")
    if hand.deck.stub < 1:
        raise _refuse(action, "the deck has no card left to replace it")
    hand.exchange_exposed_card(action, p, card, spot, burn=action.word == "burn")


def _expose_stud(hand: "Hand", action: Action, p: int, card: int, spot: int) -> None:
    """(p)(6) seven-card stud, (p)(7) five-card stud."""
    v = hand.variant
    last = hand.street_index == len(v.streets) - 1
    first = hand.street_index == 0
    seven = len(v.streets[0].hole) == 3
    if first:
        second_exposure = seven and hand.exposures[p] >= 1
        if not second_exposure and True not in hand.owed[p]:
            raise _refuse(action, f"p{p + 1}'s up card is already dealt; a hole card turned up is dealt with "
                                  f"in the dealing, before it ({'5324.42(p)(6)' if seven else '5324.42(p)(7)'})")
        if second_exposure:
            # both hole cards face up: the hand is dead and the ante returned (p)(6)
            hand.expose_both_hole_cards(action, p, card, spot)
        else:
            hand.expose_hole_card(action, p, card, spot)   # the up card still to come is dealt face down
        return
    if last and seven:
        hand.expose_third_hole_card(action, p, card, spot)
        return
    raise _refuse(action, f"p{p + 1} was dealt no card face down on the {hand.street.name}")


def _contend(hand: "Hand", action: Action) -> None:
    """(p)(6)(i)-(ii): after the third hole card was exposed, the player's choice."""
    p = action.player
    if p not in hand.choosing:
        raise _refuse(action, "no exposed third hole card gives this player a choice (5324.42(p)(6))")
    # `part`: no more wagers; only the pot formed so far can be won, like an all-in
    hand.contend(action, p, whole_pot=action.word != "part")


# --- fouled, collected and abandoned hands -----------------------------------------------------

def _foul(hand: "Hand", action: Action) -> None:
    p = action.player
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < hand.n:
        raise _refuse(action, f"there is no such player in a hand of {hand.n}")
    if not hand.live[p]:
        raise _refuse(action, f"p{p + 1} is out of the hand")
    how = action.word
    if how == "unprotected" and not hand.variant.button:
        raise _refuse(action, "hole cards in stud are protected (5324.42(p)(5)(i)): a refund if the player did "
                              "not contribute to the error, or 'contributor'")
    if how == "reconstructed":
        hand.reconstruct_hand(action)    # (p)(5)(ii): the hand was put back together and plays on
        return
    hand.call_hand_dead(action, p, refund=how == "refund")


__all__ = ["MISDEAL_CAUSES", "apply_irregularity"]
