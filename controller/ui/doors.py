"""The screens' doors: who may hold a connection to the screens' server, and for how long.

The screens are served on two listeners (issue 26). The screen's port ([screen] bind and
port) is reachable by whoever is on its network, or on the box; the kiosk's port ([screen]
kiosk_port, always on loopback) is the box's own kiosk's, and nobody who floods the screen's
port takes a place on it: each door keeps its own connections, its own streams and its own
uvicorn server. With `[screen] kiosk_user` the kiosk's door also asks the kernel whose socket
is calling (the owner of the connecting socket, /proc/self/net/tcp) and serves only the kiosk
browser's user, so another user on the box cannot crowd it either.

On each door a connection must finish a request's headers within HEADER_SECONDS of being
opened (or of its last response), or it is closed: an idle socket or a slowloris holds a
place for seconds, not for as long as it likes. One peer address holds at most
`per_client` connections of a door: a second client always finds a place.
"""

from __future__ import annotations

import asyncio
import ipaddress
import pwd
import socket
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .auth import KIOSK_DOOR, SCREEN_DOOR

SCREEN, KIOSK = SCREEN_DOOR, KIOSK_DOOR   # the two doors: the screen's port, the kiosk's own (auth.py counts by them)
DOOR_KEY = "tablectl.door"          # set in each request's scope by the door it came through, never by a header
HEADER_SECONDS = 10.0    # a request's headers complete within this (a slowloris or an idle socket is let go)
IDLE_SECONDS = 5         # a kept-alive connection with no new request for this long is closed (uvicorn's)
KIOSK_BIND = "127.0.0.1"  # the kiosk runs on the box (systemd/tablectl-kiosk.service)
NET_TCP = Path("/proc/self/net/tcp")   # readable under the service's ProcSubset=pid: it is this process's
ESTABLISHED = "01"                      # the row's state (a closed socket's row is not the caller's)


@dataclass
class Door:
    """One listener's bounds, and the connections it holds now by peer address."""

    name: str
    per_client: int | None               # connections one peer address may hold at once
    uid: int | None = None               # only the socket owner's connections (None: anyone who reaches it)
    refuse_all: str | None = None        # why nobody is served (a kiosk user the box does not know)
    log: Callable[..., None] | None = None
    held: Counter = field(default_factory=Counter)
    turned_away: Counter = field(default_factory=Counter)   # why, how many times (for the log and the tests)

    def admit(self, peer: Any, local: Any) -> str | None:
        """Why a new connection is not served (None: it is); counted once admitted."""
        host = _host(peer)
        if self.refuse_all is not None:
            return self.refuse_all
        if self.uid is not None and peer_uid(peer, local) != self.uid:
            return "not the kiosk's user"
        if self.per_client is not None and self.held[host] >= self.per_client:
            return f"at most {self.per_client} connections from one address"
        self.held[host] += 1
        return None

    def left(self, peer: Any) -> None:
        host = _host(peer)
        self.held[host] -= 1
        if self.held[host] <= 0:
            del self.held[host]

    def refused(self, why: str, peer: Any) -> None:
        first = not self.turned_away[why]
        self.turned_away[why] += 1
        if self.log is not None and (first or self.turned_away[why] % 1000 == 0):
            self.log("screen_connection_refused", door=self.name, reason=why, times=self.turned_away[why],
                     peer=_host(peer))


def _host(peer: Any) -> str:
    return str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"


def kiosk_door(user: str | None, log: Callable[..., None] | None = None) -> Door:
    """The kiosk's door: loopback, reserved, and (with `user`) that user's sockets only."""
    door = Door(KIOSK, per_client=None, log=log)
    if user is not None:
        try:
            door.uid = pwd.getpwnam(user).pw_uid
        except KeyError:
            # No such user on this box: the kiosk's door serves nobody rather than everybody.
            door.refuse_all = f"the kiosk user {user!r} is not a user of this box"
            if log is not None:
                log("screen_kiosk_user_unknown", user=user)
    return door


def _proc_address(ip: str, port: int) -> str:
    """An IPv4 address and port as /proc/net/tcp writes them (the address's 32 bits in host order)."""
    return f"{int.from_bytes(socket.inet_aton(ip), 'little'):08X}:{port:04X}"


def peer_uid(peer: Any, local: Any, table: Path = NET_TCP) -> int | None:
    """The user owning the socket at the other end of a loopback connection, or None if not found.

    Both ends of a loopback connection are in this network namespace's table: the caller's
    socket is the row whose local address is our peer and whose remote address is us."""
    try:
        ip, port = peer[0], int(peer[1])
        our_ip, our_port = local[0], int(local[1])
        if not ipaddress.ip_address(ip).is_loopback or ipaddress.ip_address(ip).version != 4:
            return None
        want = (_proc_address(ip, port), _proc_address(our_ip, our_port))
        with open(table, encoding="ascii") as rows:
            next(rows, None)
            for row in rows:
                fields = row.split()
                if len(fields) > 7 and (fields[1], fields[2]) == want and fields[3] == ESTABLISHED:
                    return int(fields[7])
    except (OSError, ValueError, TypeError, IndexError):
        return None
    return None


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the door's admission and the header deadline."""

    door: ClassVar[Door]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._admitted = False
        self._peer: Any = None
        self._headers_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn's own
        self._peer = transport.get_extra_info("peername")
        why = self.door.admit(self._peer, transport.get_extra_info("sockname"))
        if why is not None:
            self.door.refused(why, self._peer)
            transport.abort()   # not served: no place held, nothing read
            return
        self._admitted = True
        super().connection_made(transport)
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._admitted = False
        self.door.left(self._peer)
        self._headers_arrived()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:   # the request line and headers are in
            self._headers_arrived()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._await_headers()   # the next request's headers, on a kept-alive connection

    def _await_headers(self) -> None:
        self._headers_arrived()
        self._headers_due = self.loop.call_later(HEADER_SECONDS, self._headers_too_slow)

    def _headers_arrived(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _headers_too_slow(self) -> None:
        self._headers_due = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def protocol_for(door: Door) -> type[GuardedProtocol]:
    """The protocol class uvicorn builds each connection of `door` with."""
    return type(f"{door.name.title()}Protocol", (GuardedProtocol,), {"door": door})


class DoorApp:
    """The screens' application as one door serves it: each request says which door it came through."""

    def __init__(self, app: Any, name: str) -> None:
        self.app = app
        self.name = name

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        scope[DOOR_KEY] = self.name
        await self.app(scope, receive, send)
