"""A live table on emulated devices with its screens' server, and raw HTTP as an outsider sends it.

The table (controller/table.py) and the server (controller/ui/app.py) run as in
`tablectl run`: in one asyncio loop, here in a thread of its own so that the tests
can send requests with plain sockets. One table per test module.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from pathlib import Path

from controller.config import load_profile

PROFILES = Path(__file__).resolve().parents[1] / "crash"   # every device emulated, no screen of its own


class LiveTable:
    def __init__(self, profile_name: str, data_dir: Path, seed: int = 7) -> None:
        from controller.table import Table
        self.profile = load_profile(PROFILES / profile_name)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="security-table", daemon=True)
        self.thread.start()
        self.table = Table(self.profile, data_dir=data_dir, seed=seed, screen=False)
        self.call(self.table.start(), timeout=300)   # the software hash on a busy box: its own bound
        self.server = self.call(self._serve())
        self.port = self.server.port

    async def _serve(self):
        from controller.ui.app import ScreenServer
        server = ScreenServer(self.table, "127.0.0.1", 0, None)
        await server.start()
        return server

    def call(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def run(self, fn):
        """fn() in the table's loop (the journal's connection lives there)."""
        async def go():
            return fn()
        return self.call(go())

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def published(self) -> dict:
        return self.run(self.table.published)

    def submit(self, event: dict, source: str, who: str | None = None) -> dict:
        return self.call(self.table.submit(event, source=source, who=who))

    def head(self) -> int:
        """The journal's last sequence number."""
        return self.run(lambda: max((e.seq for e in self.table.journal.entries_since(0)), default=0))

    def entries_after(self, seq: int) -> list:
        return self.run(lambda: list(self.table.journal.entries_since(seq)))

    def wait_until(self, predicate, what: str, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        state = self.published()
        while not predicate(state):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; round: {state.get('round')}")
            time.sleep(0.02)
            state = self.published()
        return state

    def close(self) -> None:
        async def down():
            await self.server.stop()
            await self.table.close()
        try:
            self.call(down())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()


def request(port: int, method: str, path: str, body: bytes | None = None, *,
            headers: dict | None = None, host: str | None = None, timeout: float = 10.0) -> tuple[int, dict]:
    """(status, JSON body) of one request over a fresh connection, headers exactly as given."""
    head = {"Host": host if host is not None else f"127.0.0.1:{port}", "X-Tablectl": "1",
            "Content-Type": "application/json", "Connection": "close"}
    head.update(headers or {})
    head = {k: v for k, v in head.items() if v is not None}
    if body is not None:
        head.setdefault("Content-Length", str(len(body)))
    lines = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in head.items()]
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        return read_response(s)


def read_response(s: socket.socket) -> tuple[int, dict]:
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
        if b"\r\n\r\n" in data:
            head, _, rest = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            if length is not None and len(rest) >= length:
                break
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    try:
        return status, json.loads(rest or b"null")
    except ValueError:
        return status, {"raw": rest[:200].decode(errors="replace")}


def panel(port: int, event: dict, **options) -> tuple[int, dict]:
    return request(port, "POST", "/api/panel", json.dumps({"event": event}).encode(), **options)
