"""A tiny sd_notify(3) client: READY=1, WATCHDOG=1, STATUS=..., STOPPING=1.

systemd starts tablectl.service with Type=notify and WatchdogSec=: the table
says READY=1 once the self-check passed and the devices answered, and then
WATCHDOG=1 from its event loop at half the watchdog interval. The keep-alive
is sent by a task on the same loop that runs the table's one consumer, so a
loop that is stuck (a blocking call, a deadlock) stops the keep-alives and
systemd restarts the service; a thread would keep pinging a dead table.

The protocol is one datagram of newline-separated KEY=VALUE lines to the unix
socket named in $NOTIFY_SOCKET ("@name" is an abstract socket). Outside
systemd the variable is unset and every call is a no-op, so the same code
runs on a laptop. No dependency beyond the standard library.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Mapping


class Notifier:
    """Sends notifications to systemd; silent when not started by it."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]
        elif address and not address.startswith("/"):
            address = ""  # systemd only ever passes an absolute path or an abstract name
        self.address = address
        self._socket: socket.socket | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        self.watchdog_usec = int(usec) if usec.isdigit() and (not pid or pid == str(os.getpid())) else 0

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def notify(self, **fields: object) -> bool:
        """Send KEY=VALUE fields (e.g. READY=1); False when not sent."""
        if not self.address:
            return False
        message = "\n".join(f"{k}={v}" for k, v in fields.items())
        if "\n" in "".join(str(v) for v in fields.values()):
            raise ValueError("a notification value cannot hold a newline")
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto(message.encode(), self.address)
            return True
        except OSError:
            # systemd gone or restarting: nothing to tell, and the table must not stop for it
            return False

    def ready(self, status: str | None = None) -> bool:
        return self.notify(READY=1, **({"STATUS": status} if status else {}))

    def watchdog(self) -> bool:
        return self.notify(WATCHDOG=1)

    def status(self, text: str) -> bool:
        return self.notify(STATUS=text)

    def stopping(self) -> bool:
        return self.notify(STOPPING=1)

    @property
    def keepalive_interval(self) -> float | None:
        """Seconds between keep-alives (half the watchdog), or None without a watchdog."""
        return self.watchdog_usec / 2e6 if self.watchdog_usec else None

    async def keep_alive(self) -> None:
        """Run as a task on the table's event loop until cancelled."""
        interval = self.keepalive_interval
        if interval is None or not self.enabled:
            return
        while True:
            self.watchdog()
            await asyncio.sleep(interval)

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
