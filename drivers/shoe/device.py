"""The automated dealing shoe as the table sees it: two commands, and events on the queue.

A command returns when the shoe has ACKed it; the cards follow as
CardDispensed events, in order, exactly once each. A shoe that is jammed or
empty NAKs the command and the caller gets CommandRefused saying which.
"""

from __future__ import annotations

from drivers.serial_link.device import SerialDevice
from drivers.serial_link.messages import DeviceKind
from drivers.shoe import protocol as p


class ShoeDevice(SerialDevice):
    KIND = DeviceKind.DEALING_SHOE
    NAME = "shoe"
    COMMAND_NAMES = p.COMMAND_NAMES

    async def dispense_one(self) -> None:
        """One card (a burn card, a war card, a fifth card for a four-card dealer hand, 5324.37(h))."""
        await self._command(p.DISPENSE_ONE)

    async def dispense_stack(self, count: int = p.STACK_OF_FIVE) -> None:
        """A stack of cards delivered together; five for Caribbean stud (5324.37(d)(2))."""
        command = p.DispenseStack(count)
        await self._command(command.TYPE, command.payload())

    def _parse_event(self, frame):
        return p.parse_event(frame)

    def _parse_status(self, frame):
        return p.parse_status(frame)
