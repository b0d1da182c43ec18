"""The shuffler with its card-count reader: protocol (pure) and device (async); the transport is drivers.serial_link."""

from drivers.shuffler.device import ShufflerDevice
from drivers.shuffler.protocol import (Anomaly, AnomalyKind, DeckCount, DeckInserted, DeckRemoved, FaultCleared,
                                       FaultCode, ShuffleComplete, ShuffleStarted, ShufflerFault, ShufflerStatus)

__all__ = ["ShufflerDevice", "Anomaly", "AnomalyKind", "DeckCount", "DeckInserted", "DeckRemoved", "FaultCleared",
           "FaultCode", "ShuffleComplete", "ShuffleStarted", "ShufflerFault", "ShufflerStatus"]
