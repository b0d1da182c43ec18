"""The card-reading manual dealing shoe: protocol (pure) and device (async); the transport is drivers.serial_link.

Casino war is dealt from a manual dealing shoe (9 NYCRR 5324.22(d)): the dealer
takes each card out by hand (h)(2). This shoe only reads the cards as they are
drawn and reports them; it has no command to dispense.
"""

from drivers.manual_shoe.device import ManualShoeDevice
from drivers.manual_shoe.protocol import (CardDrawn, CardUnread, CoverCardReached, DrawOutOfStep, ManualShoeStatus,
                                          ShoeEmpty, ShoeLoaded)

__all__ = ["ManualShoeDevice", "CardDrawn", "CardUnread", "CoverCardReached", "DrawOutOfStep", "ManualShoeStatus",
           "ShoeEmpty", "ShoeLoaded"]
