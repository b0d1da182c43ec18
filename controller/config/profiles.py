"""What every table profile has, strict and frozen: the sections and field types the games build on.

Each game's package holds its own profile model (controller/games/<game>/profile.py),
a `GameProfile` with the game's rules and checks; controller/config/load.py joins
the models of every registered game into one union by `game`. Each field states
its type, its default and, where 9 NYCRR sets one, its floor; a check across
fields refuses with every issue at once, for controller/config/toml_lines.py to
place on its line.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from controller.config.floors import NYCRR, Issue, refuse
from controller.floor.config import FloorConfig
from controller.journal.replica import JournalConfig
from drivers.registry import BUILTIN as BUILTIN_DRIVER
from drivers.registry import names as driver_names

if TYPE_CHECKING:
    from controller.games.game import GameDevices

# --------------------------------------------------------------------------
# Field types
# --------------------------------------------------------------------------

def list_to_tuple(value: Any) -> Any:
    # TOML arrays arrive as lists; frozen models hold tuples, and strict mode
    # would refuse the list, so convert without loosening the items' types.
    return tuple(value) if isinstance(value, list) else value


def _resolve_path(value: Any, info: ValidationInfo) -> Any:
    """A relative path in a profile is relative to the profile's directory, not the cwd."""
    if not isinstance(value, str) or not value:
        raise PydanticCustomError("path_type", "must be a path (a non-empty string)")
    path = Path(value)
    base = (info.context or {}).get("base")
    if not path.is_absolute() and base is not None:
        path = Path(base) / path
    return path


# pyserial's URL handlers (serial.serial_for_url); anything else is a device path.
_SERIAL_SCHEMES = ("loop", "rfc2217", "socket", "hwgrep", "spy", "alt", "cp2110")


def _serial_port(value: Any) -> str:
    if not isinstance(value, str):
        raise PydanticCustomError("port_type", "must be a string")
    scheme = re.match(r"([a-z0-9]+)://", value)
    if scheme:
        if scheme.group(1) not in _SERIAL_SCHEMES:
            raise PydanticCustomError(
                "port", "is not a pyserial URL ({schemes})",
                {"schemes": ", ".join(s + "://" for s in _SERIAL_SCHEMES)})
        return value
    if not value.startswith("/"):
        raise PydanticCustomError(
            "port", "must be an absolute device path (/dev/serial/by-id/...) or a pyserial URL "
            "(socket://host:port, rfc2217://host:port, loop://)")
    return value


def _ip_address(value: Any) -> str:
    if not isinstance(value, str):
        raise PydanticCustomError("ip_type", "must be a string")
    try:
        ipaddress.ip_address(value)
    except ValueError:
        raise PydanticCustomError("ip", "is not an IP address") from None
    return value


Cents = Annotated[int, Field(ge=1)]          # a stake or an amount: integer cents > 0
Amount = Annotated[int, Field(ge=0)]         # integer cents, may be 0
ProfilePath = Annotated[Path, BeforeValidator(_resolve_path)]
SerialPort = Annotated[str, AfterValidator(_serial_port)]


class Strict(BaseModel):
    """A profile's section: frozen, no unknown key, no coercion (a float is not cents)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, populate_by_name=True)


# --------------------------------------------------------------------------
# Sections every profile has
# --------------------------------------------------------------------------

def _known_zone(name: str) -> bool:
    """Whether the system's zone database has `name` (what the reports' gaming day is computed in)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


class Table(Strict):
    """Who the table is and what it takes; `seats` defaults to the game's limit."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")]
    name: Annotated[str, Field(min_length=1)]
    data_dir: ProfilePath | None = None
    minimum_wager: Cents
    maximum_wager: Cents
    seats: Annotated[int, Field(ge=1)] | None = None
    # the gaming day of the reports (`tablectl report`): when it starts, on which clock
    gaming_day_start: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")] = "06:00"
    timezone: Annotated[str, Field(min_length=1)] = "UTC"   # an IANA zone; the packaged profiles: America/New_York
    # the chip denominations the dealer's console offers (issue 18); absent: from the minimum wager
    chips: Annotated[tuple[Cents, ...], BeforeValidator(list_to_tuple)] | None = None

    @model_validator(mode="after")
    def _limits(self) -> Table:
        if self.maximum_wager < self.minimum_wager:
            refuse((("maximum_wager",), self.maximum_wager,
                     f"is below the minimum wager {self.minimum_wager}"))
        if self.chips is not None and (not self.chips or len(set(self.chips)) != len(self.chips)):
            refuse((("chips",), list(self.chips), "lists each denomination once, at least one"))
        if not _known_zone(self.timezone):
            refuse((("timezone",), self.timezone,
                     "is no time zone this box knows (an IANA name, e.g. America/New_York)"))
        return self


DriverName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]


class UsbDevice(Strict):
    """A USB device by vendor/product id and, to tell two alike apart, serial number."""

    vendor: Annotated[int, Field(ge=0, le=0xFFFF)]
    product: Annotated[int, Field(ge=0, le=0xFFFF)]
    serial: Annotated[str, Field(min_length=1)] | None = None
    driver: DriverName = BUILTIN_DRIVER   # drivers/registry.py; checked by the profile, which knows the kind


class SerialDevice(Strict):
    """A serial device with its driver named: `shoe = { port = "...", driver = "acme-ds6" }`."""

    port: SerialPort
    driver: DriverName = BUILTIN_DRIVER


def _serial_form(value: Any) -> str:
    return "serial-device-table" if isinstance(value, (dict, SerialDevice)) else "serial-device-port"


# A serial device is its port (the built-in driver) or a table naming its port and driver.
SerialSetting = Annotated[Union[Annotated[SerialPort, Tag("serial-device-port")],
                                Annotated[SerialDevice, Tag("serial-device-table")]],
                          Discriminator(_serial_form)]
SERIAL_FORMS = ("serial-device-port", "serial-device-table")   # tags in pydantic's locations, no key's names


DEVICE_NAMES = ("shoe", "shuffler", "progressive")
SERIAL_DEVICES = ("shoe", "shuffler")
SeatLimit = tuple[int, str, str]   # the most seats a game allows, the provision, and what they are


class Devices(Strict):
    """Real devices; an absent one is replaced by its emulator from drivers/sim."""

    shoe: SerialSetting | None = None
    shuffler: SerialSetting | None = None
    progressive: UsbDevice | None = None

    def port_of(self, name: str) -> str | None:
        """The port of the serial device `name` ("shoe", "shuffler"), None when it is emulated."""
        setting = getattr(self, name)
        return setting.port if isinstance(setting, SerialDevice) else setting

    def driver_of(self, name: str) -> str:
        """The driver the profile names for device `name`; the built-in one when it names none."""
        setting = getattr(self, name)
        return getattr(setting, "driver", BUILTIN_DRIVER)


class Screen(Strict):
    """The dealer's and supervisor's web screen; loopback unless a kiosk elsewhere needs it.

    `kiosk_port`: the box's own kiosk's door, on loopback, with its own connections and streams
    (controller/ui/doors.py), so whoever crowds `port` does not crowd the dealer's console;
    `kiosk_user`: only that user's sockets are served on it (systemd/tablectl-kiosk.service's User=).
    """

    bind: Annotated[str, AfterValidator(_ip_address)] = "127.0.0.1"
    port: Annotated[int, Field(ge=1, le=65535)] = 8080
    secrets: ProfilePath | None = None  # supervisors' PINs; without it no supervisor can sign in
    kiosk_port: Annotated[int, Field(ge=1, le=65535)] | None = None   # absent: no door of the kiosk's own
    kiosk_user: Annotated[str, Field(pattern=r"^[a-z_][a-z0-9_.-]{0,31}$")] | None = None
    # the fewest digits of a supervisor's PIN (`tablectl supervisor add`): 6 at least, the casino's to raise
    pin_digits: Annotated[int, Field(ge=6, le=12)] = 6

    @model_validator(mode="after")
    def _kiosk(self) -> Screen:
        if self.kiosk_port is not None and self.kiosk_port == self.port:
            refuse((("kiosk_port",), self.kiosk_port, "is the screen's port; the kiosk's door is a port of its own"))
        if self.kiosk_user is not None and self.kiosk_port is None:
            refuse((("kiosk_user",), self.kiosk_user, "names the kiosk's user, but there is no kiosk_port"))
        return self


class Dealers(Strict):
    """Who may deal (issue 30): the dealers' roster (a file of badges, names and PINs' hashes written by
    `tablectl dealer add`, in the supervisors' file's format) and whether a dealer signs in with a PIN.
    Without a roster any badge signs in, by its number alone."""

    roster: ProfilePath | None = None
    pin: Literal["off", "required"] = "off"

    @model_validator(mode="after")
    def _roster(self) -> Dealers:
        if self.pin == "required" and self.roster is None:
            refuse((("pin",), self.pin, "needs a roster of the dealers' PINs: add roster = \"...\""))
        return self


class Logging(Strict):
    level: Literal["debug", "info", "warning", "error"] = "info"
    format: Literal["auto", "json", "console"] = "auto"  # auto: console on a terminal, else JSON
    wire_trace: Annotated[tuple[Literal["shoe", "shuffler", "progressive"], ...],
                          BeforeValidator(list_to_tuple)] = ()


class GameProfile(Strict):
    """What every profile has; each game's model (controller/games/<game>/profile.py) adds its rules.

    Fields are validated in the order declared, `game` first (each subclass
    narrows it to its games), so a later field's validator can read the game
    and the table from `info.data`. Each check that spans fields is a
    validator of one field rather than of the whole model, because pydantic
    runs a model's own validator only when every field is valid, and a
    technician should see every refusal in one run, not one per run. (A
    check that needs another section, such as the payout limit floor that
    needs the table's minimum wager, waits until that section is valid.)

    What these checks need of a game, its model says (`seat_limit`, `seat_issues`,
    `unused_devices`) or its game object does (its devices' driver kinds): no check
    here knows a game.
    """

    # A device the game's table never uses -> why a profile naming it is refused, with the provision.
    unused_devices: ClassVar[Mapping[str, str]] = {}

    game: str
    table: Table
    devices: Devices = Devices()
    screen: Screen = Screen()
    dealers: Dealers = Dealers()   # issue 30: the roster, and a PIN at the sign-in
    logging: Logging = Logging()
    floor: FloorConfig | None = None   # issue 20: send the closed rounds to the floor's database
    journal: JournalConfig = JournalConfig()   # issue 28: `replica`, the journal's second copy

    @classmethod
    def seat_limit(cls, game: str) -> SeatLimit:
        """The most seats the game allows: (seats, provision, what they are)."""
        raise NotImplementedError(f"{cls.__name__} gives no seat limit")

    @classmethod
    def seat_issues(cls, game: str, seats: int) -> list[Issue]:
        """What is wrong with a table of `seats` seats; a game with a least number adds its own."""
        limit, provision, what = cls.seat_limit(game)
        if seats > limit:
            return [(("seats",), seats, f"is more than the {limit} {what} of {NYCRR}{provision}")]
        return []

    @property
    def seats(self) -> int:
        """Seats in play: the profile's, or the most the game allows."""
        return self.table.seats or self.seat_limit(self.game)[0]

    @field_validator("table")
    @classmethod
    def _seats(cls, table: Table, info: ValidationInfo) -> Table:
        game = info.data.get("game")
        if game is None or table.seats is None:
            return table
        issues = cls.seat_issues(game, table.seats)
        if issues:
            refuse(*issues)
        return table

    @field_validator("devices")
    @classmethod
    def _devices(cls, devices: Devices, info: ValidationInfo) -> Devices:
        game = info.data.get("game")
        if game is None:
            return devices
        issues: list[Issue] = []
        named = [name for name in DEVICE_NAMES if getattr(devices, name) is not None]
        for name in named:
            if name in cls.unused_devices:
                shown = devices.port_of(name) if name in SERIAL_DEVICES else "{...}"
                issues.append(((name,), shown, f"is not used: {cls.unused_devices[name]}"))
        # the driver's kind is the game's: a dispensing shoe or a manual one (controller/games/game.py GameDevices)
        kinds = _game_devices(game)
        for name in named:
            driver = devices.driver_of(name)
            if driver == BUILTIN_DRIVER:
                continue
            kind = kinds.driver_kind(name)
            if driver not in driver_names(kind):
                issues.append(((name, "driver"), driver, f"is not an installed {kind.replace('_', ' ')} driver "
                               f"(installed: {', '.join(driver_names(kind))}; drivers/registry.py)"))
        if issues:
            refuse(*issues)
        return devices


def _game_devices(game: str) -> GameDevices:
    # the registry loads the games, whose profile models build on this module: asked when a profile
    # names a device, never at import (a function-level import to break that cycle)
    from controller.games import registry
    return registry.game(game).devices
