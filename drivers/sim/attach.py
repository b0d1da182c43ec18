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
would.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import socketserver
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from controller.cards import CardError

DEVICES = ("shoe", "manual-shoe", "shuffler", "progressive")
MAX_LINE = 4096


def pointer(sim_dir: Path, device: str) -> Path:
    return Path(sim_dir) / f"{device}.console"


def commands_for(device: str, emu: Any) -> dict[str, tuple[Any, str]]:
    """The console commands of drivers/sim/cli.py for one emulator, cable included."""
    from drivers.sim import cli
    if device == "progressive":
        return cli._progressive_commands(emu) | {
            "unplug": (cli._then(lambda a: emu.unplug(), "unplugged"), "unplug                  pull the cable"),
            "replug": (cli._then(lambda a: emu.replug(), "plugged in"), "replug                  plug it back"),
        }
    if device == "shoe":
        own = cli._shoe_commands(emu)
    elif device == "manual-shoe":
        own = cli._manual_shoe_commands(emu)
    else:
        own = cli._shuffler_commands(emu)
    return own | cli._fault_commands(emu)


def answer(commands: dict[str, tuple[Any, str]], line: str) -> str:
    """One console line's reply (never raises for a bad command: the reply says what is wrong)."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        return f"not a command: {exc}"
    if not words:
        return ""
    name, args = words[0].lower(), words[1:]
    if name == "help":
        return "\n".join(["commands:"] + [f"  {h}" for _, h in commands.values()] + ["  quit"])
    if name not in commands:
        return f"unknown command {name!r}; try help"
    try:
        return commands[name][0](args) or ""
    except (ValueError, KeyError, IndexError, CardError, RuntimeError, TimeoutError) as exc:
        return f"{name}: {exc}"


class Consoles:
    """The control channels of a table's emulators (one socket each), served on threads of their own."""

    def __init__(self, sim_dir: Path, emulators: dict[str, Any]) -> None:
        self.sim_dir = Path(sim_dir)
        self.home = tempfile.mkdtemp(prefix="tablectl-console-")   # mode 0700: the table's user only
        self.servers: list[socketserver.UnixStreamServer] = []
        for device, emu in emulators.items():
            if emu is not None:
                self._serve(device, commands_for(device, emu))

    def _serve(self, device: str, commands: dict[str, tuple[Any, str]]) -> None:
        lock = threading.Lock()   # one command at a time per device, as at its own console

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                for raw in self.rfile:
                    line = raw[:MAX_LINE].decode("utf-8", "replace").strip()
                    with lock:
                        reply = answer(commands, line)
                    self.wfile.write((json.dumps({"reply": reply}) + "\n").encode())
                    self.wfile.flush()

        path = os.path.join(self.home, f"{device}.sock")
        server = socketserver.ThreadingUnixStreamServer(path, Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, name=f"console-{device}", daemon=True).start()
        self.servers.append(server)
        target = pointer(self.sim_dir, device)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(path + "\n")
        os.replace(tmp, target)

    def close(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()
        for device in DEVICES:
            pointer(self.sim_dir, device).unlink(missing_ok=True)
        for name in os.listdir(self.home):
            os.unlink(os.path.join(self.home, name))
        os.rmdir(self.home)


def world_consoles(world: Any) -> Consoles:
    """The consoles of a table's emulated world (controller/runtime/world.py)."""
    from drivers.sim.manual_shoe import ManualShoeEmulator
    shoe = world.shoe
    manual = isinstance(shoe, ManualShoeEmulator)
    return Consoles(world.directory, {"shoe": None if manual else shoe, "manual-shoe": shoe if manual else None,
                                      "shuffler": world.shuffler, "progressive": world.progressive})


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
