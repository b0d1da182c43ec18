"""`tablectl sim shoe|manual-shoe|shuffler|progressive`: one emulator alone, and a console to make it misbehave.

It prints where to connect (a serial port path for the shoe and the
shuffler, a socket for the progressive controller's pyusb backend), then
reads commands on standard input ("help" lists them) until "quit", Ctrl-D
or Ctrl-C. Under a service (input at its end) it runs until SIGTERM.

Its link is sealed under a pairing key (drivers/pairing.py): the factory's unless
`--key-file FILE` names a key file (hex), or `--paired DATA_DIR` takes the key the
table of that data directory paired for the device (`tablectl device pair`);
`pair FILE` at the console gives it a new one, as a vendor's pairing mode does.

Environment: TABLECTL_SIM_DIR puts the port link or socket in a directory of
your choice (default: a new temporary one); TABLECTL_SIM_SEED seeds the
shoe's deck and the shuffles (default 0, so a demo deals the same cards).
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import tempfile
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.cards import CARDS, CardError, parse_card
from drivers.progressive import protocol as pp
from drivers.shoe import protocol as sp
from drivers.shuffler import protocol as fp

if TYPE_CHECKING:   # the emulators are imported when run: the progressive one needs pyusb, the others do not
    from drivers.sim.manual_shoe import ManualShoeEmulator
    from drivers.sim.progressive import ProgressiveEmulator
    from drivers.sim.serial_device import SerialEmulator
    from drivers.sim.shoe import ShoeEmulator
    from drivers.sim.shuffler import ShufflerEmulator

Command = Callable[[list[str]], str | None]


def _then(effect: Callable[[list[str]], object], reply: str) -> Command:
    """A command that does one thing to the device and says what it did."""
    def run(args: list[str]) -> str:
        effect(args)
        return reply
    return run


def _fault_commands(emu: SerialEmulator) -> dict[str, tuple[Command, str]]:
    def knob(action: str) -> Command:
        def run(args: list[str]) -> str:
            direction = "incoming" if "in" in args else "outgoing"
            numbers = [a for a in args if a not in ("in", "out")]
            faults = emu.incoming if direction == "incoming" else emu.outgoing
            if action == "delay":
                seconds = float(numbers[0]) if numbers else 0.5
                n = int(numbers[1]) if len(numbers) > 1 else 1
                faults.delay(seconds, n)
                return f"the next {n} {direction} frame(s) are delayed {seconds} s"
            n = int(numbers[0]) if numbers else 1
            (faults.drop if action == "drop" else faults.garble)(n)
            return f"the next {n} {direction} frame(s) are {action}ped" if action == "drop" else \
                f"the next {n} {direction} frame(s) are garbled"
        return run
    return {
        "drop": (knob("drop"), "drop [N] [in|out]       lose the next N frames (default: sent by the device)"),
        "garble": (knob("garble"), "garble [N] [in|out]     corrupt the next N frames"),
        "delay": (knob("delay"), "delay [S] [N] [in|out]  hold the next N frames S seconds"),
        "unplug": (_then(lambda a: emu.unplug(), "unplugged"), "unplug                  pull the cable"),
        "replug": (_then(lambda a: emu.replug(), "plugged in"), "replug                  plug it back"),
        "replay": (_then(lambda a: emu.outgoing.replay(1, back=int(a[0]) if a else 1),
                         "the next event is preceded by an earlier one sent again as new"),
                   "replay [BACK]           send an event sent BACK events ago again, as a new event"),
        "reorder": (_then(lambda a: emu.outgoing.reorder(1), "the next event goes after the one behind it"),
                    "reorder                 send the next event after the one behind it"),
        "restart": (_then(lambda a: emu.restart(), "power-cycled: a new boot number"),
                    "restart                 power-cycle (a new boot number, events kept)"),
    }


def add_key_arguments(parser: argparse.ArgumentParser) -> None:
    keyed = parser.add_mutually_exclusive_group()
    keyed.add_argument("--key-file", help="the pairing key the emulator holds (hex, one line; default: the factory's)")
    keyed.add_argument("--paired", metavar="DATA_DIR",
                       help="hold the key the table of this data directory paired for the device (tablectl device pair)")


def read_key_file(path: str) -> bytes:
    """A pairing key file as `tablectl device pair` writes it (hex, one line); ValueError otherwise."""
    from drivers.pairing import KEY_SIZE
    with open(path, encoding="ascii") as f:
        text = f.read().strip()
    key = bytes.fromhex(text)
    if len(key) != KEY_SIZE:
        raise ValueError(f"{path}: a pairing key is {KEY_SIZE} bytes, not {len(key)}")
    return key


def _key(args: argparse.Namespace, device: str) -> bytes | None:
    """The key `--key-file` names (`--paired` is made that by the table's side, controller/pairing.py sim_main)."""
    if getattr(args, "key_file", None):
        return read_key_file(args.key_file)
    return None


def _condition_commands(emu: ShoeEmulator | ProgressiveEmulator) -> dict[str, tuple[Command, str]]:
    def door(args: list[str]) -> str:
        opened = (args[0] if args else "open") == "open"
        emu.set_condition(door_open=opened)
        return f"door {'open' if opened else 'closed'}"

    def battery(args: list[str]) -> str:
        low = (args[0] if args else "low") == "low"
        emu.set_condition(battery_low=low)
        return f"battery {'low' if low else 'replaced'}"

    def pair(args: list[str]) -> str:
        try:
            emu.pair(read_key_file(args[0]))
        except OSError as exc:
            raise ValueError(f"{args[0]}: {exc.strerror or exc}") from None
        return "paired: holds the new key (the host's next session uses it)"

    return {
        "door": (door, "door open|close          open or close the device's door (its STATUS says so)"),
        "battery": (battery, "battery low|ok          the battery of its memory low, or replaced"),
        "pair": (pair, "pair FILE               take a new pairing key from FILE (tablectl device pair)"),
    }


def _shoe_commands(emu: ShoeEmulator) -> dict[str, tuple[Command, str]]:
    def jam(args: list[str]) -> str:
        code = sp.JamCode(int(args[0])) if args else sp.JamCode.CARD_FEED
        emu.jam(code)
        return f"jammed ({code.name.lower()}), or will on the next card"

    def load(args: list[str]) -> str:
        emu.load(None if not args else [parse_card(a) for a in args])
        return f"loaded {len(emu.remaining)} cards"

    return {
        "jam": (jam, "jam [CODE]              jam (1 card feed, 2 exit sensor, 3 door open, 4 other)"),
        "clear": (_then(lambda a: emu.clear_jam(), "jam cleared"), "clear                   clear the jam"),
        "load": (load, "load [CARD...]          load these cards (or a shuffled deck)"),
        "status": (lambda a: f"{emu.dispensed} dealt, {len(emu.remaining)} left, jammed: {emu.jammed}",
                   "status                  what the shoe holds"),
    } | _condition_commands(emu)


def _manual_shoe_commands(emu: ManualShoeEmulator) -> dict[str, tuple[Command, str]]:
    def draw(args: list[str]) -> str:
        n = int(args[0]) if args else 1
        cards = [emu.draw() for _ in range(n)]
        return "drew " + " ".join("(empty)" if c is None else str(c) for c in cards)

    def load(args: list[str]) -> str:
        emu.load(None if not args else [parse_card(a) for a in args])
        return f"loaded {len(emu.remaining)} cards"

    return {
        "draw": (draw, "draw [N]                the dealer draws the next N cards by hand (default 1)"),
        "unread": (_then(lambda a: emu.unreadable(int(a[0]) if a else 1), "the next card(s) will not be read"),
                   "unread [N]              the reader misses the next N cards' faces"),
        "load": (load, "load [CARD...]          load these cards (or a shuffled deck)"),
        "status": (lambda a: f"{emu.drawn} drawn, {len(emu.remaining)} left",
                   "status                  what the shoe holds"),
    }


def _shuffler_commands(emu: ShufflerEmulator) -> dict[str, tuple[Command, str]]:
    def insert(args: list[str]) -> str:
        missing = {parse_card(a[1:]) for a in args if a.startswith("-")}
        foreign = [parse_card(a[1:]) for a in args if a.startswith("+")]
        emu.insert_deck([c for c in CARDS if c not in missing], foreign=foreign)
        return f"deck inserted ({52 - len(missing) + len(foreign)} cards)"

    return {
        "insert": (insert, "insert [-CARD] [+CARD]  insert a deck, less -CARD, plus +CARD from another deck"),
        "remove": (_then(lambda a: emu.remove_deck(), "deck removed"), "remove                  take the deck out"),
        "fault": (_then(lambda a: emu.fault(fp.FaultCode(int(a[0])) if a else fp.FaultCode.JAM), "fault"),
                  "fault [CODE]            a fault (1 jam, 2 door open, 3 reader)"),
        "clear": (_then(lambda a: emu.clear_fault(), "fault cleared"), "clear                   clear the fault"),
    }


def _progressive_commands(emu: ProgressiveEmulator) -> dict[str, tuple[Command, str]]:
    def button(args: list[str]) -> str:
        b = pp.PanelButton[args[0].upper().replace("-", "_")]
        emu.tap_button(b)
        return f"{b.name.lower()} pressed and released"

    def show(args: list[str]) -> str:
        lights = " ".join(f"{s}:{light.name.lower()}" for s, light in enumerate(emu.lights, start=1))
        meter = "unset" if emu.meter is None else f"{emu.meter.cents / 100:,.2f} ({emu.meter.mode.name.lower()})"
        return f"now: lights {lights}; lock-out indicator {'on' if emu.lockout_indicator else 'off'}; meter {meter}"

    def lockout(args: list[str]) -> str:
        emu.press_lockout()
        emu.release_lockout()
        return "lock-out pressed and released"

    def wager(args: list[str]) -> str:
        emu.place_wager(int(args[0]))
        return f"wager on seat {args[0]}"

    def remove(args: list[str]) -> str:
        emu.remove_wager(int(args[0]))
        return f"wager removed from seat {args[0]}"

    return {
        "press": (_then(lambda a: emu.press_lockout(), "lock-out button down"), "press                   lock-out button down"),
        "release": (_then(lambda a: emu.release_lockout(), "lock-out button up"),
                    "release                 lock-out button up"),
        "lockout": (lockout, "lockout                 press and release the lock-out button"),
        "wager": (wager, "wager SEAT              a progressive wager placed (1..7)"),
        "remove": (remove, "remove SEAT             a progressive wager taken away"),
        "button": (button, "button NAME             " + ", ".join(b.name.lower() for b in pp.PanelButton)),
        "show": (show, "show                    lights, indicator and meter as the host set them"),
    } | _condition_commands(emu)


def _console(commands: dict[str, tuple[Command, str]], stop: threading.Event) -> None:
    """Read commands until "quit"; end of input quits only at a terminal (Ctrl-D), not under a service."""
    for line in sys.stdin:
        words = shlex.split(line)
        if not words:
            continue
        name, args = words[0].lower(), words[1:]
        if name in ("quit", "exit"):
            stop.set()
            return
        if name == "help":
            print("\n".join(["commands:"] + [f"  {h}" for _, h in commands.values()] + ["  quit"]), flush=True)
            continue
        if name not in commands:
            print(f"unknown command {name!r}; try help", flush=True)
            continue
        try:
            result = commands[name][0](args)
        except (ValueError, KeyError, IndexError, CardError) as exc:
            print(f"{name}: {exc}", flush=True)
            continue
        if result:
            print(result, flush=True)
    if sys.stdin.isatty():
        stop.set()


def main(args: argparse.Namespace) -> int:
    device = args.device
    if getattr(args, "table", None):   # the console of a running table's own emulator (drivers/sim/attach.py)
        from drivers.sim.attach import attach
        return attach(device, args.table)
    directory = (getattr(args, "dir", None) or os.environ.get("TABLECTL_SIM_DIR")
                 or tempfile.mkdtemp(prefix="tablectl-sim-"))
    os.makedirs(directory, exist_ok=True)
    try:
        key = _key(args, device)
    except (OSError, ValueError) as exc:
        print(f"tablectl sim {device}: {exc}", file=sys.stderr)
        return 2
    keyed: dict[str, Any] = {} if key is None else {"key": key}
    seed = getattr(args, "seed", None)
    if seed is None:
        seed = int(os.environ.get("TABLECTL_SIM_SEED", "0"))
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())

    if device == "progressive":
        from drivers.sim.progressive import ProgressiveEmulator
        from drivers.sim.usb_socket import SocketServer

        def shown(message: pp.OutputMessage) -> None:
            if isinstance(message, pp.SetLights):
                lights = " ".join(f"{s}:{light.name.lower()}" for s, light in enumerate(message.lights, start=1))
                print(f"host set lights {lights}, lock-out indicator {'on' if message.lockout else 'off'}",
                      flush=True)
            elif isinstance(message, pp.SetMeter):
                print(f"host set meter {message.cents / 100:,.2f} ({message.mode.name.lower()})", flush=True)

        controller = ProgressiveEmulator(seed=seed, on_output=shown, **keyed)
        path = os.path.join(directory, "progressive.sock")
        server = SocketServer(controller, path).start()
        print(f"progressive controller emulator {controller.serial_number} "
              f"(USB {controller.vendor:04x}:{controller.product:04x}) ready", flush=True)
        print(f"connect to: {path}", flush=True)
        print(f"  ProgressiveDevice(queue, serial={controller.serial_number!r}, "
              f"backend=drivers.sim.usb_socket.SocketBackend({path!r}))", flush=True)
        commands = _progressive_commands(controller) | {
            "unplug": (_then(lambda a: controller.unplug(), "unplugged"), "unplug                  pull the cable"),
            "replug": (_then(lambda a: controller.replug(), "plugged in"), "replug                  plug it back"),
            "drop": (_then(lambda a: controller.outgoing.drop(int(a[0]) if a else 1), "next input report(s) dropped"),
                     "drop [N]                lose the next N input reports"),
            "garble": (_then(lambda a: controller.outgoing.garble(int(a[0]) if a else 1),
                             "next input report(s) garbled"),
                       "garble [N]              corrupt the next N input reports"),
        }
        closer = server.stop
    else:
        emu: SerialEmulator
        if device == "shoe":
            from drivers.sim.shoe import ShoeEmulator
            shoe = ShoeEmulator(seed=seed, card_interval=0.05, directory=directory, **keyed)
            emu, commands, what = shoe, _shoe_commands(shoe), "dealing shoe"
        elif device == "manual-shoe":
            from drivers.sim.manual_shoe import ManualShoeEmulator
            manual = ManualShoeEmulator(seed=seed, directory=directory, **keyed)
            emu, commands, what = manual, _manual_shoe_commands(manual), "manual dealing shoe"
        else:
            from drivers.sim.shuffler import ShufflerEmulator
            shuffler = ShufflerEmulator(seed=seed, shuffle_time=2.0, count_time=0.5, directory=directory, **keyed)
            emu, commands, what = shuffler, _shuffler_commands(shuffler), "shuffler"
        commands = commands | _fault_commands(emu)
        emu.start()
        print(f"{what} emulator {emu.serial_number} ready", flush=True)
        print(f"connect to: {emu.port}", flush=True)
        print(f"  (a pseudo-terminal, now {emu.tty_name}; the path stays the same across unplug/replug)", flush=True)
        closer = emu.stop

    try:
        if sys.stdin is not None and not sys.stdin.closed:
            print("type help for commands", flush=True)
            console = threading.Thread(target=_console, args=(commands, stop), name="sim-console", daemon=True)
            console.start()
        while not stop.wait(0.2):
            pass
    finally:
        closer()
    return 0
