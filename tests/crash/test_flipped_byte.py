"""A single flipped byte anywhere in the journal is found at start-up of the running table.

helper tests of controller/journal/store.py flip bytes in the journal alone; here the
whole `tablectl run` start-up meets them: the table enters its fault state
(exit status 3 under --autoplay, with the fault on stdout), plays no round, and
is still in the fault at the next start even with the byte put back, until a
supervisor clears it (9 NYCRR 5321.18(b)(3)(iv): verified at power-up).
"""

from __future__ import annotations

import json
import random
import shutil

import pytest

from controller.journal.store import Journal, JournalUnreadable
from tests.crash.crash_lab import PROFILES, Zygote, freeze

FLIPS = 14


@pytest.fixture(scope="module")
def zygote(tmp_path_factory):
    z = Zygote(frozen=freeze(tmp_path_factory.mktemp("software")))
    yield z
    z.close()


def run(zygote: Zygote, data_dir, game: str = "caribbean-stud", rounds: int = 1) -> tuple[int, str]:
    out, log = data_dir.parent / f"{data_dir.name}.out", data_dir.parent / f"{data_dir.name}.log"
    pid = zygote.start(["run", "--config", str(PROFILES[game]), "--data-dir", str(data_dir), "--autoplay",
                        "--seed", "5", "--rounds", str(rounds)], out, log)
    rc = zygote.wait(pid)
    return rc, out.read_text()


def rounds_opened(data_dir) -> int | None:
    try:
        with Journal.open(data_dir, readonly=True) as j:
            return len(j.round_ids())
    except JournalUnreadable:
        return None


@pytest.fixture(scope="module")
def played(tmp_path_factory, zygote):
    d = tmp_path_factory.mktemp("played") / "data"
    rc, out = run(zygote, d, rounds=3)
    assert rc == 0, out
    assert len(out.splitlines()) == 3
    return d


def flip(path, offset: int) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([b ^ 0x01]))


def test_a_flipped_byte_anywhere_stops_the_table(played, tmp_path, zygote):
    db = played / "journal.db"
    size = db.stat().st_size
    assert not (played / "journal.db-wal").exists() or (played / "journal.db-wal").stat().st_size == 0
    rng = random.Random(5321)
    offsets = sorted({0, 50, size // 2, size - 1, *rng.sample(range(size), FLIPS - 4)})
    before = rounds_opened(played)
    for offset in offsets:
        d = tmp_path / f"flip-{offset}" / "data"
        shutil.copytree(played, d)
        flip(d / "journal.db", offset)
        rc, out = run(zygote, d)
        assert rc == 3, f"byte {offset} of {size}: exit {rc}, {out}"
        fault = json.loads(out.splitlines()[-1])["fault"]
        assert fault["reason"], offset
        assert rounds_opened(d) in (before, None), f"byte {offset}: the table played a round"


def test_a_flipped_seal_byte_stops_the_table(played, tmp_path, zygote):
    seal = played / "journal.seal"
    rng = random.Random(5322)
    for offset in rng.sample(range(seal.stat().st_size), 3):
        d = tmp_path / f"seal-{offset}" / "data"
        shutil.copytree(played, d)
        flip(d / "journal.seal", offset)
        rc, out = run(zygote, d)
        assert rc == 3, f"seal byte {offset}: exit {rc}, {out}"


def test_the_fault_stays_after_the_byte_is_put_back(played, tmp_path, zygote):
    d = tmp_path / "put-back" / "data"
    shutil.copytree(played, d)
    db = d / "journal.db"
    offset = db.stat().st_size // 2
    flip(db, offset)
    assert run(zygote, d)[0] == 3
    flip(db, offset)   # the same bit back: the file is as sealed, but a supervisor has not cleared it
    rc, out = run(zygote, d)
    assert rc == 3, out
    assert rounds_opened(d) == rounds_opened(played)
