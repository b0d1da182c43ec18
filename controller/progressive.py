"""The progressive meter: contributions, awards, reset, corrections and the audit meters.

A meter is money held for players, so it moves only three ways, each recorded:
a contribution (the rate of progression, 5324.37(g)(5)), an award paid out of it
(5324.37(g)(4), (g)(6)), or a correction that names a reason and the supervisor
who made it. Contributions are whole cents; the part of a cent that a rate in
basis points leaves over is carried as an exact integer (ten-thousandths of a
cent), never as a float, so no fraction is lost or invented over any number of
wagers.

The pure functions (`contribute`, `pay_awards`) are what `tablectl settle` uses;
`ProgressiveMeter` is the table's long-lived meter built on the same functions,
with a state that serializes to JSON for the journal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

BP_PER_UNIT = 10_000  # basis points in a whole: a rate of 7000 bp is 70 percent
LAST_AWARDS_KEPT = 20
LAST_HITS_KEPT = 25   # 9 NYCRR 5320.8: the last 25 hits of each prize, with who validated them
TEN_DIGITS = 10 ** 10   # a meter of more cents than 10 digits hold is flagged on every display, never capped
OVERFLOW_NEXT_RESET = "next-reset"   # the overflow seeds the meter after its next reset, up to the limit


class MeterError(ValueError):
    """An operation the meter refuses: a bad amount, a correction without reason or supervisor."""


# --- award kinds --------------------------------------------------------------------------

@dataclass(frozen=True)
class Fixed:
    """A fixed amount paid by the house, not taken from the meter (5324.37(g)(4) flush .. four)."""

    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"fixed": self.amount}


@dataclass(frozen=True)
class PercentOfMeter:
    """A percent of the meter as it stands when the hand is paid, rounded down, taken out of it."""

    percent: int

    def to_dict(self) -> dict[str, Any]:
        return {"percent_of_meter": self.percent}


@dataclass(frozen=True)
class WholeMeter:
    """The whole meter, shared equally by every hit of the level in the round; the meter then
    restarts at its reset amount (5324.37(g)(4) royal flush, (g)(6))."""

    def to_dict(self) -> dict[str, Any]:
        return {"whole_meter": True}


Award = Union[Fixed, PercentOfMeter, WholeMeter]


def award_from_dict(data: Mapping[str, Any]) -> Award:
    if set(data) == {"fixed"}:
        return Fixed(_whole(data["fixed"], "fixed"))
    if set(data) == {"percent_of_meter"}:
        return PercentOfMeter(_whole(data["percent_of_meter"], "percent_of_meter"))
    if set(data) == {"whole_meter"} and data["whole_meter"] is True:
        return WholeMeter()
    raise MeterError(f"not an award: {dict(data)!r}")


def _whole(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MeterError(f"{what} must be a whole number of cents, not {value!r}")
    if value < minimum:
        raise MeterError(f"{what} must be at least {minimum}, not {value}")
    return value


# --- pure functions -----------------------------------------------------------------------

def contribute(wagered: int, rate_bp: int, carry: int = 0) -> tuple[int, int]:
    """Whole cents added to the meter for `wagered` cents at `rate_bp`, and the new carry.

    `carry` is the fraction of a cent left from earlier wagers, in 1/10000 of a cent
    (0 <= carry < 10000). With carry 0 this is the spec's "sum of wager x
    contribution_bp / 10000 rounded down to the cent" (docs/ROUNDS.md).
    """
    if not 0 <= carry < BP_PER_UNIT:
        raise MeterError(f"carry must be 0..{BP_PER_UNIT - 1}, not {carry}")
    return divmod(wagered * rate_bp + carry, BP_PER_UNIT)


def split_at_limit(meter: int, added: int, limit: int | None) -> tuple[int, int]:
    """(to the meter, to the overflow) of `added` cents: the meter never passes its limit
    (5320.8's limit), what would take it past goes to the overflow meter; no limit, no overflow."""
    if limit is None:
        return added, 0
    room = max(0, limit - meter)
    to_meter = min(added, room)
    return to_meter, added - to_meter


def seed_from_overflow(reset: int, overflow: int, limit: int | None) -> int:
    """What the overflow puts into a meter restarting at `reset` (`overflow = "next-reset"`):
    all of it up to the limit; the rest stays in the overflow for the reset after."""
    if limit is None:
        return overflow
    return max(0, min(overflow, limit - reset))


def too_long(cents: int) -> bool:
    """Whether a meter's cents no longer fit the 10 digits a display is certified for: flagged, never capped."""
    return abs(cents) >= TEN_DIGITS


@dataclass(frozen=True)
class Paid:
    """One award in payment order; `from_meter` says whether the meter paid it (else the house)."""

    seat: int
    hand: str
    amount: int
    from_meter: bool

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": self.hand, "amount": self.amount}


@dataclass(frozen=True)
class Payout:
    """The awards of one round, in payment order, and what they did to the meter."""

    awards: tuple[Paid, ...]
    meter_after: int
    seeded: int  # what the house put in when the meter restarted at its reset amount
    from_overflow: int = 0   # what the overflow meter put in at that restart (players' money, not the house's)


def pay_awards(meter: int, hits: Sequence[tuple[int, str]], awards: Mapping[str, Award],
               reset: int, overflow: int = 0, limit: int | None = None) -> Payout:
    """Pay the round's winning hands in payment order, each at the meter as it stands then.

    `hits` are (seat, hand) in payment order (5324.37(e)(4)(iii): seat 7 down to 1);
    a hand without an award is skipped. 5324.37(g)(6): a hand is paid at the meter
    when its turn comes, except that every royal flush (any WholeMeter level) of the
    round shares the meter as it stood when the first of them was paid, odd cents to
    the first ones paid; the meter restarts at `reset` right after that first one,
    plus what `overflow` gives it up to `limit` (seed_from_overflow).
    """
    shares: dict[str, list[int]] = {}
    paid: list[Paid] = []
    seeded = 0
    from_overflow = 0
    for seat, hand in hits:
        kind = awards.get(hand)
        if kind is None:
            continue
        if isinstance(kind, Fixed):
            paid.append(Paid(seat, hand, kind.amount, False))
        elif isinstance(kind, PercentOfMeter):
            amount = meter * kind.percent // 100
            meter -= amount
            paid.append(Paid(seat, hand, amount, True))
        else:
            if hand not in shares:
                count = sum(1 for _, h in hits if h == hand)
                base, odd = divmod(meter, count)
                shares[hand] = [base + 1] * odd + [base] * (count - odd)
                used = seed_from_overflow(reset, overflow - from_overflow, limit)
                meter = reset + used
                seeded += reset
                from_overflow += used
            paid.append(Paid(seat, hand, shares[hand].pop(0), True))
    return Payout(tuple(paid), meter, seeded, from_overflow)


# --- the table's meter --------------------------------------------------------------------

@dataclass
class LevelMeter:
    """Audit meter of one award level: hits and the amount paid."""

    hits: int = 0
    paid: int = 0


class ProgressiveMeter:  # noqa: PLW1641  (mutable, so unhashable: Python sets __hash__ = None with __eq__)
    """One progressive meter with its audit meters; serializable with to_dict/from_dict."""

    def __init__(self, *, amount: int, reset: int, contribution_bp: int,
                 awards: Mapping[str, Award], carry: int = 0, limit: int | None = None,
                 overflow: int = 0) -> None:
        self.amount = _whole(amount, "amount")
        self.limit = None if limit is None else _whole(limit, "limit")
        if self.limit is not None and self.limit < self.reset_amount_of(reset):
            raise MeterError(f"limit {limit} is below the reset {reset} (9 NYCRR 5320.8)")
        self.overflow = _whole(overflow, "overflow")
        self.reset_amount = _whole(reset, "reset")
        self.contribution_bp = _whole(contribution_bp, "contribution_bp", 1)
        if self.contribution_bp > BP_PER_UNIT:
            raise MeterError(f"contribution_bp must be at most {BP_PER_UNIT}, not {contribution_bp}")
        for level, kind in awards.items():
            if not isinstance(kind, (Fixed, PercentOfMeter, WholeMeter)):
                raise MeterError(f"award of {level} is not Fixed, PercentOfMeter or WholeMeter")
        self.awards: dict[str, Award] = dict(awards)
        self.carry = carry
        contribute(0, 0, carry)  # checks the carry's range
        # audit meters (what a regulator reads off the meter)
        self.opening = self.amount
        self.wagers = 0
        self.wagered = 0
        self.contributed = 0
        self.levels: dict[str, LevelMeter] = {level: LevelMeter() for level in self.awards}
        self.paid_by_meter = 0
        self.paid_by_house = 0
        self.seeded = 0
        self.resets = 0
        self.last_awards: list[dict[str, Any]] = []
        self.corrections: list[dict[str, Any]] = []
        self.to_overflow = 0       # contributions the limit sent to the overflow meter
        self.from_overflow = 0     # overflow put back into the meter at its resets
        self.refused_from_meter = 0   # awards taken off the meter and refused (returned by a correction)
        self.last_hits: list[dict[str, Any]] = []   # the last LAST_HITS_KEPT decided hits (5320.8)
        # A changed rate, reset, limit or award table waits for the meter's next reset (issue 29):
        # {"contribution_bp", "reset", "limit", "awards", "after_resets"}; None: nothing pending.
        self.pending: dict[str, Any] | None = None

    @staticmethod
    def reset_amount_of(reset: int) -> int:
        return _whole(reset, "reset")

    # the three ways the meter moves -------------------------------------------------------

    def contribute(self, stakes: Iterable[int]) -> int:
        """Add the rate of progression of these progressive wagers; the cents added."""
        stakes = [_whole(s, "stake", 1) for s in stakes]
        wagered = sum(stakes)
        cents, self.carry = contribute(wagered, self.contribution_bp, self.carry)
        to_meter, to_overflow = split_at_limit(self.amount, cents, self.limit)
        self.amount += to_meter
        self.overflow += to_overflow
        self.to_overflow += to_overflow
        self.wagers += len(stakes)
        self.wagered += wagered
        self.contributed += cents
        return cents

    def pay(self, hits: Sequence[tuple[int, str]], round_id: str | None = None) -> Payout:
        """Pay the round's winning hands in payment order (see `pay_awards`)."""
        before = self.amount
        payout = pay_awards(self.amount, hits, self.awards, self.reset_amount, self.overflow, self.limit)
        self.amount = payout.meter_after
        self.seeded += payout.seeded
        self.overflow -= payout.from_overflow
        self.from_overflow += payout.from_overflow
        if payout.seeded:
            self.resets += sum(1 for level, kind in self.awards.items()
                               if isinstance(kind, WholeMeter) and any(p.hand == level for p in payout.awards))
        for p in payout.awards:
            level = self.levels.setdefault(p.hand, LevelMeter())
            level.hits += 1
            level.paid += p.amount
            if p.from_meter:
                self.paid_by_meter += p.amount
            else:
                self.paid_by_house += p.amount
            self.last_awards.append({"round": round_id, "seat": p.seat, "hand": p.hand,
                                     "amount": p.amount, "meter_before_awards": before})
        del self.last_awards[:-LAST_AWARDS_KEPT]
        return payout

    def decided(self, hit: Mapping[str, Any]) -> None:
        """A hit validated or refused: {"round", "seat", "hand", "amount", "validated_by",
        "second_signer", "refused"?}. A refused one is no hit (issue 29): its level's count and
        paid leave it; the meter's cents came back by a correction (`correct`)."""
        entry = dict(hit)
        if entry.get("refused"):
            level = self.levels.get(entry["hand"])
            if level is not None and level.hits:
                level.hits -= 1
                level.paid -= entry["amount"]
            if not isinstance(self.awards.get(entry["hand"]), Fixed):
                self.refused_from_meter += entry["amount"]
        self.last_hits.append(entry)
        del self.last_hits[:-LAST_HITS_KEPT]

    def note_pending(self, change: Mapping[str, Any]) -> None:
        """Journal (in the meter's state) a change of its parameters, applied after its next reset."""
        self.pending = {**dict(change), "after_resets": self.resets}

    def pending_due(self) -> bool:
        return self.pending is not None and self.resets > self.pending["after_resets"]

    def apply_pending(self) -> dict[str, Any] | None:
        """The pending change put into effect (after a reset, or at once by two supervisors); what it was."""
        change = self.pending
        if change is None:
            return None
        self.contribution_bp = _whole(change["contribution_bp"], "contribution_bp", 1)
        self.reset_amount = _whole(change["reset"], "reset")
        self.limit = None if change.get("limit") is None else _whole(change["limit"], "limit")
        self.awards = {level: award_from_dict(a) for level, a in change["awards"].items()}
        for level in self.awards:
            self.levels.setdefault(level, LevelMeter())
        self.pending = None
        return change

    def parameters(self) -> dict[str, Any]:
        """What a pending change compares: the rate, the reset, the limit and the award table."""
        return {"contribution_bp": self.contribution_bp, "reset": self.reset_amount, "limit": self.limit,
                "awards": {level: kind.to_dict() for level, kind in self.awards.items()}}

    def figures(self, name: str) -> dict[str, Any]:
        """The meter as 9 NYCRR 5320.8 lists it: current, overflow, hits, wins, the last hits, base and
        limit, contributions, in cents; `exceeds_ten_digits` names any that no longer fit ten digits."""
        hits = sum(m.hits for m in self.levels.values())
        wins = self.paid_by_meter - self.refused_from_meter
        out: dict[str, Any] = {
            "name": name, "current": self.amount, "overflow": self.overflow, "hits": hits, "wins": wins,
            "wins_by_house": sum(m.paid for m in self.levels.values()) - wins,
            "last_hits": [dict(h) for h in self.last_hits], "base": self.reset_amount, "limit": self.limit,
            "contributions": self.contributed, "to_overflow": self.to_overflow,
            "from_overflow": self.from_overflow, "seeded": self.seeded, "resets": self.resets,
            "rate_bp": self.contribution_bp, "carry_ten_thousandths_of_cent": self.carry,
            "levels": {level: {"hits": m.hits, "paid": m.paid} for level, m in self.levels.items()},
            "pending_change": None if self.pending is None else dict(self.pending),
        }
        money = ("current", "overflow", "wins", "base", "limit", "contributions")
        out["exceeds_ten_digits"] = [k for k in money if isinstance(out[k], int) and too_long(out[k])]
        return out

    def correct(self, amount: int, *, reason: str, supervisor: str) -> None:
        """Set the meter to `amount` by hand (e.g. after a fault), with a reason and a supervisor.

        The only way the meter changes other than by a contribution or an award.
        """
        amount = _whole(amount, "amount")
        if not isinstance(reason, str) or not reason.strip():
            raise MeterError("a meter correction needs a reason")
        if not isinstance(supervisor, str) or not supervisor.strip():
            raise MeterError("a meter correction needs the supervisor who made it")
        self.corrections.append({"before": self.amount, "after": amount,
                                 "reason": reason.strip(), "supervisor": supervisor.strip()})
        self.amount = amount

    # audit ------------------------------------------------------------------------------

    def balances(self) -> bool:
        """Whether the meter equals its opening plus everything recorded since (the audit identity)."""
        corrected: int = sum(c["after"] - c["before"] for c in self.corrections)
        return self.amount == (self.opening + self.contributed - self.to_overflow - self.paid_by_meter
                               + self.seeded + self.from_overflow + corrected)

    def audit(self) -> dict[str, Any]:
        """The audit meters as a regulator asks for them."""
        return {
            "meter": self.amount,
            "carry_ten_thousandths_of_cent": self.carry,
            "wagers": self.wagers,
            "wagered": self.wagered,
            "contributions": self.contributed,
            "levels": {level: {"hits": m.hits, "paid": m.paid} for level, m in self.levels.items()},
            "paid_by_meter": self.paid_by_meter,
            "paid_by_house": self.paid_by_house,
            "seeded": self.seeded,
            "resets": self.resets,
            "last_awards": [dict(a) for a in self.last_awards],
            "corrections": [dict(c) for c in self.corrections],
            "limit": self.limit, "overflow": self.overflow, "to_overflow": self.to_overflow,
            "from_overflow": self.from_overflow,
        }

    # journal ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "carry": self.carry,
            "reset": self.reset_amount,
            "contribution_bp": self.contribution_bp,
            "awards": {level: kind.to_dict() for level, kind in self.awards.items()},
            "opening": self.opening,
            "wagers": self.wagers,
            "wagered": self.wagered,
            "contributed": self.contributed,
            "levels": {level: {"hits": m.hits, "paid": m.paid} for level, m in self.levels.items()},
            "paid_by_meter": self.paid_by_meter,
            "paid_by_house": self.paid_by_house,
            "seeded": self.seeded,
            "resets": self.resets,
            "last_awards": [dict(a) for a in self.last_awards],
            "corrections": [dict(c) for c in self.corrections],
            **self._issue_29_state(),
        }

    def _issue_29_state(self) -> dict[str, Any]:
        """The limit, the overflow and the hit log; written only when they hold something, so a
        meter without them journals as it did before."""
        out: dict[str, Any] = {}
        if self.limit is not None or self.overflow or self.to_overflow:
            out.update(limit=self.limit, overflow=self.overflow, to_overflow=self.to_overflow,
                       from_overflow=self.from_overflow)
        if self.last_hits or self.refused_from_meter:
            out.update(last_hits=[dict(h) for h in self.last_hits], refused_from_meter=self.refused_from_meter)
        if self.pending is not None:
            out["pending"] = dict(self.pending)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ProgressiveMeter":
        try:
            meter = cls(amount=data["amount"], reset=data["reset"],
                        contribution_bp=data["contribution_bp"],
                        awards={level: award_from_dict(a) for level, a in data["awards"].items()},
                        carry=data["carry"], limit=data.get("limit"), overflow=data.get("overflow", 0))
            meter.opening = _whole(data["opening"], "opening")
            for name in ("wagers", "wagered", "contributed", "paid_by_meter", "paid_by_house",
                         "seeded", "resets"):
                setattr(meter, name, _whole(data[name], name))
            meter.levels = {level: LevelMeter(_whole(m["hits"], "hits"), _whole(m["paid"], "paid"))
                            for level, m in data["levels"].items()}
            meter.last_awards = [dict(a) for a in data["last_awards"]]
            meter.corrections = [dict(c) for c in data["corrections"]]
            meter.to_overflow = _whole(data.get("to_overflow", 0), "to_overflow")
            meter.from_overflow = _whole(data.get("from_overflow", 0), "from_overflow")
            meter.refused_from_meter = _whole(data.get("refused_from_meter", 0), "refused_from_meter")
            meter.last_hits = [dict(h) for h in data.get("last_hits", [])]
            pending = data.get("pending")
            meter.pending = dict(pending) if isinstance(pending, dict) else None
        except (KeyError, TypeError, AttributeError) as exc:
            raise MeterError(f"not a meter state: {exc!r}") from None
        return meter

    def copy(self) -> "ProgressiveMeter":
        return ProgressiveMeter.from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProgressiveMeter) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"ProgressiveMeter(amount={self.amount}, carry={self.carry})"
