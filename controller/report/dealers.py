"""The report's dealers (issue 30): who dealt the period's rounds, from the dealers' sign-ins.

A dealer signs in at the table at the start and at each rotation (controller/runtime/dealers.py,
journal kind "dealer"); every round settled until the next sign-in was dealt by them. Per dealer
the section counts the rounds and their handle and house win, as the table's figures count them,
the buy-ins keyed while they dealt (their estimated drop, controller/pit), their rounds held against the
exact par where the report has it (controller/par/hold.py), and names when they came on duty in the period. Rounds dealt before anyone signed in are under
`null` (no one): the report shows them rather than lose them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.par.hold import HoldTally, Unit

KIND = "dealer"


def dealer_fact(seq: int, at: str, payload: Any) -> dict[str, Any] | None:
    """A sign-in as the report reads it."""
    if not isinstance(payload, dict) or not isinstance(payload.get("dealer"), str):
        return None
    return {"fact": "dealer", "seq": seq, "at": at, "dealer": payload["dealer"]}


class DealersTally:
    """The period's rounds by the dealer on duty when each was settled."""

    def __init__(self, par: Mapping[str, Unit] | None = None) -> None:
        self.on_duty: str | None = None
        self.rows: dict[str | None, dict[str, Any]] = {}
        self.par = par
        self.held: dict[str | None, HoldTally] = {}

    def _row(self, dealer: str | None) -> dict[str, Any]:
        if dealer not in self.rows and self.par:
            self.held[dealer] = HoldTally(self.par)
        return self.rows.setdefault(dealer, {"dealer": dealer, "rounds": 0, "handle": 0, "house_win": 0,
                                             "estimated_drop": 0, "signed_in": []})

    def take(self, fact: dict[str, Any], in_period: bool, take: int = 0) -> None:
        """A fact in journal order (before the period too: who was on duty when it opened)."""
        if fact.get("fact") == "dealer":
            self.on_duty = fact["dealer"]
            if in_period:
                self._row(self.on_duty)["signed_in"].append(fact["at"])
        elif fact.get("fact") == "round" and in_period and not fact.get("void"):
            row = self._row(self.on_duty)
            row["rounds"] += 1
            for m in (fact.get("wagers") or {}).values():
                row["handle"] += m["handle"]
                row["house_win"] += m["house_win"]
            row["house_win"] += take
            if self.on_duty in self.held:
                self.held[self.on_duty].take(fact)
        elif fact.get("fact") == "pit" and in_period and fact.get("act") == "buy-in":
            self._row(self.on_duty)["estimated_drop"] += int(fact.get("amount") or 0)

    def block(self) -> list[dict[str, Any]]:
        """Each dealer's line, in the order they first appear in the period (no one last)."""
        for dealer, row in self.rows.items():
            if dealer in self.held:
                held = self.held[dealer].block()
                row["par"] = {k: held[k] for k in ("theoretical_win", "sigma", "measured_win", "beyond_band")}
            else:
                row["par"] = None
        named = [r for d, r in self.rows.items() if d is not None]
        return named + ([self.rows[None]] if None in self.rows else [])


def text(rows: list[dict[str, Any]], money: Any) -> list[str]:
    """The terminal's lines of the section."""
    return [f"  dealer {r['dealer'] or '(nobody signed in)'}: {r['rounds']} rounds, handle {money(r['handle'])}, "
            f"house win {money(r['house_win'])}" for r in rows]
