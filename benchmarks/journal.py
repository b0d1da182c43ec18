"""The journal: durable appends beside a bare SQLite commit, and recovery time as it grows.

1. Appends. Each journal append is one transaction, committed and fsync'd
   before it returns (WAL, synchronous=FULL), with its canonical JSON, its
   SHA-256 link, its HMAC under the journal key (issue 15), two partial
   indexes and the periodic checkpoint + re-seal (the seal MACed too).
   The baseline is a bare SQLite WAL commit (synchronous=FULL, SQLite's own
   autocheckpoint) inserting the very same row bytes into a plain table, one
   commit per row. The two run interleaved in blocks, so a disk that is busier
   at one moment weighs on both alike. Target: journal <= 2x bare.
   The anchor (controller/journal/anchor.py) is written to the progressive
   controller at each settlement and close, not at each append, awaited
   before the settlement's effects (issue 26), and each write is journaled
   after it ("anchor-written", a row riding with the table's next commit):
   both are measured apart, over the emulated controller's USB protocol (4
   ANCHOR_WRITE reports, each ACKed) and on the same journal (a commit with
   the record less the same commit without it), and shown per round and
   spread over a round's appends ("anchored append"). A Caribbean stud
   round anchors twice when a progressive win waits for validation
   (settlement, close), once otherwise: the figures are for once.

2. Recovery after a power cut at 1,000, 10,000 and 100,000 journaled rounds of
   Caribbean stud at a full table (7 seats, 29 entries and about 5 KB of JSON
   a round, a snapshot at the end of each). The writer dies (os._exit)
   part-way through a round, as at a power cut; a fresh process then times
   what the table does at start: Journal.open (the file against its seal, the
   log, the chain from the sealed head, re-seal) + latest_snapshot +
   entries_since. Target: <= 2 s, flat. Columns:
   - start: the default check, which takes the file's fingerprint (inode,
     size, mtime, ctime) for an untouched sealed file; warm (page cache) and
     cold (after posix_fadvise DONTNEED on the journal's files).
   - full start: file_check="full", every byte of the file re-read at start
     (what happens anyway when the file was written since it was sealed).
   - scrub: the background re-read of every sealed byte the table starts once
     it is up; verify: `tablectl journal verify` (whole chain and SQLite's
     integrity check). Both linear by design, neither part of start-up.

    .venv/bin/python benchmarks/journal.py [--sizes 1000,10000,100000] [--appends 3000] [--dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.journal.store import Journal

SEATS = 7


def round_entries(n: int, meter: int) -> list[tuple[str, dict, str | None]]:
    """One round of Caribbean stud at a full table, as the table journals it."""
    rid = f"CS-01-{n:08d}"
    cards = ["As", "Kd", "7h", "4c", "2s"]
    seats = list(range(1, SEATS + 1))
    items: list[tuple[str, dict, str | None]] = [
        ("round-opened", {"game": "caribbean-stud", "table": "CS-01", "seats": seats, "dealing": "automated"}, rid)]
    items += [("wager", {"seat": s, "ante": 1000, "progressive": s % 2 == 1, "sensor": f"acceptor-{s}"}, rid)
              for s in seats]
    items.append(("lockout", {"by": "button", "progressive_wagers": 4}, rid))
    items.append(("card-count", {"device": "shuffler", "count": 52}, rid))
    items += [("stack", {"to": s, "cards": cards}, rid) for s in [*seats, "dealer"]]
    items += [("decision", {"seat": s, "decision": "bet" if s % 3 else "fold", "by": "dealer-panel"}, rid)
              for s in seats]
    settled = {"game": "caribbean-stud",
               "dealer": {"cards": cards, "up_card": "As", "hand": "high-card", "qualifies": True},
               "seats": [{"seat": s, "cards": cards, "hand": "high-card",
                          "ante": {"stake": 1000, "outcome": "lose", "net": -1000},
                          "bet": {"stake": 2000, "outcome": "lose", "net": -2000}} for s in seats],
               "progressive": {"meter_before": meter, "contributions": 280, "meter_after": meter + 280,
                               "awards": []}}
    items.append(("settlement", settled, rid))
    items.append(("meter", {"meter": "progressive", "before": meter, "after": meter + 280,
                            "reason": "contribution", "remainder": [0, 1]}, rid))
    record = {"game": "caribbean-stud", "rules": {"bet_multiple": 2},
              "dealer": cards, "seats": [{"seat": s, "ante": 1000, "decision": "bet", "cards": cards}
                                         for s in seats]}
    items.append(("round-record", {"record": record, "settlement": settled}, rid))
    items.append(("snapshot", {"meters": {"progressive": {"amount": meter + 280, "remainder": [0, 1]}},
                               "round": None, "rounds": n + 1}, None))
    return items


# --------------------------------------------------------------------------
# 1. appends beside bare commits
# --------------------------------------------------------------------------

def bench_appends(base: Path, appends: int, block: int = 25) -> dict:
    items = []
    n = 0
    while len(items) < appends:
        items += round_entries(n, 2_500_000 + 280 * n)
        n += 1
    items = items[:appends]
    per_round = len(round_entries(0, 0))

    jdir = base / "append-journal"
    j = Journal.open(jdir, key=secrets.token_bytes(32))   # authenticated: every entry and seal MACed
    bare_path = base / "append-bare.db"
    bare = sqlite3.connect(bare_path, isolation_level=None)
    bare.execute("PRAGMA journal_mode=WAL")
    bare.execute("PRAGMA synchronous=FULL")
    bare.execute("CREATE TABLE entries (seq INTEGER PRIMARY KEY, kind TEXT, round_id TEXT, at TEXT, "
                 "payload TEXT, prev BLOB, hash BLOB, mac BLOB)")
    t_journal = t_bare = 0.0
    seals_before = _seal_count(j)
    for start in range(0, appends, block):
        chunk = items[start:start + block]
        t = time.perf_counter()
        written = [j.append(kind, payload, round_id=rid) for kind, payload, rid in chunk]
        t_journal += time.perf_counter() - t
        rows = [(e.seq, e.kind, e.round_id, e.at,
                 json.dumps(e.payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
                 e.prev, e.hash, e.mac) for e in written]
        t = time.perf_counter()
        for row in rows:
            bare.execute("BEGIN")
            bare.execute("INSERT INTO entries VALUES (?,?,?,?,?,?,?,?)", row)
            bare.execute("COMMIT")
        t_bare += time.perf_counter() - t
    seals = _seal_count(j) - seals_before
    anchor_us, record_us = asyncio.run(bench_anchor(j))
    j.close()
    bare.close()
    return {"appends": appends, "journal_us": t_journal / appends * 1e6, "bare_us": t_bare / appends * 1e6,
            "per_round": per_round, "seals": seals, "anchor_us": anchor_us, "record_us": record_us}


async def bench_anchor(j: Journal, writes: int = 200) -> tuple[float, float]:
    """One anchor write to the emulated progressive controller (USB via pyusb), and the journal's
    record of it ("anchor-written", a durable append), each in microseconds."""
    from controller.journal.anchor import Anchor, of_journal
    from drivers.progressive.device import ProgressiveDevice
    from drivers.sim.progressive import ProgressiveEmulator
    emu = ProgressiveEmulator(nvram=None)
    dev = ProgressiveDevice(asyncio.Queue(), vendor=emu.vendor, product=emu.product,
                            serial=emu.serial_number, backend=emu.backend)
    await dev.start()
    try:
        await dev.wait_connected(5)
        anchor = of_journal(j)
        t = time.perf_counter()
        for _ in range(writes):
            await dev.write_anchor(anchor.to_bytes())
        took = (time.perf_counter() - t) / writes * 1e6
        assert Anchor.from_bytes(await dev.read_anchor()) == anchor
        # the record rides with the table's next commit: one more row in a transaction made anyway,
        # timed as the difference between that commit with and without it, interleaved
        record = ("anchor-written", {"sink": "progressive controller", "seq": anchor.seq,
                                     "hash": anchor.hash.hex()}, None)
        entry = round_entries(0, 0)[0]
        without = with_record = 0.0
        for _ in range(writes):
            t = time.perf_counter()
            j.append_many([entry])
            without += time.perf_counter() - t
            t = time.perf_counter()
            j.append_many([record, entry])
            with_record += time.perf_counter() - t
        return took, (with_record - without) / writes * 1e6
    finally:
        await dev.close()


_seals = {"n": 0}


def _seal_count(j: Journal) -> int:
    return _seals["n"]


def _count_seals() -> None:
    real = Journal._finish_seal

    def counted(self, intent):
        _seals["n"] += 1
        return real(self, intent)

    Journal._finish_seal = counted


# --------------------------------------------------------------------------
# 2. recovery at size
# --------------------------------------------------------------------------

BUILD = """
import os, sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
from controller.journal.store import Journal
from journal import round_entries
j = Journal.open({d!r})
n0 = {start}
for first in range(n0, {rounds}, 50):
    batch = []
    for n in range(first, min(first + 50, {rounds})):
        batch += round_entries(n, 2_500_000 + 280 * n)
    j.append_many(batch)
if {die}:
    for kind, payload, rid in round_entries({rounds}, 0)[:12]:   # a round in progress...
        j.append(kind, payload, round_id=rid)
    os._exit(0)                                                  # ...when the power goes
j.close()
"""

RECOVER = """
import os, sys, time, json
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
d = {d!r}
if {cold}:
    for name in os.listdir(d):
        fd = os.open(os.path.join(d, name), os.O_RDONLY)
        os.fsync(fd) if False else None
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
t0 = time.perf_counter()
from controller.journal.store import Journal
t1 = time.perf_counter()
j = Journal.open(d, file_check={file_check!r})
t2 = time.perf_counter()
snap = j.latest_snapshot()
tail = list(j.entries_since(snap.seq if snap else 0))
t3 = time.perf_counter()
assert not j.problems, j.problems
out = {{"import": t1 - t0, "open": t2 - t1, "replay": t3 - t2, "total": t3 - t1, "tail": len(tail),
        "rounds": snap.payload["rounds"], "size": os.path.getsize(os.path.join(d, "journal.db"))}}
from journal import round_entries
for kind, payload, rid in round_entries(snap.payload["rounds"], 0)[:12]:
    j.append(kind, payload, round_id=rid)
print(json.dumps(out))
sys.stdout.flush()
os._exit(0)   # and the power goes again, so the next run is a recovery too
"""


def run(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(result.stderr)
    return result.stdout


def build(d: Path, rounds: int) -> float:
    t = time.perf_counter()
    run(BUILD.format(root=str(ROOT), bench=str(Path(__file__).parent), d=str(d), start=0,
                     rounds=rounds, die=True))
    return time.perf_counter() - t


def recover(d: Path, cold: bool, file_check: str = "auto") -> dict:
    out = run(RECOVER.format(root=str(ROOT), bench=str(Path(__file__).parent), d=str(d), cold=cold,
                             file_check=file_check))
    return json.loads(out.strip().splitlines()[-1])


def scrub(d: Path) -> float:
    t = time.perf_counter()
    with Journal.open(d, readonly=True) as j:
        problems = j.scrub()
    assert not problems, problems
    return time.perf_counter() - t


def full_verify(d: Path) -> float:
    t = time.perf_counter()
    with Journal.open(d, readonly=True) as j:
        problems = j.verify()
    assert not problems, problems
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--appends", type=int, default=3000)
    ap.add_argument("--dir", default=None, help="where to build the journals (default: a temp dir)")
    ap.add_argument("--no-verify", action="store_true", help="skip timing the full journal verify")
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="journal-bench-", dir=args.dir))
    try:
        _count_seals()
        print(f"journal benchmark in {base} (python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, "
              f"{os.cpu_count()} cpus)")
        a = bench_appends(base, args.appends)
        ratio = a["journal_us"] / a["bare_us"]
        print(f"\n1. durable appends, {a['appends']} single-entry commits each, interleaved in blocks of 25:")
        print(f"   bare SQLite WAL commit, same row bytes : {a['bare_us']:8.0f} us/commit "
              f"({1e6 / a['bare_us']:7.0f}/s)")
        print(f"   journal.append (chain, indexes, seals) : {a['journal_us']:8.0f} us/append "
              f"({1e6 / a['journal_us']:7.0f}/s; {a['seals']} checkpoints + re-seals)")
        print(f"   ratio journal/bare: {ratio:.2f}x (target <= 2x)")
        anchored = a["journal_us"] + (a["anchor_us"] + a["record_us"]) / a["per_round"]
        print(f"   anchor write at a settlement (USB)     : {a['anchor_us']:8.0f} us/round (awaited before the pay)")
        print(f"   its journal record (anchor-written)    : {a['record_us']:8.0f} us/round (a row in the next commit)")
        print(f"   anchored append (anchor and record spread over a {a['per_round']}-entry round): "
              f"{anchored:8.0f} us/append; ratio {anchored / a['bare_us']:.2f}x (target <= 2x)")
        print(f"   a {a['per_round']}-entry round appended entry by entry: "
              f"{1e6 / a['journal_us'] / a['per_round']:.1f} rounds/s journal, "
              f"{1e6 / a['bare_us'] / a['per_round']:.1f} rounds/s bare")

        print("\n2. recovery after a power cut (open + check + re-seal + latest snapshot + replay), seconds:")
        print(f"   {'rounds':>8} {'entries':>9} {'file MB':>8} {'build':>7} | {'start':>6} "
              f"{'(replay)':>8} {'cold':>6} | {'full start':>10} {'cold':>6} | {'scrub':>6} {'verify':>7}")
        for size in [int(s) for s in args.sizes.split(",")]:
            d = base / f"r{size}"
            built = build(d, size)
            warm = min((recover(d, cold=False) for _ in range(3)), key=lambda r: r["total"])
            cold = recover(d, cold=True)
            full = min((recover(d, cold=False, file_check="full") for _ in range(2)), key=lambda r: r["total"])
            full_cold = recover(d, cold=True, file_check="full")
            scrubbed = scrub(d)
            verify = float("nan") if args.no_verify else full_verify(d)
            entries = size * a["per_round"]
            print(f"   {size:>8} {entries:>9} {warm['size'] / 1e6:>8.1f} {built:>7.1f} | {warm['total']:>6.3f} "
                  f"{warm['replay']:>8.3f} {cold['total']:>6.3f} | {full['total']:>10.3f} "
                  f"{full_cold['total']:>6.3f} | {scrubbed:>6.2f} {verify:>7.1f}")
            shutil.rmtree(d)
        print("   (warm: best of 3 in the page cache; cold: after posix_fadvise DONTNEED; "
              "replay: the round in progress, 12 entries; every start is after a power cut)")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
