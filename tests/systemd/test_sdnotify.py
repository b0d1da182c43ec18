"""The sd_notify client against real unix datagram sockets, as systemd listens."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid

import pytest

from controller.sdnotify import Notifier


@pytest.fixture
def listener(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def test_ready_status_watchdog_stopping(listener):
    path, sock = listener
    n = Notifier({"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.ready("self-check passed")
    assert sock.recv(4096) == b"READY=1\nSTATUS=self-check passed"
    assert n.watchdog() and sock.recv(4096) == b"WATCHDOG=1"
    assert n.status("round 12: dealing") and sock.recv(4096) == b"STATUS=round 12: dealing"
    assert n.stopping() and sock.recv(4096) == b"STOPPING=1"
    n.close()


def test_abstract_socket():
    name = f"tablectl-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        n = Notifier({"NOTIFY_SOCKET": "@" + name})
        assert n.ready() and sock.recv(4096) == b"READY=1"
    finally:
        sock.close()


def test_outside_systemd_nothing_is_sent():
    n = Notifier({})
    assert not n.enabled and n.ready() is False and n.keepalive_interval is None
    assert Notifier({"NOTIFY_SOCKET": "relative/path"}).enabled is False


def test_a_vanished_socket_does_not_stop_the_table(tmp_path):
    n = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert n.watchdog() is False


def test_newline_in_a_value_is_refused(listener):
    path, _ = listener
    with pytest.raises(ValueError, match="newline"):
        Notifier({"NOTIFY_SOCKET": path}).status("two\nlines")


def test_watchdog_interval_is_half_and_only_for_our_pid():
    assert Notifier({"WATCHDOG_USEC": "10000000"}).keepalive_interval == 5.0
    assert Notifier({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}).keepalive_interval == 5.0
    assert Notifier({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}).keepalive_interval is None


def test_keep_alives_come_from_the_event_loop(listener):
    path, sock = listener
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "40000"})  # every 20 ms

    async def run():
        task = asyncio.create_task(n.keep_alive())
        await asyncio.sleep(0.15)
        task.cancel()

    asyncio.run(run())
    sock.settimeout(0.2)
    got = []
    try:
        while True:
            got.append(sock.recv(4096))
    except socket.timeout:
        pass
    assert len(got) >= 3 and set(got) == {b"WATCHDOG=1"}


def test_a_stalled_loop_sends_no_keep_alive(listener):
    """Blocking the loop (the fault systemd's watchdog is there for) stops the pings."""
    import time
    path, sock = listener
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "40000"})

    async def run():
        task = asyncio.create_task(n.keep_alive())
        await asyncio.sleep(0)      # first ping
        time.sleep(0.2)  # noqa: ASYNC251  (the point: the loop is stuck)
        task.cancel()

    asyncio.run(run())
    sock.settimeout(0.2)
    got = []
    try:
        while True:
            got.append(sock.recv(4096))
    except socket.timeout:
        pass
    assert got == [b"WATCHDOG=1"]
