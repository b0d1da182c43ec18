"""Moves 32-byte HID reports to and from the progressive controller through pyusb, and nothing else.

The controller is found by vendor id, product id and (if given) serial
number, never by bus address, which changes on every replug. pyusb's
transfers block, so a reader thread polls the interrupt IN endpoint and hands
each report to the event loop with call_soon_threadsafe; it touches no driver
state. Writes go straight from the loop: an interrupt OUT transfer to a
controller that is there completes within a frame (1 ms at full speed), and a
thread hop per write cost more than that at the lock-out (see
benchmarks/devices.py). WRITE_TIMEOUT_MS bounds the one case that blocks,
a controller that stops taking reports, and the driver then retries and
reconnects. The backend is pyusb's default (libusb) on a box, or any
usb.backend.IBackend - the emulator's, under test.
"""

from __future__ import annotations

import asyncio
import errno
import threading
from collections.abc import Callable
from typing import Any   # pyusb has no types: its devices and backends are Any

import usb.core
import usb.util

from drivers.errors import DeviceDisconnected, DeviceTimeout
from drivers.progressive.protocol import REPORT_SIZE
from drivers.waiting import within

READ_TIMEOUT_MS = 50    # how often the reader looks up to see whether it should stop
WRITE_TIMEOUT_MS = 20
INTERFACE = 0


def _is_timeout(exc: usb.core.USBError) -> bool:
    return isinstance(exc, usb.core.USBTimeoutError) or exc.errno == errno.ETIMEDOUT


def find_device(*, vendor: int, product: int, serial: str | None, backend: Any = None) -> Any:
    """The first matching device, or None; a device whose serial cannot be read does not match."""
    def matches(dev: Any) -> bool:
        if serial is None:
            return True
        try:
            return bool(dev.serial_number == serial)
        except (usb.core.USBError, ValueError, NotImplementedError):
            return False
    try:
        return usb.core.find(idVendor=vendor, idProduct=product, custom_match=matches, backend=backend)
    except usb.core.NoBackendError as exc:
        raise DeviceDisconnected("progressive", f"no USB backend (is libusb installed?): {exc}") from None


class UsbTransport:
    def __init__(self, dev: Any, ep_in: int, ep_out: int, *, name: str, loop: asyncio.AbstractEventLoop,
                 on_report: Callable[[bytes], None], on_lost: Callable[[Exception], None]) -> None:
        self.dev = dev
        self._ep_in = ep_in
        self._ep_out = ep_out
        self._name = name
        self._loop = loop
        self._on_report = on_report
        self._on_lost = on_lost
        self._stop = threading.Event()
        self._exited = loop.create_future()
        self._lost_reported = False
        self._thread = threading.Thread(target=self._read_loop, name=f"{name}-usb-reader", daemon=True)

    @classmethod
    def open(cls, *, vendor: int, product: int, serial: str | None, backend: Any, name: str,
             on_report: Callable[[bytes], None], on_lost: Callable[[Exception], None]) -> "UsbTransport":
        loop = asyncio.get_running_loop()
        want = f"{vendor:04x}:{product:04x}" + (f" serial {serial}" if serial else "")
        dev = find_device(vendor=vendor, product=product, serial=serial, backend=backend)
        if dev is None:
            raise DeviceDisconnected(name, f"no USB device {want}")
        try:
            try:
                if dev.is_kernel_driver_active(INTERFACE):
                    dev.detach_kernel_driver(INTERFACE)  # usbhid binds to any HID device on Linux
            except NotImplementedError:
                pass
            dev.set_configuration()
            usb.util.claim_interface(dev, INTERFACE)
            intf = dev.get_active_configuration()[(INTERFACE, 0)]
            ep_in = usb.util.find_descriptor(intf, custom_match=lambda e: usb.util.endpoint_direction(
                e.bEndpointAddress) == usb.util.ENDPOINT_IN)
            ep_out = usb.util.find_descriptor(intf, custom_match=lambda e: usb.util.endpoint_direction(
                e.bEndpointAddress) == usb.util.ENDPOINT_OUT)
            if ep_in is None or ep_out is None:
                raise DeviceDisconnected(name, f"USB device {want} has no interrupt IN and OUT endpoints")
        except usb.core.USBError as exc:
            usb.util.dispose_resources(dev)
            raise DeviceDisconnected(name, f"cannot open USB device {want}: {exc}") from None
        transport = cls(dev, ep_in.bEndpointAddress, ep_out.bEndpointAddress, name=name, loop=loop,
                        on_report=on_report, on_lost=on_lost)
        transport._thread.start()
        return transport

    def write(self, data: bytes) -> None:
        """Send one report; DeviceTimeout if the controller did not take it, DeviceDisconnected if gone."""
        if self._stop.is_set():
            raise DeviceDisconnected(self._name, "closed")
        try:
            self.dev.write(self._ep_out, data, timeout=WRITE_TIMEOUT_MS)
        except usb.core.USBError as exc:
            if _is_timeout(exc):
                raise DeviceTimeout(self._name, f"report not taken: {exc}") from None
            self._report_lost(exc)
            raise DeviceDisconnected(self._name, f"write failed: {exc}") from None

    async def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            try:
                await within(asyncio.shield(self._exited), READ_TIMEOUT_MS / 1000 + 1.0)
            except asyncio.TimeoutError:
                pass
        self._thread.join(timeout=1.0)
        try:
            usb.util.release_interface(self.dev, INTERFACE)
        except (usb.core.USBError, ValueError):
            pass
        usb.util.dispose_resources(self.dev)

    # -- threads --------------------------------------------------------------------------

    def _hand_over(self, fn: Callable[..., object], *args: object) -> bool:
        try:
            self._loop.call_soon_threadsafe(fn, *args)
            return True
        except RuntimeError:
            return False

    def _report_lost(self, exc: Exception) -> None:
        if not self._lost_reported and not self._stop.is_set():
            self._lost_reported = True
            self._on_lost(exc)

    def _read_loop(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    data = self.dev.read(self._ep_in, REPORT_SIZE, timeout=READ_TIMEOUT_MS)
                except usb.core.USBError as exc:
                    if _is_timeout(exc):
                        continue
                    self._hand_over(self._report_lost, exc)
                    return
                if not self._stop.is_set() and not self._hand_over(self._on_report, bytes(data)):
                    return
        finally:
            self._hand_over(_set_done, self._exited)


def _set_done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
