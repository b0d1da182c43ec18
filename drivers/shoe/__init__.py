"""The automated dealing shoe: protocol (pure) and device (async); the transport is drivers.serial_link."""

from drivers.shoe.device import ShoeDevice
from drivers.shoe.protocol import (CardDispensed, CoverCardReached, JamCleared, JamCode, ShoeEmpty, ShoeJammed,
                                   ShoeLoaded, ShoeStatus)

__all__ = ["ShoeDevice", "CardDispensed", "CoverCardReached", "JamCleared", "JamCode", "ShoeEmpty", "ShoeJammed",
           "ShoeLoaded", "ShoeStatus"]
