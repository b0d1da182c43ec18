"""7-card high-hand evaluations per second: ours beside treys, same hands, same run.

Prints one JSON line. Both evaluators get the same 200,000 seeded random 7-card hands,
each already in its own card form (our `Card`s, treys' ints) so that only evaluation is
timed. Table building is done before timing for both (treys' `Evaluator()`, our first
6/7-card call) and reported apart. Each figure is the best of `--repeat` passes, which
damps the noise of a shared machine; the ratio is of those best figures.

    .venv/bin/python benchmarks/hands.py [--hands 200000] [--seed 2024] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time


def _best_rate(fn, n: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n / best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    from treys import Card as TreysCard
    from treys import Evaluator

    t0 = time.perf_counter()
    from controller.cards import CARDS
    from controller.hands import high
    import_s = time.perf_counter() - t0

    rng = random.Random(args.seed)
    deck = list(range(52))
    hands = [tuple(CARDS[i] for i in rng.sample(deck, 7)) for _ in range(args.hands)]
    treys_of = [TreysCard.new(str(c)) for c in CARDS]
    treys_hands = [([treys_of[c] for c in h[:2]], [treys_of[c] for c in h[2:]]) for h in hands]

    t0 = time.perf_counter()
    evaluator = Evaluator()
    treys_build_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    high.value(hands[0])  # builds the 6- and 7-card tables
    ours_build_s = time.perf_counter() - t0

    value, values, evaluate = high.value, high.values, evaluator.evaluate
    ours_out: list[int] = []
    treys_out: list[int] = []

    def ours() -> None:
        ours_out[:] = [value(h) for h in hands]

    def ours_batch() -> None:
        values(hands)

    def theirs() -> None:
        treys_out[:] = [evaluate(board, hole) for hole, board in treys_hands]

    ours_rate = _best_rate(ours, args.hands, args.repeat)
    treys_rate = _best_rate(theirs, args.hands, args.repeat)
    batch_rate = _best_rate(ours_batch, args.hands, args.repeat)

    # Same hands, same answers: treys ranks 1 (royal) .. 7462, ours 7461 .. 0.
    mismatches = sum(1 for a, b in zip(ours_out, treys_out, strict=True) if a != 7462 - b)

    print(json.dumps({
        "benchmark": "7-card high hand evaluations per second",
        "hands": args.hands,
        "seed": args.seed,
        "repeat": args.repeat,
        "ours_per_s": round(ours_rate),
        "treys_per_s": round(treys_rate),
        "ratio": round(ours_rate / treys_rate, 2),
        "target_ratio": 4,
        "ours_batch_per_s": round(batch_rate),
        "batch_ratio": round(batch_rate / treys_rate, 2),
        "numpy_batch": "not measured: numpy is not installed",
        "mismatches_vs_treys": mismatches,
        "ours_import_s": round(import_s, 4),
        "ours_7card_table_build_s": round(ours_build_s, 4),
        "treys_table_build_s": round(treys_build_s, 4),
        "python": platform.python_version(),
    }))
    return 0 if mismatches == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
