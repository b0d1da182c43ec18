"""The Caribbean stud count table as the package ships it: counted once, read in milliseconds.

The table depends only on the 52-card deck and the dealer's ace-king qualifier
(5324.37(e)(4)), never on a profile, so it is package data (stud-table.xz) rather
than a cache entry: `tablectl par` needs no compiler, no first count and nothing
written outside what the start's software check covers. `tablectl par --recount`
(the `lab` extra: numba) counts every deal again and writes the same bytes; a slow
test holds the two equal (tests/par/test_par_recount.py).

The file: a magic line, one line of JSON (the hole-card sets per deal, the five-card
hands of each progressive category, the columns with their types and the row count)
and the columns' little-endian bytes, compressed as xz at a fixed preset so the same
table is always the same bytes.
"""

from __future__ import annotations

import functools
import json
import lzma
from collections.abc import Mapping
from importlib import resources

import numpy as np
import numpy.typing as npt

from controller.games.caribbean_stud.par.paytable import StudTable

FILE = "stud-table.xz"
MAGIC = b"tablectl stud count table 1\n"
# (column, its stored type): a pay line is one of nine, a count of hole-card sets below 2^18,
# a row's weight (player hand x up card pairs) below 2^32
COLUMNS = (("line", "<u1"), ("simple_bets", "<u1"), ("not_qualifying", "<u4"), ("lower", "<u4"),
           ("tied", "<u4"), ("weight", "<u4"))
PRESET = 9 | lzma.PRESET_EXTREME


class CountTableError(ValueError):
    """The shipped count table cannot be read: a damaged or foreign file."""


def encode(table: StudTable, hands: Mapping[str, int]) -> bytes:
    """The file's bytes for a count table and the progressive's hand counts: the same table, the same bytes."""
    columns = {name: np.asarray(getattr(table, name)) for name, _ in COLUMNS}
    rows = len(columns["weight"])
    body = []
    for name, code in COLUMNS:
        column = columns[name]
        stored = column.astype(code)
        if len(column) != rows or not np.array_equal(stored.astype(np.int64), column.astype(np.int64)):
            raise CountTableError(f"the column {name} does not fit its stored type {code}")
        body.append(stored.tobytes())
    header = {"hole_sets": int(table.hole_sets), "rows": rows, "hands": dict(sorted(hands.items())),
              "columns": [list(c) for c in COLUMNS]}
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    return lzma.compress(MAGIC + text + b"".join(body), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64,
                         preset=PRESET)


def decode(data: bytes) -> tuple[StudTable, dict[str, int]]:
    """The count table and the progressive's hand counts of a file `encode` wrote."""
    try:
        raw = lzma.decompress(data, format=lzma.FORMAT_XZ)
    except lzma.LZMAError as exc:
        raise CountTableError(f"the count table does not decompress: {exc}") from None
    if not raw.startswith(MAGIC):
        raise CountTableError("not a Caribbean stud count table")
    line_end = raw.index(b"\n", len(MAGIC))
    header = json.loads(raw[len(MAGIC):line_end])
    if [tuple(c) for c in header["columns"]] != list(COLUMNS):
        raise CountTableError("the count table's columns are not this version's")
    rows, at = int(header["rows"]), line_end + 1
    out: dict[str, npt.NDArray[np.generic]] = {}   # each column in its stored type, widened below
    for name, code in COLUMNS:
        size = rows * np.dtype(code).itemsize
        if at + size > len(raw):
            raise CountTableError("the count table is cut short")
        out[name] = np.frombuffer(raw, dtype=code, count=rows, offset=at)
        at += size
    if at != len(raw):
        raise CountTableError("the count table has bytes after its columns")
    table = StudTable(int(header["hole_sets"]), out["line"].astype(np.int64), out["simple_bets"].astype(np.bool_),
                      out["not_qualifying"].astype(np.int64), out["lower"].astype(np.int64),
                      out["tied"].astype(np.int64), out["weight"].astype(np.int64))
    return table, {str(k): int(v) for k, v in header["hands"].items()}


def shipped_bytes() -> bytes:
    """The file as the package holds it."""
    return resources.files(__package__).joinpath(FILE).read_bytes()


@functools.cache
def load() -> tuple[StudTable, dict[str, int]]:
    """The shipped count table and hand counts (read once per process)."""
    return decode(shipped_bytes())


def recount() -> bytes:
    """Count every deal again (numba: `pip install 'tablectl[lab]'`) and give the file's bytes."""
    try:
        from controller.games.caribbean_stud.par import counts
    except ImportError as exc:
        raise RuntimeError(f"recounting needs the lab extra (pip install 'tablectl[lab]'): {exc}") from None
    table = StudTable.from_counts(counts.count())
    return encode(table, counts.hand_categories())
