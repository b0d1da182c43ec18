"""Caribbean stud: house edge of the simple strategy by simulation, and settlement speed.

One player against the dealer, a freshly shuffled deck every round, the spec's
default paytable and bet wager of 2x the ante. Strategy: bet with a pair or
better or with ace-king (the dealer's own qualifier), else fold. The exact house
edge of that strategy is 5.6820% of the ante; the simulation prints its estimate
with a 95% interval beside it, and how many rounds it settled per second.

Each round is settled by rules.settle_hand, the function the table and
`tablectl settle` use, with hands valued by the evaluator's fast path
(high.value). A round's ten cards are a uniform random draw without replacement
(random.sample, i.e. a partial Fisher-Yates shuffle of a fresh deck), the same
distribution as the top ten cards of a full shuffle.

    .venv/bin/python benchmarks/caribbean_stud.py [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.games.caribbean_stud.rules import StudRules, settle_hand
from controller.hands import high
from controller.hands.caribbean import LOWEST_QUALIFYING

EXACT_HOUSE_EDGE = 0.056820  # per ante, "bet with a pair or better or ace-king", bet 2x ante
Z95 = 1.959964


def simulate(rounds: int, seed: int) -> tuple[int, int, float]:
    """(sum of the player's net in antes, sum of squares, seconds)."""
    rules = StudRules()
    rng = random.Random(seed)
    deck = list(range(52))
    sample = rng.sample
    value = high.value
    qualify = LOWEST_QUALIFYING
    total = squares = 0
    start = time.perf_counter()
    for _ in range(rounds):
        cards = sample(deck, 10)
        pv = value(cards[:5])
        if pv >= qualify:
            (_, ante), (_, bet) = settle_hand(1, True, pv, value(cards[5:]), rules)
            net = ante + bet
        else:
            (_, net), _ = settle_hand(1, False, pv, 0, rules)
        total += net
        squares += net * net
    return total, squares, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=5324_37)
    args = ap.parse_args(argv)
    if args.rounds < 2:
        ap.error("--rounds must be at least 2")
    n = args.rounds
    total, squares, seconds = simulate(n, args.seed)
    mean = total / n
    variance = (squares - total * total / n) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    edge = -mean
    low, high_ = edge - half, edge + half
    inside = low <= EXACT_HOUSE_EDGE <= high_
    print(f"Caribbean stud, {n:,} rounds (seed {args.seed}), bet with pair+ or ace-king, bet = 2x ante")
    print(f"  house edge per ante  {edge * 100:8.4f}%   95% interval [{low * 100:.4f}%, {high_ * 100:.4f}%]")
    print(f"  exact value          {EXACT_HOUSE_EDGE * 100:8.4f}%   "
          f"{'inside' if inside else 'OUTSIDE'} the interval")
    print(f"  player net per round: standard deviation {math.sqrt(variance):.4f} antes")
    print(f"  rounds settled per second  {n / seconds:,.0f}  ({seconds:.1f} s)")
    return 0 if inside else 1


if __name__ == "__main__":
    sys.exit(main())
