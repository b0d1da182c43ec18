"""Shared helpers of the hand-evaluator tests: card text, the pokerkit oracle, order agreement."""

from __future__ import annotations

import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations, pairwise

from controller.cards import CARDS, Card, parse_cards

SEED = 20241102


def cards(text: str) -> list[Card]:
    """'As Kd Qh' -> [Card('As'), ...]."""
    return parse_cards(text.split())


def deal(rng: random.Random, n: int) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in rng.sample(range(52), n))


def seeded_hands(n_hands: int, n_cards: int, salt: int) -> list[tuple[Card, ...]]:
    rng = random.Random(SEED * 1000 + salt)
    return [deal(rng, n_cards) for _ in range(n_hands)]


# --- pokerkit, the oracle -----------------------------------------------------------------
# pokerkit's `from_game` takes ~0.3 ms for a 7-card hand and ~1.7 ms for an Omaha hand (it
# builds and compares a Hand for every five-card combination), too slow for 100,000 hands
# in a fast suite. So the big samples ask pokerkit's hand type about each *class* of five
# cards once (pokerkit's lookups key a five-card hand by its ranks and whether it is
# suited) and take the best over the combinations the game allows, as `from_game` does.
# `test_cached_oracle_is_pokerkit_from_game` checks that shortcut against `from_game`
# itself, hand by hand, and the small end-to-end tests use `from_game` directly.

_PK_CARDS = None


def pk_cards(cs) -> list:
    """Our cards as pokerkit's Card objects."""
    global _PK_CARDS  # noqa: PLW0603  (a lazily built table, cached for the session)
    if _PK_CARDS is None:
        import pokerkit

        _PK_CARDS = list(pokerkit.Card.parse("".join(str(c) for c in CARDS)))
    return [_PK_CARDS[c] for c in cs]


def from_game(kind: str, hole, board):
    """pokerkit.<kind>.from_game(hole, board), or None where pokerkit says no hand (no low)."""
    import pokerkit

    try:
        return getattr(pokerkit, kind).from_game(pk_cards(hole), pk_cards(board))
    except ValueError:
        return None


def strength(hand) -> int | None:
    """A pokerkit hand as an int, bigger = stronger, exactly as its `<` compares (Hand.__lt__)."""
    if hand is None:
        return None
    return -hand.entry.index if hand.low else hand.entry.index


# A five-card hand's class as one int: rank counts (3 bits a rank) plus a suit-count part,
# reduced to "suited or not". Only a memo key: the verdict on each class is pokerkit's.
_KEY = [(1 << (3 * (c >> 2))) + (1 << (40 + 4 * (c & 3))) for c in range(52)]
_RANKS = (1 << 39) - 1
_SUITED = {5 << (40 + 4 * s) for s in range(4)}
_NONE = -(10 ** 9)  # pokerkit: no such hand (e.g. no eight-or-better low)


class FiveCardClasses:
    """pokerkit's strength of five cards, asked of pokerkit once per (ranks, suited) class."""

    def __init__(self, kind: str) -> None:
        import pokerkit

        self.cls = getattr(pokerkit, kind)
        self.cache: dict[int, int] = {}

    def _ask(self, five, k: int) -> int:
        try:
            found = strength(self.cls(pk_cards(five)))
        except ValueError:  # e.g. no eight-or-better low
            found = _NONE
        self.cache[k] = found
        return found

    def __call__(self, five) -> int | None:
        k = sum(_KEY[c] for c in five)
        k = (k & _RANKS) * 2 + ((k - (k & _RANKS)) in _SUITED)
        v = self.cache.get(k)
        if v is None:
            v = self._ask(five, k)
        return None if v == _NONE else v

    def best_of_any_five(self, hand) -> int | None:
        """As CombinationHand.from_game: the best of every five of the cards."""
        get, key, best = self.cache.get, _KEY, _NONE
        for five in combinations([int(c) for c in hand], 5):
            a, b, c, d, e = five
            k = key[a] + key[b] + key[c] + key[d] + key[e]
            k = (k & _RANKS) * 2 + ((k - (k & _RANKS)) in _SUITED)
            v = get(k)
            if v is None:
                v = self._ask(five, k)
            if v > best:
                best = v
        return None if best == _NONE else best

    def best_of_two_and_three(self, hole, board) -> int | None:
        """As HoleBoardCombinationHand.from_game: two hole cards and three board cards."""
        get, key, best = self.cache.get, _KEY, _NONE
        triples = list(combinations([int(c) for c in board], 3))
        for a, b in combinations([int(c) for c in hole], 2):
            kp = key[a] + key[b]
            for c, d, e in triples:
                k = kp + key[c] + key[d] + key[e]
                k = (k & _RANKS) * 2 + ((k - (k & _RANKS)) in _SUITED)
                v = get(k)
                if v is None:
                    v = self._ask((a, b, c, d, e), k)
                if v > best:
                    best = v
        return None if best == _NONE else best


def cached_strength(kind: str, hand, split: int | None = None, classes=None) -> int | None:
    """The strength of pokerkit's best hand: any five (split None) or two of hand[:split] and three of the rest."""
    classes = classes or FiveCardClasses(kind)
    if split is None:
        return classes.best_of_any_five(hand)
    return classes.best_of_two_and_three(hand[:split], hand[split:])


def _chunk(args):
    kind, split, hands = args  # hands as plain ints: cheaper to send to a worker
    classes = FiveCardClasses(kind)
    return [cached_strength(kind, h, split, classes) for h in hands]


def oracle(kind: str, hands: list[tuple[Card, ...]], split: int | None = None) -> list[int | None]:
    """pokerkit's strength of the best hand of `kind` for every hand, in order (see above)."""
    workers = max(1, min(2, os.cpu_count() or 1))
    size = max(1, len(hands) // (workers * 4))
    plain = [tuple(map(int, h)) for h in hands]
    chunks = [(kind, split, plain[i:i + size]) for i in range(0, len(plain), size)]
    if workers == 1:
        return [v for part in map(_chunk, chunks) for v in part]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return [v for part in pool.map(_chunk, chunks) for v in part]


def order_disagreements(ours: list[int], theirs: list, hands) -> list[str]:
    """Pairs on whose order the two evaluators disagree.

    Sorting by our value and comparing each neighbour's pokerkit strength checks
    every pair: both orders are total preorders, so agreement on neighbours of one sorted
    sequence (equal stays equal, less stays strictly less) is agreement everywhere.
    """
    order = sorted(range(len(ours)), key=ours.__getitem__)
    bad = []
    for i, j in pairwise(order):
        a, b = ours[i], ours[j]
        ta, tb = theirs[i], theirs[j]
        agree = (ta == tb) if a == b else (ta < tb)
        if not agree:
            bad.append(f"{' '.join(map(str, hands[i]))} ({a}, {ta}) vs {' '.join(map(str, hands[j]))} ({b}, {tb})")
    return bad
