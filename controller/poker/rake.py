"""The rake, the poker room's revenue (5324.42(o)), and the jackpot contribution taken after it ((r)(3)).

A table rakes by one of three systems, as its profile says (controller/games/poker/profile.py
`[poker.rake]`, which this module mirrors without importing pydantic):

- a straight percentage ((o)(2)(i)): after each betting round, at most 10 percent of
  the sums bet in that round, from the pot and each side pot, up to a cap per hand;
  a pot below the table's minimum is not raked that round;
- incremental amounts ((o)(2)(ii)): a predetermined amount each time the chips in
  the middle reach a predetermined level, taken from the pot that reached it;
- time charges ((o)(2)(iii)): an hourly fee per seated player (inactive ones too) or
  per table, assessed by increments of time (`time_charges`); nothing is taken from
  the pots.

What is raked is reckoned from what each player had put in at the end of each
betting round, after the uncalled part of the last bet went back: an uncalled final
bet is never raked ((o)(4)). The rake is taken as each round ends and never once the
pots are pushed ((o)(5)): a hand settles its rake before it awards the pots, and the
rake of a finished hand is fixed. A hand that is voided (a misdeal, a dead hand of
(p)(3)) gives every chip back, the rake with it.

The hand keeps the rounds (`Hand.marks`) and its pots; `house_take` turns them into
the rake and the jackpot contribution of each pot, round by round, so that the
dealer's screen shows the same figures during the hand as the record after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from controller.poker.errors import SetupError, whole


class Layer(Protocol):
    """What the take reads of a pot: the slice of each player's chips it holds."""

    @property
    def floor(self) -> int: ...
    @property
    def ceiling(self) -> int: ...

MAX_RATE_BP = 1_000   # 10 percent of the sums bet in a round, 5324.42(o)(2)(i)(a): the engine's own ceiling
BP = 10_000




@dataclass(frozen=True)
class PercentageRake:
    """(o)(2)(i): `rate_bp` basis points of each round's sums, at most `cap` a hand."""

    rate_bp: int
    cap: int | None = None
    minimum_pot: int = 0
    method = "percentage"

    def __post_init__(self) -> None:
        whole(self.rate_bp, "_rake.rate_bp", 1)
        if self.rate_bp > MAX_RATE_BP:
            raise SetupError("_rake.rate_bp", f"{self.rate_bp} is above 1000 (10 percent of the sums bet in a "
                                              "betting round, 5324.42(o)(2)(i)(a))")
        if self.cap is not None:
            whole(self.cap, "_rake.cap", 1)
        whole(self.minimum_pot, "_rake.minimum_pot", 0)


@dataclass(frozen=True)
class IncrementalRake:
    """(o)(2)(ii): `levels` of (pot, amount): when the middle reaches `pot`, `amount` more is raked."""

    levels: tuple[tuple[int, int], ...]
    method = "incremental"

    def __post_init__(self) -> None:
        if not isinstance(self.levels, (tuple, list)) or not self.levels:
            raise SetupError("_rake.levels", "must list at least one level")
        levels: list[tuple[int, int]] = []
        for i, level in enumerate(self.levels):
            if not isinstance(level, (tuple, list)) or len(level) != 2:
                raise SetupError(f"_rake.levels[{i}]", f"must be a pot and an amount, not {level!r}")
            pot = whole(level[0], f"_rake.levels[{i}].pot", 1)
            amount = whole(level[1], f"_rake.levels[{i}].amount", 1)
            if amount > pot:
                raise SetupError(f"_rake.levels[{i}].amount", f"{amount} is more than the pot of {pot} it is taken from")
            if levels and pot <= levels[-1][0]:
                raise SetupError(f"_rake.levels[{i}].pot", f"{pot} is not above the level before it ({levels[-1][0]})")
            levels.append((pot, amount))
        object.__setattr__(self, "levels", tuple(levels))

    def due(self, total: int) -> int:
        """All that is raked once the middle holds `total`."""
        return sum(amount for pot, amount in self.levels if pot <= total)


@dataclass(frozen=True)
class TimeCharge:
    """(o)(2)(iii): `hourly` per seated player or per table, assessed by `increment_minutes`."""

    per: str
    hourly: int
    increment_minutes: int = 30
    method = "time"

    def __post_init__(self) -> None:
        if self.per not in ("player", "table"):
            raise SetupError("_rake.per", f"must be \"player\" or \"table\", not {self.per!r}")
        whole(self.hourly, "_rake.hourly", 1)
        whole(self.increment_minutes, "_rake.increment_minutes", 1)
        if self.increment_minutes > 60:
            raise SetupError("_rake.increment_minutes", f"{self.increment_minutes} is more than an hour")


RakeRule = PercentageRake | IncrementalRake | TimeCharge


# --- to and from records ---------------------------------------------------------------

def rule_fields(rule: RakeRule) -> dict[str, Any]:
    """The rule as the PHH field `_rake` writes it (a TOML inline table)."""
    if isinstance(rule, PercentageRake):
        out: dict[str, Any] = {"method": "percentage", "rate_bp": rule.rate_bp}
        if rule.cap is not None:
            out["cap"] = rule.cap
        if rule.minimum_pot:
            out["minimum_pot"] = rule.minimum_pot
        return out
    if isinstance(rule, IncrementalRake):
        return {"method": "incremental", "levels": [{"pot": p, "amount": a} for p, a in rule.levels]}
    return {"method": "time", "per": rule.per, "hourly": rule.hourly, "increment_minutes": rule.increment_minutes}


_KEYS = {
    "percentage": ("rate_bp", "cap", "minimum_pot"),
    "incremental": ("levels",),
    "time": ("per", "hourly", "increment_minutes"),
}


def rule_from_fields(value: Any, field: str = "_rake") -> RakeRule:
    """The rule of a PHH `_rake` table; SetupError names the key at fault."""
    if not isinstance(value, dict):
        raise SetupError(field, f"must be a table such as {{method = \"percentage\", rate_bp = 1000}}, not {value!r}")
    method = value.get("method")
    if method not in _KEYS:
        raise SetupError(f"{field}.method", f"must be one of {', '.join(_KEYS)}, not {method!r}")
    for key in value:
        if key != "method" and key not in _KEYS[method]:
            raise SetupError(f"{field}.{key}", f"is not a setting of the {method} rake")
    if method == "percentage":
        if "rate_bp" not in value:
            raise SetupError(f"{field}.rate_bp", "is required")
        return PercentageRake(value["rate_bp"], value.get("cap"), value.get("minimum_pot", 0))
    if method == "incremental":
        levels = value.get("levels")
        if not isinstance(levels, list) or not levels:
            raise SetupError(f"{field}.levels", "must list at least one {pot, amount}")
        pairs = []
        for i, level in enumerate(levels):
            if not isinstance(level, dict) or set(level) != {"pot", "amount"}:
                raise SetupError(f"{field}.levels[{i}]", f"must be {{pot = N, amount = N}}, not {level!r}")
            pairs.append((level["pot"], level["amount"]))
        return IncrementalRake(tuple(pairs))
    for key in ("per", "hourly"):
        if key not in value:
            raise SetupError(f"{field}.{key}", "is required")
    return TimeCharge(value["per"], value["hourly"], value.get("increment_minutes", 30))


def rule_from_config(rake: Any) -> RakeRule:
    """The rule of a table profile's `[poker.rake]` (controller.config's models, read by attribute)."""
    method = rake.method
    if method == "percentage":
        return PercentageRake(rake.rate_bp, rake.cap, rake.minimum_pot)
    if method == "incremental":
        return IncrementalRake(tuple((level.pot, level.amount) for level in rake.levels))
    return TimeCharge(rake.per, rake.hourly, rake.increment_minutes)


# --- what the house takes from the pots -------------------------------------------------------

@dataclass(frozen=True)
class Take:
    """The rake and the jackpot contribution of each pot (main first), and the rake of each round."""

    rake: tuple[int, ...]
    jackpot: tuple[int, ...]
    rake_by_round: tuple[int, ...]


def _slices(contributions: Sequence[int], pots: Sequence[Layer], dead: int) -> list[int]:
    """The chips each pot held when players had put in `contributions` (dead antes in the main pot)."""
    out = []
    for k, pot in enumerate(pots):
        lo, hi = pot.floor, pot.ceiling
        chips = dead if k == 0 else 0
        if hi > lo:
            for c in contributions:
                if c > lo:
                    chips += (c if c < hi else hi) - lo
        out.append(chips)
    return out


def house_take(rake: RakeRule | None, jackpot: Any, marks: Sequence[Sequence[int]], dead: int,
               pots: Sequence[Layer], *, chip: int = 1) -> Take:
    """The rake and the jackpot contribution of each pot, taken round by round.

    `marks` holds what each player had put in (dead antes aside) at the end of each
    betting round so far, the uncalled bet already returned; `pots` are the pots as
    they stand (their floors and ceilings slice each round's chips); `jackpot` is a
    `jackpot.JackpotRule` or None. The jackpot contribution is taken after the rake
    ((r)(3)), once a hand, at the end of the first round at which the middle holds the
    jackpot's minimum pot. A percentage is taken in whole chips of `chip` (the table's smallest),
    rounded down: no dealer can take $0.60 in $1 chips (issue 30); the profile's caps, levels and
    contributions are whole chips already (controller/games/poker/profile.py).
    """
    n_pots = len(pots)
    rake_of = [0] * n_pots
    jack_of = [0] * n_pots
    by_round: list[int] = []
    if not pots or not marks:
        return Take(tuple(rake_of), tuple(jack_of), ())
    percentage = rake if isinstance(rake, PercentageRake) else None
    incremental = rake if isinstance(rake, IncrementalRake) else None
    cap_left = percentage.cap if percentage and percentage.cap is not None else None
    before = [0] * n_pots
    jackpot_taken = False
    for mark in marks:
        now = _slices(mark, pots, dead)
        taken = 0
        if percentage is not None:
            for k in range(n_pots):
                if now[k] < percentage.minimum_pot:
                    continue
                amount = (now[k] - before[k]) * percentage.rate_bp // BP // chip * chip
                if cap_left is not None:
                    amount = min(amount, cap_left)
                    cap_left -= amount
                rake_of[k] += amount
                taken += amount
        elif incremental is not None:
            taken = _incremental(incremental, before, now, rake_of, jack_of)
        by_round.append(taken)
        if jackpot is not None and not jackpot_taken:
            total = sum(now)
            if total and total >= jackpot.minimum_pot:
                jackpot_taken = True
                need = jackpot.contribution
                for k in range(n_pots):        # from the main pot first, then the side pots
                    free = now[k] - rake_of[k] - jack_of[k]
                    part = min(need, free)
                    if part > 0:
                        jack_of[k] += part
                        need -= part
        before = now
    return Take(tuple(rake_of), tuple(jack_of), tuple(by_round))


def _incremental(rule: IncrementalRake, before: list[int], now: list[int], rake_of: list[int],
                 jack_of: list[int]) -> int:
    """Each level the middle reached this round: its amount from the pot in which it was reached.

    When that pot cannot bear it, the rest comes from the pots below it, then above.
    """
    total_before, total_now = sum(before), sum(now)
    taken = 0
    for level, amount in rule.levels:
        if not total_before < level <= total_now:
            continue
        running, home = 0, len(now) - 1
        for k, chips in enumerate(now):
            running += chips
            if running >= level:
                home = k
                break
        order = [home, *range(home - 1, -1, -1), *range(home + 1, len(now))]
        need = amount
        for k in order:
            part = min(need, now[k] - rake_of[k] - jack_of[k])
            if part > 0:
                rake_of[k] += part
                need -= part
                taken += part
            if not need:
                break
    return taken


# --- time charges ---------------------------------------------------------------------------

def time_charge_due(rule: TimeCharge, elapsed_seconds: int) -> int:
    """What one account owes for `elapsed_seconds` at the table: each increment begun, in advance.

    Assessed fractionally ((o)(2)(iii)(c)): `increment_minutes` of the hourly fee for each
    increment begun, rounded down to the cent on the whole, so that no rounding adds up
    over a long session.
    """
    if isinstance(elapsed_seconds, bool) or not isinstance(elapsed_seconds, int) or elapsed_seconds < 0:
        raise ValueError(f"elapsed time {elapsed_seconds!r} must be whole seconds, not negative")
    step = rule.increment_minutes * 60
    increments = -(-elapsed_seconds // step) if elapsed_seconds else 1
    return rule.hourly * increments * rule.increment_minutes // 60


def time_charges(rule: TimeCharge, seated: dict[Any, int], now: int,
                 charged: dict[Any, int] | None = None) -> dict[Any, int]:
    """The time charges due now (time given in: whole seconds), each account less what it has paid.

    `seated` maps each seated player (active or not: inactive players are assessed
    too, (o)(2)(iii)(a)) to the time they sat down; per table, the table's one account
    ("table") runs from the earliest of them. `charged` is what each account has paid
    so far. The result holds only accounts that owe something.
    """
    charged = charged or {}
    if rule.per == "table":
        if not seated:
            return {}
        accounts = {"table": min(seated.values())}
    else:
        accounts = dict(seated)
    out = {}
    for key, since in accounts.items():
        if isinstance(since, bool) or not isinstance(since, int) or since > now:
            raise ValueError(f"{key}: seated at {since!r}, after now ({now})")
        owed = time_charge_due(rule, now - since) - charged.get(key, 0)
        if owed > 0:
            out[key] = owed
    return out


__all__ = [
    "IncrementalRake", "MAX_RATE_BP", "PercentageRake", "RakeRule", "Take", "TimeCharge", "house_take",
    "rule_fields", "rule_from_config", "rule_from_fields", "time_charge_due", "time_charges",
]
