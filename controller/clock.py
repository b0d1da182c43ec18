"""The box's clock watched: its synchronisation said at start and hourly, a jump of it noticed.

Every time the journal writes is the wall clock's; a regulator trusts those times
only as far as the clock was kept (Mississippi 8: every clock set at least once a
day; GLI-13). So the table journals a `clock` event at start and every hour with
what the system says of its synchronisation (timedatectl's NTPSynchronized, or
chrony's or timesyncd's own word; "unknown", said as such, when none answers),
and compares the wall clock with the monotonic clock, which nothing sets: the
two moving apart by more than `JUMP_S` is a jump, journaled with both readings
and raised as an alarm. A gaming day does not open on a clock the system says is
unsynchronised until a supervisor acknowledges it (controller/table.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

JUMP_S = 2.0          # the wall clock against the monotonic: more apart than this is a jump
CHECK_S = 5.0         # how often the two are compared
SYNC_EVERY_S = 3600.0  # how often the synchronisation is journaled (at start, then hourly)
ASK_TIMEOUT_S = 3.0

SYNCHRONISED, UNSYNCHRONISED, UNKNOWN = "synchronised", "unsynchronised", "unknown"


def _ask(argv: list[str]) -> str | None:
    if shutil.which(argv[0]) is None:
        return None
    # not the table's systemd socket: a systemd tool failing tells it its errno (ERRNO=...) as if it were the table
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=ASK_TIMEOUT_S, check=False, env=env)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def system_sync() -> dict[str, Any]:
    """What the system says of its clock's synchronisation: {"sync", "source", "detail"}."""
    said = _ask(["timedatectl", "show", "-p", "NTPSynchronized", "--value"])
    if said is not None and said.strip() in ("yes", "no"):
        return {"sync": SYNCHRONISED if said.strip() == "yes" else UNSYNCHRONISED, "source": "timedatectl",
                "detail": f"NTPSynchronized={said.strip()}"}
    tracking = _ask(["chronyc", "-n", "tracking"])
    if tracking is not None:
        leap = next((line.split(":", 1)[1].strip() for line in tracking.splitlines()
                     if line.lower().startswith("leap status")), "")
        return {"sync": SYNCHRONISED if leap == "Normal" else UNSYNCHRONISED, "source": "chrony",
                "detail": f"leap status {leap or 'not said'}"}
    if os.path.isdir("/run/systemd/timesync"):
        synced = os.path.exists("/run/systemd/timesync/synchronized")
        return {"sync": SYNCHRONISED if synced else UNSYNCHRONISED, "source": "timesyncd",
                "detail": "synchronized" if synced else "not synchronized"}
    return {"sync": UNKNOWN, "source": None,
            "detail": "unknown: neither timedatectl, chrony nor timesyncd said whether the clock is synchronised"}


@dataclass
class Clock:
    """The clocks the table reads, injectable: the wall clock (seconds since the epoch), the monotonic
    clock, the system's word on synchronisation, and how often each is looked at."""

    wall: Callable[[], float] = time.time
    monotonic: Callable[[], float] = time.monotonic
    sync: Callable[[], dict[str, Any]] = system_sync
    check_s: float = CHECK_S
    sync_every_s: float = SYNC_EVERY_S
    _base: tuple[float, float] | None = field(default=None, repr=False)

    def reading(self) -> tuple[float, float]:
        return self.wall(), self.monotonic()

    def jump(self) -> dict[str, Any] | None:
        """The wall clock's jump since the last look (both readings, before and now), or None.
        The first look sets the base; after a jump the base is the new reading."""
        now = self.reading()
        base, self._base = self._base, now
        if base is None:
            return None
        moved = (now[0] - base[0]) - (now[1] - base[1])
        if abs(moved) <= JUMP_S:
            return None
        return {"wall_before": _iso(base[0]), "wall_after": _iso(now[0]),
                "monotonic_before_ms": int(base[1] * 1000), "monotonic_after_ms": int(now[1] * 1000),
                "jump_ms": int(moved * 1000)}


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def gaming_day(wall: float, day_start: str, zone: str) -> str:
    """The gaming day a moment falls in (the casino's clock; the day starts at `day_start`, HH:MM)."""
    hours, minutes = (int(x) for x in day_start.split(":"))
    local = datetime.fromtimestamp(wall, ZoneInfo(zone))
    return (local - timedelta(hours=hours, minutes=minutes)).date().isoformat()


def jump_alarm(jump: dict[str, Any]) -> dict[str, Any]:
    """The dealer's and supervisor's alarm for a jump (it stays until a supervisor clears the table's alarms
    or the table restarts: a jump has no condition that ends by itself)."""
    return {"kind": "clock_jump", "condition": "clock-jump",
            "message": f"the clock jumped {jump['jump_ms'] / 1000:+.1f} s against the monotonic clock "
                       f"({jump['wall_before']} to {jump['wall_after']})"}
