"""The dealer's pay list: the settlement steps with the progressive awards among them.

The round record keeps the base game's steps (rules.settlement_steps) and the
progressive awards apart, because an award is only owed once a supervisor has
validated it (5324.37(f)(2)). The dealer pays from one list, though, so a
$25,001.40 royal must stand in it beside the ante and the bet: here each award
is put in the pay pass at its seat (the pass runs seat 7 to seat 1, 5324.37(e)(4)-(5)),
after that seat's ante and bet, paid before the cards are collected (f)(1).
A win still waiting for its supervisor is listed as waiting; a refused one is not paid. A seat held
for a hand-pay's form (issue 29) has each of its pays listed as held until a supervisor fills it in.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games.game import Json, Record

WAITING = "waiting"   # a win listed, not yet owed: the supervisor has not validated it
HELD = "held"         # a hand-pay's pay, not paid until its tax form is done (controller/games/handpay.py)
METER, FIXED = "meter", "fixed"


def pay_list(steps: list[dict[str, Json]], awards: Mapping[int, Record], validated: Mapping[int, str],
             refused: Mapping[int, object], sources: Mapping[int, str],
             held: frozenset[int] = frozenset()) -> list[dict[str, Json]]:
    """`steps` (collect, push, pay) with each undecided or validated award as one more pay step.

    `awards`: seat -> {"hand", "award"} (award None: a linked pool has not answered);
    `sources`: seat -> METER (the award came off the progressive meter) or FIXED; `held`: the seats
    whose pays wait for a hand-pay's form.
    """
    extra: list[dict[str, Json]] = []
    for seat in sorted(awards, reverse=True):
        if seat in refused:
            continue
        a = awards[seat]
        extra.append({"step": "pay" if seat in validated else WAITING, "seat": seat, "wager": "progressive",
                      "amount": a["award"], "hand": a["hand"], "source": sources.get(seat, METER),
                      **({"validated_by": validated[seat]} if seat in validated else {})})
    out: list[dict[str, Json]] = []
    pays = [s for s in steps if s["step"] == "pay"]
    out += [s for s in steps if s["step"] != "pay"]
    for seat in sorted({_seat(s) for s in pays} | {_seat(a) for a in extra}, reverse=True):
        mine = [s for s in pays if s["seat"] == seat] + [a for a in extra if a["seat"] == seat]
        out += [{**s, "step": HELD} if seat in held and s["step"] == "pay" else s for s in mine]
    return out


def _seat(step: Record) -> int:
    seat = step["seat"]
    assert isinstance(seat, int)   # a pay step's seat is its number (rules.settlement_steps, the awards above)
    return seat
