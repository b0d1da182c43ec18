"""Hand-pays: a win the US reports on a form W-2G, paid by hand once a supervisor has filled in the form.

A banked game's wager is a hand-pay when what it won (its net: the payout less the wager, as the
form counts winnings "reduced by the wager") is at least the profile's `[hand_pay] min_amount`
and at least `multiple` times the wager: by default $600 and 300 times, the threshold of the
form for such winnings. Each wager of a seat is held to the threshold by itself (the form's
"amount of the wager" is one wager's); a seat is held for its form when one of them meets it.

The player's identification is recorded in the journal and nowhere else in full: everything
that shows it (a screen, a command's output, a log line) shows `masked` (its last four
characters), and `redacted` masks it wherever it stands in an event or a payload.

Pure: numbers and mappings in, numbers and mappings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MIN_AMOUNT = 60_000   # cents: $600
MULTIPLE = 300        # times the wager
PRIVATE = "player_id"   # the field that carries a player's identification, wherever it stands
SHOWN = 4   # the last characters of an identification a screen or a command shows


@dataclass(frozen=True)
class Threshold:
    """The profile's `[hand_pay]`: at least `min_amount` cents won and at least `multiple` times the wager."""

    min_amount: int = MIN_AMOUNT
    multiple: int = MULTIPLE

    def to_dict(self) -> dict[str, int]:
        return {"min_amount": self.min_amount, "multiple": self.multiple}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> Threshold | None:
        """The threshold a round opened with (None: a round opened before hand-pays were held)."""
        if not d:
            return None
        return cls(min_amount=int(d["min_amount"]), multiple=int(d["multiple"]))


def is_hand_pay(win: int, wager: int, threshold: Threshold) -> bool:
    """Whether a wager of `wager` cents that won `win` cents (net of the wager) is a hand-pay."""
    if wager <= 0 or win <= 0:
        return False
    return win >= threshold.min_amount and win >= threshold.multiple * wager


def qualifying(seat: Mapping[str, Any], threshold: Threshold, leave_out: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The wagers of one seat's settlement ({"ante": {"stake", "net", ...}, ...}) that are hand-pays,
    each {"wager", "stake", "win"}, in the settlement's order; `leave_out` names wagers not (yet) won
    (a progressive award no supervisor has validated)."""
    out = []
    for name, w in seat.items():
        if name in leave_out or not isinstance(w, Mapping) or "stake" not in w or "net" not in w:
            continue
        stake, net = w["stake"], w["net"]
        if isinstance(stake, int) and isinstance(net, int) and is_hand_pay(net, stake, threshold):
            out.append({"wager": name, "stake": stake, "win": net})
    return out


def masked(player_id: object) -> str:
    """An identification as a screen or a command shows it: its last four characters, the rest hidden."""
    text = str(player_id or "")
    shown = text[-SHOWN:] if len(text) > SHOWN else ""
    return "\u2022" * 4 + shown


def redacted(value: Any) -> Any:
    """`value` with every player's identification in it masked (an event, a payload, a sample)."""
    if isinstance(value, Mapping):
        return {k: masked(v) if k == PRIVATE else redacted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redacted(v) for v in value]
    if isinstance(value, str) and PRIVATE in value:   # a refusal's excerpt of what was sent (boundary.sample)
        return f"(withheld: it holds a {PRIVATE})"
    return value
