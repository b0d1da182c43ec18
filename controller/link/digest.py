"""The digest by which a table and its pool show that their records agree (5321.18(c)).

Both sides reduce a table's operations to the same lines, `kind|ident|key|amount`,
sorted by key, and hash them; link._digest in schema.sql computes the same in SQL.
Equal counts and digests mean that nothing was lost or counted twice on either
side; when they differ, `differences` names the operations that do.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

Record = tuple[str, str, str, int]  # kind, ident (round, round#seat, hand...), key (uuid text), amount
# The operations the digest holds: those that move money (link._records in schema.sql). A round's
# `close` (issue 26) moves none; the pool keeps it on the round's contribution.
IN_DIGEST = frozenset(("contribution", "claim", "settle", "jackpot-contribution", "qualify"))


def line(record: Record) -> str:
    kind, ident, key, amount = record
    return f"{kind}|{ident}|{key}|{amount}\n"


def digest(records: Iterable[Record]) -> tuple[int, str]:
    """Count and SHA-256 of the records, in key order (the SQL side orders by key COLLATE "C")."""
    ordered = sorted(records, key=lambda r: r[2])
    h = hashlib.sha256()
    for r in ordered:
        h.update(line(r).encode())
    return len(ordered), h.hexdigest()


def differences(table: Iterable[Record], pool: Iterable[Record]) -> list[str]:
    """What one side holds that the other does not, one line each (for the alarm and the log)."""
    mine = {r[2]: r for r in table}
    theirs = {r[2]: r for r in pool}
    out: list[str] = []
    for key in sorted(set(mine) | set(theirs)):
        a, b = mine.get(key), theirs.get(key)
        if a == b:
            continue
        if b is None and a is not None:
            out.append(f"only at the table: {line(a).strip()}")
        elif a is None and b is not None:
            out.append(f"only in the pool: {line(b).strip()}")
        elif a is not None and b is not None:
            out.append(f"differ: table {line(a).strip()} / pool {line(b).strip()}")
    return out
