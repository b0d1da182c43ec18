"""Casino war by simulation beside the exact house edge, and rounds per second.

One seat, one unit on the initial wager and one on the tie wager, a fresh
shoe every round (so each round's cards are the top of a uniformly shuffled
shoe: the opening burn card of 5324.22(h)(1), the seat's card, the dealer's,
and on a tie the three burn cards and the two war cards of (i)(5)(i)); the
seat always goes to war. Rounds are settled by the rules module the table
uses (rules.settle_first_deal / settle_war). The house edge per initial
wager is minus the mean of (initial + war) net per unit of initial wager:
the war wager's money is counted against the initial wager.

The exact values are computed here from the shoe's composition (fractions,
no simulation) and printed beside the figures the task gives, then beside
the simulated mean with its 95% interval. A second, smaller run drives the
full round machine from a real shuffled WarShoe and re-settles each closed
round's record, for the rounds per second the live table code reaches.

    .venv/bin/python benchmarks/casino_war.py [--rounds 1000000] [--seed 5324]
        [--decks 6 7 8] [--machine-rounds 10000]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from fractions import Fraction

GIVEN_EDGE = {6: "1.7830", 7: "1.7823", 8: "1.7817"}   # percent, per initial wager
GIVEN_TIE_EDGE = {6: "18.6495"}                        # percent, per tie wager


def exact(decks: int, rules) -> tuple[Fraction, Fraction]:
    """(house edge per initial wager always going to war, house edge of the tie wager).

    Burn cards are unseen, so they do not change the odds of the cards after
    them; only the two tied cards leave the war deal's shoe.
    """
    n = 52 * decks
    per_rank = 4 * decks
    p_tie = Fraction(per_rank - 1, n - 1)
    # War deal: the tied rank has per_rank - 2 left, the twelve others per_rank each.
    m = n - 2
    q_tie = Fraction((per_rank - 2) * (per_rank - 3) + 12 * per_rank * (per_rank - 1),
                     m * (m - 1))
    q_win = q_lose = (1 - q_tie) / 2
    # (i)(5): the initial wager is collected when going to war and returned only on a war
    # tie; the war wager pays war_odds, or war_tie_odds on a war tie.
    war = q_tie * rules.war_tie_odds + q_win * (rules.war_odds - 1) + q_lose * -2
    # Not a tie: win or lose the initial wager 1:1, equally likely.
    ev = (1 - p_tie) / 2 * 1 + (1 - p_tie) / 2 * -1 + p_tie * war
    tie_ev = p_tie * rules.tie_odds - (1 - p_tie)
    return -ev, -tie_ev


def simulate(decks: int, rounds: int, seed: int, rules):
    from controller.cards import CARDS
    from controller.games.casino_war.rules import settle_first_deal, settle_war

    shoe = [c for _ in range(decks) for c in CARDS]
    sample = random.Random(seed).sample
    s_main = s_main2 = s_tie = s_tie2 = 0
    t0 = time.perf_counter()
    for _ in range(rounds):
        # burn, seat, dealer, three burns, seat's war card, dealer's war card
        _, card, dealer, _, _, _, war_card, dealer_war = sample(shoe, 8)
        initial, tie = settle_first_deal(1, 1, card, dealer, rules)
        if initial is None:
            initial, war, _ = settle_war(1, None, war_card, dealer_war, rules)
            net = initial["net"] + war["net"]
        else:
            net = initial["net"]
        s_main += net
        s_main2 += net * net
        t = tie["net"]
        s_tie += t
        s_tie2 += t * t
    elapsed = time.perf_counter() - t0
    return (_interval(s_main, s_main2, rounds), _interval(s_tie, s_tie2, rounds), elapsed)


def _interval(s: int, s2: int, n: int) -> tuple[float, float, float]:
    """House edge (minus the mean net) and its 95% normal interval, in percent."""
    mean = s / n
    var = (s2 - s * s / n) / (n - 1)
    half = 1.959964 * math.sqrt(var / n)
    return -mean * 100, (-mean - half) * 100, (-mean + half) * 100


def machine_rounds(decks: int, rounds: int, seed: int, rules) -> tuple[float, int]:
    """Rounds per second through WarShoe + CasinoWarRound + settle_record, always war."""
    from controller.games.casino_war.machine import CasinoWarRound, State
    from controller.games.casino_war.shoe import WarShoe, play_cards

    rng = random.Random(seed)
    wars = 0
    t0 = time.perf_counter()
    for _ in range(rounds):
        shoe = WarShoe.shuffled(decks, rng)
        r = CasinoWarRound(rules, burn=shoe.open_round())
        r.apply({"type": "wager", "seat": 1, "wager": "initial", "stake": 100})
        r.apply({"type": "wager", "seat": 1, "wager": "tie", "stake": 100})
        r.apply({"type": "no_more_bets"})
        play_cards(shoe, r)
        r.apply({"type": "settle"})
        if r.state is State.DECISIONS:
            wars += 1
            r.apply({"type": "decision", "seat": 1, "decision": "war"})
            play_cards(shoe, r)
            r.apply({"type": "settle"})
        assert r.state is State.CLOSED
    return rounds / (time.perf_counter() - t0), wars


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1_000_000, help="rounds per deck count")
    ap.add_argument("--seed", type=int, default=5324)
    ap.add_argument("--decks", type=int, nargs="+", default=[6, 7, 8], choices=[6, 7, 8])
    ap.add_argument("--machine-rounds", type=int, default=10_000)
    args = ap.parse_args(argv)
    if args.rounds < 2:
        ap.error("--rounds must be at least 2")

    from controller.games.casino_war.rules import Rules

    print(f"casino war, always to war, fresh shoe per round, {args.rounds:,} rounds per deck "
          f"count, seed {args.seed}; python {sys.version.split()[0]}")
    print("house edge, percent     given     exact (computed)   simulated [95% interval]"
          "            contains exact")
    all_in = True
    total_rounds, total_s = 0, 0.0
    for decks in args.decks:
        rules = Rules(decks=decks)
        edge, tie_edge = exact(decks, rules)
        main_iv, tie_iv, elapsed = simulate(decks, args.rounds, args.seed + decks, rules)
        total_rounds += args.rounds
        total_s += elapsed
        for label, ex, given, (mean, lo, hi) in (
                (f"{decks} decks, initial wager", edge, GIVEN_EDGE.get(decks), main_iv),
                (f"{decks} decks, tie wager    ", tie_edge, GIVEN_TIE_EDGE.get(decks), tie_iv)):
            exact_pct = float(ex * 100)
            inside = lo <= exact_pct <= hi
            all_in &= inside
            agrees = "" if given is None else (
                " (=given)" if f"{exact_pct:.4f}" == given else " (!= given)")
            print(f"{label}  {given or '   -   ':>8}  {exact_pct:9.4f}{agrees:<10}  "
                  f"{mean:8.4f} [{lo:8.4f}, {hi:8.4f}]   {'yes' if inside else 'NO'}")
        print(f"  exact fractions: edge {edge} ; tie {tie_edge}")
    print(f"simulation (rules.settle_first_deal/settle_war, rng.sample of a fresh shoe): "
          f"{total_rounds / total_s:,.0f} rounds/s")
    if args.machine_rounds:
        rate, wars = machine_rounds(6, args.machine_rounds, args.seed, Rules())
        print(f"full table path (WarShoe.shuffled + CasinoWarRound events + settle_record), "
              f"6 decks: {rate:,.0f} rounds/s over {args.machine_rounds:,} rounds ({wars} wars)")
    print("every interval contains its exact value" if all_in
          else "an interval MISSES its exact value")
    return 0 if all_in else 1


if __name__ == "__main__":
    sys.exit(main())
