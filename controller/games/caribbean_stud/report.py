"""Caribbean stud's section of a table's report (controller/report/figures.py): the progressive.

A table with its own meter reports the meter at the period's open and close and
how it moved (contributions, awards from the meter and by the house, the reset
seeded after a royal flush, corrections, the hits per hand); a table on a linked
progressive keeps no meter: its block is what its journal holds about its pool
(link_report.py). The floor adds the tables' blocks up, each meter's open and close
only for the tables' own meters (a pool's meter is one for all its tables).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.games.caribbean_stud.link_report import LinkedProgressive
from controller.journal.readback import money

PROGRESSIVE = ("contributions", "awards_meter", "awards_house", "seeded", "corrections")


class ProgressiveTally:
    """One table's progressive over [start, end): takes its facts in journal order (none at or after the end)."""

    def __init__(self, start: str, series: bool) -> None:
        self.series = series
        self.prog = {k: 0 for k in PROGRESSIVE}
        self.hits: dict[str, int] = {}
        self.corrections: list[dict[str, Any]] = []
        self.has_meter = False
        self.meter_last: int | None = None
        self.meter_open: int | None = None
        self.readings: list[list[Any]] = []
        self.pool = LinkedProgressive(start, series=series)
        self.waiting: dict[Any, list[dict[str, Any]]] = {}   # round -> its awards, until the round is decided
        self.refused: list[dict[str, Any]] = []
        self.linked = False   # is the last word of the journal on the table's progressive its pool's?

    def take(self, f: Mapping[str, Any], in_period: bool) -> int:
        kind = f["fact"]
        if kind == "link" or (kind in ("round", "reading") and f.get("pool")):
            self.linked = True
            self.pool.take(dict(f))
            return 0
        if kind == "round" and in_period:
            self._decided(f.get("round"))
            return 0
        if kind not in ("meter", "reading"):
            return 0
        self.has_meter, self.linked = True, False
        if not in_period:
            self.meter_last = f["amount"] if kind == "reading" else f["after"]
            return 0
        if kind == "reading":
            if self.meter_open is None:
                self.meter_open = self.meter_last if self.meter_last is not None else f["amount"]
            self.meter_last = f["amount"]
        else:
            if self.meter_open is None:
                self.meter_open = f["before"] if self.meter_last is None else self.meter_last
            self._meter(f)
            self.meter_last = f["after"]
            if self.series:
                self.readings.append([f["at"], self.meter_last])
        return 0

    def _meter(self, f: Mapping[str, Any]) -> None:
        prog, reason = self.prog, f["reason"]
        if reason == "contribution":
            prog["contributions"] += f["amount"]
        elif reason == "award":
            # Issue 29: an award is paid, and a hit, once its round is decided (validated); until then
            # it is pending, and a refused one is neither. The seed went into the meter at the restart.
            prog["seeded"] += f["seeded"] or 0
            self.waiting.setdefault(f.get("round"), []).append(dict(f))
        elif reason == "correction" and f.get("refused"):
            r = f["refused"]
            self.refused.append({"at": f["at"], "round": f.get("round"), "seat": r.get("seat"), "hand": r.get("hand"),
                                 "award": r.get("award"), "returned": f["amount"], "who": f["by"], "why": f["note"]})
            for a in self.waiting.get(f.get("round"), []):
                if a.get("seat") == r.get("seat") and a.get("hand") == r.get("hand"):
                    a["refused"] = True
            prog["corrections"] += f["after"] - f["before"]
        elif reason == "correction":
            prog["corrections"] += f["after"] - f["before"]
            self.corrections.append({"at": f["at"], "who": f["by"], "why": f["note"],
                                     "amount": f["after"] - f["before"], "round": f.get("round")})

    def _decided(self, round_id: Any) -> None:
        """The round's record: its awards validated are paid and hits; refused ones were neither."""
        for a in self.waiting.pop(round_id, []):
            if a.get("refused"):
                continue
            self.prog["awards_meter" if a["from_meter"] else "awards_house"] += a["amount"]
            if a.get("hand"):
                self.hits[a["hand"]] = self.hits.get(a["hand"], 0) + 1

    def block(self, rounds: int) -> dict[str, Any] | None:
        if self.linked:
            return self.pool.block()
        if not self.has_meter:
            return None
        meter_open = self.meter_last if self.meter_open is None else self.meter_open
        pending = [{"round": a.get("round"), "seat": a.get("seat"), "hand": a.get("hand"), "amount": a["amount"]}
                   for awards in self.waiting.values() for a in awards if not a.get("refused")]
        out: dict[str, Any] = {"meter_open": meter_open, "meter_close": self.meter_last, **self.prog,
                               "hits": dict(sorted(self.hits.items())), "correction_list": self.corrections,
                               "pending": pending, "refused": list(self.refused)}
        if self.series:
            out["readings"] = self.readings
        return out


class ProgressiveSection:
    name = "progressive"

    def tally(self, start: str, series: bool) -> ProgressiveTally:
        return ProgressiveTally(start, series)

    def total(self, blocks: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
        out = {k: 0 for k in ("meter_open", "meter_close", *PROGRESSIVE)}
        for b in blocks:
            own = not (b or {}).get("pool")
            for k in out:
                if own or k not in ("meter_open", "meter_close"):
                    out[k] += (b or {}).get(k) or 0
        return out

    def text(self, p: Mapping[str, Any]) -> list[str]:
        def meter(c: int | None) -> str:
            return "unknown" if c is None else money(c)
        pool = f" (pool {p['pool']}, its meter as the journal knew it)" if p.get("pool") else ""
        lines = [f"  progressive{pool}: meter {meter(p['meter_open'])} at open, {meter(p['meter_close'])} "
                 f"at close; contributions {money(p['contributions'])}, awards from the meter "
                 f"{money(p['awards_meter'])}, by the house {money(p['awards_house'])}, seeded "
                 f"{money(p['seeded'])}, corrections {money(p['corrections'])}"]
        if p.get("unconfirmed"):
            lines.append(f"  contributions not yet confirmed by the pool: {p['unconfirmed']}")
        if p["hits"]:
            lines.append("  hits: " + ", ".join(f"{hand} {n}" for hand, n in p["hits"].items()))
        for c in p["correction_list"]:
            lines.append(f"  correction {money(c['amount'])} at {c['at']} by {c['who']}: {c['why']}")
        for a in p.get("pending") or []:
            lines.append(f"  PENDING (not paid, not yet a hit): round {a['round']} seat {a['seat']} {a['hand']} "
                         f"{money(a['amount'])}, waiting for a supervisor")
        for r in p.get("refused") or []:
            lines.append(f"  REFUSED (not paid, not a hit): round {r['round']} seat {r['seat']} {r['hand']} "
                         f"{money(r['award'] or 0)} at {r['at']} by {r['who']}; {money(r['returned'])} back into "
                         f"the meter: {r['why']}")
        return lines

    def screen(self, p: Mapping[str, Any] | None) -> dict[str, Any]:
        if not p:
            return {"line": "", "readings": []}

        def cents(c: int | None) -> str:
            return "" if c is None else money(c)
        waiting = sum(a["amount"] for a in p.get("pending") or [])
        refused = p.get("refused") or []
        return {"line": f"Progressive: meter {cents(p['meter_open'])} at the day's start, {cents(p['meter_close'])} "
                        f"now; contributions {cents(p['contributions'])}, awards from the meter "
                        f"{cents(p['awards_meter'])}, by the house {cents(p['awards_house'])}, seeded "
                        f"{cents(p['seeded'])}, corrections {cents(p['corrections'])}"
                        + (f"; pending (not paid) {cents(waiting)}" if p.get("pending") else "")
                        + (f"; refused (not paid, not hits) {len(refused)}" if refused else ""),
                "readings": list(p.get("readings") or [])}


SECTION = ProgressiveSection()
