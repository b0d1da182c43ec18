"""The shipped count table: read without a compiler, refused when damaged, and the same bytes when written again."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from controller.games.caribbean_stud.par import shipped


def test_a_sheet_needs_no_compiler():
    """The table's process computes a Caribbean stud sheet without importing numba (the lab extra)."""
    code = ("import sys\n"
            "from controller.config import load_profile\n"
            "from controller.par.sheet import sheet_of\n"
            "p = load_profile('config/caribbean-stud.toml')\n"
            "g = sheet_of(p.game)\n"
            "s = g.compute(g.rules(p))\n"
            "assert s['deals'] == 19_933_230_517_200\n"
            "print('numba' in sys.modules, 'llvmlite' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_encoding_the_shipped_table_again_gives_its_bytes():
    table, hands = shipped.load()
    assert shipped.encode(table, hands) == shipped.shipped_bytes()
    assert hands["royal-flush"] == 4 and sum(hands.values()) == 2_598_960
    assert int(table.weight.sum()) * table.hole_sets == 19_933_230_517_200


@pytest.mark.parametrize("damage", ["truncated", "foreign", "flipped"])
def test_a_damaged_table_is_refused(damage):
    import lzma
    data = shipped.shipped_bytes()
    if damage == "truncated":
        raw = lzma.decompress(data)
        bad = lzma.compress(raw[:-10])
    elif damage == "foreign":
        bad = lzma.compress(b"something else\n{}\n")
    else:
        bad = data[:100] + bytes([data[100] ^ 1]) + data[101:]
    with pytest.raises(shipped.CountTableError):
        shipped.decode(bad)


def test_a_column_that_does_not_fit_its_type_is_refused():
    table, hands = shipped.load()
    wide = type(table)(table.hole_sets, table.line, table.simple_bets, table.not_qualifying,
                       table.lower, table.tied, table.weight + np.int64(2**32))
    with pytest.raises(shipped.CountTableError, match="weight"):
        shipped.encode(wide, hands)
