"""A live table for the trust-boundary tests: the installed `tablectl run` on emulated devices.

The table runs as it does on a box, a process of its own serving its screens; the
tests reach it only as an outsider or a supervisor would, over HTTP and through
the installed command. READY=1 on a notify socket says it is served (no polling
for a port), and its JSON log lines go to a file the tests read.
"""

from __future__ import annotations

import json
import os
import pwd
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from controller.credentials import Supervisor, hash_pin, write_secrets

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = Path(sys.executable).with_name("tablectl")   # the installed command
HEADERS = {"X-Tablectl": "1"}
WAIT = 30.0   # the bound of every wait for the table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tablectl(*args, input: str | bytes | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """The installed command, its output as text (bytes in, when given bytes)."""
    done = subprocess.run([str(TABLECTL), *map(str, args)], input=input, capture_output=True, timeout=timeout,
                          text=not isinstance(input, bytes))
    return done


def supervisors(path: Path, pins: dict[str, str]) -> None:
    """Write the screens' secrets file: id -> PIN."""
    write_secrets(path, {who: Supervisor(who, f"Supervisor {who}", hash_pin(pin)) for who, pin in pins.items()})


class LiveTable:
    """`tablectl run --config PROFILE` with a screen on a free port and a secrets file."""

    def __init__(self, tmp: Path, game: str = "caribbean-stud") -> None:
        self.tmp = tmp
        self.port = free_port()
        self.secrets = tmp / "supervisors.toml"
        self.data = tmp / "data"
        self.log_path = tmp / "table.log"
        source = (ROOT / "config" / f"{game}.toml").read_text()
        head, screen = source.split("[screen]", 1)
        self.kiosk_port = free_port()   # the kiosk's own door, served to this test's user (issue 26)
        screen = screen.replace("port = 8080", f"port = {self.port}", 1)
        screen = screen.replace("kiosk_port = 8081", f"kiosk_port = {self.kiosk_port}", 1)
        screen = screen.replace('kiosk_user = "tablectl-kiosk"', f'kiosk_user = "{pwd.getpwuid(os.getuid()).pw_name}"', 1)
        self.profile = tmp / "table.toml"
        self.profile.write_text(f'{head}[screen]\nsecrets = "{self.secrets}"{screen}')
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def kiosk_url(self) -> str:
        return f"http://127.0.0.1:{self.kiosk_port}"

    def start(self) -> None:
        notify_path = self.tmp / f"notify-{time.monotonic_ns()}"
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(str(notify_path))
        notify.settimeout(WAIT)
        try:
            with open(self.log_path, "a") as log:   # the child holds its own copy
                self.proc = subprocess.Popen(
                    [str(TABLECTL), "run", "--config", str(self.profile), "--data-dir", str(self.data), "--emulate"],
                    stdout=log, stderr=subprocess.STDOUT, cwd=self.tmp,
                    env={**os.environ, "NOTIFY_SOCKET": str(notify_path), "PYTHONUNBUFFERED": "1"})
            while True:
                message = notify.recv(4096)
                if message.startswith(b"READY=1"):
                    break
        finally:
            notify.close()

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def client(self) -> httpx.Client:
        """A browser of its own: its own cookies."""
        return httpx.Client(base_url=self.url, headers=HEADERS, timeout=WAIT)

    def state(self) -> dict:
        return httpx.get(f"{self.url}/api/state", timeout=WAIT).json()

    def panel(self, event: dict) -> httpx.Response:
        return httpx.post(f"{self.url}/api/panel", json={"event": event}, headers=HEADERS, timeout=WAIT)

    def wait_until(self, check: Callable[[dict], bool], what: str) -> dict:
        deadline = time.monotonic() + WAIT
        while True:
            s = self.state()
            if check(s):
                return s
            if time.monotonic() > deadline:
                raise AssertionError(f"the table never got to: {what}; state {json.dumps(s)[:2000]}")
            time.sleep(0.05)

    def log_lines(self) -> list[dict]:
        out = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out

    def wait_for_log(self, check: Callable[[dict], bool], what: str) -> dict:
        deadline = time.monotonic() + WAIT
        while True:
            found = [x for x in self.log_lines() if check(x)]
            if found:
                return found[-1]
            if time.monotonic() > deadline:
                raise AssertionError(f"no log line for: {what}")
            time.sleep(0.05)
