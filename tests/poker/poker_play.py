"""Random hands played by the engine itself, through its public API, as a live table would.

A dealer with a physical deck (burn cards taken at each street, the stud common card
of (h)(8), the draw reshuffle of (l)(6)) and players who pick among the options the
hand offers. Used to check that every hand the engine plays can be written as PHH.
"""

from __future__ import annotations

import random

from controller.poker.actions import CONTEND, SHOW_KNOWN, Action
from controller.poker.errors import IllegalAction
from controller.poker.hand import Hand, HandSetup, Phase
from controller.poker.variants import VARIANTS, DeckOut

STUD_CODES = tuple(code for code, v in VARIANTS.items() if not v.button)


def random_setup(code: str, rng: random.Random, players: int | None = None) -> HandSetup:
    v = VARIANTS[code]
    n = players or rng.randint(2, v.max_players)
    unit = rng.choice((1, 2, 5))
    if not v.button:
        bring_in = unit * rng.choice((1, 2))
        small = bring_in * 3
        antes = (unit * rng.choice((0, 1)),) * n
        blinds = (0,) * n
        big = 2 * small if v.fixed_limit else small
        trimming = True
    else:
        bb = unit * 2
        blinds = [bb // 2, bb] + [0] * (n - 2)
        if n >= 4 and rng.random() < 0.2:
            blinds[2] = 2 * bb
        blinds = tuple(blinds)
        antes = (rng.choice((0, 0, 0, unit)),) * n
        bring_in = 0
        small = bb
        big = 2 * bb if v.fixed_limit else bb
        trimming = False
    stacks = tuple(rng.choice((rng.randint(1, 10), rng.randint(10, 80), rng.randint(100, 200))) * small
                   + rng.randint(0, small) for _ in range(n))
    return HandSetup(v, stacks, antes, blinds, bring_in, small, big, 4, trimming)


class Dealer:
    """Deals real cards the way the regulation's dealer does, for one hand."""

    def __init__(self, hand: Hand, rng: random.Random) -> None:
        self.hand = hand
        self.rng = rng
        self.deck = list(range(52))
        rng.shuffle(self.deck)
        self.burns: list[int] = []
        self.pile: list[tuple[int, int, int]] = []
        self.street = 0
        self.partial = False

    def _burn_for_street(self) -> None:
        hand = self.hand
        if hand.street_index != self.street:
            self.street = hand.street_index
            street = hand.street
            if street.burn and self.deck:
                self.burns.append(self.deck.pop())
            if hand.owed_board and not street.board and len(self.deck) <= 1:
                # (h)(8): one card or none left for the common card: shuffle the burns, burn one
                self.deck = self.burns + self.deck
                self.burns = []
                self.rng.shuffle(self.deck)
                self.burns.append(self.deck.pop())

    def take(self, k: int, player: int | None = None) -> list[int]:
        hand = self.hand
        # cards the dealer set aside (an irregularity of 5324.42(p)) are not in the stub any more
        self.deck = [c for c in self.deck if hand.deck.unavailable(c) is None]
        if len(self.deck) < k and player is not None:
            out_of_it = {player}
            if hand.variant.deck_out is DeckOut.RESHUFFLE_UNDRAWN:
                # (k)(6)(ii): the discards of players still waiting for their cards stay out,
                # the drawing player's own go in
                out_of_it = {i for i in range(hand.n) if hand.owed[i] and i not in hand.draw_checked} - {player}
            # the discard pile on the table is the hand's own
            pool = [e for e in hand.deck.pile if not (e[1] in out_of_it and e[2] == hand.street_index)]
            cards = [c for c, _, _ in pool]
            self.rng.shuffle(cards)
            self.deck = cards + self.deck
        out = self.deck[-k:][::-1]
        del self.deck[-k:]
        return out

    def step(self) -> bool:
        """Deal what the hand owes next; False when nothing is owed."""
        hand = self.hand
        self._burn_for_street()
        for p, owed in enumerate(hand.owed):
            if owed:
                k = len(owed)
                if self.partial and not hand.street.draw:
                    k = self.rng.randint(1, k)     # a round of cards at a time, as dealt at the table
                cards = self.take(k, p if hand.street.draw else None)
                hand.deal_hole(p, tuple(cards))
                return True
        if hand.owed_board:
            hand.deal_board(tuple(self.take(hand.owed_board)))
            return True
        return False


def play(setup: HandSetup, rng: random.Random, before=None, partial_deals: bool = False) -> Hand:
    """A whole hand: random legal choices for the players, a physical deck for the dealer.

    `before(hand)`, if given, is called before each action. With `partial_deals` the
    dealer may give a player some of the street's cards and the rest later.
    """
    hand = Hand(setup)
    dealer = Dealer(hand, rng)
    dealer.partial = partial_deals
    for _ in range(2000):
        if hand.phase is Phase.COMPLETE:
            return hand
        if before is not None:
            before(hand)
            if hand.phase is Phase.COMPLETE:
                return hand
        if hand.showing and (hand.phase is Phase.SHOWDOWN or rng.random() < 0.7):
            p = hand.showing[0]
            live = sum(hand.live)
            # A player mucks only a hand that others still contest in every pot it is in
            # (nobody gives up a side pot no one else can win).
            contested = all(len(pot.eligible) > 1 for pot in hand.pots() if p in pot.eligible)
            if hand.phase is Phase.SHOWDOWN and live > 1 and contested and rng.random() < 0.25:
                try:
                    hand.show_or_muck(p, None)
                    continue
                except IllegalAction:
                    pass   # the last hand in contention for a pot must be shown
            hand.show_or_muck(p, SHOW_KNOWN)
            continue
        if hand.phase is Phase.DEAL:
            if hand.choosing:
                # 5324.42(p)(6): the player whose third hole card was exposed chooses
                p = min(hand.choosing)
                hand.apply(Action(CONTEND, p, None, None, rng.choice(("part", "all"))))
                continue
            if hand.discard_turn:
                # pineapple (n)(7), (n)(9): one hole card thrown away, no replacement
                p = hand.discard_turn[0]
                c = rng.choice(hand.hole[p])
                dealer.pile.append((c, p, hand.street_index))
                hand.discard(p, (c,))
                continue
            if hand.draw_turn:
                p = hand.draw_turn[0]
                held = list(hand.hole[p])
                k = rng.choice((0, 1, 2, 3, 5))
                chosen = tuple(rng.sample(held, min(k, len(held))))
                for c in chosen:
                    dealer.pile.append((c, p, hand.street_index))
                hand.draw(p, chosen)
                continue
            if dealer.step():
                continue
            raise AssertionError("the hand waits in the deal phase with nothing owed")
        if hand.phase is Phase.BET:
            o = hand.options()
            p = o.player
            r = rng.random()
            if o.bring_in is not None:
                if o.raise_min is not None and r < 0.2:
                    hand.bet_or_raise_to(p, o.raise_min)
                else:
                    hand.post_bring_in(p)
            elif o.call and r < 0.2:
                for c in hand.hole[p]:
                    dealer.pile.append((c, -1, hand.street_index))
                hand.fold(p)
            elif o.raise_min is not None and r > 0.6:
                amount = rng.choice((o.raise_min, o.raise_max, rng.randint(o.raise_min, o.raise_max)))
                hand.bet_or_raise_to(p, amount)
            else:
                hand.check_or_call(p)
            continue
        raise AssertionError(f"stuck in {hand.phase}")
    raise AssertionError("the hand did not end")
