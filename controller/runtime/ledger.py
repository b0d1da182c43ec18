"""The money of every journaled round, added up from the journal alone, and checked.

What it checks, entry by entry in journal order:
- every round opened is recorded at most once, and nothing of a round follows its record;
- each settled round, re-settled from its record by the functions of `tablectl
  settle` (with the meter's carried fraction of a cent), gives the settlement the
  table journaled and paid: the round's game checks its own record (its books'
  `ledger`, games/<game>/ledger.py), adding its wagers' stakes and nets in here;
- a voided round returns every wager (net 0);
- a progressive win a supervisor refused (5324.37(f)(2)) is not paid: the
  players' net leaves its award out, and an award taken from the meter came
  back by exactly one correction of that amount journaled in the same round;
- the progressive meter moves only by its journaled entries, each consistent with
  itself (a contribution adds what the rate gives, an award takes what it paid),
  chained (each starts where the last ended, the fraction of a cent included), and
  agreeing with the round records' meter_before / contributions / meter_after;
- so that at the end: meter == initial + contributions - awards paid from the
  meter + seeded after a royal flush + corrections, and initial carry + every
  progressive cent wagered x rate == contributions x 10000 + final carry, exactly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from controller.games import registry
from controller.games.game import Json, Record

if TYPE_CHECKING:
    from controller.journal.store import Entry, Journal

BP = 10_000


class MeterMovements(TypedDict):
    """The progressive meter's movements over the journal, in cents (the carry in basis points of a cent)."""

    initial: int
    initial_carry: int
    contributions: int
    awards_from_meter: int
    awards_by_house: int
    seeded: int
    corrections: int
    wagered: int
    final: int
    carry: int
    to_overflow: int      # a meter at its limit: contributions into its overflow
    from_overflow: int    # and back, seeding the meter after a reset


@dataclass
class Ledger:
    rounds_opened: int = 0
    settled: int = 0
    voided: int = 0
    misdeals: int = 0
    in_progress: list[str] = field(default_factory=list)
    stakes: dict[str, int] = field(default_factory=lambda: defaultdict(int))   # wager -> cents staked
    nets: dict[str, int] = field(default_factory=lambda: defaultdict(int))     # wager -> players' net
    returned: int = 0            # stakes of voided wagers, handed back
    refused: list[dict[str, Json]] = field(default_factory=list)  # progressive wins refused, not paid
    meter: MeterMovements | None = None    # the progressive's movements (Caribbean stud)
    problems: list[str] = field(default_factory=list)

    @property
    def players_net(self) -> int:
        return sum(self.nets.values())

    @property
    def house_net(self) -> int:
        return -self.players_net

    def to_json(self) -> dict[str, object]:
        return {"rounds_opened": self.rounds_opened, "settled": self.settled, "voided": self.voided,
                "misdeals": self.misdeals, "in_progress": self.in_progress, "stakes": dict(self.stakes),
                "nets": dict(self.nets), "returned": self.returned, "refused": list(self.refused), "house_net": self.house_net,
                "meter": self.meter, "problems": self.problems}


class _Meter:
    def __init__(self, state: dict[str, Any]) -> None:   # Any: a snapshot's meter, read by key
        self.initial, self.carry0 = state["amount"], state["carry"]
        self.amount, self.carry = state["amount"], state["carry"]
        self.contributions = self.awards_from_meter = self.awards_by_house = 0
        self.seeded = self.corrections = self.wagered_bp = 0
        self.to_overflow = self.from_overflow = 0   # a meter at its limit: contributions into its overflow, and back
        self.wagered = 0

    def to_json(self) -> MeterMovements:
        return {"initial": self.initial, "initial_carry": self.carry0, "contributions": self.contributions,
                "awards_from_meter": self.awards_from_meter, "awards_by_house": self.awards_by_house,
                "seeded": self.seeded, "corrections": self.corrections, "wagered": self.wagered,
                "final": self.amount, "carry": self.carry, "to_overflow": self.to_overflow,
                "from_overflow": self.from_overflow}


def compute(entries: Iterable[Entry]) -> Ledger:
    """The ledger of a journal's entries (an iterable of controller.journal.store.Entry, in order)."""
    led = Ledger()
    opened: dict[str, dict[str, Any]] = {}
    recorded: set[str] = set()
    meter: _Meter | None = None
    round_meter: dict[str, list[Record]] = defaultdict(list)
    problem = led.problems.append
    for e in entries:
        p, rid = e.payload, e.round_id
        if e.kind == "snapshot" and meter is None and isinstance(p.get("meters"), dict):
            state = p["meters"].get("progressive")
            if isinstance(state, dict):
                meter = _Meter(state)
        elif e.kind in ("round-opened", "round-record") and rid is None:
            problem(f"entry {e.seq}: a {e.kind} of no round")
        elif e.kind == "round-opened" and rid is not None:
            if rid in opened:
                problem(f"entry {e.seq}: round {rid} opened twice")
            opened[rid] = p
            led.rounds_opened += 1
            if meter is not None and "meter" in p and p["meter"]["amount"] != meter.amount:
                problem(f"entry {e.seq}: round {rid} opens with the meter at {p['meter']['amount']}, "
                        f"the journal has it at {meter.amount}")
        elif rid is not None and rid in recorded and e.kind not in ("refused", "link-op", "link-confirm"):
            problem(f"entry {e.seq}: a {e.kind} of round {rid} after its record")
        elif e.kind == "meter" and isinstance(p, dict) and p.get("meter") == "progressive":
            if meter is None:
                problem(f"entry {e.seq}: a meter entry before any snapshot of the meter")
                continue
            if _meter_entry(meter, e.seq, p, problem) and rid is not None:
                round_meter[rid].append(p)
        elif e.kind == "round-record" and rid is not None:
            if rid not in opened:
                problem(f"entry {e.seq}: a record of round {rid}, which was never opened")
            if rid in recorded:
                problem(f"entry {e.seq}: round {rid} recorded twice")
            recorded.add(rid)
            _round_record(led, e.seq, rid, p, round_meter.get(rid, []), problem)
    led.in_progress = [r for r in opened if r not in recorded]
    if meter is not None:
        expected = (meter.initial + meter.contributions - meter.to_overflow - meter.awards_from_meter
                    + meter.seeded + meter.from_overflow + meter.corrections)
        if expected != meter.amount:
            problem(f"meter {meter.amount} != initial {meter.initial} + contributions {meter.contributions} - "
                    f"awards {meter.awards_from_meter} + seeded {meter.seeded} + corrections {meter.corrections}")
        if meter.carry0 + meter.wagered_bp != meter.contributions * BP + meter.carry:
            problem(f"carry: {meter.carry0} + wagered x rate {meter.wagered_bp} != contributions "
                    f"{meter.contributions} x {BP} + carry {meter.carry}")
        led.meter = meter.to_json()
    return led


# The figures each kind of meter entry must carry, whole cents (or basis points) every one.
_FIGURES = {"contribution": ("before", "after", "amount", "carry_before", "carry_after", "wagered", "rate_bp"),
            "award": ("before", "after", "amount"), "correction": ("before", "after", "amount")}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _meter_entry(m: _Meter, seq: int, p: dict[str, Any], problem: Callable[[str], None]) -> bool:
    """One meter entry checked against the meter as the journal has it so far.

    An entry missing a figure, or with a figure that is not a whole number, is a problem listed
    like any other and is not added in: the audit names every such entry and goes on, rather
    than stopping at the first with a TypeError (the meter keeps the amount it stood at, and the
    round's checks do not see the entry). True when the entry was well formed and added in."""
    reason = p.get("reason")
    figures = _FIGURES.get(reason) if isinstance(reason, str) else None
    if figures is None:
        problem(f"entry {seq}: a meter entry for {reason!r}")
        return False
    bad = [k for k in figures if not _whole(p.get(k))] + [k for k in ("seeded",) if k in p and not _whole(p[k])]
    if bad:
        problem(f"entry {seq}: a {reason} meter entry without a whole-number {', '.join(bad)}")
        return False
    before, after, amount = int(p["before"]), int(p["after"]), int(p["amount"])
    if before != m.amount:
        problem(f"entry {seq}: the meter moves from {before}, but stood at {m.amount}")
    if reason == "contribution":
        carry_before, carry_after = int(p["carry_before"]), int(p["carry_after"])
        wagered, rate_bp = int(p["wagered"]), int(p["rate_bp"])
        if carry_before != m.carry:
            problem(f"entry {seq}: carry {carry_before} before, but {m.carry} was carried")
        total = carry_before + wagered * rate_bp
        to_overflow = p.get("to_overflow", 0)   # past the meter's limit: into its overflow (issue 29)
        if (amount, carry_after) != divmod(total, BP) or after - before != amount - to_overflow:
            problem(f"entry {seq}: contribution {amount} (carry {carry_after}) is not "
                    f"{wagered} x {rate_bp} bp + carry {carry_before}")
        m.contributions += amount
        m.to_overflow += to_overflow
        m.wagered += wagered
        m.wagered_bp += wagered * rate_bp
        m.carry = carry_after
    elif reason == "award":
        if not p.get("from_meter"):
            m.awards_by_house += amount
            if after != before:
                problem(f"entry {seq}: a fixed award moved the meter")
        else:
            m.awards_from_meter += amount
            seeded = int(p.get("seeded", 0))
            m.seeded += seeded
            m.from_overflow += int(p.get("from_overflow", 0))
            if not seeded and after not in (before - amount, before):
                problem(f"entry {seq}: an award of {amount} took the meter from {before} to {after}")
    else:   # a correction
        m.corrections += after - before
    m.amount = after
    return True


def _round_record(led: Ledger, seq: int, rid: str, p: Record, movements: Sequence[Record],
                  problem: Callable[[str], None]) -> None:
    """A round's record, checked by its game's `books.ledger` (controller/games/registry.py)."""
    name = p.get("game") if isinstance(p, dict) else None
    game = registry.find(name)
    if game is None:
        problem(f"entry {seq}: round {rid}'s record is of no game this table plays ({name!r})")
        return
    game.books.ledger(led, seq, rid, p, movements, problem)


def of_journal(journal: Journal) -> Ledger:
    """The ledger of a whole journal."""
    return compute(journal.entries_since(0))
