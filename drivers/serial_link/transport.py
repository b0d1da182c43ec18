"""Moves bytes to and from a serial port, and nothing else.

pyserial opens any of its URLs: a stable `/dev/serial/by-id/...` path on a
real box, a pseudo-terminal under test, `socket://` or `rfc2217://` for a
device behind a terminal server. Reads block, so one thread per port reads and
hands each chunk to the event loop with call_soon_threadsafe; that thread is
the only thread in a serial driver and it never touches driver state. Writes
are a few dozen bytes at a time and go straight from the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

import serial

from drivers.errors import DeviceDisconnected
from drivers.waiting import within

READ_TIMEOUT = 0.1    # how often the reader looks up to see whether it should stop
WRITE_TIMEOUT = 0.5   # a frame is < 40 bytes; a write this slow means the port is gone


class SerialTransport:
    """One open port, its reader thread, and the two callbacks the link gave it."""

    def __init__(self, port: serial.SerialBase, *, name: str, loop: asyncio.AbstractEventLoop,
                 on_data: Callable[[bytes], None], on_lost: Callable[[Exception], None]) -> None:
        self._port = port
        self._name = name
        self._loop = loop
        self._on_data = on_data
        self._on_lost = on_lost
        self._stop = threading.Event()
        self._exited: asyncio.Future[None] = loop.create_future()
        self._lost_reported = False
        self._thread = threading.Thread(target=self._read_loop, name=f"{name}-serial-reader", daemon=True)

    @classmethod
    def open(cls, url: str, *, name: str, baudrate: int, on_data: Callable[[bytes], None],
             on_lost: Callable[[Exception], None]) -> "SerialTransport":
        """Open `url` at 8N1 and start reading; DeviceDisconnected if there is nothing there."""
        loop = asyncio.get_running_loop()
        try:
            port = serial.serial_for_url(url, baudrate=baudrate, bytesize=8, parity="N", stopbits=1,
                                         timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT,
                                         xonxoff=False, rtscts=False, dsrdtr=False)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise DeviceDisconnected(name, f"cannot open {url}: {exc}") from None
        try:
            port.reset_input_buffer()  # bytes from before we were listening belong to no frame of ours
        except (serial.SerialException, OSError, AttributeError):
            pass
        transport = cls(port, name=name, loop=loop, on_data=on_data, on_lost=on_lost)
        transport._thread.start()
        return transport

    def write(self, data: bytes) -> None:
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as exc:
            self._report_lost(exc)
            raise DeviceDisconnected(self._name, f"write failed: {exc}") from None

    async def close(self) -> None:
        """Stop the reader, wait for it to leave, then close the port (never under its feet)."""
        self._stop.set()
        cancel = getattr(self._port, "cancel_read", None)
        if cancel is not None:
            with contextlib.suppress(Exception):   # a port already gone has nothing to cancel
                cancel()
        if self._thread.is_alive():
            try:
                await within(asyncio.shield(self._exited), 2 * READ_TIMEOUT + 1.0)
            except asyncio.TimeoutError:
                pass
        self._thread.join(timeout=1.0)
        try:
            self._port.close()
        except (serial.SerialException, OSError):
            pass

    def _report_lost(self, exc: Exception) -> None:
        if not self._lost_reported and not self._stop.is_set():
            self._lost_reported = True
            self._on_lost(exc)

    def _hand_over(self, fn: Callable[..., object], *args: object) -> bool:
        try:
            self._loop.call_soon_threadsafe(fn, *args)
            return True
        except RuntimeError:  # the loop is closed: nobody is listening any more
            return False

    def _read_loop(self) -> None:
        port = self._port
        try:
            while not self._stop.is_set():
                try:
                    data = port.read(1)
                    if data:
                        waiting = port.in_waiting  # type: ignore[attr-defined]  # every port serial_for_url opens has it; the stubs put it on Serial only
                        if waiting:
                            data += port.read(waiting)
                except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                    # TypeError/AttributeError: pyserial's posix read on a port closed under it.
                    if not self._stop.is_set():
                        self._hand_over(self._report_lost, exc)
                    return
                if data and not self._stop.is_set():
                    if not self._hand_over(self._on_data, bytes(data)):
                        return
        finally:
            self._hand_over(self._set_exited)

    def _set_exited(self) -> None:
        if not self._exited.done():
            self._exited.set_result(None)
