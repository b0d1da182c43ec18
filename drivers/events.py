"""Events every device puts on the table's queue, whatever the device.

Device-specific events (a card dispensed, a wager sensor) live with their
protocol; this module holds what the table needs to know about any device: is
it there. The screen shows it and the log records it (the brief: a device
missing at start is reported and the rest of the box runs).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import Enum


class LinkState(str, Enum):
    CONNECTED = "connected"
    MISSING = "missing"            # not found at start; the driver keeps looking
    DISCONNECTED = "disconnected"  # was connected, lost; the driver is reconnecting
    INCOMPATIBLE = "incompatible"  # something answered but is not this device or protocol
    UNPAIRED = "unpaired"          # this kind of device answered, but not under the table's pairing key


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """A device's link changed state. `detail` is for the operator, in plain words."""

    device: str
    state: LinkState
    detail: str = ""


def check_queue(queue: asyncio.Queue[object]) -> asyncio.Queue[object]:
    """Refuse a bounded queue: a driver must never drop or block on a table event."""
    if not isinstance(queue, asyncio.Queue):
        raise TypeError(f"the table queue must be an asyncio.Queue, not {type(queue).__name__}")
    if queue.maxsize:
        raise ValueError(f"the table queue must be unbounded (maxsize=0), not maxsize={queue.maxsize}")
    return queue


@dataclass(frozen=True, slots=True)
class LinkRefused:
    """A frame the link refused for its seal (drivers/pairing.py): not under the pairing key, or
    replayed. Never acted on; the table raises the device's alarm. One per session is put on the
    queue; the driver counts every one (`refused_frames`)."""

    device: str
    reason: str
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class Door:
    """A device's door (the progressive controller's, the shoe's) opened or closed: a significant event
    (9 NYCRR 5317.26), journaled as door-open / door-closed with the device."""

    device: str
    open: bool


@dataclass(frozen=True, slots=True)
class Battery:
    """The battery behind a device's non-volatile memory went low (or was replaced): journaled as
    battery-low with the device (5317.26)."""

    device: str
    low: bool
