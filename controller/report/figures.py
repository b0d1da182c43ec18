"""The facts of a period added up: the JSON contract of `tablectl report --json` (README.md).

Pure functions of facts, so one table's report, the screen's figures and the
floor's totals are the same sums. `house_win` is what the players lost net:
positive when the house won, plus what the house took beyond the wagers as a
game's section says (a poker table's rake and time charges; the jackpot drop is
held for the players and shown on its own).

What only a game knows (a progressive's meter or its pool, a poker table's rake)
is that game's section of the report (controller/games/game.py ReportSection,
from its books): each table's figures carry every game's section under its name,
null where the table has none of it. Hours are the
casino's: a round falls in the local hour it was played in (the profile's
`timezone`), named by that hour's start as an instant, so a zone half an hour off
UTC, or a day with a clock change, gets its own hours.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from controller.games import registry
from controller.games.game import ReportSection
from controller.par.hold import HoldTally, Unit

MONEY = ("handle", "paid", "house_win")


def hold_bp(house_win: int, handle: int) -> int | None:
    """Hold in basis points of the handle (integer: 1234 is 12.34 %), or None without handle."""
    if handle == 0:
        return None
    bp = (abs(house_win) * 10_000) // handle   # toward zero, so -0.5 % does not print as -1.5 %
    return -bp if house_win < 0 else bp


def hour_of(at: str, zone: str = "UTC") -> str:
    """The casino's hour an ISO time falls in, as the instant that hour started on its clock
    ('2026-12-01T15:30:00Z' for 21:00 in Asia/Kolkata). Keyed by the minute: zones are offset by
    whole minutes, so every time of a minute falls in the same hour (and a year of rounds costs a
    few thousand conversions, not one each)."""
    return _hour_of_minute(at[:16], zone)


@lru_cache(maxsize=8192)
def _hour_of_minute(minute: str, zone: str) -> str:
    t = datetime.fromisoformat(minute + ":00+00:00")
    local = t.astimezone(ZoneInfo(zone))
    # the local clock's minutes taken off the instant: the instant it last read HH:00 (on a day
    # whose clock goes back, the two 01:00 hours are two instants, two hours of the report)
    return (t - timedelta(minutes=local.minute)).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def sections() -> tuple[ReportSection, ...]:
    """Every game's sections of a table's report, in the registry's order: each table's figures carry
    every section (null where the table has none of it), so one contract fits every table."""
    return tuple(section for g in registry.games() for section in g.books.report)


def table_report(facts: Iterable[dict], table: str, game: str | None, start: str, end: str,
                 *, series: bool = False, zone: str = "UTC", par: Mapping[str, Unit] | None = None) -> dict:
    """One table's figures for [start, end) (ISO UTC, as the journal writes times), hours on the
    clock of `zone` (the casino's time zone).

    Facts before `start` only set what a game's section carries into the period (a meter at open);
    `series` adds the section's readings over the period for the screen's chart; `par` (the game's
    sheet's units, controller/par/hold.py) holds the period's result against the exact par (`par`:
    null without it)."""
    tally = TableTally(table, game, start, end, series=series, zone=zone, par=par)
    for f in facts:
        tally.take(f)
    return tally.report()


class TableTally:
    """table_report as a fold: facts taken one by one, in journal order, the figures asked for at any time
    (the floor view takes only each table's new facts at each read: controller/floor/serve.py)."""

    def __init__(self, table: str, game: str | None, start: str, end: str, *, series: bool = False,
                 zone: str = "UTC", par: Mapping[str, Unit] | None = None) -> None:
        from controller.report.dealers import DealersTally
        self.table, self.game, self.start, self.end, self.zone = table, game, start, end, zone
        self.wagers: dict[str, dict[str, int]] = {}
        self.hours: dict[str, dict[str, int]] = {}
        self.events: list[dict] = []
        self.tallies = [(s.name, s.tally(start, series)) for s in sections()]
        self.dealers = DealersTally(par)   # who dealt the rounds (controller/report/dealers.py)
        self.takes = [t.take for _, t in self.tallies]
        self.taken = 0   # what the house took beyond the wagers (a poker hand's rake), as the games' sections say
        self.rounds = self.voided = 0
        self.held = HoldTally(par) if par else None
        self.acts: list[dict] = []   # the table's books in the period (controller/pit/books.py)
        self.hand_pays: list[dict] = []   # issue 29: the hand-pays' forms (a banked game's), the player's id masked

    def take(self, f: dict[str, Any]) -> None:
        at = f["at"]
        kind = f["fact"]
        if at >= self.end:   # not `return` for good: a clock set back writes a later entry with an earlier time
            return
        in_period = at >= self.start
        take = 0
        for t in self.takes:
            take += t(f, in_period)
        self.dealers.take(f, in_period, take)
        if f.get("game") and self.game is None:
            self.game = f["game"]
        if not in_period:
            return
        if kind == "round":
            if f.get("void"):
                self.voided += 1
                return
            self.rounds += 1
            if self.held is not None:
                self.held.take(f)
            hour = self.hours.setdefault(hour_of(at, self.zone), {"rounds": 0, "handle": 0, "house_win": 0})
            hour["rounds"] += 1
            for name, m in f["wagers"].items():
                w = self.wagers.setdefault(name, {k: 0 for k in MONEY})
                for k in MONEY:
                    w[k] += m[k]
                hour["handle"] += m["handle"]
                hour["house_win"] += m["house_win"]
            hour["house_win"] += take
            self.taken += take
        elif kind == "pit":
            self.acts.append(dict(f))
        elif kind == "hand-pay":
            self.hand_pays.append({k: f.get(k) for k in ("at", "round", "seat", "amount", "form", "paid_by", "player")})
        elif kind == "event":
            self.events.append({k: f[k] for k in ("at", "kind", "who", "detail")} | {"round": f.get("round")})

    def report(self) -> dict:
        wagers = self.wagers
        house_win = sum(w["house_win"] for w in wagers.values()) + self.taken
        handle = sum(w["handle"] for w in wagers.values())
        out: dict[str, Any] = {
            "table": self.table, "game": self.game, "rounds": self.rounds, "voided": self.voided,
            "wagers": {name: {**w, "hold_bp": hold_bp(w["house_win"], w["handle"])} for name, w in sorted(wagers.items())},
            "handle": handle, "house_win": house_win, "hold_bp": hold_bp(house_win, handle),
            "by_hour": [{"hour": h, **v} for h, v in sorted(self.hours.items())],
            **{name: t.block(self.rounds) for name, t in self.tallies}, "events": list(self.events),
            "hand_pays": list(self.hand_pays),
            "dealers": self.dealers.block(), "par": None if self.held is None else self.held.block(),
        }
        out["pit"] = pit_block(self.acts, house_win, out["par"])
        return out


def pit_block(acts: list[dict], measured: int, par: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The count room's figures beside the box's own: the books' win (controller/pit/books.py), the
    house win the settlements give, their difference and what can make one, the exact par's figures;
    None for a period with no act of the books."""
    if not acts:
        return None
    from controller.pit.books import tally
    books = tally(acts)
    win = books["win"]
    difference = None if win is None else win - measured
    return {**books, "measured_win": measured,
            "theoretical_win": par["theoretical_win"] if par else None, "sigma": par["sigma"] if par else None,
            "difference": difference, "explained": explain(books, difference),
            "acts": len(acts)}


def explain(books: Mapping[str, Any], difference: int | None) -> str:
    """What the difference between the count room's win and the settlements' can be, in words."""
    missing = [name for name in ("opener", "closer", "drop") if books[name] is None]
    if missing:
        return "no win from the books yet: " + ", ".join(missing) + " not entered"
    if difference == 0:
        return "the books agree with every settlement the table paid"
    more = "more" if (difference or 0) > 0 else "less"
    return (f"the books show {more} than the settlements paid: a fill or a credit not recorded, chips taken "
            "from or put in the tray outside a round, a progressive award paid from the tray or the cage, "
            "a buy-in's cash not in the box, or a mistaken count")


def total(tables: list[dict]) -> dict:
    """The floor's sums of tables' figures: the same keys, added (each game's section as the game adds it)."""
    out: dict[str, Any] = {"tables": len(tables), "rounds": 0, "voided": 0, "handle": 0, "house_win": 0,
                           "wagers": {},
                           **{s.name: s.total([t.get(s.name) for t in tables]) for s in sections()}, "events": 0}
    for t in tables:
        for k in ("rounds", "voided", "handle", "house_win"):
            out[k] += t[k]
        out["events"] += len(t["events"])
        for name, w in t["wagers"].items():
            s = out["wagers"].setdefault(name, {k: 0 for k in MONEY})
            for k in MONEY:
                s[k] += w[k]
    out["hold_bp"] = hold_bp(out["house_win"], out["handle"])
    for w in out["wagers"].values():
        w["hold_bp"] = hold_bp(w["house_win"], w["handle"])
    return out


def report(period: tuple[str, str], tables: list[dict]) -> dict:
    return {"period": {"from": period[0], "to": period[1]}, "tables": tables, "total": total(tables)}
