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
half cent (games.casino_war.rules.surrender_loss) is left out.
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


def war_value(decks: int, war_odds: int, war_tie_odds: int) -> Fraction:
    """The player's net per unit initial wager from going to war after a tie hand."""
    counts = shoe(decks)
    total = Fraction(0)
    n = sum(counts)
    for r, c in enumerate(counts):                 # the tied rank
        first = Fraction(c * (c - 1), n * (n - 1))
        rest = counts.copy()
        rest[r] -= 2
        tie = tie_chance(rest)
        other = (1 - tie) / 2                      # higher or lower, alike
        total += first * (other * (war_odds - 1) + other * -2 + tie * war_tie_odds)
    return total / tie_chance(counts)


def sheet(decks: int, tie_odds: int, war_odds: int, war_tie_odds: int) -> dict[str, Any]:
    """House edge (per unit of the wager) and the chances behind it."""
    tie = tie_chance(shoe(decks))
    war = war_value(decks, war_odds, war_tie_odds)
    return {
        "tie_hand": tie,
        "always_war": {"house_edge": -tie * war},
        "always_surrender": {"house_edge": tie / 2},
        "tie": {"house_edge": 1 - tie * (tie_odds + 1)},
    }
