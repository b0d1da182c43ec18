"""High card on the live runtime (controller/table.py) without the screens: two rounds submitted as
the dealer's panel submits them, every device emulated (the shuffler counts each round's deck, the
dispensing shoe deals it), then the journal's records settled again and the ledger balanced. A
narrower proof than test_live.py: the table itself takes the game, whatever the screens do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.config import load_profile
from controller.table import Table
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import wait_until

from high_card import GAME
from high_card.profile import HighCardProfile
from high_card.rules import NAME

TABLECTL = Path(sys.executable).with_name("tablectl")


@pytest.fixture
def live(tmp_path):
    profile = load_profile(Path(str(GAME.profiles.defaults[NAME])))   # config's union holds its model (the registry's)
    assert isinstance(profile, HighCardProfile)
    server = LiveServer(lambda: Table(profile, data_dir=tmp_path / "data", seed=3, screen=False), None)
    closed: list[bool] = []

    def close() -> None:   # once: the test closes the table before it reads the journal as a command
        if not closed:
            closed.append(True)
            server.close()
    try:
        yield server, tmp_path / "data", close
    finally:
        close()


def submitted(server, event: dict) -> list[dict]:
    done = server.submit(event)
    assert done["ok"], (event, done)
    return done["effects"]


@pytest.mark.slow   # a live table started and two rounds dealt: tens of seconds on a busy 2-core box
def test_two_rounds_on_the_live_runtime(live):
    server, data, close = live
    rounds = []
    for wagers in ({1: 500, 3: 1000}, {2: 2500}):
        state = wait_until(server, lambda s: s["round"]["state"] == "wagers", "a round taking wagers")
        rounds.append(state["round"]["id"])
        for seat, stake in wagers.items():
            submitted(server, {"type": "wager", "seat": seat, "stake": stake})
        submitted(server, {"type": "no_more_bets"})
        wait_until(server, lambda s: "deal" in s["round"]["allowed"], "the deck counted and in the shoe")
        submitted(server, {"type": "deal"})
        wait_until(server, lambda s: s["round"]["state"] == "settling", "the shoe's cards")
        submitted(server, {"type": "settle"})
        wait_until(server, lambda s: s["round"]["state"] == "closed", "the round closed")
        assert sorted(s["seat"] for s in server.published()["settlement"]) == sorted(wagers)   # the pay list
        submitted(server, {"type": "next_round"})

    async def records():
        return [next(e.payload for e in server.table.journal.round_entries(r) if e.kind == "round-record")
                for r in rounds]
    for record in server.call(records()):
        assert GAME.books.settle(record["record"]) == record["settlement"]
    close()
    verified = subprocess.run([str(TABLECTL), "journal", "verify", "--data-dir", str(data)], capture_output=True,
                              text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "every round re-settles to what was paid" in verified.stdout
