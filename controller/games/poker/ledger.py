"""A poker hand checked again by the ledger (controller/runtime/ledger.py): the game's own check.

No chip is made or lost at a poker table: what the house took is the rake and the
jackpot drop (9 NYCRR 5324.42(o), (r)), and the hand's PHH record replays to the
stacks the table carried on with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controller.poker.replay import replay_text

if TYPE_CHECKING:
    from controller.runtime.ledger import Ledger


def check_poker_hand(led: Ledger, seq: int, rid: str, p: Mapping[str, Any], movements: Sequence[Mapping[str, Any]],
                     problem: Callable[[str], None]) -> None:
    """A poker hand: what was in play is what is left plus the rake and the jackpot drop; its PHH replays."""
    led.settled += 1
    before, after = sum(p["stacks_before"]), sum(p["stacks_after"])
    led.stakes["poker"] += before
    led.nets["rake"] -= p["rake"]
    led.nets["jackpot_drop"] -= p["jackpot_drop"]
    if before != after + p["rake"] + p["jackpot_drop"]:
        problem(f"entry {seq}: hand {rid}: {before} in play, {after} after plus rake {p['rake']} and "
                f"jackpot drop {p['jackpot_drop']}")
    try:
        summary, _ = replay_text(p["phh"])
    except ValueError as exc:
        problem(f"entry {seq}: hand {rid}'s PHH does not replay: {exc}")
        return
    if summary["finishing_stacks"] != p["stacks_after"]:
        problem(f"entry {seq}: hand {rid}'s PHH replays to {summary['finishing_stacks']}, "
                f"the table carried on with {p['stacks_after']}")
