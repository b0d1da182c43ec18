"""`tablectl poker replay FILE... | DIR`: a regulator's batch in one process, and real-shaped hands.

The batch runs through the installed command; the real-shaped hands (tests/poker/real_hands.py,
the public PHH dataset's shape) are checked against pokerkit's play of them and read by the PHH
reader's own parser exactly as tomllib reads them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from controller.poker.phh import _simple_toml, loads
from controller.poker.replay import replay_text
from tests.poker.real_hands import SOURCES, real_corpus, real_shaped

ROOT = Path(__file__).resolve().parents[2]

CASES = sorted((ROOT / "tests" / "data" / "phh").glob("*.phh"))
TABLECTL = Path(sys.executable).with_name("tablectl")


def tablectl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TABLECTL), "poker", "replay", *args], capture_output=True, text=True, timeout=120,
                          check=False)


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of the shared cases, a refused hand and a hand whose stacks disagree, named in order."""
    d = tmp_path_factory.mktemp("batch")
    for i, case in enumerate(CASES):
        (d / f"{i:02d}-{case.name}").write_text(case.read_text())
    f7s = next(c for c in CASES if c.name == "F7S-001.phh").read_text()
    (d / "50-refused.phh").write_text(f7s.replace("'p4 pb'", "'p5 pb'"))
    (d / "60-disagrees.phh").write_text(f7s.replace("finishing_stacks = [741,", "finishing_stacks = [742,"))
    (d / "notes.txt").write_text("not a hand")
    return d


def test_a_directory_is_one_line_per_hand_in_name_order(hands: Path) -> None:
    done = tablectl(str(hands))
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    names = sorted(p.name for p in hands.glob("*.phh"))
    assert [Path(x["file"]).name for x in lines] == names
    assert done.returncode == 2 and done.stderr == ""   # a refused hand: the worst status
    by_name = {Path(x["file"]).name: x for x in lines}
    assert by_name["50-refused.phh"] == {"file": str(hands / "50-refused.phh"),
                                         "refused": "actions[7]: p5 pb: out of turn: p4 is to act"}
    assert by_name["60-disagrees.phh"]["disagrees"].startswith("finishing_stacks: the file says [742,")
    for i, case in enumerate(CASES):
        line = by_name[f"{i:02d}-{case.name}"]
        assert line["finishing_stacks"] == tomllib.loads(case.read_text())["finishing_stacks"]
        assert "refused" not in line and "disagrees" not in line


def test_files_keep_the_order_given_and_the_status_says_the_worst(hands: Path) -> None:
    good = [str(hands / f"{i:02d}-{c.name}") for i, c in enumerate(CASES)][::-1]
    done = tablectl(*good)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == good
    done = tablectl(good[0], str(hands / "60-disagrees.phh"), str(hands / "missing.phh"))
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 2 and len(lines) == 3
    assert "cannot read" in lines[2]["refused"]
    done = tablectl(good[0], str(hands / "60-disagrees.phh"))
    assert done.returncode == 1


def test_one_file_is_still_the_spec_s_output(hands: Path) -> None:
    done = tablectl(str(hands / "50-refused.phh"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "actions[7]: p5 pb: out of turn: p4 is to act\n"


@pytest.mark.parametrize("source", SOURCES)
def test_real_shaped_hands_replay_as_pokerkit_played_them(source: str) -> None:
    for seed in range(20):
        text = real_shaped(source, seed)
        result, expected = replay_text(text)
        assert result["finishing_stacks"] == expected, text
        assert ("amounts" in result) == (source == "handhq")   # HandHQ's dollars and cents, read in cents


def test_real_shaped_hands_have_the_dataset_s_shape() -> None:
    parsed = [loads(t) for t in real_corpus(90)]
    players = {len(p.setup.starting_stacks) for p in parsed}
    assert min(players) <= 6 and max(players) == 9
    assert sum(len(p.actions) for p in parsed) / len(parsed) > 15
    assert any(p.finishing_stacks is not None and 0 in p.finishing_stacks for p in parsed)   # all-ins lost
    assert any("time" in p.fields for p in parsed) and any("players" in p.fields for p in parsed)


def test_the_reader_reads_real_shaped_files_itself_as_tomllib_does() -> None:
    for text in real_corpus(60):
        fast = _simple_toml(text)
        assert fast is not None, text   # the usual shape of a real file: no fall back to tomllib
        reference = tomllib.loads(text, parse_float=Decimal)
        assert fast == reference and all(type(fast[k]) is type(reference[k]) for k in fast), text
