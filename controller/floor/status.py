"""What a table tells the floor it is doing now: read from its published view, bounded, typed.

The books reach the floor as facts read from the journal (controller/report/facts.py), each once
and in order; what is happening at this instant (the round's state, the win a supervisor has not
validated yet, the dealer on duty) is no journal fact until it is over, yet it is what the pit
walks to. So the table sends it beside the facts at each attempt, one row a table replaced each
time (controller/floor/schema.sql `floor.status`), and the floor view (controller/floor/view.py)
shows it with how old it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

MAX_LISTED = 16      # validations or alarms a status carries (a table has at most 7 seats, a few alarms)
MAX_TEXT = 200       # characters of one message


class Validation(TypedDict):
    seat: int
    hand: str
    award: int | None        # cents; None while a linked pool's award is awaited


class TableStatus(TypedDict):
    state: str                       # the round's state ("validation", "open", ...), "fault" or "none"
    round: str | None
    dealer: str | None               # the dealer on duty's badge
    dealer_name: str | None
    meter: int | None                # the progressive meter, cents (a game without one: None)
    validations: list[Validation]
    fault: str | None                # the fault's reason, while the table is in one
    alarms: list[str]
    test_mode: bool
    par: dict[str, Any] | None       # the table's exact par per wager (controller/par/hold.py `units_json`)


def _text(value: Any) -> str:
    return str(value)[:MAX_TEXT]


def status_of(view: dict[str, Any], par: dict[str, Any] | None = None) -> TableStatus:
    """The status of a table's published view (controller/runtime/view.py), with the par its paytable
    gives, so the floor holds the table's result against its own sheet, not a default one."""
    round_ = view.get("round") or {}
    meter = view.get("meter") if isinstance(view.get("meter"), dict) else None
    fault = view.get("fault") if isinstance(view.get("fault"), dict) else None
    validations: list[Validation] = []
    for v in (view.get("validations") or [])[:MAX_LISTED]:
        award = v.get("award")
        validations.append({"seat": int(v["seat"]), "hand": _text(v.get("hand")),
                            "award": award if type(award) is int else None})
    alarms = [_text(f"{a.get('kind')}: {a.get('message')}") for a in (view.get("alarms") or [])[:MAX_LISTED]
              if a.get("kind") != "fault"]   # the fault is said once, as the fault
    badge, name = view.get("dealer_on_duty"), view.get("dealer_name")
    return {"state": _text(round_.get("state") or "none"), "round": round_.get("id"),
            "dealer": _text(badge) if badge else None, "dealer_name": _text(name) if name else None,
            "meter": meter["amount"] if meter is not None and type(meter.get("amount")) is int else None,
            "validations": validations,
            "fault": _text(fault.get("reason")) if fault is not None else None,
            "alarms": alarms, "test_mode": bool(view.get("test_mode")), "par": par}


def par_of(profile: Any) -> Callable[[], dict[str, Any] | None]:
    """The profile's exact par as sent (None while the par sheet's cache has not got it: the floor shows
    no band rather than the table waiting on a count), looked up until found, then kept."""
    found: list[dict[str, Any]] = []

    def par() -> dict[str, Any] | None:
        if not found:
            from controller.par.hold import units_json
            from controller.report.cli import par_units
            units = par_units(profile, cached=True)
            if units is not None:
                found.append(units_json(units))
        return found[0] if found else None
    return par
