"""`tablectl poker replay FILE.phh`: replay one hand under 5324.42 and print how it ended.

Output and exit status as docs/PHH.md sets them: JSON on stdout (variant, players,
finishing_stacks, the pots main first with who could win each and what each winner
took, rake, jackpot_drop) and status 0; status 2 with nothing on stdout and one line
on stderr naming the field or the action when the file is not a legal hand; status 1,
with the JSON still printed, when the file's finishing_stacks disagree with the replay.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from controller.poker.errors import IllegalAction, SetupError
from controller.poker.hand import Hand, IncompleteHand
from controller.poker.phh import PHHHand, loads


class ReplayError(ValueError):
    """The file is not a legal hand; the message names the field or action (exit 2)."""


def replay(phh: PHHHand) -> Hand:
    """The hand after every action of the file, settled; ReplayError names what is wrong."""
    try:
        hand = Hand(phh.setup)
    except SetupError as exc:
        raise ReplayError(str(exc)) from None
    apply = hand.apply
    for i, action in enumerate(phh.actions):
        if action is None:
            continue
        try:
            apply(action)
        except IllegalAction as exc:
            raise ReplayError(f"actions[{i}]: {exc}") from None
    try:
        hand.finish()
    except IncompleteHand as exc:
        raise ReplayError(f"actions: {exc}") from None
    return hand


def summary(hand: Hand, seats: list[int] | None = None) -> dict[str, Any]:
    """The JSON object docs/PHH.md prints for a settled hand: its players numbered from 1 as in PHH,
    or, given the file's `seats`, named by their seats (a table's hand is read by seat, issue 30)."""
    result = hand.result
    if result is None:
        raise ReplayError("actions: the hand is not over")

    def who(p: int) -> int:
        return seats[p] if seats is not None else p + 1

    pots = []
    jackpot = hand.setup.jackpot is not None
    for pot in result.pots:
        out = {
            "amount": pot.amount,
            "rake": pot.rake,
            "eligible": [who(p) for p in pot.eligible],
            "awards": {str(who(p)): chips for p, chips in sorted(pot.awards.items()) if chips},
        }
        if jackpot:
            out["jackpot"] = pot.jackpot   # only at a jackpot table: the spec's shape otherwise
        pots.append(out)
    summary = {
        "variant": hand.variant.code,
        "players": hand.n,
        "finishing_stacks": list(result.finishing_stacks),
        "pots": pots,
        "rake": result.rake,
        "jackpot_drop": result.jackpot_drop,
    }
    if seats is not None:   # finishing_stacks stays indexed like starting_stacks: seats[i] is its seat
        summary["seats"] = list(seats)
    if result.void:
        summary["void"] = result.void   # a misdeal or a dead hand: every chip went back (5324.42(p))
    return summary


def replay_text(text: str) -> tuple[dict[str, Any], list[int] | None]:
    """The summary of the hand in PHH `text`, and the file's own finishing stacks if any."""
    try:
        phh = loads(text)
    except SetupError as exc:
        raise ReplayError(str(exc)) from None
    hand = replay(phh)
    result = summary(hand, phh.fields.get("seats"))
    if phh.fields.get("_amounts_in_cents"):   # the file wrote dollars and cents: the replay answers in cents
        result["amounts"] = "cents"
    return result, phh.finishing_stacks


def run(path: str, out: TextIO, err: TextIO) -> int:
    from controller.inputs import InputError, describe, read_text
    try:
        text = read_text(path)
    except InputError as exc:
        print(str(exc), file=err)
        return 2
    try:
        result, expected = replay_text(text)
    except ReplayError as exc:
        print(str(exc).replace("\n", " "), file=err)
        return 2
    except (RecursionError, ValueError) as exc:   # nested too deeply, a number of thousands of digits
        what = describe(exc)
        if what is None:
            raise
        print(f"{path}: {what}", file=err)
        return 2
    print(json.dumps(result), file=out)
    if expected is not None and expected != result["finishing_stacks"]:
        print(f"finishing_stacks: the file says {expected}, the replay gives {result['finishing_stacks']}",
              file=err)
        return 1
    return 0


def main(args: argparse.Namespace) -> int:
    return run(args.file, sys.stdout, sys.stderr)


__all__ = ["ReplayError", "main", "replay", "replay_text", "run", "summary"]
