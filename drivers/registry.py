"""Device drivers found by name, as python-can finds its interfaces.

A table profile may name the driver of each real device (`driver = "..."`); the
table asks this registry for the class by the device's kind and that name. The
drivers of tablectl itself are registered here as "builtin" (they speak
drivers/PROTOCOLS.md, and so do the emulators). Another installed distribution
adds a driver through the entry point group `tablectl.drivers`, one entry per
driver named `KIND.NAME`:

    [project.entry-points."tablectl.drivers"]
    "shoe.acme-ds6" = "acme_tablectl.shoe:AcmeShoe"

Listing the names reads only the installed distributions' metadata: the profile
check (`tablectl config check`) learns whether a name exists without importing a
driver, pyserial or pyusb. A driver's class is imported when the table builds
its devices, and checked then for the calls the table makes of its kind
(docs/DRIVERS.md).
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

GROUP = "tablectl.drivers"
BUILTIN = "builtin"

# The kinds of device a table uses, and what the table calls on each besides the
# supervision every driver has (start, close, connected, wait_connected).
KINDS: dict[str, tuple[str, ...]] = {
    "shoe": ("dispense_one", "dispense_stack"),   # Caribbean stud's automated shoe, 5324.37(d)(2)-(3)
    "manual_shoe": (),                              # casino war's card-reading manual shoe: reports only
    "shuffler": ("shuffle",),
    "progressive": ("set_lights", "set_meter"),   # Caribbean stud's progressive controller (USB)
}
SUPERVISION = ("start", "close", "connected", "wait_connected")

_BUILTIN: dict[str, str] = {
    "shoe": "drivers.shoe.device:ShoeDevice",
    "manual_shoe": "drivers.manual_shoe.device:ManualShoeDevice",
    "shuffler": "drivers.shuffler.device:ShufflerDevice",
    "progressive": "drivers.progressive.device:ProgressiveDevice",
}


class DriverNotFound(LookupError):
    """No driver of this kind by this name: the message names the ones there are."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        self.kind, self.name, self.known = kind, name, known
        if kind not in KINDS:
            text = f"{kind!r} is not a kind of device (kinds: {', '.join(KINDS)})"
        else:
            text = f"no {kind} driver named {name!r} (installed: {', '.join(known)})"
        super().__init__(text)


class DriverUnfit(TypeError):
    """A driver registered under a kind lacks a call the table makes of that kind."""


def _split(entry_name: str) -> tuple[str, str] | None:
    kind, dot, name = entry_name.partition(".")
    return (kind, name) if dot and kind in KINDS and name else None


def _entries(kind: str) -> dict[str, object]:
    found: dict[str, object] = {}
    for entry in entry_points(group=GROUP):
        split = _split(entry.name)
        if split and split[0] == kind and split[1] != BUILTIN:   # the built-in name is not for the taking
            found.setdefault(split[1], entry)
    return found


def names(kind: str) -> list[str]:
    """Every driver name of a kind: the built-in one first, then the installed ones, sorted."""
    if kind not in KINDS:
        raise DriverNotFound(kind, "", [])
    return [BUILTIN, *sorted(_entries(kind))]


def driver_class(kind: str, name: str = BUILTIN) -> type:
    """The class of the driver `name` of `kind`, checked for the calls the table makes of it."""
    if kind not in KINDS:
        raise DriverNotFound(kind, name, [])
    if name == BUILTIN:
        module, _, attr = _BUILTIN[kind].partition(":")
        cls = getattr(importlib.import_module(module), attr)
    else:
        entry = _entries(kind).get(name)
        if entry is None:
            raise DriverNotFound(kind, name, names(kind))
        cls = entry.load()   # type: ignore[attr-defined]
    if not isinstance(cls, type):
        raise DriverUnfit(f"the {kind} driver {name!r} is {cls!r}, not a class")
    missing = [call for call in SUPERVISION + KINDS[kind] if not hasattr(cls, call)]
    if missing:
        raise DriverUnfit(f"the {kind} driver {name!r} ({cls.__module__}.{cls.__qualname__}) "
                          f"lacks {', '.join(missing)}")
    return cls
