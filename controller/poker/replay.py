"""`tablectl poker replay FILE.phh`: replay one hand under 5324.42 and print how it ended.

Output and exit status as docs/PHH.md sets them: JSON on stdout (variant, players,
finishing_stacks, the pots main first with who could win each and what each winner
took, rake, jackpot_drop) and status 0; status 2 with nothing on stdout and one line
on stderr naming the field or the action when the file is not a legal hand; status 1,
with the JSON still printed, when the file's finishing_stacks disagree with the replay.

`tablectl poker replay FILE... | DIR` replays a regulator's batch in one process (a process
per hand would cost more than the hands): one JSON line per hand in the order given, a
directory's `*.phh` files in name order, each line naming its `file`. A hand that is not
legal is its own line, `{"file": ..., "refused": "actions[17]: ..."}`; one whose
finishing_stacks disagree carries the summary and `"disagrees"`. The exit status is the
worst hand's: 2 if any was refused, else 1 if any disagreed, else 0.
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


def judge(path: str) -> tuple[int, dict[str, Any] | None, str | None]:
    """(exit status, summary or None, the line for stderr or None) of the hand in file `path`."""
    from controller.inputs import InputError, describe, read_text
    try:
        text = read_text(path)
    except InputError as exc:
        return 2, None, str(exc)
    try:
        result, expected = replay_text(text)
    except ReplayError as exc:
        return 2, None, str(exc).replace("\n", " ")
    except (RecursionError, ValueError) as exc:   # nested too deeply, a number of thousands of digits
        what = describe(exc)
        if what is None:
            raise
        return 2, None, f"{path}: {what}"
    if expected is not None and expected != result["finishing_stacks"]:
        return 1, result, f"finishing_stacks: the file says {expected}, the replay gives {result['finishing_stacks']}"
    return 0, result, None


def run(path: str, out: TextIO, err: TextIO) -> int:
    """One hand, as spec/poker.md prints it."""
    status, result, problem = judge(path)
    if result is not None:
        print(json.dumps(result), file=out)
    if problem is not None:
        print(problem, file=err)
    return status


def hand_files(paths: list[str]) -> list[str]:
    """The files named, a directory's `*.phh` in name order where a directory is named."""
    import os
    out: list[str] = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            out += sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith(".phh"))
        else:
            out.append(path)
    return out


def run_batch(paths: list[str], out: TextIO) -> int:
    """Every hand of `paths`, a JSON line each in order; the worst hand's status."""
    worst = 0
    dumps, write = json.dumps, out.write
    for path in hand_files(paths):
        status, result, problem = judge(path)
        if result is None:
            line: dict[str, Any] = {"file": path, "refused": problem}
        else:
            line = {"file": path, **result}
            if problem is not None:
                line["disagrees"] = problem
        write(dumps(line) + "\n")
        worst = max(worst, status)
    return worst


def main(args: argparse.Namespace) -> int:
    import os
    files: list[str] = args.files
    if len(files) == 1 and (files[0] == "-" or not os.path.isdir(files[0])):
        return run(files[0], sys.stdout, sys.stderr)
    return run_batch(files, sys.stdout)


__all__ = ["ReplayError", "hand_files", "judge", "main", "replay", "replay_text", "run", "run_batch", "summary"]
