"""The facts of a period added up: the JSON contract of `tablectl report --json` (README.md).

Pure functions of facts, so one table's report, the screen's figures and the
floor's totals are the same sums. `house_win` is what the players lost net:
positive when the house won. A poker table's house win is what the house took
(rake and time charges); the jackpot drop is held for the players and shown on
its own.

A table on a linked progressive has no meter of its own: its `progressive` block
is what its journal holds about its pool (linked.py below). Hours are the
casino's: a round falls in the local hour it was played in (the profile's
`timezone`), named by that hour's start as an instant, so a zone half an hour off
UTC, or a day with a clock change, gets its own hours.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from controller.games.caribbean_stud.link_report import LinkedProgressive

MONEY = ("handle", "paid", "house_win")
PROGRESSIVE = ("contributions", "awards_meter", "awards_house", "seeded", "corrections")
POKER = ("rake", "time_charges", "jackpot_drop")


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


def table_report(facts: Iterable[dict], table: str, game: str | None, start: str, end: str,
                 *, series: bool = False, zone: str = "UTC") -> dict:
    """One table's figures for [start, end) (ISO UTC, as the journal writes times), hours on the
    clock of `zone` (the casino's time zone).

    Facts before `start` only set the meter at open; `series` adds the meter's readings over the
    period for the screen's chart."""
    wagers: dict[str, dict[str, int]] = {}
    hours: dict[str, dict[str, int]] = {}
    events: list[dict] = []
    prog = {k: 0 for k in PROGRESSIVE}
    hits: dict[str, int] = {}
    corrections: list[dict] = []
    poker: dict[str, Any] = {"hands": 0, **{k: 0 for k in POKER}, "rake_by_method": {}, "qualifying_hands": 0}
    rounds = voided = 0
    has_meter = is_poker = False
    meter_last: int | None = None
    meter_open: int | None = None
    readings: list[list] = []
    pool = LinkedProgressive(start, series=series)
    linked = False   # is the last word of the journal on the table's progressive its pool's?
    for f in facts:
        at = f["at"]
        kind = f["fact"]
        if at >= end:   # not `break`: a clock set back writes a later entry with an earlier time
            continue
        if kind == "link" or (kind in ("round", "reading") and f.get("pool")):
            linked = True
            pool.take(f)
            if kind != "round":
                continue
        elif kind in ("meter", "reading"):
            has_meter, linked = True, False
        if kind == "round" and "poker" in f:
            is_poker = True
        if f.get("game") and game is None:
            game = f["game"]
        if at < start:
            if kind == "reading":
                meter_last = f["amount"]
            elif kind == "meter":
                meter_last = f["after"]
            continue
        if kind == "reading":
            if meter_open is None:
                meter_open = meter_last if meter_last is not None else f["amount"]
            meter_last = f["amount"]
        elif kind == "meter":
            if meter_open is None:
                meter_open = f["before"] if meter_last is None else meter_last
            _meter(prog, hits, corrections, f)
            meter_last = f["after"]
            if series:
                readings.append([at, meter_last])
        elif kind == "round":
            if f.get("void"):
                voided += 1
                continue
            rounds += 1
            hour = hours.setdefault(hour_of(at, zone), {"rounds": 0, "handle": 0, "house_win": 0})
            hour["rounds"] += 1
            for name, m in f["wagers"].items():
                w = wagers.setdefault(name, {k: 0 for k in MONEY})
                for k in MONEY:
                    w[k] += m[k]
                hour["handle"] += m["handle"]
                hour["house_win"] += m["house_win"]
            if "poker" in f:
                _poker(poker, f["poker"])
                hour["house_win"] += f["poker"]["rake"] + f["poker"]["time_charges"]
        elif kind == "event":
            events.append({k: f[k] for k in ("at", "kind", "who", "detail")} | {"round": f.get("round")})
    if meter_open is None:
        meter_open = meter_last
    house_win = sum(w["house_win"] for w in wagers.values()) + poker["rake"] + poker["time_charges"]
    handle = sum(w["handle"] for w in wagers.values())
    out: dict[str, Any] = {
        "table": table, "game": game, "rounds": rounds, "voided": voided,
        "wagers": {name: {**w, "hold_bp": hold_bp(w["house_win"], w["handle"])} for name, w in sorted(wagers.items())},
        "handle": handle, "house_win": house_win, "hold_bp": hold_bp(house_win, handle),
        "by_hour": [{"hour": h, **v} for h, v in sorted(hours.items())],
        "progressive": None, "poker": None, "events": events,
    }
    if linked:
        out["progressive"] = pool.block()
    elif has_meter:
        out["progressive"] = {"meter_open": meter_open, "meter_close": meter_last, **prog,
                              "hits": dict(sorted(hits.items())), "correction_list": corrections}
        if series:
            out["progressive"]["readings"] = readings
    if is_poker:
        out["poker"] = {**poker, "hands": rounds}
    return out


def _meter(prog: dict, hits: dict, corrections: list, f: dict) -> None:
    reason = f["reason"]
    if reason == "contribution":
        prog["contributions"] += f["amount"]
    elif reason == "award":
        prog["awards_meter" if f["from_meter"] else "awards_house"] += f["amount"]
        prog["seeded"] += f["seeded"] or 0
        if f.get("hand"):
            hits[f["hand"]] = hits.get(f["hand"], 0) + 1
    elif reason == "correction":
        prog["corrections"] += f["after"] - f["before"]
        corrections.append({"at": f["at"], "who": f["by"], "why": f["note"], "amount": f["after"] - f["before"],
                            "round": f.get("round")})


def _poker(poker: dict, p: dict) -> None:
    for k in POKER:
        poker[k] += p[k]
    method = p.get("rake_method") or "none"
    poker["rake_by_method"][method] = poker["rake_by_method"].get(method, 0) + p["rake"]
    poker["qualifying_hands"] += p.get("qualifying", 0)


def total(tables: list[dict]) -> dict:
    """The floor's sums of tables' figures: the same keys, added (a meter's open and close too, but
    only the tables' own meters: a pool's meter is one for all its tables, `tablectl link show`)."""
    out: dict[str, Any] = {"tables": len(tables), "rounds": 0, "voided": 0, "handle": 0, "house_win": 0,
                           "wagers": {}, "progressive": {k: 0 for k in ("meter_open", "meter_close", *PROGRESSIVE)},
                           "poker": {"hands": 0, **{k: 0 for k in POKER}}, "events": 0}
    for t in tables:
        for k in ("rounds", "voided", "handle", "house_win"):
            out[k] += t[k]
        out["events"] += len(t["events"])
        for name, w in t["wagers"].items():
            s = out["wagers"].setdefault(name, {k: 0 for k in MONEY})
            for k in MONEY:
                s[k] += w[k]
        own = not (t["progressive"] or {}).get("pool")
        for k in out["progressive"]:
            if own or k not in ("meter_open", "meter_close"):
                out["progressive"][k] += (t["progressive"] or {}).get(k) or 0
        for k in out["poker"]:
            out["poker"][k] += (t["poker"] or {}).get(k) or 0
    out["hold_bp"] = hold_bp(out["house_win"], out["handle"])
    for w in out["wagers"].values():
        w["hold_bp"] = hold_bp(w["house_win"], w["handle"])
    return out


def report(period: tuple[str, str], tables: list[dict]) -> dict:
    return {"period": {"from": period[0], "to": period[1]}, "tables": tables, "total": total(tables)}
