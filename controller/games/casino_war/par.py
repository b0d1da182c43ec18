"""Casino war (5324.22) par sheet: exact house edges over the shoe's composition.

Pure: the number of decks and the odds in, `Fraction`s out. A tie hand is the
player's and the dealer's card of one rank, drawn from the shoe without
replacement (card removal included); on a tie the player either surrenders half
his initial wager (5324.22(i)(3)(i)) or goes to war (i)(3)(ii): the initial
wager is collected, a war wager of the same size is placed, three burn cards are
discarded and one card each is dealt (i)(5). The war wager wins `war_odds`:1 on
a higher card, loses on a lower one, and on a tie wins `war_tie_odds`:1 with the
initial wager returned (i)(5)(ii), (j)(3). The burn cards are unseen, so they do
not change the chances of the war deal (the tests count them out to show it).
Figures are per unit of initial (or tie) wager; the surrender's rounding of a
half cent (games.casino_war.rules.surrender_loss) is left out. Each wager's
variance (its second moment less its mean squared) comes from the same outcomes,
so a period's result can be held against the band chance allows (controller/par/hold.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

RANKS = 13
SUITS = 4


def shoe(decks: int) -> list[int]:
    """Cards of each rank in a full shoe."""
    return [SUITS * decks] * RANKS


def tie_chance(counts: list[int]) -> Fraction:
    """The chance that two cards drawn from the shoe are of one rank."""
    n = sum(counts)
    return Fraction(sum(c * (c - 1) for c in counts), n * (n - 1))


Outcomes = list[tuple[Fraction, Fraction]]   # (chance, the player's net per unit wagered)


def war_outcomes(decks: int, war_odds: int, war_tie_odds: int) -> Outcomes:
    """The war deal's outcomes after a tie hand, per unit initial wager (the initial wager collected
    and a war wager of the same size placed): higher, lower, tied again, by the tied rank."""
    counts = shoe(decks)
    n = sum(counts)
    tied = tie_chance(counts)
    out: Outcomes = []
    for r, c in enumerate(counts):                 # the tied rank
        first = Fraction(c * (c - 1), n * (n - 1)) / tied
        rest = counts.copy()
        rest[r] -= 2
        tie = tie_chance(rest)
        other = (1 - tie) / 2                      # higher or lower, alike
        out += [(first * other, Fraction(war_odds - 1)), (first * other, Fraction(-2)),
                (first * tie, Fraction(war_tie_odds))]
    return out


def war_tie_chance(decks: int) -> Fraction:
    """The chance the war deal ties again, the tied rank's two cards out of the shoe."""
    counts = shoe(decks)
    n = sum(counts)
    tied = tie_chance(counts)
    total = Fraction(0)
    for r, c in enumerate(counts):
        rest = counts.copy()
        rest[r] -= 2
        total += Fraction(c * (c - 1), n * (n - 1)) / tied * tie_chance(rest)
    return total


def mean(outcomes: Outcomes) -> Fraction:
    return sum((p * v for p, v in outcomes), Fraction(0))


def variance(outcomes: Outcomes) -> Fraction:
    """Exact: the second moment less the mean squared."""
    m = mean(outcomes)
    return sum((p * v * v for p, v in outcomes), Fraction(0)) - m * m


def war_value(decks: int, war_odds: int, war_tie_odds: int) -> Fraction:
    """The player's net per unit initial wager from going to war after a tie hand."""
    return mean(war_outcomes(decks, war_odds, war_tie_odds))


def wager_outcomes(decks: int, tie_odds: int, war_odds: int, war_tie_odds: int) -> dict[str, Outcomes]:
    """Each wager's outcomes per unit staked: the initial wager played to war on a tie hand, or
    surrendered; the tie wager; the tie wager on the war deal."""
    tie = tie_chance(shoe(decks))
    other = (1 - tie) / 2
    plain = [(other, Fraction(1)), (other, Fraction(-1))]
    again = war_tie_chance(decks)
    return {
        "always_war": plain + [(tie * p, v) for p, v in war_outcomes(decks, war_odds, war_tie_odds)],
        "always_surrender": plain + [(tie, Fraction(-1, 2))],
        "tie": [(tie, Fraction(tie_odds)), (1 - tie, Fraction(-1))],
        "war_tie": [(again, Fraction(tie_odds)), (1 - again, Fraction(-1))],
    }


def sheet(decks: int, tie_odds: int, war_odds: int, war_tie_odds: int) -> dict[str, Any]:
    """House edge and variance (per unit of the wager) and the chances behind them."""
    out: dict[str, Any] = {"tie_hand": tie_chance(shoe(decks)), "war_tie_hand": war_tie_chance(decks)}
    for name, outcomes in wager_outcomes(decks, tie_odds, war_odds, war_tie_odds).items():
        out[name] = {"house_edge": -mean(outcomes), "variance": variance(outcomes)}
    return out
