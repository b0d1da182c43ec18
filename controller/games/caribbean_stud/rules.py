"""Caribbean stud poker settlement (9 NYCRR 5324.37), pure: cards and wagers in, outcomes out.

Both `tablectl settle` (record.py) and the live table (machine.py) settle a round
with `settle_round`, so a round re-settled for a dispute is settled by the code
that paid it. No I/O, no clock, no randomness; money is integer cents.
"""

from __future__ import annotations

from typing import Any

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.cards import Card, format_cards
from controller.games.caribbean_stud.floors import (   # the floors of 5324.37(g), written once (floors.py)
    SEATS as SEATS,   # 5324.37(a)(1): no more than seven betting positions (record.py, machine.py read it here)
    STUD_MIN_CONTRIBUTION_BP as MIN_CONTRIBUTION_BP,
    STUD_PAYTABLE_MINIMUM as PAYTABLE_MINIMUM,
    STUD_PROGRESSIVE_MINIMUM as PROGRESSIVE_MINIMUM,
    STUD_STRAIGHT_FLUSH_MIN_PERCENT as STRAIGHT_FLUSH_MIN_PERCENT,
)
from controller.hands import high
from controller.hands.caribbean import LOWEST_QUALIFYING
from controller.progressive import (
    Award, Fixed, Payout, PercentOfMeter, WholeMeter, contribute, pay_awards, split_at_limit,
)

CARDS_PER_HAND = 5

ANTE, BET, PROGRESSIVE = "ante", "bet", "progressive"


def paytable_key(hand: str) -> str:
    """The paytable line of a hand: a pair and a high card share "pair-or-less" (5324.37(g)(2))."""
    return "pair-or-less" if hand in ("pair", "high-card") else hand


@dataclass(frozen=True)
class ProgressiveRules:
    """The progressive of the table: stake, reset, rate and the award of each winning hand."""

    wager: int = 100
    reset: int = 1_000_000
    contribution_bp: int = 7_000
    flush: int = 5_000
    full_house: int = 10_000
    four_of_a_kind: int = 50_000
    straight_flush: Award = PercentOfMeter(10)
    limit: int | None = None   # the meter never passes it; the excess goes to the overflow (5320.8)

    @property
    def awards(self) -> dict[str, Award]:
        """The award of each level, as the meter pays them (5324.37(g)(4))."""
        return {
            "flush": Fixed(self.flush), "full-house": Fixed(self.full_house),
            "four-of-a-kind": Fixed(self.four_of_a_kind),
            "straight-flush": self.straight_flush, "royal-flush": WholeMeter(),
        }

    def to_record(self, meter: int, overflow: int = 0) -> dict[str, Any]:
        """The `rules.progressive` object of a round record (shared/spec/rounds.md); a meter with a
        limit adds it and its overflow meter before the round."""
        out: dict[str, Any] = {
            "wager": self.wager, "meter": meter, "reset": self.reset,
            "contribution_bp": self.contribution_bp, "flush": self.flush,
            "full-house": self.full_house, "four-of-a-kind": self.four_of_a_kind,
            "straight-flush": self.straight_flush.to_dict(),
        }
        if self.limit is not None:
            out.update(limit=self.limit, overflow=overflow)
        return out


@dataclass(frozen=True)
class StudRules:
    """The choices 5324.37 leaves to the gaming facility, with the spec's defaults."""

    bet_multiple: int = 2
    bet_payout_limit: int | None = None
    paytable: Mapping[str, int] = field(default_factory=lambda: MappingProxyType(dict(PAYTABLE_MINIMUM)))
    progressive: ProgressiveRules = field(default_factory=ProgressiveRules)

    def to_record(self, meter: int, overflow: int = 0) -> dict[str, Any]:
        """The `rules` object of a round record, with the meter (and its overflow) before the round."""
        return {
            "bet_multiple": self.bet_multiple, "bet_payout_limit": self.bet_payout_limit,
            "paytable": dict(self.paytable), "progressive": self.progressive.to_record(meter, overflow),
        }


def rule_violations(rules: StudRules) -> list[tuple[str, str]]:
    """(field, reason) for every choice below the regulation's floor; empty when the rules are legal.

    Shared by the record reader and the table profile check, so both refuse the same things.
    """
    out: list[tuple[str, str]] = []
    if rules.bet_multiple < 1:
        out.append(("bet_multiple", f"{rules.bet_multiple} is below 1"))
    if rules.bet_payout_limit is not None and rules.bet_payout_limit < 1:
        out.append(("bet_payout_limit", f"{rules.bet_payout_limit} is not a positive amount"))
    for key, least in PAYTABLE_MINIMUM.items():
        odds = rules.paytable.get(key)
        if odds is None:
            out.append((f"paytable.{key}", "is missing"))
        elif odds < least:
            out.append((f"paytable.{key}", f"{odds}:1 is below the minimum {least}:1 of 5324.37(g)(2)"))
    p = rules.progressive
    if p.wager < 1:
        out.append(("progressive.wager", f"{p.wager} is not a positive stake"))
    if p.limit is not None and p.limit < p.reset:
        out.append(("progressive.limit", f"{p.limit} is below the reset {p.reset} (9 NYCRR 5320.8: the meter "
                                         "restarts at its reset, which the limit must allow)"))
    if p.contribution_bp < MIN_CONTRIBUTION_BP:
        out.append(("progressive.contribution_bp",
                    f"{p.contribution_bp} bp is below the rate of progression of 70 percent "
                    f"({MIN_CONTRIBUTION_BP} bp) of 5324.37(g)(5)"))
    for key, attr in (("flush", p.flush), ("full-house", p.full_house),
                      ("four-of-a-kind", p.four_of_a_kind)):
        if attr < PROGRESSIVE_MINIMUM[key]:
            out.append((f"progressive.{key}",
                        f"{attr} is below the minimum award of {PROGRESSIVE_MINIMUM[key]} of 5324.37(g)(4)"))
    sf = p.straight_flush
    if isinstance(sf, Fixed) and sf.amount < PROGRESSIVE_MINIMUM["straight-flush"]:
        out.append(("progressive.straight-flush.fixed",
                    f"{sf.amount} is below the minimum award of "
                    f"{PROGRESSIVE_MINIMUM['straight-flush']} of 5324.37(g)(4)"))
    elif isinstance(sf, PercentOfMeter) and not STRAIGHT_FLUSH_MIN_PERCENT <= sf.percent <= 100:
        out.append(("progressive.straight-flush.percent_of_meter",
                    f"{sf.percent} is outside {STRAIGHT_FLUSH_MIN_PERCENT}..100 percent (5324.37(g)(4))"))
    elif not isinstance(sf, (Fixed, PercentOfMeter)):
        out.append(("progressive.straight-flush", "must be fixed or percent_of_meter"))
    return out


# --- 5324.37(g)(3): the payout limit's floor ----------------------------------------------

def max_round_win(min_ante: int, rules: StudRules = StudRules()) -> int:
    """The most one player can win in a round wagering the minimum ante.

    The ante pays 1:1 (5324.37(g)(1)) and the bet wager, ante x bet_multiple, at the
    best line of the paytable (a royal flush, 5324.37(g)(2)). The progressive award is
    a separate wager paid from the meter, not a bet wager payout, and is not counted.
    """
    if min_ante < 1:
        raise ValueError(f"the minimum ante must be positive, not {min_ante}")
    return min_ante + min_ante * rules.bet_multiple * max(rules.paytable.values())


def payout_limit_floor(minimum_amount: int, min_ante: int, rules: StudRules = StudRules()) -> int:
    """The least payout limit 5324.37(g)(3) allows: the greater of the minimum amount and
    the most one player could win in a round at the minimum wager."""
    return max(minimum_amount, max_round_win(min_ante, rules))


# --- one hand ---------------------------------------------------------------------------

def qualifies(dealer_value: int) -> bool:
    """Ace-king or better (5324.37(e)(4)); see controller.hands.caribbean."""
    return dealer_value >= LOWEST_QUALIFYING


def bet_payout(stake: int, hand: str, rules: StudRules) -> int:
    """What a winning bet wager is paid: the paytable odds, capped by the payout limit (5324.37(g)(2)-(3))."""
    won = stake * rules.paytable[paytable_key(hand)]
    limit = rules.bet_payout_limit
    return won if limit is None or won <= limit else limit


def settle_hand(ante: int, bets: bool, player_value: int, dealer_value: int,
                rules: StudRules) -> tuple[tuple[str, int], tuple[str, int] | None]:
    """(ante outcome, net) and (bet outcome, net) or None after a fold.

    5324.37(e)(1): a fold forfeits the ante. (e)(5): a dealer without ace-king pays the
    ante 1:1 and the bet is void. (e)(4): otherwise the higher hand wins, the ante at
    1:1 and the bet by the paytable; identical hands push.
    """
    if not bets:
        return ("lose", -ante), None
    stake = ante * rules.bet_multiple
    if dealer_value < LOWEST_QUALIFYING:
        return ("win", ante), ("void", 0)
    if player_value > dealer_value:
        return ("win", ante), ("win", bet_payout(stake, high.category(player_value), rules))
    if player_value < dealer_value:
        return ("lose", -ante), ("lose", -stake)
    return ("push", 0), ("push", 0)


# --- one round --------------------------------------------------------------------------

@dataclass(frozen=True)
class SeatHand:
    """One seat as dealt: `decision` is "bet", "fold", or None for a void hand that never decided."""

    seat: int
    ante: int
    cards: tuple[Card, ...]
    decision: str | None
    progressive: bool = False


@dataclass(frozen=True)
class RoundResult:
    """The settled round as the spec prints it, and the meter's carry for the live table."""

    output: dict[str, Any]
    carry: int
    payout: Payout | None
    progressive_stakes: tuple[int, ...]


def _wager(stake: int, outcome: str, net: int) -> dict[str, Any]:
    return {"stake": stake, "outcome": outcome, "net": net}


def settle_round(rules: StudRules, dealer: Sequence[Card], seats: Iterable[SeatHand],
                 meter: int, carry: int = 0, *, misdeal: bool = False, overflow: int = 0) -> RoundResult:
    """Settle one round (shared/spec/rounds.md, Caribbean stud).

    `meter` is the progressive meter before this round's wagers; `carry` the fraction
    of a cent the live table carries from earlier rounds (0 for a record settled alone).
    A hand of other than five cards is void (5324.37(h)); a dealer hand of other than
    five voids every hand, and so does `misdeal`, a misdeal to the dealer that the
    table declared (5324.37(h): "any other misdeal to the dealer"). A voided progressive
    wager's stake goes back but its contribution stays in the meter. With a limit, what
    would take the meter past it goes to the overflow meter (`overflow` before the round),
    which seeds the meter at its next reset up to the limit (5320.8, `overflow = "next-reset"`).
    """
    seats = sorted(seats, key=lambda s: s.seat)
    dealer = tuple(dealer)
    dealer_ok = len(dealer) == CARDS_PER_HAND and not misdeal
    dealer_out: dict[str, Any] = {"cards": format_cards(dealer)}
    if dealer:
        dealer_out["up_card"] = str(dealer[0])
    if dealer_ok:
        dealer_value = high.value(dealer)
        dealer_out["hand"] = high.category(dealer_value)
        dealer_out["qualifies"] = dealer_value >= LOWEST_QUALIFYING
    else:
        dealer_value = -1
        dealer_out["void"] = True

    p = rules.progressive
    out_seats: list[dict[str, Any]] = []
    for s in seats:
        entry: dict[str, Any] = {"seat": s.seat, "cards": format_cards(s.cards)}
        bet_stake = s.ante * rules.bet_multiple
        if not dealer_ok or len(s.cards) != CARDS_PER_HAND:
            entry["void"] = True
            entry[ANTE] = _wager(s.ante, "void", 0)
            if s.decision == "bet":
                entry[BET] = _wager(bet_stake, "void", 0)
        else:
            v = high.value(s.cards)
            entry["hand"] = high.category(v)
            (ao, an), bet = settle_hand(s.ante, s.decision == "bet", v, dealer_value, rules)
            entry[ANTE] = _wager(s.ante, ao, an)
            if bet is not None:
                entry[BET] = _wager(bet_stake, *bet)
                uncapped = bet_stake * rules.paytable[paytable_key(entry["hand"])]
                if bet[0] == "win" and uncapped > bet[1]:   # the payout limit paid less (5324.37(g)(3))
                    entry[BET].update(capped=True, uncapped=uncapped)
        out_seats.append(entry)

    output: dict[str, Any] = {"game": "caribbean-stud", "dealer": dealer_out, "seats": out_seats}
    stakes = tuple(p.wager for s in seats if s.progressive)
    if not stakes:
        return RoundResult(output, carry, None, ())

    # 5324.37(g)(5)-(6), (f)(3): contributions first, then awards seat 7 down to seat 1,
    # whatever the dealer holds; a folded or void hand wins nothing.
    added, carry = contribute(sum(stakes), p.contribution_bp, carry)
    to_meter, to_overflow = split_at_limit(meter, added, p.limit)
    awards = p.awards
    hits = [(s.seat, out_seats[i]["hand"]) for i, s in reversed(list(enumerate(seats)))
            if s.progressive and s.decision == "bet" and "hand" in out_seats[i]
            and out_seats[i]["hand"] in awards]
    payout = pay_awards(meter + to_meter, hits, awards, p.reset, overflow + to_overflow, p.limit)
    won = {paid.seat: paid.amount for paid in payout.awards}
    for s, entry in zip(seats, out_seats, strict=True):
        if not s.progressive:
            continue
        if entry.get("void"):
            entry[PROGRESSIVE] = _wager(p.wager, "void", 0)
        elif s.seat in won:
            entry[PROGRESSIVE] = {**_wager(p.wager, "win", won[s.seat] - p.wager), "award": won[s.seat]}
        else:
            entry[PROGRESSIVE] = _wager(p.wager, "lose", -p.wager)
    output["progressive"] = {
        "meter_before": meter, "contributions": added, "meter_after": payout.meter_after,
        "awards": [paid.to_dict() for paid in payout.awards],
    }
    if p.limit is not None:
        output["progressive"].update(limit=p.limit, to_overflow=to_overflow, overflow_before=overflow,
                                     overflow_after=overflow + to_overflow - payout.from_overflow,
                                     from_overflow=payout.from_overflow)
    return RoundResult(output, carry, payout, stakes)


# -- refused wins (5324.37(f)(2); issue 29) ----------------------------------------------------

REFUSED = "refused"
# What a refused royal flush does to the meter, chosen and said in the refusal's confirmation: the
# share it was paid goes back on top of the meter as it restarted, and the reset seed is KEPT. Why:
# the restart may already have paid another royal of the round, and the seed, once in the meter,
# is the players' money (5324.37(g)(5)-(6)), so withdrawing it would take from the players to undo
# the house's mistake; no player's cent is lost either way. With a limit, what the returned share
# would take past the limit goes to the overflow meter, like any contribution.
SEED_ON_REFUSAL = ("the reset seed stays in the meter (once in the meter it is the players' money, and the "
                   "restart may have paid another royal of the round)")


def refund(meter: int, overflow: int, award: int, from_meter: bool, limit: int | None) -> tuple[int, int, int]:
    """(meter, overflow, cents returned) after a refused award: an award the meter paid goes back into it,
    up to its limit, the rest into the overflow; a fixed award (the house's) returns nothing."""
    if not from_meter:
        return meter, overflow, 0
    to_meter, to_overflow = split_at_limit(meter, award, limit)
    return meter + to_meter, overflow + to_overflow, award


def with_refusals(output: Mapping[str, Any], refused: Mapping[int, str], rules: StudRules) -> dict[str, Any]:
    """The settled round as it was paid once the supervisors decided: each refused seat's progressive
    wager lost (its stake collected, no award: not paid, not a hit, not in the players' net), the
    awards the meter paid at the settlement kept as they moved it, the refusals listed with what went
    back, and the meter after them. `refused`: seat -> the reason. Shared by the table's record,
    `tablectl settle` (a record's seats' `progressive_refused`) and the ledger."""
    out = copy.deepcopy(dict(output))
    prog = out.get("progressive")
    if not refused or not prog or prog.get("pool"):
        return out
    p = rules.progressive
    meter, overflow = prog["meter_after"], prog.get("overflow_after", 0)
    listed = []
    for award in prog["awards"]:
        seat = award["seat"]
        if seat not in refused:
            continue
        from_meter = not isinstance(p.awards.get(award["hand"]), Fixed)
        before = meter
        meter, overflow, returned = refund(meter, overflow, award["amount"], from_meter, p.limit)
        listed.append({**award, "reason": refused[seat], "returned": returned, "meter_before": before,
                       "meter_after": meter})
    for entry in out["seats"]:
        w = entry.get(PROGRESSIVE)
        if entry["seat"] in refused and w is not None and w["outcome"] == "win":
            entry[PROGRESSIVE] = {**_wager(w["stake"], REFUSED, -w["stake"]), "refused_award": w["award"],
                                  "reason": refused[entry["seat"]]}
    prog["refused"] = listed
    prog["meter_after_refusals"] = meter
    if "overflow_after" in prog:
        prog["overflow_after_refusals"] = overflow
    return out


def settlement_steps(output: Mapping[str, Any], *, folds_collected: bool = False) -> list[dict[str, Any]]:
    """The dealer's order of settlement (5324.37(e)(4)-(5)): collect every losing wager,
    then the pushes (and voids), then pay the winners, each pass from seat 7 to seat 1.

    Progressive stakes are collected with the losing wagers (the stake is always
    collected); progressive awards are not here: they wait for a supervisor's
    validation (5324.37(f)(2)). With `folds_collected`, the antes the dealer already
    took at the fold (5324.37(e)(1)) are left out.
    """
    order = sorted(output["seats"], key=lambda s: -s["seat"])
    collect, returned, pay = [], [], []
    for s in order:
        folded = "bet" not in s and not s.get("void")
        for name in (ANTE, BET, PROGRESSIVE):
            w = s.get(name)
            if w is None:
                continue
            if name == PROGRESSIVE and w["outcome"] != "void":
                collect.append({"step": "collect", "seat": s["seat"], "wager": name, "amount": w["stake"]})
            elif w["outcome"] == "lose":
                if not (folds_collected and folded and name == ANTE):
                    collect.append({"step": "collect", "seat": s["seat"], "wager": name, "amount": -w["net"]})
            elif w["outcome"] in ("push", "void"):
                returned.append({"step": w["outcome"], "seat": s["seat"], "wager": name, "amount": w["stake"]})
            elif w["outcome"] == "win":
                capped = {"capped": True, "uncapped": w["uncapped"]} if w.get("capped") else {}
                pay.append({"step": "pay", "seat": s["seat"], "wager": name, "amount": w["net"], **capped})
    return collect + returned + pay


# -- a linked progressive (issue 10) ---------------------------------------------------------------

CLAIMED = "claimed"


def claim_linked(rules: StudRules, output: Mapping[str, Any], progressive_seats: Iterable[int],
                 decisions: Mapping[int, str], pool: str) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A round on a linked progressive, settled without the table's meter.

    The progressive wagers' contributions went to the pool at the lock-out, and the
    pool's one meter, not the table's, pays every hit, in the order the database
    commits the claims (9 NYCRR 5321.18(b)(3)(iii)). So `output` is the base game
    settled alone; each progressive wager is added: void with a void hand, a hit
    (a winning hand of a seat that bet, 5324.37(f)(3), (g)(4)) `claimed` until the
    pool's award is known, otherwise lost. Returns the output and the hits in
    payment order (seat 7 down to seat 1, 5324.37(e)(4)).
    """
    p = rules.progressive
    out = copy.deepcopy(dict(output))
    wagered = set(progressive_seats)
    hits: list[tuple[int, str]] = []
    for entry in sorted(out["seats"], key=lambda s: -s["seat"]):
        if entry["seat"] not in wagered:
            continue
        if entry.get("void"):
            entry[PROGRESSIVE] = _wager(p.wager, "void", 0)
        elif decisions.get(entry["seat"]) == "bet" and entry.get("hand") in p.awards:
            entry[PROGRESSIVE] = _wager(p.wager, CLAIMED, -p.wager)
            hits.append((entry["seat"], entry["hand"]))
        else:
            entry[PROGRESSIVE] = _wager(p.wager, "lose", -p.wager)
    if wagered:
        out["progressive"] = {"pool": pool, "claimed": [{"seat": s, "hand": h} for s, h in hits], "awards": []}
    return out, hits


def with_pool_awards(output: Mapping[str, Any], awards: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The linked round's output once the pool has answered its claim: each claimed seat wins
    what the pool paid it (`awards` as the pool gave them, each with seat, hand and amount)."""
    out = copy.deepcopy(dict(output))
    paid = {a["seat"]: a for a in awards}
    for entry in out["seats"]:
        w = entry.get(PROGRESSIVE)
        if w is not None and w["outcome"] == CLAIMED:
            amount = paid[entry["seat"]]["amount"]
            entry[PROGRESSIVE] = {**_wager(w["stake"], "win", amount - w["stake"]), "award": amount}
    out["progressive"] = {**out["progressive"], "awards": [dict(a) for a in awards]}
    return out


def base_game(output: Mapping[str, Any]) -> dict[str, Any]:
    """A linked round's output without its progressive part: what its record re-settles to."""
    out = copy.deepcopy(dict(output))
    out.pop("progressive", None)
    for entry in out["seats"]:
        entry.pop(PROGRESSIVE, None)
    return out
