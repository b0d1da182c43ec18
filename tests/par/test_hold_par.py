"""Issue 34, item 3: each wager's exact variance in the par sheet, checked by a second computation that
shares nothing with the sheet's (casino war's deals enumerated card by card; Caribbean stud's second
moment summed again from the sheet's own probabilities), and a period held against par in integers."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from controller.config import load_profile
from controller.games.casino_war import par as war
from controller.par import sheet
from controller.par.hold import HoldTally, Unit, rounded
from tests.par.par_helpers import CONFIG


def _enumerated_war(decks: int, war_odds: int, war_tie_odds: int, tie_odds: int) -> dict[str, tuple]:
    """Every ordered pair of cards, and after a tie hand every ordered pair of the rest: the initial
    wager played to war, and the tie wager, as (mean, variance) per unit."""
    shoe = [r for r in range(13) for _ in range(4 * decks)]
    n = len(shoe)
    war_total = war_sq = tie_total = tie_sq = Fraction(0)
    pairs = n * (n - 1)
    for i, j in permutations(range(n), 2):
        a, b = shoe[i], shoe[j]
        if a != b:
            war_total += Fraction(1 if a > b else -1, pairs)
            war_sq += Fraction(1, pairs)
            tie_total -= Fraction(1, pairs)
            tie_sq += Fraction(1, pairs)
            continue
        tie_total += Fraction(tie_odds, pairs)
        tie_sq += Fraction(tie_odds * tie_odds, pairs)
        rest = shoe[:min(i, j)] + shoe[min(i, j) + 1:max(i, j)] + shoe[max(i, j) + 1:]
        m = len(rest)
        again = sum(1 for x, y in permutations(range(m), 2) if rest[x] == rest[y])
        higher = (m * (m - 1) - again) // 2
        for count, value in ((higher, war_odds - 1), (higher, -2), (again, war_tie_odds)):
            p = Fraction(count, pairs * m * (m - 1))
            war_total += p * value
            war_sq += p * value * value
    return {"always_war": (war_total, war_sq - war_total ** 2), "tie": (tie_total, tie_sq - tie_total ** 2)}


def test_casino_war_variance_is_the_enumerated_one():
    """A one-deck shoe, every deal counted: the sheet's mean and variance of the initial wager played to
    war and of the tie wager are the enumeration's, exactly (5324.22(i), (j))."""
    counted = _enumerated_war(1, 2, 3, 10)
    outcomes = war.wager_outcomes(1, 10, 2, 3)
    for name in ("always_war", "tie"):
        mean, variance = counted[name]
        assert war.mean(outcomes[name]) == mean, name
        assert war.variance(outcomes[name]) == variance, name
    assert sum(p for p, _ in outcomes["always_war"]) == 1


def test_caribbean_stud_variance_from_the_sheets_own_chances():
    """The second moment summed from the sheet's published chances (fold, dealer not qualifying, a win by
    each hand at its odds, push, loss): the sheet's variance per ante, for both strategies (5324.37(g))."""
    profile = load_profile(CONFIG / "caribbean-stud.toml")
    s = sheet.compute(profile)
    multiple = s["rules"]["bet_multiple"]
    odds = s["rules"]["paytable"]
    for name, st in s["strategies"].items():
        p = {k: sheet.fraction(v) for k, v in st["probabilities"].items() if k != "win_by_hand"}
        wins = {line: sheet.fraction(v) for line, v in st["probabilities"]["win_by_hand"].items()}
        outcomes = [(p["fold"], -1), (p["dealer_not_qualifying"], 1), (p["push"], 0),
                    (p["loss"], -(1 + multiple))] + [(c, 1 + multiple * odds[line]) for line, c in wins.items()]
        assert sum(c for c, _ in outcomes) == 1
        mean = sum(c * v for c, v in outcomes)
        assert -mean == sheet.fraction(st["house_edge"])
        assert sum(c * v * v for c, v in outcomes) - mean * mean == sheet.fraction(st["variance"]), name
    units = sheet.sheet_of("caribbean-stud").units
    assert units is not None
    ante = units(s)["ante"]
    assert ante.covers == ("ante", "bet") and ante.variance == sheet.fraction(s["strategies"]["optimal"]["variance"])


def test_a_period_held_against_par_in_integers():
    """Two rounds: the theoretical win, the variance and the flag as a hand computation gives them."""
    unit = Unit(Fraction(1, 20), Fraction(5), ("ante", "bet"))
    tally = HoldTally({"ante": unit})
    tally.take({"risked": {"ante": [1000, 1000 * 1000]},
                "wagers": {"ante": {"house_win": 1000}, "bet": {"house_win": 2000}}})
    tally.take({"risked": {"ante": [3000, 2000 ** 2 + 1000 ** 2]},
                "wagers": {"ante": {"house_win": -3000}, "bet": {"house_win": -6000}}})
    block = tally.block()
    assert block["theoretical_win"] == 200                         # 4000 x 1/20
    variance = 5 * (1000 ** 2 + 2000 ** 2 + 1000 ** 2)               # 30,000,000 cents squared
    assert block["sigma"] == 5477                                  # isqrt(30,000,000)
    assert block["measured_win"] == -6000 and block["difference"] == -6200
    assert (-6200) ** 2 < 9 * variance and not block["beyond_band"]
    assert block["sigmas_hundredths"] == -113                      # 6200 / 5477.2 = 1.132
    tally.take({"risked": {"ante": [1000, 1000 ** 2]}, "wagers": {"ante": {"house_win": -1000},
                                                                  "bet": {"house_win": -20_000}}})
    assert tally.block()["beyond_band"]                            # 27,250 off, sigma 5,916


def test_rounding_to_the_cent_is_half_away_from_zero():
    assert [rounded(Fraction(n, 2)) for n in (-3, -1, 1, 3, 5)] == [-2, -1, 1, 2, 3]
    assert rounded(Fraction(-7, 3)) == -2 and rounded(Fraction(7, 3)) == 2
