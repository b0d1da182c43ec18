"""High card's par sheet: the house edge is 0 by symmetry, computed exactly to show it.

The player's card and the dealer's are two cards drawn without replacement from one shoe of
`decks` decks (the table deals from one: a fresh deck each round). Whatever the shoe, the pair (a, b) is as likely as (b, a), so "player higher"
and "dealer higher" have one chance, and pay +1 and -1 per unit wagered; a tie (one rank,
(4d - 1)/(52d - 1)) pays 0. The sheet counts every ordered pair of ranks rather than trusting
the argument, and the tests compare it with the argument.
"""

from __future__ import annotations

from fractions import Fraction

from controller.games.game import Json
from controller.config.profiles import GameProfile
from controller.par.sheet import GameSheet, exact, fraction

from high_card.profile import HighCardProfile
from high_card.rules import NAME

RANKS = 13
SUITS = 4


def chances(decks: int) -> dict[str, Fraction]:
    """The chances of a player's win, loss and tie, counted over ordered pairs of cards."""
    each = SUITS * decks
    n = RANKS * each
    win = lose = tie = 0
    for p in range(RANKS):
        for d in range(RANKS):
            pairs = each * (each - 1) if p == d else each * each
            if p > d:
                win += pairs
            elif p < d:
                lose += pairs
            else:
                tie += pairs
    total = n * (n - 1)
    return {"win": Fraction(win, total), "lose": Fraction(lose, total), "tie": Fraction(tie, total)}


def house_edge(decks: int) -> Fraction:
    c = chances(decks)
    return c["lose"] - c["win"]   # per unit wagered: the house takes a loss, pays a win, a tie is 0


def _rules(profile: GameProfile) -> dict[str, Json]:
    assert isinstance(profile, HighCardProfile)   # the sheet of a high card table's profile
    return dict(profile.record_rules())


def _compute(rules: dict[str, Json]) -> dict[str, Json]:
    decks = rules["decks"]
    assert isinstance(decks, int)
    c = chances(decks)
    return {"game": NAME, "regulation": "none (the tests' own game)", "rules": rules,
            "house_edge": exact(house_edge(decks)),
            "probabilities": {k: exact(v) for k, v in c.items()}}


def _check(s: dict[str, Json]) -> str:
    edge, p = s["house_edge"], s["probabilities"]
    assert isinstance(edge, dict) and isinstance(p, dict) and isinstance(p["tie"], dict)
    return (f"par: house edge {edge['percent']:.4f}% (even money, a tie pushes); "
            f"a tie {p['tie']['percent']:.4f}%")


def render(s: dict[str, Json]) -> list[str]:
    """`tablectl par`'s lines."""
    p = s["probabilities"]
    assert isinstance(p, dict) and isinstance(s["rules"], dict) and isinstance(s["house_edge"], dict)
    decks = s["rules"]["decks"]
    lines = [f"High card: {decks} deck{'' if decks == 1 else 's'}; even money, a tie pushes",
             f"  house edge {s['house_edge']['percent']:>9}%   {fraction(s['house_edge'])}"]
    for k in ("win", "lose", "tie"):
        fig = p[k]
        assert isinstance(fig, dict)
        lines.append(f"  {k:<10} {fig['percent']:>9}%   {fraction(fig)}")
    return lines


def screen(s: dict[str, Json]) -> list[dict[str, Json]]:
    """The supervisor's par screen (controller/ui/static/par.js draws the blocks): the edge and the tie."""
    p, rules = s["probabilities"], s["rules"]
    assert isinstance(p, dict) and isinstance(rules, dict)
    return [{"rows": [["House edge (even money, a tie pushes)", s["house_edge"], "par-house-edge"],
                      ["Player wins", p["win"], "par-win"], ["Player loses", p["lose"], "par-lose"],
                      ["Tie (pushed)", p["tie"], "par-tie"]]},
            {"text": f"{rules['decks']} deck, shuffled and counted each round.", "test": None}]


SHEET = GameSheet(_rules, _compute, _check, render, screen)
