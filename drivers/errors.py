"""The errors a device driver raises, one kind per thing that can go wrong on a wire.

The table reacts differently to each: a timeout may clear on a retry, a
disconnection waits for the reconnect loop, a bad frame is counted and the link
carries on, and a refusal is the device saying no (jammed, busy, no deck).
"""

from __future__ import annotations


class DeviceError(Exception):
    """Anything a device driver reports; carries the device's name for the operator."""

    def __init__(self, device: str, message: str) -> None:
        super().__init__(f"{device}: {message}")
        self.device = device
        self.message = message


class DeviceTimeout(DeviceError):
    """The device did not answer a frame after every retry."""


class DeviceDisconnected(DeviceError):
    """The device is not there: never found, unplugged, or the port failed."""


class CommandRefused(DeviceError):
    """The device understood the command and said no (NAK), with its reason."""

    def __init__(self, device: str, reason: int, reason_name: str) -> None:
        super().__init__(device, f"refused: {reason_name} (NAK reason 0x{reason:02X})")
        self.reason = reason
        self.reason_name = reason_name


class IncompatibleDevice(DeviceError):
    """Something answered, but it is another kind of device or speaks another protocol version."""


class UnpairedDevice(IncompatibleDevice):
    """A device of the right kind answered, but its frames are not sealed under the table's pairing
    key: a device swapped in without `tablectl device pair`, or a stranger on the port."""


class BadFrame(ValueError):
    """Bytes that are not a valid frame or message: counted, logged, never acted on.

    A ValueError, not a DeviceError, because the parsers that raise it are pure and
    know nothing of devices; `raw` keeps the offending bytes for the wire trace.
    """

    def __init__(self, reason: str, raw: bytes = b"") -> None:
        super().__init__(reason)
        self.reason = reason
        self.raw = bytes(raw)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BadFrame) and (self.reason, self.raw) == (other.reason, other.raw)

    def __hash__(self) -> int:
        return hash((self.reason, self.raw))


class UnknownFrameType(BadFrame):
    """A frame whose CRC is good but whose type this side does not know: NAKed, not retried."""
