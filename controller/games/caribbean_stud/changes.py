"""A changed progressive held until the meter's next reset (issue 29; NZ 1.28, UKGC: parameters change
between cycles, never in the middle of one).

The profile may say a new rate, reset, limit or award table while the meter is running. The meter's
cycle (from one royal flush to the next) was promised to the players under the parameters it began
with, so the change is noted in the meter's state as pending (journaled with it in every round's
opening and snapshot, from the first round after the table starts with the new profile) and the
rounds go on under the meter's own parameters; after the meter's next reset (a royal flush) the
change applies from the next round. Putting the profile back withdraws the pending change.

A supervisor may put the pending change into effect at once, between rounds (`apply_pending`, on the
supervisor's screen or `tablectl meters apply-pending`): the meter's value is carried over as it stands
(its amount, overflow and carry unchanged), so it takes two different supervisors, like a meter
correction; the first's asking is journaled (`meter-pending` with `approved_by`), the second's carries
it out (`meter-pending` with `applied`: both names, the parameters before and after, the meter's state).
A change whose limit is below where the meter stands cannot carry the value over and waits for the reset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.base import EventRefused
from controller.games.caribbean_stud.record import read_rules
from controller.progressive import Fixed, ProgressiveMeter

APPLIES = "from the first round after the meter's next reset (a royal flush)"
APPLY_AT_ONCE = "apply_pending"   # the supervisors' event that puts a pending change into effect now
AWAITS = "a second, different supervisor applies it at once"


def profile_parameters(rules_record: Mapping[str, Any]) -> dict[str, Any]:
    """The rate, reset, limit and award table a profile's record rules give the meter."""
    rules, _ = read_rules(dict(rules_record))
    p = rules.progressive
    return {"contribution_bp": p.contribution_bp, "reset": p.reset, "limit": p.limit,
            "awards": {level: kind.to_dict() for level, kind in p.awards.items()}}


def hold_for_reset(meter: ProgressiveMeter, rules_record: dict[str, Any]) -> dict[str, Any]:
    """The opening's rules with the meter's own parameters, the profile's differing ones noted on
    the meter as pending (or a pending change withdrawn when the profile is the meter's again)."""
    if meter.pending_due():
        meter.apply_pending()
    wanted = profile_parameters(rules_record)
    if wanted == meter.parameters():
        meter.pending = None
        return rules_record
    if meter.pending is None or {k: meter.pending[k] for k in wanted} != wanted:
        meter.note_pending({**wanted, "applies": APPLIES})
    return {**rules_record, "progressive": with_parameters(rules_record["progressive"], meter)}


def with_parameters(progressive: Mapping[str, Any], meter: ProgressiveMeter) -> dict[str, Any]:
    """A record's `rules.progressive` set to the meter's rate, reset, limit and awards."""
    out = {k: v for k, v in progressive.items() if k not in ("limit", "overflow")}
    out.update(contribution_bp=meter.contribution_bp, reset=meter.reset_amount)
    for level in ("flush", "full-house", "four-of-a-kind"):
        kind = meter.awards.get(level)
        if isinstance(kind, Fixed):
            out[level] = kind.amount
    sf = meter.awards.get("straight-flush")
    if sf is not None:
        out["straight-flush"] = sf.to_dict()
    if meter.limit is not None:
        out.update(limit=meter.limit, overflow=meter.overflow)
    return out


def note_at_start(meter: ProgressiveMeter, rules_record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The change the profile asks of a running meter, noted on it as pending at the table's start (None:
    the profile is the meter's; a change already pending is noted again only when the profile changed it)."""
    wanted = profile_parameters(rules_record)
    if wanted == meter.parameters():
        return None
    if meter.pending is None or {k: meter.pending[k] for k in wanted} != wanted:
        meter.note_pending({**wanted, "applies": APPLIES})
    return dict(meter.pending) if meter.pending is not None else None


def apply_at_once(meter: ProgressiveMeter, who: str | None) -> list[dict[str, Any]]:
    """A supervisor's `apply_pending` between rounds: the first of two different supervisors asks (journaled,
    nothing changed), the second puts the pending change into effect with the meter's value carried over.
    The journal effects (`meter-pending`) of either; EventRefused when there is nothing to apply or the
    value cannot be carried over."""
    pending = meter.pending
    if pending is None:
        raise EventRefused(APPLY_AT_ONCE, "between rounds", [], "no change of the meter's parameters is pending")
    if not who:
        raise EventRefused(APPLY_AT_ONCE, "between rounds", [], "a supervisor applies a pending change")
    limit = pending.get("limit")
    if limit is not None and limit < meter.amount:
        raise EventRefused(APPLY_AT_ONCE, "between rounds", [],
                           f"the meter stands at {meter.amount} cents, above the change's limit {limit}: its value "
                           "cannot be carried over; the change applies after the meter's next reset")
    first = pending.get("approved_by")
    if first is None or first == who:
        meter.pending = {**pending, "approved_by": who}
        return [{"type": "journal", "kind": "meter-pending",
                 "payload": {"meter": "progressive", "pending": dict(meter.pending), "approved_by": who,
                             "awaits": AWAITS}}]
    before = meter.parameters()
    meter.apply_pending()
    return [{"type": "journal", "kind": "meter-pending",
             "payload": {"meter": "progressive", "applied": "at once, the meter's value carried over",
                         "by": first, "second_signer": who, "before": before, "after": meter.parameters(),
                         "amount": meter.amount, "overflow": meter.overflow, "state": meter.to_dict()}}]
