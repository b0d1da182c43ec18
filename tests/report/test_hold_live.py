"""Issue 34, item 3 at the live table: a period held against the exact par in `tablectl report --json`.

A one-seat Caribbean stud table (one seat: the band is then exact, controller/par/hold.py) autoplayed on
emulated devices, once from a fair shuffle and once from a shoe stacked in the player's favour (a flush
against a dealer who qualifies with ace-king), the same number of rounds: the fair run stays inside three
standard deviations, the stacked one is flagged. The report's figures are checked against the journal's
round records by a second computation here, with the edge and variance from `tablectl par --json`.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from fractions import Fraction
from math import isqrt
from pathlib import Path

import pytest

from controller.config import load_profile
from controller.journal.store import Journal
from controller.runtime.world import World
from tests.software_hashes import seed_software_hashes
from tests.table.table_helpers import running, stacked_deck

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = str(ROOT / ".venv" / "bin" / "tablectl")
ROUNDS = 12
PLAYERS_FAVOUR = stacked_deck("2h 6h 9h Jh Kh", "Ac Kd 7s 4c 3d")   # seat 1's flush; the dealer's ace-king


def tablectl(*args: str, timeout: float = 180) -> str:
    done = subprocess.run([TABLECTL, *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:] + done.stdout[-2000:]
    return done.stdout


def one_seat_profile(tmp: Path) -> Path:
    text = (ROOT / "tests" / "crash" / "stud.toml").read_text()
    path = tmp / "one-seat.toml"
    path.write_text(text.replace("maximum_wager = 50000", "maximum_wager = 50000\nseats = 1"))
    return path


def report_par(profile: Path, data: Path) -> dict:
    out = json.loads(tablectl("report", "--config", str(profile), "--data-dir", str(data), "--demo",
                              "--from", "2000-01-01", "--json"))
    return out["tables"][0]


def by_hand(profile: Path, data: Path) -> dict:
    """The period against par from the journal's round records and `tablectl par --json`, not the report's code."""
    s = json.loads(tablectl("par", "--config", str(profile), "--json"))
    optimal = s["strategies"]["optimal"]
    edge = Fraction(optimal["house_edge"]["numerator"], optimal["house_edge"]["denominator"])
    variance = Fraction(optimal["variance"]["numerator"], optimal["variance"]["denominator"])
    staked = squares = won = 0
    with Journal.open(data, readonly=True) as j:
        for e in j.entries_of(("round-record",)):
            for seat in (e.payload.get("settlement") or {}).get("seats", []):
                ante = seat["ante"]
                staked += ante["stake"]
                squares += ante["stake"] ** 2
                won -= ante["net"] + (seat.get("bet") or {}).get("net", 0)
    theoretical, var = staked * edge, squares * variance
    return {"staked": staked, "theoretical": theoretical, "variance": var, "measured": won,
            "beyond": (won - theoretical) ** 2 > 9 * var}


def fair_and_stacked(tmp: Path) -> tuple[Path, Path, Path]:
    """The one-seat profile and two journals of ROUNDS rounds each: a fair shuffle's (`tablectl run
    --autoplay`) and one from a shoe stacked in the player's favour (also the supervisor's screen's,
    tests/ui/test_browser_hold_34.py)."""
    profile = one_seat_profile(tmp)
    fair = tmp / "fair"
    seed_software_hashes(fair)
    tablectl("run", "--config", str(profile), "--data-dir", str(fair), "--autoplay", "--rounds", str(ROUNDS),
             "--seed", "11")
    stacked = tmp / "stacked"
    mp = pytest.MonkeyPatch()
    mp.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(PLAYERS_FAVOUR))

    async def play() -> None:
        async with running(load_profile(profile), stacked, autoplay=True, rounds=ROUNDS, seed=11) as table:
            await table.wait()

    try:
        asyncio.run(asyncio.wait_for(play(), 240))
    finally:
        mp.undo()
    return profile, fair, stacked


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return fair_and_stacked(tmp_path_factory.mktemp("hold"))


def test_a_fair_table_stays_in_band_and_a_stacked_one_is_flagged(runs):
    profile, fair, stacked = runs
    for data, flagged in ((fair, False), (stacked, True)):
        t = report_par(profile, data)
        assert t["rounds"] == ROUNDS
        par, hand = t["par"], by_hand(profile, data)
        assert par["staked"] == {"ante": hand["staked"]} and hand["staked"] > 0
        assert par["measured_win"] == hand["measured"]
        assert abs(par["theoretical_win"] - hand["theoretical"]) <= Fraction(1, 2)
        assert par["sigma"] == isqrt(int(hand["variance"]))
        assert par["beyond_band"] is hand["beyond"] is flagged, (data.name, par)
    assert report_par(profile, stacked)["par"]["measured_win"] < 0   # the house lost
    text = tablectl("report", "--config", str(profile), "--data-dir", str(stacked), "--demo", "--from", "2000-01-01")
    assert "BEYOND 3 STANDARD DEVIATIONS" in text


def test_the_report_without_a_profile_holds_nothing(runs):
    _, fair, _ = runs
    out = json.loads(tablectl("report", "--data-dir", str(fair), "--demo", "--from", "2000-01-01", "--json"))
    assert out["tables"][0]["par"] is None
