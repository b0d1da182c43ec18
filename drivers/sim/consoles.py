"""The control channels of a table's own emulators (drivers/sim/attach.py is the other end).

Each emulator a table on emulated devices started (controller/runtime/world.py) answers the console
commands of drivers/sim/cli.py on a Unix socket of its own, in a directory private to the table's
user; the socket's path is written where `tablectl sim DEVICE --table DIR` finds it.
"""

from __future__ import annotations

import json
import os
import shlex
import socketserver
import tempfile
import threading
from pathlib import Path
from typing import Any

from controller.cards import CardError
from drivers.sim.attach import DEVICES, pointer

MAX_LINE = 4096


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
