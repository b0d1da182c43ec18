"""The emulated progressive controller, reachable from another process through a Unix socket.

A pyusb backend lives in the process that calls usb.core.find, so for
`tablectl sim progressive` to run alone the emulator serves its reports on a
socket and the table's process uses `SocketBackend(path)` as its pyusb
backend. The wire between them is trivial because HID reports are fixed
size: the server sends one JSON line describing the device, then both sides
exchange 32-byte reports, input reports one way and output reports the other.
Closing the socket is unplugging the cable.
"""

from __future__ import annotations

import array
import errno
import json
import os
import select
import socket
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import TypedDict

import usb.core

from drivers.progressive import protocol as p
from drivers.sim.progressive import MANUFACTURER, PRODUCT, DescribedBackend, ProgressiveEmulator

POLL = 0.005   # how long the server waits for an input report before looking at the socket again


class Hello(TypedDict):
    """The line the server sends first: the device as the client's backend describes it."""

    vendor: int
    product: int
    generation: int
    serial: str
    manufacturer: str
    name: str


class SocketServer:
    """Serves one emulator on `path` to one client at a time (a new client replaces the old)."""

    def __init__(self, emulator: ProgressiveEmulator, path: str) -> None:
        self.emu = emulator
        self.path = path
        self._stop = threading.Event()
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if os.path.exists(path):
            os.unlink(path)
        self._listener.bind(path)
        self._listener.listen(2)
        self._thread = threading.Thread(target=self._serve, name="sim-progressive-socket", daemon=True)

    def start(self) -> "SocketServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._listener.close()
        if os.path.exists(self.path):
            os.unlink(self.path)

    def __enter__(self) -> SocketServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _serve(self) -> None:
        conn: socket.socket | None = None
        generation = 0
        try:
            while not self._stop.is_set():
                readable, _, _ = select.select([self._listener] + ([conn] if conn else []), [], [], 0 if conn else 0.05)
                if self._listener in readable:
                    new, _ = self._listener.accept()
                    if conn is not None:
                        conn.close()
                    conn = None
                    if not self.emu.plugged:
                        new.close()   # nothing on the bus
                        continue
                    conn, generation = new, self.emu._generation
                    self.emu.host_open(generation)
                    hello: Hello = {"vendor": self.emu.vendor, "product": self.emu.product, "generation": generation,
                             "serial": self.emu.serial_number, "manufacturer": MANUFACTURER, "name": PRODUCT}
                    conn.sendall(json.dumps(hello).encode() + b"\n")
                    continue
                if conn is None:
                    continue
                try:
                    if conn in readable:
                        data = _recv_exact(conn, p.REPORT_SIZE)
                        if data is None:
                            raise ConnectionError("client went away")
                        self.emu.host_write(generation, data)
                    try:
                        report = self.emu.host_read(generation, POLL)
                    except usb.core.USBTimeoutError:
                        continue
                    conn.sendall(report)
                except (OSError, usb.core.USBError, ConnectionError):
                    conn.close()   # unplugged, or the client left
                    conn = None
        finally:
            if conn is not None:
                conn.close()


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def _no_device() -> usb.core.USBError:
    return usb.core.USBError("No such device (it may have been disconnected)", -4, errno.ENODEV)


class _Remote:
    def __init__(self, info: Hello) -> None:
        self.info = info

    def __int__(self) -> int:
        return int(self.info["generation"])


class _Handle:
    def __init__(self, sock: socket.socket, info: Hello) -> None:
        self.sock = sock
        self.info = info
        self.buffer = b""
        self.configuration = 0
        self.lock = threading.Lock()


class SocketBackend(DescribedBackend[_Remote]):
    """A pyusb backend whose one device is the controller served by `tablectl sim progressive`."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.vendor = 0
        self.product = 0

    def _connect(self) -> tuple[socket.socket, Hello] | None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(2.0)
            sock.connect(self.path)
            line = b""
            while not line.endswith(b"\n"):
                chunk = sock.recv(1)
                if not chunk:
                    raise ConnectionError("closed before describing itself")
                line += chunk
            sock.settimeout(None)
            hello: Hello = json.loads(line)
            return sock, hello
        except (OSError, ValueError, ConnectionError):
            sock.close()
            return None

    def enumerate_devices(self) -> Iterator[_Remote]:
        found = self._connect()
        if found is None:
            return
        sock, info = found
        sock.close()   # looking is not opening
        self.vendor, self.product = info["vendor"], info["product"]
        yield _Remote(info)

    def get_device_descriptor(self, dev: _Remote) -> SimpleNamespace:
        self.vendor, self.product = dev.info["vendor"], dev.info["product"]
        return super().get_device_descriptor(dev)

    def open_device(self, dev: _Remote) -> _Handle:
        found = self._connect()
        if found is None or found[1]["generation"] != dev.info["generation"]:
            if found is not None:
                found[0].close()
            raise _no_device()
        return _Handle(*found)

    def close_device(self, dev_handle: _Handle) -> None:
        dev_handle.sock.close()

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        dev_handle.configuration = config_value

    def get_configuration(self, dev_handle: _Handle) -> int:
        return dev_handle.configuration

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        pass

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        pass

    def is_kernel_driver_active(self, dev_handle: _Handle, intf: int) -> bool:
        return False

    def intr_write(self, dev_handle: _Handle, ep: int, intf: int, data: array.array[int], timeout: int) -> int:
        try:
            dev_handle.sock.sendall(data.tobytes())
        except OSError:
            raise _no_device() from None
        return len(data)

    def intr_read(self, dev_handle: _Handle, ep: int, intf: int, buff: array.array[int], timeout: int) -> int:
        sock = dev_handle.sock
        while len(dev_handle.buffer) < p.REPORT_SIZE:
            try:
                readable, _, _ = select.select([sock], [], [], timeout / 1000 if timeout else None)
            except (OSError, ValueError):
                raise _no_device() from None
            if not readable:
                raise usb.core.USBTimeoutError("Operation timed out", -7, errno.ETIMEDOUT)
            try:
                chunk = sock.recv(4096)
            except OSError:
                chunk = b""
            if not chunk:
                raise _no_device()
            dev_handle.buffer += chunk
        report, dev_handle.buffer = dev_handle.buffer[:p.REPORT_SIZE], dev_handle.buffer[p.REPORT_SIZE:]
        return self._fill(buff, report)

    def ctrl_transfer(self, dev_handle: _Handle, bmRequestType: int, bRequest: int, wValue: int, wIndex: int,
                      data: array.array[int], timeout: int) -> int:
        if bmRequestType == 0x80 and bRequest == 0x06 and wValue >> 8 == 0x03:
            info = dev_handle.info
            strings = {1: info["manufacturer"], 2: info["name"], 3: info["serial"]}
            return self._fill(data, self.string_descriptor(wValue & 0xFF, strings))
        raise usb.core.USBError("Pipe error (request not supported)", -9, errno.EPIPE)
