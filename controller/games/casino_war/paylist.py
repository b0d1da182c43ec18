"""The dealer's pay list at casino war, in the two settlements of 5324.22(i)(1).

The original deal's initial and tie wagers are collected and paid when the dealer
presses Settle the first time, before any war is dealt (5324.22(i)(1)-(2)); a tie
hand's initial wager waits for the player's choice, and is settled with the war's
wagers at the second Settle (i)(3), (i)(5). So the pay list is published from the
first Settle on: the original deal's steps (`deal` "first"), and, once the war is
settled, the war's after them (`deal` "war"). Each part runs collect, push, pay. A seat held for a
hand-pay's form (issue 29) has each of its pays listed as held until a supervisor fills it in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.game import Json

WAGER_NAMES = ("initial", "tie", "war", "war_tie")
FIRST, WAR = "first", "war"
HELD = "held"   # a hand-pay's pay, not paid until its tax form is done (controller/games/handpay.py)


def pay_list(first: Mapping[int, Mapping[str, Any]], settled: Mapping[str, Any] | None,
             held: frozenset[int] = frozenset()) -> list[dict[str, Json]] | None:
    """`first`: seat -> the wagers settled on the original deal (the machine's `first`); `settled`: the
    round's whole settlement once the war is settled, else None. None before the first Settle. `held`:
    the seats whose pays wait for a hand-pay's form."""
    if settled is None and not first:
        return None
    on_first = {(int(seat), name) for seat, entry in first.items() for name in entry if name in WAGER_NAMES}
    seats = settled.get("seats", []) if settled is not None else [{"seat": s, **e} for s, e in sorted(first.items())]
    parts: dict[str, list[dict[str, Json]]] = {FIRST: [], WAR: []}
    for deal in (FIRST, WAR):
        collect, returned, pay = [], [], []
        for s in seats:
            for name in WAGER_NAMES:
                w = s.get(name)
                if w is None or ((s["seat"], name) in on_first) != (deal == FIRST):
                    continue
                step: dict[str, Json] = {"seat": s["seat"], "wager": name, "deal": deal}
                if w["net"] < 0:
                    collect.append({**step, "step": "collect", "amount": -w["net"]})
                elif w["net"] == 0:
                    returned.append({**step, "step": "push", "amount": w["stake"]})
                else:
                    pay.append({**step, "step": HELD if s["seat"] in held else "pay", "amount": w["net"]})
        parts[deal] = collect + returned + pay
    return parts[FIRST] + parts[WAR]
