"""Hands in the shape of the public PHH dataset's real hands, played by pokerkit from fixed seeds.

The dataset's hands (phh-std's data: the Pluribus games, WSOP final tables, HandHQ's online
hands) cannot be fetched on the box and their licences differ by source, so the benchmark
and the tests make hands of the same shape instead. What makes real hands cost more than
the generated differential hands (tests/poker/poker_gen.py), and is reproduced here:

- no-limit hold'em, six to nine players, most hands over before the flop on folds, a few
  going to a showdown, some with a player all-in;
- every hole card dealt as its own action (`d dh p3 ????` where nobody saw them);
- the optional fields real files carry: players' names, the hand's number, the event, the
  venue, the date, a local `time`, seats, the currency;
- the three sources' stakes: Pluribus's 50/100 with 10,000 chips each, a WSOP final table's
  blinds with a big-blind ante and stacks in the millions, and HandHQ's dollars and cents
  (`blinds_or_straddles = [0.25, 0.5, ...]`), which the reader takes in whole cents.

Each hand is played by pokerkit, so its own replay is the reference; the finishing stacks
are written in the file, as the dataset's are.
"""

from __future__ import annotations

import random
import warnings

from pokerkit import Automation, NoLimitTexasHoldem

SOURCES = ("pluribus", "wsop", "handhq")
_RANKS = "23456789TJQKA"
_SUITS = "cdhs"
_DECK = [r + s for r in _RANKS for s in _SUITS]
_NAMES = ("MrBlue", "MrBlonde", "MrWhite", "MrPink", "MrBrown", "Pluribus", "Budd", "Hattori", "MrOrange")
_AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


def _stakes(source: str, rng: random.Random) -> tuple[int, list[int], list[int], int, list[int]]:
    """(players, antes, blinds, min bet, stacks) in whole chips or cents."""
    if source == "pluribus":
        n = 6
        return n, [0] * n, [50, 100] + [0] * (n - 2), 100, [10_000] * n
    if source == "wsop":
        n = rng.randint(5, 9)
        bb = rng.choice((60_000, 80_000, 100_000, 150_000, 200_000))
        antes = [0] * n
        antes[1] = bb   # the big blind's ante
        stacks = [bb * rng.randint(8, 120) + rng.randrange(0, bb, 5_000) for _ in range(n)]
        return n, antes, [bb // 2, bb] + [0] * (n - 2), bb, stacks
    n = rng.choice((6, 6, 6, 9))
    bb = rng.choice((10, 25, 50, 100, 200))   # cents
    stacks = [max(bb, int(bb * rng.lognormvariate(4.4, 0.6))) for _ in range(n)]
    return n, [0] * n, [bb // 2, bb] + [0] * (n - 2), bb, stacks


def _money(v: int, cents: bool) -> str:
    return f"{v // 100}.{v % 100:02d}" if cents else str(v)


def real_shaped(source: str, seed: int) -> str:
    """One hand of `source`'s shape, as PHH text."""
    rng = random.Random(f"real|{source}|{seed}")
    n, antes, blinds, min_bet, stacks = _stakes(source, rng)
    cents = source == "handhq"
    state = NoLimitTexasHoldem.create_state(_AUTOMATIONS, True, tuple(antes), tuple(blinds), min_bet,
                                            tuple(stacks), n)
    deck = _DECK[:]
    rng.shuffle(deck)
    seen = source == "pluribus" or rng.random() < 0.15
    actions: list[str] = []
    loose = rng.uniform(0.15, 0.35)   # how often a player stays in before the flop
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_deal_hole():
                p = state.hole_dealee_index
                cards = deck.pop() + deck.pop()
                state.deal_hole(cards)
                actions.append(f"d dh p{p + 1} {cards if seen or p == 0 else '????'}")
            elif state.can_deal_board():
                k = state.board_dealing_count
                cards = "".join(deck.pop() for _ in range(k))
                state.deal_board(cards)
                actions.append(f"d db {cards}")
            elif state.actor_index is not None:
                p = state.actor_index
                facing = state.checking_or_calling_amount
                preflop = state.street_index == 0
                r = rng.random()
                if facing and state.can_fold() and r < (1 - loose if preflop else 0.35):
                    state.fold()
                    actions.append(f"p{p + 1} f")
                elif state.can_complete_bet_or_raise_to() and r > (0.9 if preflop else 0.75):
                    lo = state.min_completion_betting_or_raising_to_amount
                    hi = state.max_completion_betting_or_raising_to_amount
                    pot = state.total_pot_amount
                    amount = hi if rng.random() < 0.12 else min(hi, max(lo, lo + rng.randint(0, pot)))
                    if cents:
                        amount = min(hi, max(lo, amount))
                    state.complete_bet_or_raise_to(amount)
                    actions.append(f"p{p + 1} cbr {_money(amount, cents)}")
                else:
                    state.check_or_call()
                    actions.append(f"p{p + 1} cc")
            elif state.can_show_or_muck_hole_cards():
                p = state.showdown_index
                state.show_or_muck_hole_cards(True)
                actions.append(f"p{p + 1} sm {''.join(repr(c) for c in state.hole_cards[p])}")
            else:
                raise AssertionError(f"{source} {seed}: pokerkit waits for nothing it can do")
    finishing = list(state.stacks)
    m = lambda xs: "[" + ", ".join(_money(x, cents) for x in xs) + "]"
    names = rng.sample(_NAMES, n) if source != "pluribus" else list(_NAMES[:6])
    lines = [
        'variant = "NT"',
        "ante_trimming_status = true",
        f"antes = {m(antes)}",
        f"blinds_or_straddles = {m(blinds)}",
        f"min_bet = {_money(min_bet, cents)}",
        f"starting_stacks = {m(stacks)}",
        "actions = [" + ", ".join(f'"{a}"' for a in actions) + "]",
        f"hand = {seed}",
        "players = [" + ", ".join(f'"{x}"' for x in names) + "]",
        f"finishing_stacks = {m(finishing)}",
    ]
    if source == "wsop":
        lines += ['event = "Event #43: $50,000 Poker Players Championship"', "year = 2023", "month = 6",
                  f"day = {rng.randint(1, 30)}", 'venue = "Horseshoe Las Vegas"', 'currency = "USD"']
    elif source == "handhq":
        lines += ['venue = "HandHQ"', f"table = \"{rng.choice(('Aalen', 'Abakan', 'Zhytomyr'))}\"",
                  f"seat_count = {n}", "seats = [" + ", ".join(str(i + 1) for i in range(n)) + "]",
                  "year = 2009", f"month = {rng.randint(1, 12)}", f"day = {rng.randint(1, 28)}",
                  f"time = {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}",
                  'time_zone = "ET"', 'currency = "USD"']
    return "\n".join(lines) + "\n"


def real_corpus(count: int) -> list[str]:
    """`count` hands, the sources in turn (the dataset's own mix is about that even)."""
    return [real_shaped(SOURCES[i % len(SOURCES)], i // len(SOURCES)) for i in range(count)]
