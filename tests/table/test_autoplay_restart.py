"""Autoplay on a live table killed at a decision and started again with another seed (issue 26, item 10).

`tablectl run --autoplay --seed A` is killed (SIGKILL) as its emulated players make their
decisions: one seat has decided, the next not. The table is started again with the
installed command and `--seed B`, whose players would have sat at other seats. The
recovered round was anted by A's players; autoplay decides each of its seats (by the
cards, as it always does) and the round closes. Before the fix autoplay asked only B's
plan for decisions and waited for ever on a round whose reveal needs A's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.journal.store import Journal
from controller.runtime.autoplay import make_plan
from tests.software_hashes import seed_software_hashes
from tests.table.table_helpers import STUD, stud_profile

TABLECTL = Path(sys.executable).with_name("tablectl")   # the installed command
FINISH = 60   # seconds: the bound on each run (a round takes a second or two)

pytestmark = pytest.mark.crash   # a table killed and started again (tests/conftest.py marks tests/crash so)

# The kill point, in the table's own process: the emulated player's second decision is
# about to be submitted, so the journal holds a round with one seat decided and one not.
KILLED_AT_A_DECISION = r"""
import os, signal, sys
from controller.runtime import autoplay
submit, decisions = autoplay.Autoplay.submit, []
async def killing(self, event, *args, **kwargs):
    if event.get("type") == "decision":
        decisions.append(event["seat"])
        if len(decisions) == 2:
            os.kill(os.getpid(), signal.SIGKILL)
    return await submit(self, event, *args, **kwargs)
autoplay.Autoplay.submit = killing
from controller.cli import main
sys.exit(main(sys.argv[1:]))
"""


def seeds(round_id: str) -> tuple[int, int, list[int]]:
    """A seed whose players sit at two seats or more, and one whose players sit elsewhere."""
    p = stud_profile()
    plan = {s: sorted(make_plan(p.game, round_id, s, p.seats, p.table.minimum_wager, p.table.maximum_wager).wagers)
            for s in range(1, 200)}
    first = next(s for s, seats in plan.items() if len(seats) >= 2)
    second = next(s for s, seats in plan.items() if not set(seats) & set(plan[first]))
    return first, second, plan[first]


def decisions(data_dir: Path, round_id: str) -> dict[int, str]:
    with Journal.open(data_dir, readonly=True) as j:
        return {e.payload["event"]["seat"]: e.payload["event"]["decision"] for e in j.round_entries(round_id)
                if e.kind == "event" and e.payload["event"]["type"] == "decision"}


def test_autoplay_restarted_with_another_seed_decides_every_seat_of_the_recovered_round(tmp_path):
    data = seed_software_hashes(tmp_path / "data")
    rid = f"{stud_profile().table.id}-000001"
    first, second, anted = seeds(rid)
    run = ["run", "--config", str(STUD), "--data-dir", str(data), "--autoplay"]
    killed = subprocess.run([sys.executable, "-c", KILLED_AT_A_DECISION, *run, "--seed", str(first)],
                            capture_output=True, text=True, timeout=FINISH)
    assert killed.returncode == -9, killed.stderr[-2000:]
    before = decisions(data, rid)
    assert len(before) == 1 and set(before) < set(anted), before   # killed between two decisions

    again = subprocess.run([str(TABLECTL), *run, "--seed", str(second), "--rounds", "1"], capture_output=True,
                           text=True, timeout=FINISH)
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    after = decisions(data, rid)
    assert set(after) == set(anted), (after, anted)   # each of the first seed's seats decided
    with Journal.open(data, readonly=True) as j:
        record = j.round_record(rid).payload
    settled = {s["seat"] for s in record["settlement"]["seats"]}
    assert settled == set(anted), record["settlement"]["seats"]
