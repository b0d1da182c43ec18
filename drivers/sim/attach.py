"""`tablectl sim DEVICE --table DIR`: the console of an emulator a running table started, from outside it.

A table on emulated devices runs its emulators itself (controller/runtime/world.py); to deal a
progressive round by hand, train a dealer or show a jam, someone has to put a chip on an
acceptor, stack a deck or pull a cable, and that is the emulator's own business, not the
table's. So each emulator of such a table answers on a control channel of its own: a Unix
socket, private to the table's user (a directory of mode 0700), whose path is written in
`<data dir>/sim/<device>.console` (a socket's path is limited to about a hundred bytes, the
data directory's may be longer). A line in is one console command of drivers/sim/cli.py, a
line out its reply (JSON: {"reply": text}). The table's process is never reached into: the
commands act on the emulated device, which tells the table through the driver as a real one
would. The channels are served by drivers/sim/consoles.py, in the table's process.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

DEVICES = ("shoe", "manual-shoe", "shuffler", "progressive")


def pointer(sim_dir: Path, device: str) -> Path:
    return Path(sim_dir) / f"{device}.console"


def find(device: str, table: str) -> Path:
    """The pointer file of `device` for a table named by its data directory, its sim/ directory,
    or an emulated device's port in it."""
    where = Path(table)
    for d in (where, where / "sim", where.parent):
        if pointer(d, device).is_file():
            return pointer(d, device)
    raise LookupError(f"no emulated {device} of a running table at {table} (look for {device}.console in "
                      "the table's data directory's sim/; a table on real devices has none)")


def attach(device: str, table: str) -> int:
    """Relay the console's lines to the table's emulator and print its replies, until "quit" or
    the end of input."""
    try:
        path = find(device, table).read_text().strip()
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(path)
    except (LookupError, OSError) as exc:
        print(f"tablectl sim {device}: {exc}", file=sys.stderr)
        return 2
    with conn, conn.makefile("rwb") as stream:
        print(f"attached to the table's emulated {device}; type help for commands", flush=True)
        for line in sys.stdin:
            words = line.strip()
            if words in ("quit", "exit"):
                break
            if not words:
                continue
            stream.write((words + "\n").encode())
            stream.flush()
            raw = stream.readline()
            if not raw:
                print(f"tablectl sim {device}: the table has stopped", file=sys.stderr)
                return 1
            reply = json.loads(raw).get("reply", "")
            if reply:
                print(reply, flush=True)
    return 0
