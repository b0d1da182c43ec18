"""The casino war round record (shared/spec/rounds.md), read strictly and settled.

`tablectl settle` and the round machine both come through `settle_record`, so
the record the table journals is settled by exactly the code a technician runs
by hand. Every refusal is a RecordError whose path names the field
(`seats[2].decision`), checked in the order the record is written: game,
rules, shoe and burn, dealer, then each seat field by field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from controller.cards import CARDS, Card
from controller.records import (RecordError, expect_card, expect_choice, expect_int,
                                expect_list, expect_object, expect_stake)

from .rules import (DECISIONS, WAR_BURNS, Rules, RulesError, SeatPlay, compare,
                    first_deal_order, settle_seat, war_deal_order)

GAME = "casino-war"
TOP_FIELDS = ("game", "rules", "dealer", "seats", "shoe", "burn")
RULE_FIELDS = ("decks", "tie_odds", "war_odds", "war_tie_odds")
DEALER_FIELDS = ("card", "war_card")
SEAT_FIELDS = ("seat", "initial", "tie", "card", "decision", "war_tie", "war_card")


def settle_record(record: Any) -> dict[str, Any]:
    """Settle one casino war round record; RecordError names the field of an invalid one."""
    expect_object(record, "", TOP_FIELDS, required=("game", "seats"))
    expect_choice(record["game"], "game", (GAME,))
    rules = read_rules(record.get("rules", {}))
    cards = _CardCount(rules.decks)
    if "shoe" in record:
        return _settle_from_shoe(record, rules, cards)
    return _settle_dealt(record, rules, cards)


def read_rules(value: Any) -> Rules:
    """The `rules` object: absent fields take the spec's defaults (the regulated minimums)."""
    expect_object(value, "rules", RULE_FIELDS)
    given = {name: expect_int(value[name], f"rules.{name}") for name in RULE_FIELDS
             if name in value}
    try:
        return Rules(**given)
    except RulesError as exc:
        raise RecordError(f"rules.{exc.field}", exc.reason) from None


class _CardCount:
    """Counts every card of the record: a shoe of `decks` decks holds each card `decks` times."""

    def __init__(self, decks: int) -> None:
        self.decks = decks
        self.seen: Counter[Any] = Counter()

    def read(self, value: Any, path: str) -> Card:
        card = expect_card(value, path)
        self.seen[card] += 1
        if self.seen[card] > self.decks:
            raise RecordError(path, f"{card} appears more than {self.decks} times; a shoe of "
                              f"{self.decks} decks holds it {self.decks} times (5324.22(c))")
        return card


def _read_seats(value: Any, *, from_shoe: bool) -> list[tuple[str, dict[str, Any]]]:
    """Seat fields that do not depend on the cards: (path, seat object) in record order."""
    expect_list(value, "seats")
    if not value:
        raise RecordError("seats", "no seat has an initial wager; a round needs at least one "
                          "(5324.22(h)(3)(i))")
    first_at: dict[int, int] = {}
    out = []
    for i, seat in enumerate(value):
        path = f"seats[{i}]"
        expect_object(seat, path, SEAT_FIELDS,
                      required=("seat", "initial") if from_shoe else ("seat", "initial", "card"))
        number = expect_int(seat["seat"], f"{path}.seat", minimum=1, maximum=7)
        if number in first_at:
            raise RecordError(f"{path}.seat", f"seat {number} appears twice "
                              f"(also seats[{first_at[number]}])")
        first_at[number] = i
        expect_stake(seat["initial"], f"{path}.initial")
        if "tie" in seat:
            expect_stake(seat["tie"], f"{path}.tie")
        if from_shoe:
            for field in ("card", "war_card"):
                if field in seat:
                    raise RecordError(f"{path}.{field}", "not allowed with a shoe: the "
                                      "settlement deals the cards from it")
        out.append((path, seat))
    return out


def _check_decision(seat: dict[str, Any], path: str, card: Card, dealer: Card, *, in_advance: bool) -> None:
    """A decision is made on a tie hand only (5324.22(i)(3)); with a shoe it may be given
    in advance and then is used only if the seat ties."""
    ties = compare(card, dealer) == 0
    if "decision" in seat:
        expect_choice(seat["decision"], f"{path}.decision", DECISIONS)
        if not ties and not in_advance:
            raise RecordError(f"{path}.decision", f"{card} does not tie the dealer's {dealer}; "
                              "surrender or war is offered only on a tie hand (5324.22(i)(3))")
    elif ties:
        raise RecordError(f"{path}.decision", f"is required: {card} ties the dealer's "
                          f"{dealer}, so the seat surrenders or goes to war (5324.22(i)(3))")
    if "war_tie" in seat:
        expect_stake(seat["war_tie"], f"{path}.war_tie")
        if seat.get("decision") != "war":
            raise RecordError(f"{path}.war_tie", "a tie wager on the war deal is offered only to "
                              "a seat that goes to war (5324.22(i)(5)); decision is not war")


def _settle_dealt(record: dict[str, Any], rules: Rules, cards: _CardCount) -> dict[str, Any]:
    """A record that gives every card dealt."""
    if "burn" in record:
        raise RecordError("burn", "only with a shoe: a record that gives the cards has no "
                          "burn cards to deal")
    if "dealer" not in record:
        raise RecordError("dealer", "is required (or a shoe to deal from)")
    dealer = expect_object(record["dealer"], "dealer", DEALER_FIELDS, required=("card",))
    dealer_card = cards.read(dealer["card"], "dealer.card")
    dealer_war = cards.read(dealer["war_card"], "dealer.war_card") if "war_card" in dealer else None
    plays = []
    at_war = None
    for path, seat in _read_seats(record["seats"], from_shoe=False):
        card = cards.read(seat["card"], f"{path}.card")
        _check_decision(seat, path, card, dealer_card, in_advance=False)
        war = seat.get("decision") == "war"
        if war:
            at_war = at_war or path
            if "war_card" not in seat:
                raise RecordError(f"{path}.war_card", "is required: the seat goes to war "
                                  "(5324.22(i)(5)(i))")
        elif "war_card" in seat:
            raise RecordError(f"{path}.war_card", "only a seat that goes to war is dealt a war card")
        war_card = cards.read(seat["war_card"], f"{path}.war_card") if war else None
        plays.append(_play(seat, card, war_card))
    if at_war and dealer_war is None:
        raise RecordError("dealer.war_card", f"is required: {at_war} goes to war (5324.22(i)(5)(i))")
    if not at_war and dealer_war is not None:
        raise RecordError("dealer.war_card", "no seat goes to war, so there is no war deal")
    return _output(plays, dealer_card, dealer_war, [], rules)


def _settle_from_shoe(record: dict[str, Any], rules: Rules, cards: _CardCount) -> dict[str, Any]:
    """A record that gives the shoe: deal by 5324.22(h)(3) and (i)(5)(i), then settle."""
    if "dealer" in record:
        raise RecordError("dealer", "not allowed with a shoe: the settlement deals the "
                          "dealer's cards from it")
    shoe = [cards.read(token, f"shoe[{i}]")
            for i, token in enumerate(expect_list(record["shoe"], "shoe"))]
    burn = expect_int(record.get("burn", 0), "burn", minimum=0, maximum=1)
    seats = _read_seats(record["seats"], from_shoe=True)
    by_number = {seat["seat"]: (path, seat) for path, seat in seats}

    order = first_deal_order(by_number, burn)
    _need(shoe, len(order), f"the original deal needs {len(order)} ({burn} burn, "
          f"{len(by_number)} seats, the dealer)")
    dealt = dict(_assign(order, shoe[:len(order)]))
    burned = shoe[:burn]
    dealer_card = dealt["dealer"]
    for path, seat in seats:
        _check_decision(seat, path, dealt[seat["seat"]], dealer_card, in_advance=True)
    at_war = [n for n, (_, seat) in sorted(by_number.items())
              if compare(dealt[n], dealer_card) == 0 and seat["decision"] == "war"]
    war_dealt: dict[int | str, Card] = {}
    if at_war:
        start = len(order)
        war_order = war_deal_order(at_war)
        _need(shoe, start + len(war_order), f"the original deal and the war deal need "
              f"{start + len(war_order)} ({burn} + {WAR_BURNS} burns, {len(by_number)} + "
              f"{len(at_war)} seats, the dealer twice)")
        war_dealt = dict(_assign(war_order, shoe[start:start + len(war_order)]))
        burned = burned + shoe[start:start + WAR_BURNS]
    plays = []
    for _, seat in seats:
        n = seat["seat"]
        ties = compare(dealt[n], dealer_card) == 0
        used = seat if ties else {k: v for k, v in seat.items()
                                  if k not in ("decision", "war_tie")}
        plays.append(_play(used, dealt[n], war_dealt.get(n)))
    return _output(plays, dealer_card, war_dealt.get("dealer"), burned, rules)


def _need(shoe: list[Any], count: int, why: str) -> None:
    if len(shoe) < count:
        raise RecordError("shoe", f"holds {len(shoe)} cards; {why}")


def _assign(order: Iterable[Sequence[Any]], cards: Iterable[Card]) -> Iterator[tuple[int | str, Card]]:
    """(seat number or "dealer", card) for each card that is not a burn card."""
    for (kind, seat), card in zip(order, cards, strict=False):
        if kind == "seat":
            yield seat, card
        elif kind == "dealer":
            yield "dealer", card


def _play(seat: dict[str, Any], card: Card, war_card: Card | None) -> SeatPlay:
    return SeatPlay(seat=seat["seat"], initial=seat["initial"], card=card, tie=seat.get("tie"),
                    decision=seat.get("decision"), war_tie=seat.get("war_tie"),
                    war_card=war_card)


def _output(plays: list[SeatPlay], dealer_card: Card, dealer_war: Card | None,
            burned: list[Card], rules: Rules) -> dict[str, Any]:
    dealer = {"card": str(dealer_card)}
    if dealer_war is not None:
        dealer["war_card"] = str(dealer_war)
    seats = [settle_seat(play, dealer_card, dealer_war, rules)
             for play in sorted(plays, key=lambda p: p.seat)]
    return {"game": GAME, "dealer": dealer, "seats": seats,
            "burned": [str(CARDS[c]) for c in burned]}
