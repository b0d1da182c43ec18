"""Small helpers of the poker tests: hands from short descriptions, actions from PHH text."""

from __future__ import annotations

from controller.poker.actions import parse_action, parse_cards
from controller.poker.hand import Hand, HandSetup
from controller.poker.variants import VARIANTS


def setup(code: str, stacks, *, antes=0, blinds=(1, 2), bring_in=0, small=None, big=None,
          cap=4, trimming=None) -> HandSetup:
    """A set-up: blinds as a prefix (button games), a uniform ante, bet sizes from the blinds."""
    v = VARIANTS[code]
    n = len(stacks)
    if v.button:
        b = tuple(blinds) + (0,) * (n - len(blinds))
        small = small if small is not None else max(blinds)
        big = big if big is not None else (2 * small if v.fixed_limit else small)
    else:
        b = (0,) * n
        small = small if small is not None else 10
        big = big if big is not None else (2 * small if v.fixed_limit else small)
        bring_in = bring_in or 5
    a = tuple(antes) if isinstance(antes, (list, tuple)) else (antes,) * n
    if trimming is None:
        trimming = not v.button
    return HandSetup(v, tuple(stacks), a, b, bring_in, small, big, cap, trimming)


def act(hand: Hand, *texts: str) -> Hand:
    """Apply PHH actions ('p1 cc', 'd db AsKsQs') to the hand, in order."""
    for text in texts:
        for one in text.split(","):
            action = parse_action(one.strip())
            if action is not None:
                hand.apply(action)
    return hand


def new(code: str, stacks, *texts: str, **kw) -> Hand:
    return act(Hand(setup(code, stacks, **kw)), *texts)


def cards(text: str) -> tuple:
    return parse_cards(text)


def snapshot(hand: Hand) -> tuple:
    """Everything a refused action must leave as it was."""
    r = hand.round
    betting = None if r is None else (
        tuple(r.actors), r.increment, r.count, frozenset(r.acted), tuple(r.shorts), r.high,
        r.bring_in_pending, r.completion_pending, r.aggressor)
    d = hand.deck
    return (
        tuple(hand.stacks), tuple(hand.bets), tuple(hand.committed), tuple(hand.live), tuple(hand.folded),
        tuple(hand.mucked), tuple(map(tuple, hand.hole)), tuple(map(tuple, hand.up)), tuple(hand.board),
        hand.street_index, hand.phase, tuple(map(tuple, hand.owed)), hand.owed_board, tuple(hand.draw_turn),
        frozenset(hand.draw_checked), tuple(hand.discard_turn), tuple(hand.expected), len(hand.log), betting,
        frozenset(d.unseen), frozenset(d.recycled), d.stub, d.burned, tuple(d.pile), tuple(sorted(d.in_play.items())),
        hand.result, tuple(hand.marks), frozenset(hand.voluntary), frozenset(hand.choosing),
        tuple(sorted(hand.reserved.items())), hand.preburn, tuple(hand.exposures), hand.street_start,
        tuple(hand.dealt_from),
    )
