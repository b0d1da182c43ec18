"""The card-reading manual dealing shoe as the table sees it: its reports on the queue, and no commands.

There is deliberately no dispense method: the dealer draws every card by hand
(5324.22(d), (h)(2)). The link (drivers.serial_link) already drops a frame the shoe
sends twice because our ACK was lost; the shoe's own running count also
catches what the link cannot see, a report replayed or missed (across a restart
of the shoe, or from a faulty one), and such a report reaches the table as a
DrawOutOfStep instead of a card. The count is kept across a restart of the shoe:
what a restarted shoe sends must follow what it sent before.
"""

from __future__ import annotations

from typing import Any

from drivers.serial_link.device import SerialDevice
from drivers.serial_link.framing import Frame
from drivers.serial_link.messages import DeviceKind
from drivers.manual_shoe import protocol as p


class ManualShoeDevice(SerialDevice):
    KIND = DeviceKind.MANUAL_SHOE
    NAME = "shoe"
    COMMAND_NAMES = p.COMMAND_NAMES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = p.Tally()
        self.refused = 0

    def _parse_event(self, frame: Frame) -> object:
        return p.parse_event(frame)

    def _parse_status(self, frame: Frame) -> object:
        return p.parse_status(frame)

    def _on_restart(self) -> None:
        self.tally.restarted()

    def _admit(self, event: object) -> object:
        refused = self.tally.check(event)
        if refused is None:
            return event
        if not isinstance(refused, p.DrawOutOfStep):   # REPEAT: its last report again, sent after a restart forgot our ACK: taken once
            self.duplicates += 1
            self._log.info("duplicate_event", kind=type(event).__name__, drawn=getattr(event, "drawn", None))
            return None
        self.refused += 1
        self._log.warning("card_refused", reported=refused.reported, expected=refused.expected,
                          why="replayed" if refused.replayed else f"{refused.missed} card(s) missed")
        return refused

