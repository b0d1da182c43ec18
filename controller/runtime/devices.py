"""The table's devices: drivers on the table's queue, their events in the table's words, effects back.

Each driver puts typed messages on the table's one queue (drivers/*/device.py);
`table_events` turns one of them into the table's events (dicts with a "type"),
given the round in progress, because what a message means depends on it: a chip
felt on an acceptor is a progressive wager before the lock-out and a late one
after it (5324.37(a)(3)(ii)). The other direction, lights, the meter display and
dispense commands, goes out only after the journal has recorded what caused it
(controller/table.py).

A device the profile does not name is emulated (world.py) and reached through
the same driver: a pseudo-terminal for serial devices, a pyusb backend for the
progressive controller.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import structlog

from controller.games import registry
from controller.games.base import RoundAtTable
from drivers.events import Battery, DeviceStatus, Door, LinkRefused, LinkState
from drivers.manual_shoe import protocol as ms
from drivers.progressive import protocol as pp
from drivers.shoe import protocol as sp
from drivers.shuffler import protocol as fp

from .card_alarms import CARD_CONDITIONS, card_alarm
from .world import World

Row = dict[str, Any]   # a table event, an alarm, a device's status: the journal's JSON, as the table reads it

LIGHT = {"on": pp.Light.ON, "late": pp.Light.FLASHING_LATE, "removed": pp.Light.FLASHING_REMOVED,
         "off": pp.Light.OFF}
BUTTONS = {pp.PanelButton.NO_MORE_BETS: "no_more_bets", pp.PanelButton.DEAL: "deal",
           pp.PanelButton.REVEAL: "reveal", pp.PanelButton.SETTLE: "settle",
           pp.PanelButton.NEXT_ROUND: "next_round"}

# Each device's events, as its protocol declares them: a message is known by its type, never by its
# class's name or module.
DEVICE_EVENTS: tuple[tuple[str, Any], ...] = (
    ("shoe", sp.ShoeEvent),
    ("manual_shoe", ms.ManualShoeEvent | ms.DrawOutOfStep),
    ("shuffler", fp.ShufflerEvent),
    ("progressive", pp.ProgressiveEvent),
)

log = structlog.get_logger("controller.devices")


def device_of(message: Any) -> str:
    """The device a driver's message comes from ("device" for one no protocol declares)."""
    return next((name for name, events in DEVICE_EVENTS if isinstance(message, events)), "device")


class DeviceSet:
    """The devices a game uses, each real (named in the profile) or emulated."""

    def __init__(self, profile: Any, queue: asyncio.Queue[object], *, data_dir: Path, seed: int | None,
                 journal: Any = None) -> None:
        from drivers.registry import BUILTIN, driver_class

        self.game = profile.game
        needs = registry.game(self.game).devices   # the game's entry (controller/games/registry.py)
        named = profile.devices
        trace = set(profile.logging.wire_trace)
        # poker is dealt from the dealer's hand (5324.42(f)(6)(i)); its deck is counted by the shuffler
        # a manual shoe without a card reader is no device: the dealer touches each card in on the console
        shoe = needs.shoe is not None and needs.reader(profile)
        wanted = {"shoe": shoe, "shuffler": needs.shuffler, "progressive": needs.progressive}
        # casino war is dealt by hand from a manual dealing shoe (5324.22(d), (h)(2)): the table reads its
        # cards and never asks it to dispense; only the Caribbean stud shoe dispenses
        self.dispenses = needs.shoe == "dispensing"
        self.emulated = {name: use and getattr(named, name) is None for name, use in wanted.items()}
        # a real device's driver is the one its profile names (drivers/registry.py); an emulator speaks the built-in's
        driver = {name: BUILTIN if self.emulated[name] else named.driver_of(name) for name in wanted}
        self.world: World | None = None
        if any(self.emulated.values()):
            self.world = World(Path(data_dir) / "sim", self.game, seed=seed, decks=needs.decks(profile),
                               shoe=self.emulated["shoe"], shuffler=self.emulated["shuffler"],
                               progressive=self.emulated["progressive"])
        w = self.world   # not None when any device is emulated, and then it holds each emulated one
        self.shoe = self.shuffler = self.progressive = None
        # each link sealed under its device's pairing key (controller/pairing.py): an emulator's the table
        # made and gave it, a real device's the one `tablectl device pair` made; never the factory's
        keys = {name: self._key(name, w, data_dir, journal) for name, use in wanted.items() if use}

        def keyed(cls: Any, name: str) -> dict[str, bytes]:
            return {"key": keys[name]} if _takes_key(cls) else {}

        def serial_port(name: str) -> str:
            """An emulated device's pseudo-terminal (its emulator was made above), or the profile's port."""
            if self.emulated[name]:
                emulator = getattr(w, name, None)
                assert emulator is not None
                return cast(str, emulator.port)
            port = named.port_of(name)
            assert port is not None   # not emulated: the profile names its port
            return cast(str, port)

        if wanted["shoe"]:
            # the game's devices say which driver its shoe speaks
            ShoeDevice = driver_class(needs.driver_kind("shoe"), driver["shoe"])
            self.shoe = ShoeDevice(serial_port("shoe"), queue, trace="shoe" in trace, **keyed(ShoeDevice, "shoe"))
        if wanted["shuffler"]:
            ShufflerDevice = driver_class("shuffler", driver["shuffler"])
            self.shuffler = ShufflerDevice(serial_port("shuffler"), queue, trace="shuffler" in trace,
                                           **keyed(ShufflerDevice, "shuffler"))
        if wanted["progressive"]:
            ProgressiveDevice = driver_class("progressive", driver["progressive"])
            if self.emulated["progressive"]:
                assert w is not None and w.progressive is not None   # made above for an emulated controller
                emu = w.progressive
                self.progressive = ProgressiveDevice(queue, vendor=emu.vendor, product=emu.product,
                                                     serial=emu.serial_number, backend=emu.backend,
                                                     trace="progressive" in trace,
                                                     **keyed(ProgressiveDevice, "progressive"))
            else:
                usb = named.progressive
                self.progressive = ProgressiveDevice(queue, vendor=usb.vendor, product=usb.product,
                                                     serial=usb.serial, trace="progressive" in trace,
                                                     **keyed(ProgressiveDevice, "progressive"))
        self.status: dict[str, Row] = {
            name: {"name": name, "status": "missing", "detail": "not started", "advice": ""}
            for name, use in wanted.items() if use}
        self.acceptors = Acceptors()
        self.consoles: Any = None   # the emulators' own consoles, for `tablectl sim --table`

    def _key(self, name: str, world: World | None, data_dir: Path, journal: Any) -> bytes:
        """The pairing key of the device `name`: an emulator is paired by the table (at its first start,
        journaled) and given the key; a real device's is the paired one (controller/pairing.py)."""
        from controller import pairing
        if not self.emulated[name]:
            return pairing.table_key(name, data_dir, journal, log)
        key = pairing.emulated_key(name, data_dir, journal, log)
        emulator = getattr(world, name, None)
        if emulator is not None:
            emulator.pair(key)
        return key

    def drivers(self) -> list[Any]:
        return [d for d in (self.shoe, self.shuffler, self.progressive) if d is not None]

    async def start(self) -> None:
        if self.world is not None:
            self.world.start()
            from drivers.sim.consoles import world_consoles   # `tablectl sim DEVICE --table DIR` (drivers/sim/attach.py)
            self.consoles = world_consoles(self.world)
        # start() returns after the first attempt; a missing device keeps being looked for
        await asyncio.gather(*(d.start() for d in self.drivers()))

    async def close(self) -> None:
        await asyncio.gather(*(d.close() for d in self.drivers()), return_exceptions=True)
        if self.consoles is not None:
            self.consoles.close()
            self.consoles = None
        if self.world is not None:
            self.world.stop()

    def on_status(self, s: DeviceStatus) -> None:
        status = s.state.value
        if s.state is LinkState.CONNECTED and self.emulated.get(s.device):
            status = "emulated"
        # `detail` is the driver's (for the log); the screens show `advice`, in the dealer's words.
        self.status[s.device] = {"name": s.device, "status": status, "detail": s.detail,
                                 "advice": advice_for(s.device, status)}

    def published(self) -> list[Row]:
        return [dict(v) for v in self.status.values()]

    def echoed_lights(self) -> dict[int, str] | None:
        """The acceptor lights as the progressive controller echoed them (issue 18), seat -> "on"|"late"|
        "removed"|"off"; None at a table without a progressive controller. Until the controller has
        echoed a setting (or while it is not connected) no light is shown as lit: the screen shows
        what the players see, not what the box asked for."""
        if self.progressive is None:
            return None
        applied = self.progressive.lights
        if applied is None or not self.progressive.connected:
            return {}
        names = {v: k for k, v in LIGHT.items()}
        return {seat: names.get(light, "off") for seat, light in enumerate(applied.lights, start=1)}

    # -- effects ------------------------------------------------------------------------

    async def dispense(self, count: int) -> None:
        if not self.dispenses:
            raise RuntimeError("a manual dealing shoe is drawn by the dealer's hand, never asked to dispense")
        assert self.shoe is not None   # a dispensing shoe is always wanted, so always made (__init__)
        if count >= sp.MIN_STACK:
            await self.shoe.dispense_stack(count)
        else:
            await self.shoe.dispense_one()

    async def shuffle(self) -> None:
        if self.shuffler is not None:
            await self.shuffler.shuffle()

    async def load_shoe(self) -> None:
        """Ask for a fresh shoe: the emulated dealer reshuffles; a real dealer is told on the screen."""
        fill = registry.game(self.game).devices.fill
        if self.world is not None and self.emulated["shoe"] and fill is not None:
            await asyncio.to_thread(self.world.load_shoe, fill)

    async def set_outputs(self, lights: dict[int, str], lockout: bool, meter: int | None, flash: bool) -> None:
        if self.progressive is None or not self.progressive.connected:
            return
        await self.progressive.set_lights({s: LIGHT[v] for s, v in lights.items()}, lockout)
        if meter is None:   # no amount to trust (a linked pool out of reach, 5321.18(c)): nothing lit
            await self.progressive.set_meter(0, pp.MeterMode.BLANK)
        else:
            await self.progressive.set_meter(min(meter, pp.METER_MAX),
                                             pp.MeterMode.FLASH if flash else pp.MeterMode.SHOW)


def _takes_key(cls: Any) -> bool:
    """Whether a driver takes its link's pairing key (the built-in ones do; another's may seal its own way)."""
    import inspect
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "key" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def table_events(message: Any, round_: Any) -> list[Row]:
    """The table's events for one driver message, given the round in progress (or None)."""
    t = type(message)
    if t is sp.CardDispensed:   # the card as its frame was read (a Card): text only in the journal and the view
        return [{"type": "shoe_card", "card": message.card}]
    if t is sp.CoverCardReached:
        return [{"type": "cover_reached"}]
    if t is sp.ShoeLoaded:
        return [{"type": "shoe_loaded", "cards": message.cards}]
    if t is ms.CardDrawn:
        return [{"type": "shoe_card", "card": message.card}]
    if t is ms.CardUnread:   # its place stays due: the dealer touches the card in (the round's alarm)
        return [{"type": "shoe_unread", "drawn": message.drawn}]
    if t is ms.CoverCardReached:
        return [{"type": "cover_reached"}]
    if t is ms.ShoeLoaded:
        return [{"type": "shoe_loaded", "cards": message.cards}]
    if t is fp.DeckCount:
        return [{"type": "deck_count", "total": message.total, "anomalies": [str(a) for a in message.anomalies],
                 "truncated": message.truncated}]
    if t is pp.LockoutPressed:
        return [{"type": "no_more_bets"}]
    if t is pp.PanelButtonPressed and message.button in BUTTONS:
        return [{"type": BUTTONS[message.button]}]
    if t is pp.WagerSensor:
        return _sensor(message.seat, message.present, round_)
    if t is pp.ControllerState:
        return [e for seat in range(1, pp.SEATS + 1) for e in _sensor(seat, seat in message.wagers, round_,
                                                                     quiet=True)]
    return []


class Acceptors:
    """The chips on the acceptors as the table has heard them, in the order it heard them (issue 30).

    The drivers report a chip when its sensor changes; a chip already there when the dealer keys the
    ante, or left from the last round, changes nothing, so without this the table would never count
    it, nor say it is there. What it means is still the round's game's to say (`_sensor`).
    """

    def __init__(self) -> None:
        self.chips: set[int] = set()

    def heard(self, message: Any) -> None:
        """Follow the acceptors through the driver's messages, as the table consumes them."""
        t = type(message)
        if t is pp.ControllerState:
            self.chips = set(message.wagers)
        elif t is pp.WagerSensor:
            (self.chips.add if message.present else self.chips.discard)(message.seat)

    def before(self, event: Any, round_: RoundAtTable | None) -> list[Row]:
        """What the chips standing on the acceptors mean before "no more bets" locks them out: each
        beside an ante and not yet recognized is the seat's progressive wager."""
        if _kind(event) != "no_more_bets" or round_ is None or round_.closed:
            return []
        return [e for seat in sorted(self.chips) for e in _sensor(seat, True, round_)
                if e.get("type") == "progressive" and _anted(round_, seat)]

    def after(self, event: Any, ok: bool, round_: RoundAtTable | None) -> list[Row]:
        """A chip already on the acceptor when its seat's ante is keyed is the seat's progressive
        wager now (the dealer never lifts and drops it for it to count)."""
        if not ok or _kind(event) != "ante" or round_ is None or round_.closed:
            return []
        seat = event.get("seat")
        return _sensor(seat, True, round_) if seat in self.chips else []

    def strays(self, event: Any, ok: bool, round_: RoundAtTable | None) -> list[Row]:
        """The alarms for chips still standing at "no more bets" on seats with no ante: no wager, so
        the dealer is told which seat (each alarm ends when its chip is taken off)."""
        if not ok or _kind(event) != "no_more_bets" or round_ is None or _acceptors_of(round_) is None:
            return []
        return [stray_chip(seat) for seat in sorted(self.chips) if not _anted(round_, seat)]

    @staticmethod
    def ended(event: Any, ok: bool) -> bool:
        """A new round ends the last one's stray-chip alarms (its "no more bets" asks again)."""
        return ok and _kind(event) == "next_round"


def is_stray_chip(alarm: Row) -> bool:
    return str(alarm.get("condition", "")).startswith("stray_chip_")


def stray_chip(seat: int) -> Row:
    return {"kind": "device", "device": "progressive", "condition": f"stray_chip_{seat}", "seat": seat,
            "message": f"A chip is on seat {seat}'s progressive acceptor with no ante: it is no wager. "
                       "Give it back to the player and take it off the acceptor."}


def _kind(event: Any) -> Any:
    return event.get("type") if isinstance(event, dict) else None


def _anted(round_: RoundAtTable, seat: int) -> bool:
    seats = round_.view().get("seats")
    for s in seats if isinstance(seats, list) else []:
        wagers = s.get("wagers") if isinstance(s, dict) and s.get("seat") == seat else None
        if isinstance(wagers, dict) and "ante" in wagers:
            return True
    return False


def _acceptors_of(round_: RoundAtTable) -> Any:
    entry = registry.find(round_.game)
    return entry.devices.acceptors if entry is not None else None


def _sensor(seat: int, present: bool, round_: RoundAtTable | None, *, quiet: bool = False) -> list[Row]:
    """A chip on or off a seat's acceptor: what it means is the round's game's to say (its devices'
    `acceptors`); a game without the acceptors, or no round, makes nothing of it."""
    entry = registry.find(round_.game) if round_ is not None else None
    sensed = entry.devices.acceptors if entry is not None else None
    if round_ is None or sensed is None:
        return []
    return sensed(seat, present, round_, quiet)


# What the dealer reads for each device condition: what is wrong and what to do, in plain words
# (issue 18). The driver's own words (an errno, a protocol code) go to the log and the journal.
ADVICE = {
    ("shoe", "missing"):
        "The dealing shoe is not found: check its cable and power; call a technician if it stays.",
    ("shoe", "disconnected"):
        "The dealing shoe is disconnected: check its cable and power; no card is dealt until it is back.",
    ("shoe", "incompatible"): "The device on the shoe's port is not our dealing shoe: call a technician.",
    ("shuffler", "missing"):
        "The shuffler is not found: check its cable and power; call a technician if it stays.",
    ("shuffler", "disconnected"):
        "The shuffler is disconnected: check its cable and power; no deck is counted until it is back.",
    ("shuffler", "incompatible"): "The device on the shuffler's port is not our shuffler: call a technician.",
    ("progressive", "missing"):
        "The progressive controller is not found: check its USB cable; call a technician if it stays.",
    ("progressive", "disconnected"):
        "The progressive controller is disconnected: check its USB cable; progressive wagers are not read "
        "until it is back.",
    ("progressive", "incompatible"):
        "The device on the progressive's USB port is not our controller: call a technician.",
    ("shoe", "unpaired"):
        "The dealing shoe is not paired with this table, so nothing it says is taken: call a supervisor to "
        "pair it (tablectl device pair shoe).",
    ("shuffler", "unpaired"):
        "The shuffler is not paired with this table, so nothing it says is taken: call a supervisor to "
        "pair it (tablectl device pair shuffler).",
    ("progressive", "unpaired"):
        "The progressive controller is not paired with this table, so no wager it reads is taken: call a "
        "supervisor to pair it (tablectl device pair progressive).",
}
WHAT = {"shoe": "dealing shoe", "shuffler": "shuffler", "progressive": "progressive controller"}
OK_STATES = ("connected", "emulated")


def advice_for(device: str, status: str) -> str:
    """The dealer's words for a device's link state ('' when it is working)."""
    if status in OK_STATES:
        return ""
    return ADVICE.get((device, status), f"The {device} is not working: call a technician.")


def link_alarms(status: DeviceStatus, alarms: list[Row]) -> tuple[list[Row], list[tuple[str, Row, None]]]:
    """A device's alarm for its link: raised when it is refused as unpaired (5319.60(a)), ended when it
    connects (paired, a new session); the alarms after, and the journal's rows for the change."""
    device = status.device
    if status.state is LinkState.UNPAIRED:
        alarm = {"kind": "device", "device": device, "condition": f"unpaired_{device}",
                 "message": advice_for(device, "unpaired")}
        if alarm in alarms:
            return alarms, []
        return [a for a in alarms if a.get("condition") != alarm["condition"]] + [alarm], [("alarm", alarm, None)]
    if status.state is LinkState.CONNECTED:
        ended = (f"unpaired_{device}", f"link_refused_{device}")
        gone = [a for a in alarms if a.get("condition") in ended]
        return ([a for a in alarms if a not in gone],
                [("alarm-cleared", {"condition": a["condition"], "kind": a["kind"]}, None) for a in gone])
    return alarms, []


def condition_rows(message: Any) -> list[tuple[str, Row, None]]:
    """The journal's significant events for a device's door or battery, with the device (5317.26)."""
    t = type(message)
    what = WHAT.get(getattr(message, "device", ""), getattr(message, "device", "device"))
    if t is Door:
        kind = "door-open" if message.open else "door-closed"
        return [(kind, {"device": message.device, "detail": f"the {what}'s door {'opened' if message.open else 'closed'}"},
                 None)]
    if t is Battery and message.low:
        return [("battery-low", {"device": message.device,
                                 "detail": f"the battery of the {what}'s memory is low: have it replaced"}, None)]
    return []


def alarm_for(message: Any) -> Row | None:
    """An operator alarm for a device message that is not an event of the round.

    Each carries its `condition`, so the message that ends the condition clears it (cleared_by).
    """
    t = type(message)
    if t is LinkRefused:   # a frame not under the pairing key, or replayed: never acted on (5319.60(a))
        what = WHAT.get(message.device, message.device)
        return {"kind": "device", "device": message.device, "condition": f"link_refused_{message.device}",
                "message": f"A message on the {what}'s link was refused ({'replayed' if message.replayed else 'not from the paired device'}): "
                           "someone may be tampering with its cable. Call a supervisor."}
    if t is Door and message.open:
        what = WHAT.get(message.device, message.device)
        return {"kind": "device", "device": message.device, "condition": f"door_open_{message.device}",
                "message": f"The {what}'s door is open: close it, or note the entry (Entry log)."}
    if t is Battery and message.low:
        what = WHAT.get(message.device, message.device)
        return {"kind": "device", "device": message.device, "condition": f"battery_low_{message.device}",
                "message": f"The battery of the {what}'s memory is low: call a technician to replace it."}
    if t is sp.ShoeJammed:
        return {"kind": "device", "device": "shoe", "condition": "shoe_jammed",
                "message": "The shoe is jammed: open it, free the card and close it. Dealing waits; "
                           "do not deal by hand."}
    if t is sp.ShoeEmpty:
        return {"kind": "device", "device": "shoe", "condition": "shoe_empty",
                "message": "The shoe is empty: load the counted cards."}
    if t is sp.CardOutOfStep:   # the driver refused a card whose count or stack place does not follow (issue 15)
        return card_alarm(message)
    if t is ms.ShoeEmpty:
        return {"kind": "device", "device": "shoe", "condition": "shoe_empty",
                "message": "The shoe is empty: reshuffle the cards and load the shoe (5324.22(h)(4))."}
    if t is ms.DrawOutOfStep:
        what = (f"repeated card {message.reported}; it is not dealt twice" if message.replayed else
                f"{message.missed} card(s) drawn before card {message.reported} were not reported")
        return {"kind": "device", "device": "shoe", "condition": "draw_out_of_step",
                "message": f"The shoe {what}: call a supervisor."}
    if t is fp.ShufflerFault:
        return {"kind": "device", "device": "shuffler", "condition": "shuffler_fault",
                "message": "The shuffler has stopped with a fault: open it, clear it and close it; "
                           "the deck is counted again after."}
    return None


def cleared_by(message: Any) -> frozenset[str]:
    """The conditions a device message ends: a jam freed, a shuffler fault cleared, a shoe loaded."""
    t = type(message)
    if t is Door and not message.open:
        return frozenset({f"door_open_{message.device}"})
    if t is Battery and not message.low:
        return frozenset({f"battery_low_{message.device}"})
    if t is sp.JamCleared:
        return frozenset({"shoe_jammed"})
    if t is sp.ShoeLoaded:
        return frozenset({"shoe_empty", "shoe_jammed", *CARD_CONDITIONS})
    if t is ms.ShoeLoaded:
        return frozenset({"shoe_empty", "card_unread", "draw_out_of_step"})
    if t is fp.FaultCleared:
        return frozenset({"shuffler_fault"})
    if t is pp.WagerSensor and not message.present:
        return frozenset({f"stray_chip_{message.seat}"})
    if t in (fp.ShuffleComplete, fp.DeckCount):
        return frozenset({"shuffler_fault"})   # it works again
    return frozenset()
