"""The progressive block of a table on a linked progressive: what its journal holds about its pool.

The pool (controller/link) keeps the meter, in PostgreSQL; the table keeps none,
so its figures are its own share of the pool's books, read from its journal:

- contributions: what the table's rounds put in, each counted in the period its
  lock-out asked for it (`link-op`), at the exact units the pool confirmed
  (`link-confirm`), added up in ten-thousandths of a cent and given in whole cents
  (the pool's meter carries the fraction the same way). A contribution the pool has
  not confirmed by the period's end is still the table's (the outbox sends it, the
  pool counts it once by its key, 5321.18(c)): it is counted at the units per wager
  of the last contribution the pool confirmed, and `unconfirmed` says how many were
  so counted; with no confirmation in the journal at all its amount is unknown and
  it is only in `unconfirmed`;
- awards: the round records' pool awards, paid when a supervisor validated them,
  not paid when one refused (5324.37(f)(2)), from the meter or by the house as the
  pool said; hits per hand are the paid ones, as the pool's `hits_per_level`;
- meter at open and close: the pool's meter as the journal last knew it before
  each, from the pool's answers to the table's contributions and claims; null when
  no answer is journaled (a settlement's answer carries no meter after it);
- seeded and corrections: the pool's own books (`tablectl link show`), 0 here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.report.facts import UNITS_PER_CENT


class LinkedProgressive:
    """Takes a linked table's facts in journal order (those at or after the period's end left out)."""

    def __init__(self, start: str, *, series: bool = False) -> None:
        self.start = start
        self.series = series
        self.pool: str | None = None
        self.asked: dict[str, int] = {}                    # contributions asked, not yet confirmed: ident -> wagers
        self.period: dict[str, int | None] = {}            # the period's contributions: ident -> units (None: unconfirmed)
        self.per_wager: int | None = None                  # units a wager contributed, as last confirmed
        self.meter_open: int | None = None
        self.meter_close: int | None = None
        self.awards = {"awards_meter": 0, "awards_house": 0}
        self.hits: dict[str, int] = {}
        self.readings: list[list[str | int]] = []   # [at, meter]

    def take(self, f: Mapping[str, Any]) -> None:
        # Any: a report fact is the journal's JSON read by key, as report.py's take reads it
        at, kind = f["at"], f["fact"]
        if f.get("pool"):
            self.pool = f["pool"]
        if kind == "round":
            if at >= self.start:
                self._round(f)
        elif kind == "link" and "seats" in f:   # asked at the lock-out
            self.asked[f["ident"]] = len(f["seats"])
            if at >= self.start:
                self.period[f["ident"]] = None
        elif kind == "link" and f.get("confirmed"):
            if f["op"] == "contribution":
                wagers = self.asked.pop(f["ident"], None)
                if wagers:
                    self.per_wager = f["units"] // wagers
                if f["ident"] in self.period:
                    self.period[f["ident"]] = f["units"]
            self._reading(at, f.get("meter"))

    def _round(self, f: Mapping[str, Any]) -> None:
        for a in f.get("pool_awards", []):
            if not a["paid"]:
                continue
            self.awards["awards_meter" if a["from_meter"] else "awards_house"] += a["amount"]
            self.hits[a["hand"]] = self.hits.get(a["hand"], 0) + 1

    def _reading(self, at: str, meter: int | None) -> None:
        if meter is None:
            return
        if at < self.start:
            self.meter_open = meter
        elif self.series:
            self.readings.append([at, meter])
        self.meter_close = meter

    def block(self) -> dict[str, Any]:
        """The README's progressive block, with the pool's name, the exact units and the unconfirmed count."""
        units, unconfirmed = 0, 0
        for ident, u in self.period.items():
            if u is None:
                unconfirmed += 1
                if self.per_wager is not None:
                    units += self.per_wager * self.asked.get(ident, 0)
            else:
                units += u
        out: dict[str, Any] = {
            "pool": self.pool, "meter_open": self.meter_open, "meter_close": self.meter_close,
            "contributions": units // UNITS_PER_CENT, **self.awards, "seeded": 0, "corrections": 0,
            "hits": dict(sorted(self.hits.items())), "correction_list": [],
            "contribution_units": units, "unconfirmed": unconfirmed}
        if self.series:
            out["readings"] = self.readings
        return out
