"""The shuffler as the table sees it: SHUFFLE and COUNT, and its events on the queue.

A command returns when the shuffler has ACKed it; the shuffle's progress and
the deck's count follow as events. A deck that does not count 52 is the
table's to act on (the supervisor removes it, 5324.42(f)(6)(iv)); the driver
only reports what the reader saw.
"""

from __future__ import annotations

from drivers.serial_link.device import SerialDevice
from drivers.serial_link.framing import Frame
from drivers.serial_link.messages import DeviceKind
from drivers.shuffler import protocol as p


class ShufflerDevice(SerialDevice):
    KIND = DeviceKind.SHUFFLER
    NAME = "shuffler"
    COMMAND_NAMES = p.COMMAND_NAMES

    async def shuffle(self) -> None:
        """Shuffle the deck in the tray; ShuffleStarted, ShuffleComplete and a DeckCount follow."""
        await self._command(p.SHUFFLE)

    async def count(self) -> None:
        """Pass the deck through the reader without shuffling; a DeckCount follows."""
        await self._command(p.COUNT)

    def _parse_event(self, frame: Frame) -> object:
        return p.parse_event(frame)

    def _parse_status(self, frame: Frame) -> object:
        return p.parse_status(frame)
