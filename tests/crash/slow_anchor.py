"""An emulated progressive controller slow to take an anchor, as a busy box made it.

For tests/crash/test_anchor_cut.py only. Imported by the lane's zygote before it
forks (crash_lab `preload`), it sets the emulated controller's own wire knob
(drivers/sim/faults.py `delay`) so that each ANCHOR_WRITE part reaches it SLOW
seconds late: an anchor takes some 160 ms to be committed, the "150 ms behind
under load" of issue 26. The parts still arrive well inside the driver's ACK
timeout, so nothing is retried or lost: only the time it takes is stretched.
"""

from __future__ import annotations

from controller.runtime.world import PersistentProgressive
from drivers.progressive import protocol as pp

SLOW = 0.04

_init = PersistentProgressive.__init__


def _slow_init(self, *args, **kwargs) -> None:
    _init(self, *args, **kwargs)
    self.incoming.delay(SLOW, n=10**6, types=[pp.ANCHOR_WRITE])


PersistentProgressive.__init__ = _slow_init
