"""Irregularities of 5324.42(p), entered by the dealer as events on a hand.

Each event is an action of this project's notation (controller/poker/actions.py), so
it is journaled and replayed with the hand like any other. Like every action, an
event the rules do not allow here raises `IllegalAction` naming it and changes
nothing; every check is made before anything changes.

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
    BET_RAISE, BRING_IN, CHECK_CALL, CONTEND, DEAD, EXPOSE, FACE_UP, FOLD, FOUL, INELIGIBLE, LEFT, MISDEAL,
    OFF_TABLE, Action, format_action,
)
from controller.poker.betting import collect
from controller.poker.stub import MUCK, card_text
from controller.poker.errors import IllegalAction
from controller.poker.outcome import HandResult, Phase

if TYPE_CHECKING:
    from controller.poker.hand import Hand

MISDEAL_CAUSES = {
    "shuffle": "the cards were not shuffled and cut as 5324.42(e) requires (5324.42(p)(1)(i))",
    "position": "the deal began at the wrong player (5324.42(p)(1)(ii))",
    "faceup": "more than one card was found face up in the deck (5324.42(p)(1)(iii))",
    "skipped": "an eligible seated player was not dealt in (5324.42(p)(1)(iv))",
}
BETTING = (FOLD, CHECK_CALL, BET_RAISE, BRING_IN)


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

def _void(hand: "Hand", action: Action, why: str, replace_deck: bool) -> None:
    """Every chip goes back to the player who put it in; no rake, no jackpot (the hand never was)."""
    n = hand.n
    hand.stacks[:] = hand.setup.starting_stacks
    hand.bets[:] = [0] * n
    hand.committed[:] = [0] * n
    hand.antes[:] = [0] * n
    hand.reserved = {}
    hand.round = None
    hand.expected = []
    hand.choosing = set()
    hand.phase = Phase.COMPLETE
    hand.log.append(action)
    hand.log_streets.append(hand.street_index)
    hand.result = HandResult(tuple(hand.stacks), (), 0, 0, (), void=why, replace_deck=replace_deck)


def _misdeal(hand: "Hand", action: Action) -> None:
    cause = action.word
    if cause is None or cause not in MISDEAL_CAUSES:
        raise _refuse(action, f"name the misdeal's cause ({', '.join(MISDEAL_CAUSES)})")
    if cause in ("position", "skipped") and len(hand.voluntary) >= 2:
        names = ", ".join(f"p{p + 1}" for p in sorted(hand.voluntary))
        raise _refuse(action, f"{names} have put chips in voluntarily: it is too late for a misdeal "
                              f"(5324.42(p)(1)({'ii' if cause == 'position' else 'iv'}))")
    _void(hand, action, f"misdeal: {MISDEAL_CAUSES[cause]}; every card is reshuffled and every chip returned",
          False)


def _dead(hand: "Hand", action: Action) -> None:
    found = "missing cards were found" if action.word == "missing" else "extra cards were found"
    _void(hand, action, f"dead hand: {found}; every chip is returned and the deck replaced (5324.42(p)(3))",
          True)


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
        _void(hand, action, f"misdeal: {MISDEAL_CAUSES['faceup']}; every card is reshuffled and every chip "
                            "returned", False)
        return
    deck = hand.deck
    deck.take(tuple(cards), MUCK)
    deck.discard(tuple(cards), MUCK, hand.street_index)
    hand.log.append(action)
    hand.log_streets.append(hand.street_index)


# --- exposed hole cards --------------------------------------------------------------------------

def _betting_begun(hand: "Hand") -> bool:
    return any(a.kind in BETTING for a in hand.log[hand.street_start:])


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
    if hand.phase not in (Phase.DEAL, Phase.BET) or _betting_begun(hand):
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


def _reveal(hand: "Hand", p: int, card: int, spot: int) -> None:
    if hand.hole[p][spot] is None:
        hand.hole[p][spot] = card
        hand.deck.reveal(card, p)


def _reopen_dealing(hand: "Hand") -> None:
    """The betting round had opened with the last card dealt; nobody has acted: it waits again."""
    if hand.phase is Phase.BET:
        hand.round = None
        hand.phase = Phase.DEAL


def _expose_board_game(hand: "Hand", action: Action, p: int, card: int, spot: int) -> None:
    """(p)(9): the exposed card is exchanged for the top card of the deck."""
    if action.word == "burn" and hand.preburn is not None:
        raise _refuse(action, f"{card_text(hand.preburn)} is already the burn card before the flop; this one "
                              "goes to the discards")
    if hand.deck.stub < 1:
        raise _refuse(action, "the deck has no card left to replace it")
    _reveal(hand, p, card, spot)
    del hand.hole[p][spot]
    del hand.up[p][spot]
    hand.owed[p].append(False)
    hand.owed_total += 1
    deck = hand.deck
    if action.word == "burn":
        deck.in_play.pop(card, None)
        deck.burned += 1
        hand.preburn = card
    else:
        deck.discard((card,), MUCK, hand.street_index)
    _reopen_dealing(hand)
    hand.log.append(action)
    hand.log_streets.append(hand.street_index)


def _expose_stud(hand: "Hand", action: Action, p: int, card: int, spot: int) -> None:
    """(p)(6) seven-card stud, (p)(7) five-card stud."""
    v = hand.variant
    last = hand.street_index == len(v.streets) - 1
    first = hand.street_index == 0
    seven = len(v.streets[0].hole) == 3
    owed = hand.owed[p]
    if first:
        second_exposure = seven and hand.exposures[p] >= 1
        if not second_exposure and True not in owed:
            raise _refuse(action, f"p{p + 1}'s up card is already dealt; a hole card turned up is dealt with "
                                  f"in the dealing, before it ({'5324.42(p)(6)' if seven else '5324.42(p)(7)'})")
        _reveal(hand, p, card, spot)
        hand.log.append(action)
        hand.log_streets.append(hand.street_index)
        if second_exposure:
            # both hole cards face up: the hand is dead and the ante returned (p)(6)
            kill_hand(hand, p, refund=True)
            return
        hand.up[p][spot] = True
        hand.exposures[p] += 1
        owed[owed.index(True)] = False      # the up card still to come is dealt face down
        _reopen_dealing(hand)
        return
    if last and seven:
        _reveal(hand, p, card, spot)
        hand.up[p][spot] = True
        hand.choosing.add(p)
        _reopen_dealing(hand)
        hand.log.append(action)
        hand.log_streets.append(hand.street_index)
        return
    raise _refuse(action, f"p{p + 1} was dealt no card face down on the {hand.street.name}")


def _contend(hand: "Hand", action: Action) -> None:
    """(p)(6)(i)-(ii): after the third hole card was exposed, the player's choice."""
    p = action.player
    if p not in hand.choosing:
        raise _refuse(action, "no exposed third hole card gives this player a choice (5324.42(p)(6))")
    hand.choosing.discard(p)
    if action.word == "part":
        # no more wagers; only the pot formed so far can be won, like an all-in
        hand.reserved[p] = hand.stacks[p]
        hand.stacks[p] = 0
    hand.log.append(action)
    hand.log_streets.append(hand.street_index)
    hand._after_dealing()


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
    hand.log.append(action)
    hand.log_streets.append(hand.street_index)
    if how == "reconstructed":
        return          # (p)(5)(ii): the hand was put back together and plays on
    kill_hand(hand, p, refund=how == "refund")


def kill_hand(hand: "Hand", p: int, refund: bool) -> None:
    """A hand out of play by an irregularity; with `refund` every chip the player put in comes back."""
    if refund:
        back = hand.committed[p]
        hand.stacks[p] += back
        hand.committed[p] = 0
        hand.bets[p] = 0
        hand.antes[p] = 0
        hand.marks = [mark[:p] + (0,) + mark[p + 1:] for mark in hand.marks]
    hand.stacks[p] += hand.reserved.pop(p, 0)
    hand.folded[p] = True
    hand._out(p)
    if hand.owed[p]:
        hand.owed_total -= len(hand.owed[p])
        hand.owed[p] = []
    for queue in (hand.draw_turn, hand.discard_turn):
        if p in queue:
            queue.remove(p)
    hand.draw_checked.discard(p)
    hand.choosing.discard(p)
    if p in hand.expected:
        hand.expected.remove(p)
    round_ = hand.round
    if round_ is not None:
        if p in round_.actors:
            round_.actors.remove(p)
        round_.high = max(b for i, b in enumerate(hand.bets) if hand.live[i]) if any(hand.live) else 0
    if round_ is not None and not _betting_begun(hand) and sum(hand.live) > 1:
        # Nobody has acted this round: it opens again without the hand (a bring-in by the
        # up cards still in play, (h)(4)).
        _reopen_dealing(hand)
        hand._after_dealing()
        return
    if sum(hand.live) <= 1:
        if round_ is not None:
            hand._end_betting()
        else:
            collect(hand.bets, hand.stacks, hand.committed)
            hand.marks.append(tuple(hand.committed))
            hand._complete()
        return
    if hand.phase is Phase.BET:
        if hand.betting.done:
            hand._end_betting()
    elif hand.phase is Phase.SHOWDOWN:
        if not hand.expected:
            hand._complete()
    elif hand.phase is Phase.DEAL and hand._dealing_done():
        hand._after_dealing()      # the cards owed were that hand's: the betting can open


__all__ = ["MISDEAL_CAUSES", "apply_irregularity", "kill_hand"]
