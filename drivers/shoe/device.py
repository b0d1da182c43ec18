"""The automated dealing shoe as the table sees it: two commands, and events on the queue.

A command returns when the shoe has ACKed it; the cards follow as
CardDispensed events, in order, exactly once each. A shoe that is jammed or
empty NAKs the command and the caller gets CommandRefused saying which.

Two things are checked here, because the link cannot see them. Each card's own
numbers (its running count and its place in its stack, `protocol.Tally`): a
card that does not follow the last one taken reaches the table as a
CardOutOfStep in its place, never as a card. And the shoe's condition: a shoe
found jammed or empty by a NAK or its STATUS, with no event saying so (it ran
out exactly at the end of a stack, or jammed while the box was away), is
reported as ShoeEmpty / ShoeJammed all the same, and a jam the STATUS shows
gone as JamCleared, so the dealer's alarm comes at once and goes when the
condition does. Its door and the battery of its memory (STATUS bits 5 and 6) are
reported as they change (drivers.events.Door, Battery), at the latest by the
next heartbeat's STATUS.
"""

from __future__ import annotations

from typing import Any

from drivers.errors import BadFrame, CommandRefused
from drivers.events import Battery, Door
from drivers.serial_link.device import SerialDevice
from drivers.serial_link.framing import Frame
from drivers.serial_link.messages import DeviceKind, NakReason
from drivers.shoe import protocol as p


class ShoeDevice(SerialDevice):
    KIND = DeviceKind.DEALING_SHOE
    NAME = "shoe"
    COMMAND_NAMES = p.COMMAND_NAMES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = p.Tally()
        self.refused = 0          # card reports refused by the tally
        self.jammed = False       # the shoe's condition as last reported (event, NAK or STATUS)
        self.empty = False
        self.door_open = False    # the door and the battery as its STATUS last said (reported as they change)
        self.battery_low = False

    async def dispense_one(self) -> None:
        """One card (a burn card, a war card, a fifth card for a four-card dealer hand, 5324.37(h))."""
        await self._dispense(p.DISPENSE_ONE, b"")

    async def dispense_stack(self, count: int = p.STACK_OF_FIVE) -> None:
        """A stack of cards delivered together; five for Caribbean stud (5324.37(d)(2))."""
        command = p.DispenseStack(count)
        await self._dispense(command.TYPE, command.payload())

    async def _dispense(self, type_: int, payload: bytes) -> None:
        try:
            await self._command(type_, payload)
        except CommandRefused as refused:
            dispensed = self.tally.dispensed or 0
            if refused.reason == NakReason.EMPTY and not self.empty:
                self._condition(p.ShoeEmpty(dispensed), "NAK")
            elif refused.reason == NakReason.JAMMED and not self.jammed:
                self._condition(p.ShoeJammed(p.JamCode.OTHER, dispensed), "NAK")
            raise

    def _condition(self, event: p.ShoeEvent, how: str) -> None:
        """A condition the shoe showed without its event: reported as if it had sent it."""
        self._log.warning("shoe_condition", kind=type(event).__name__, seen_in=how)
        self._on_event(event)
        self._put(event)

    def _on_event(self, event: object) -> None:
        if isinstance(event, p.ShoeJammed):
            self.jammed = True
        elif isinstance(event, p.JamCleared):
            self.jammed = False
        elif isinstance(event, p.ShoeEmpty):
            self.empty = True
        elif isinstance(event, p.ShoeLoaded):
            self.empty = self.jammed = False

    def _on_restart(self) -> None:
        self.tally.restarted()

    def _admit(self, event: object) -> object:
        refused = self.tally.check(event)
        if refused is None:
            return event
        if not isinstance(refused, p.CardOutOfStep):   # REPEAT: its last card again, sent after a restart forgot our ACK: taken once
            self.duplicates += 1
            self._log.info("duplicate_event", kind="CardDispensed", dispensed=getattr(event, "dispensed", None))
            return None
        self.refused += 1
        self._log.warning("card_refused", why=refused.why, reported=refused.reported, expected=refused.expected,
                          position=refused.position, size=refused.size, card=str(refused.card))
        return refused

    def _parse_event(self, frame: Frame) -> object:
        return p.parse_event(frame)

    def _parse_status(self, frame: Frame) -> object:
        return p.parse_status(frame)

    def _on_status_frame(self, frame: Frame) -> None:
        try:
            status = p.parse_status(frame)
        except BadFrame:   # request_status counts and reports it
            return
        self.tally.learn(status.dispensed)
        if status.door_open != self.door_open:
            self.door_open = status.door_open
            self._put(Door(self.name, status.door_open))
        if status.battery_low != self.battery_low:
            self.battery_low = status.battery_low
            self._put(Battery(self.name, status.battery_low))
        if not self.connected:
            return   # the events the shoe kept while we were away come first; its next STATUS will do
        if status.jammed and not self.jammed:
            self._condition(p.ShoeJammed(p.JamCode.OTHER, status.dispensed), "STATUS")
        elif self.jammed and not status.jammed:
            self._condition(p.JamCleared(status.dispensed), "STATUS")
