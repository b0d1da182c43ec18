"""Round records of Caribbean stud poker (shared/spec/rounds.md): read strictly, then settle.

`settle_record` is what `tablectl settle` calls; the round machine writes the same
record and settles it through `settle` with the meter's carried fraction of a cent.
Every refusal is a RecordError whose path names the field (down to the card:
`seats[1].cards[4]: 7s appears twice`), so the first words of the message say where.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.cards import Card
from controller.progressive import Award, Fixed, PercentOfMeter
from controller.records import (
    RecordError, expect_bool, expect_card, expect_choice, expect_int, expect_list, expect_object,
    expect_stake, join,
)

from . import deal as dealing
from controller.games.caribbean_stud.floors import STUD_PAYTABLE_MINIMUM as PAYTABLE_MINIMUM

from .rules import (
    SEATS, ProgressiveRules, RoundResult, SeatHand, StudRules, rule_violations,
    settle_round, with_refusals,
)

GAME = "caribbean-stud"
TOP_FIELDS = ("game", "rules", "dealer", "seats", "shoe", "dealing")
RULE_FIELDS = ("bet_multiple", "bet_payout_limit", "paytable", "progressive")
PROGRESSIVE_FIELDS = ("wager", "meter", "reset", "contribution_bp", "flush", "full-house",
                      "four-of-a-kind", "straight-flush", "limit", "overflow")
SEAT_FIELDS = ("seat", "ante", "progressive", "decision", "cards", "progressive_refused")
DECISIONS = ("bet", "fold")
DEFAULT_METER = 2_500_000


@dataclass(frozen=True)
class RoundRecord:
    """A record read and checked: the rules, the meter before the round, and the hands as dealt."""

    rules: StudRules
    meter: int
    dealer: tuple[Card, ...]
    seats: tuple[SeatHand, ...]


# --- cards ------------------------------------------------------------------------------

def read_cards(value: Any, path: str, seen: dict[Card, str]) -> list[Card]:
    """A list of cards; a card already seen anywhere in the record is refused, naming both places."""
    expect_list(value, path)
    cards = []
    for i, token in enumerate(value):
        where = f"{path}[{i}]"
        c = expect_card(token, where)
        if c in seen:
            raise RecordError(where, f"{c} appears twice (also at {seen[c]})")
        seen[c] = where
        cards.append(c)
    return cards


# --- rules ------------------------------------------------------------------------------

def _read_straight_flush(value: Any, path: str) -> Award:
    expect_object(value, path, ("percent_of_meter", "fixed"))
    if len(value) != 1:
        raise RecordError(path, 'must be {"percent_of_meter": N} or {"fixed": CENTS}')
    if "fixed" in value:
        return Fixed(expect_stake(value["fixed"], join(path, "fixed")))
    return PercentOfMeter(expect_int(value["percent_of_meter"], join(path, "percent_of_meter")))


def read_rules(value: Any, path: str = "rules") -> tuple[StudRules, int]:
    """The rules and the meter before the round; defaults as the spec gives them."""
    value = expect_object(value, path, RULE_FIELDS)
    base = StudRules()
    bet_multiple = base.bet_multiple
    if "bet_multiple" in value:
        bet_multiple = expect_int(value["bet_multiple"], join(path, "bet_multiple"), minimum=1)
    limit = None
    if value.get("bet_payout_limit") is not None:
        limit = expect_stake(value["bet_payout_limit"], join(path, "bet_payout_limit"))
    paytable = dict(base.paytable)
    if "paytable" in value:
        ppath = join(path, "paytable")
        given = expect_object(value["paytable"], ppath, PAYTABLE_MINIMUM)
        for key, odds in given.items():
            paytable[key] = expect_int(odds, join(ppath, key))

    meter = DEFAULT_METER
    p = base.progressive
    fields: dict[str, Any] = {}
    if "progressive" in value:
        ppath = join(path, "progressive")
        given = expect_object(value["progressive"], ppath, PROGRESSIVE_FIELDS)
        if "wager" in given:
            fields["wager"] = expect_stake(given["wager"], join(ppath, "wager"))
        if "meter" in given:
            meter = expect_int(given["meter"], join(ppath, "meter"), minimum=0)
        if "reset" in given:
            fields["reset"] = expect_int(given["reset"], join(ppath, "reset"), minimum=0)
        if "contribution_bp" in given:
            fields["contribution_bp"] = expect_int(given["contribution_bp"], join(ppath, "contribution_bp"),
                                                   maximum=10_000)
        for key, attr in (("flush", "flush"), ("full-house", "full_house"),
                          ("four-of-a-kind", "four_of_a_kind")):
            if key in given:
                fields[attr] = expect_int(given[key], join(ppath, key))
        if given.get("limit") is not None:
            fields["limit"] = expect_int(given["limit"], join(ppath, "limit"), minimum=0)
        if "overflow" in given and "limit" not in given:
            raise RecordError(join(ppath, "overflow"), "an overflow meter goes with a limit")
        if "straight-flush" in given:
            fields["straight_flush"] = _read_straight_flush(given["straight-flush"],
                                                            join(ppath, "straight-flush"))
    rules = StudRules(bet_multiple=bet_multiple, bet_payout_limit=limit, paytable=paytable,
                      progressive=ProgressiveRules(**{**p.__dict__, **fields}))
    for field_path, reason in rule_violations(rules):
        raise RecordError(join(path, field_path), reason)
    return rules, meter


# --- the record -------------------------------------------------------------------------

def read_record(record: Any, *, misdeal: bool = False) -> RoundRecord:
    """Check every field of a record and deal its shoe if it has one.

    `misdeal`: the table declared a misdeal to the dealer, so no hand needed a decision.
    """
    expect_object(record, "", TOP_FIELDS, required=("game", "seats"))
    expect_choice(record["game"], "game", (GAME,))
    rules, meter = read_rules(record["rules"]) if "rules" in record else (StudRules(), DEFAULT_METER)

    has_shoe = "shoe" in record
    if has_shoe:
        if "dealer" in record:
            raise RecordError("dealer", "not allowed with a shoe: the dealer's hand is dealt from it")
        if "dealing" not in record:
            raise RecordError("dealing", "is required with a shoe (manual or automated)")
        mode = expect_choice(record["dealing"], "dealing", dealing.MODES)
    else:
        if "dealing" in record:
            raise RecordError("dealing", "only with a shoe")
        if "dealer" not in record:
            raise RecordError("dealer", "is required (or a shoe and its dealing)")

    seen: dict[Card, str] = {}
    dealer: list[Card] = []
    keys = list(record)
    dealer_first = "dealer" in record and keys.index("dealer") < keys.index("seats")
    if dealer_first:
        dealer = read_cards(record["dealer"], "dealer", seen)

    raw_seats = expect_list(record["seats"], "seats")
    if not raw_seats:
        raise RecordError("seats", "a round needs at least one seat with an ante")
    seats: list[dict[str, Any]] = []
    taken: dict[int, str] = {}
    for i, raw in enumerate(raw_seats):
        path = f"seats[{i}]"
        expect_object(raw, path, SEAT_FIELDS, required=("seat", "ante"))
        number = expect_int(raw["seat"], join(path, "seat"), minimum=SEATS.start, maximum=SEATS.stop - 1)
        if number in taken:
            raise RecordError(join(path, "seat"), f"seat {number} appears twice (also {taken[number]})")
        taken[number] = path
        ante = expect_stake(raw["ante"], join(path, "ante"))
        progressive = expect_bool(raw["progressive"], join(path, "progressive")) if "progressive" in raw else False
        cards = None
        if has_shoe:
            if "cards" in raw:
                raise RecordError(join(path, "cards"), "not allowed with a shoe: the hands are dealt from it")
        elif "cards" not in raw:
            raise RecordError(join(path, "cards"), "is required (or a shoe)")
        else:
            cards = read_cards(raw["cards"], join(path, "cards"), seen)
        decision = None
        if "decision" in raw:
            decision = expect_choice(raw["decision"], join(path, "decision"), DECISIONS)
        seats.append({"seat": number, "ante": ante, "cards": cards, "decision": decision,
                      "progressive": progressive, "path": path})

    if "dealer" in record and not dealer_first:
        dealer = read_cards(record["dealer"], "dealer", seen)
    # A void hand (5324.37(h)) never gets to decide, nor does any hand of a voided round;
    # every other hand bets or folds (5324.37(e)(1)).
    round_void = misdeal or (not has_shoe and len(dealer) != dealing.CARDS_PER_HAND)
    for s in seats:
        if s["decision"] is None and not round_void and (
                s["cards"] is None or len(s["cards"]) == dealing.CARDS_PER_HAND):
            raise RecordError(join(s["path"], "decision"), "is required (bet or fold)")
    if has_shoe:
        shoe = read_cards(record["shoe"], "shoe", {})
        need = dealing.cards_needed(len(seats))
        if len(shoe) < need:
            raise RecordError("shoe", f"{len(shoe)} cards is too few: dealing {len(seats)} seat(s) "
                                      f"and the dealer needs {need}")
        hands, dealer = dealing.deal(shoe, [s["seat"] for s in seats], mode)
        for s in seats:
            s["cards"] = hands[s["seat"]]
    return RoundRecord(rules, meter, tuple(dealer),
                       tuple(SeatHand(s["seat"], s["ante"], tuple(s["cards"]), s["decision"], s["progressive"])
                             for s in seats))


def read_overflow(record: Any) -> int:
    """The overflow meter before the round (rules.progressive.overflow; 0 when absent), once the record is read."""
    prog = ((record.get("rules") or {}).get("progressive") or {}) if isinstance(record, dict) else {}
    if "overflow" not in prog:
        return 0
    return expect_int(prog["overflow"], "rules.progressive.overflow", minimum=0)


def settle(record: Any, carry: int = 0, *, misdeal: bool = False) -> RoundResult:
    """Read and settle a record; `carry` is the live meter's fraction of a cent (rounds.md),
    `misdeal` a dealer misdeal the table declared, which voids every hand (5324.37(h))."""
    r = read_record(record, misdeal=misdeal)
    return settle_round(r.rules, r.dealer, r.seats, r.meter, carry, misdeal=misdeal, overflow=read_overflow(record))


def refusals(record: Mapping[str, Any]) -> dict[int, str]:
    """Seat -> why its progressive win was refused (a seat's `progressive_refused`, issue 29)."""
    out = {}
    for i, s in enumerate(record.get("seats") or []):
        if isinstance(s, dict) and "progressive_refused" in s:
            reason = s["progressive_refused"]
            if not isinstance(reason, str) or not reason.strip():
                raise RecordError(f"seats[{i}].progressive_refused", "is the reason the win was refused")
            out[s["seat"]] = reason
    return out


def settle_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """`tablectl settle` for "caribbean-stud": the settled round as shared/spec/rounds.md prints it; a
    seat whose progressive win a supervisor refused (`progressive_refused`) is not paid (with_refusals)."""
    r = settle(record)
    refused = refusals(record)
    if not refused:
        return r.output
    rules, _ = read_rules(record["rules"]) if "rules" in record else (StudRules(), DEFAULT_METER)
    for seat in refused:
        if not any(a["seat"] == seat for a in (r.output.get("progressive") or {}).get("awards", [])):
            raise RecordError("seats", f"seat {seat}'s progressive win is refused, but the round awards it none")
    return with_refusals(r.output, refused, rules)
