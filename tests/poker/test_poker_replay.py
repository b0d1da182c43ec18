"""`tablectl poker replay`: the shared cases, the JSON it prints, and its exit statuses (spec/poker.md)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from controller.poker.replay import run

CASES = sorted((Path(__file__).parents[1] / "data" / "phh").glob("*.phh"))
TABLECTL = Path(sys.executable).with_name("tablectl")


def replay(path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(str(path), out, err)
    return code, out.getvalue(), err.getvalue()


def without_finishing_stacks(text: str) -> str:
    return re.sub(r"^finishing_stacks\s*=.*$", "", text, flags=re.M)


def test_there_are_sixteen_cases():
    assert len(CASES) == 16


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_shared_case_replays_to_its_finishing_stacks(path, tmp_path):
    """As check-cases runs them: the file without finishing_stacks, the printed stacks compared."""
    want = tomllib.loads(path.read_text())["finishing_stacks"]
    stripped = tmp_path / path.name
    stripped.write_text(without_finishing_stacks(path.read_text()))
    code, out, err = replay(stripped)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["finishing_stacks"] == want
    assert result["variant"] == tomllib.loads(path.read_text())["variant"]
    assert result["players"] == len(want)
    assert result["rake"] == 0 and result["jackpot_drop"] == 0
    # every chip is somewhere: the pots' awards are what the stacks gained
    starting = tomllib.loads(path.read_text())["starting_stacks"]
    put_in = sum(starting) - sum(want) + sum(c for pot in result["pots"] for c in pot["awards"].values())
    assert put_in == sum(pot["amount"] for pot in result["pots"])
    for pot in result["pots"]:
        assert sum(pot["awards"].values()) == pot["amount"] - pot["rake"]
        assert set(pot["awards"]) <= {str(p) for p in pot["eligible"]}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_shared_case_with_its_finishing_stacks_exits_0(path):
    assert replay(path)[0] == 0


def test_pots_main_first_with_eligible_players_numbered_from_one():
    code, out, _ = replay(next(p for p in CASES if p.name == "PO-002.phh"))
    pots = json.loads(out)["pots"]
    assert [p["eligible"] for p in pots] == [[2, 5, 6, 7], [2, 6, 7], [2, 6]]
    assert [p["amount"] for p in pots] == [41, 15, 20]
    assert pots[2]["awards"] == {"2": 10, "6": 10}


def test_a_finishing_stacks_mismatch_exits_1_and_says_so(tmp_path):
    path = next(p for p in CASES if p.name == "NT-002.phh")
    bad = tmp_path / "bad.phh"
    bad.write_text(path.read_text().replace("finishing_stacks = [210,", "finishing_stacks = [211,"))
    code, out, err = replay(bad)
    assert code == 1
    assert json.loads(out)["finishing_stacks"][0] == 210
    assert err.startswith("finishing_stacks: the file says [211,")
    assert err.count("\n") == 1


@pytest.mark.parametrize("change, first_line", [
    (("'p9 f'", "'p9 cbr 11'"), "actions[15]: p9 cbr 11: below the minimum raise of 18"),
    (("'p3 f'", "'p4 f'"), "actions[9]: p4 f: out of turn: p3 is to act"),
    (("'p5 f']", "'p5 f', 'p5 cc']"), "actions[19]: p5 cc: the hand is over"),
    (("'d dh p9 9d3h'", "'d dh p9 9d7h'"), "actions[8]: d dh p9 9d7h: 7h is already dealt (in p1's hand)"),
    (("min_bet = 2\n", ""), "min_bet: is required for NT"),
    (("'p5 f']", "'p5 f'"), "not a PHH file (TOML)"),
    (("'p8 cbr 10', 'p9 f', 'p1 f', 'p2 f', 'p5 f'", "'p8 cbr 10'"), "actions: the hand is not over: p9 is to act"),
])
def test_an_illegal_hand_exits_2_with_one_line_naming_it(tmp_path, change, first_line):
    path = next(p for p in CASES if p.name == "NT-002.phh")
    bad = tmp_path / "bad.phh"
    text = path.read_text().replace(*change)
    assert text != path.read_text()
    bad.write_text(text)
    code, out, err = replay(bad)
    assert code == 2
    assert out == ""
    assert err.startswith(first_line), err
    assert err.count("\n") == 1


def test_a_missing_file_exits_2(tmp_path):
    code, out, err = replay(tmp_path / "nowhere.phh")
    assert code == 2 and out == "" and "cannot read" in err


def test_the_command_line(tmp_path):
    """The real entry point, as check-cases calls it."""
    path = next(p for p in CASES if p.name == "F7S-001.phh")
    stripped = tmp_path / path.name
    stripped.write_text(without_finishing_stacks(path.read_text()))
    done = subprocess.run([str(TABLECTL), "poker", "replay", str(stripped)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finishing_stacks"] == [741, 0, 55, 922, 201, 0, 0]
    bad = tmp_path / "bad.phh"
    bad.write_text(path.read_text().replace("'p4 pb'", "'p5 pb'"))
    done = subprocess.run([str(TABLECTL), "poker", "replay", str(bad)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "actions[7]: p5 pb: out of turn: p4 is to act\n"
