"""The table profile models: one pydantic model per kind of game, strict and frozen.

Each field states its type, its default and, where 9 NYCRR sets one, its floor
(controller/config/floors.py applies the numbers of each game's floors.py);
a check across fields refuses with every issue at once, for controller/config/
toml_lines.py to place on its line. Loading a file is controller/config/load.py.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from controller.config.floors import (
    CONTRIBUTION,
    NYCRR,
    RAKE_RATE,
    SEAT_LIMITS,
    STRAIGHT_FLUSH_PERCENT_MAX,
    STRAIGHT_FLUSH_PERCENT_MIN,
    WAR_DECKS,
    _floor_error,
    _refuse,
    paytable_odds,
    progressive_award,
    war_least_odds,
)
from controller.floor.config import FloorConfig
from controller.games.poker.names import BLIND_GAMES, POKER_GAMES, STUD_GAMES
from controller.games.caribbean_stud.floors import STUD_PAYTABLE_MINIMUM, STUD_PROGRESSIVE_MINIMUM
from controller.games.casino_war.floors import WAR_MIN_ODDS
from controller.link.config import LinkConfig
from drivers.registry import BUILTIN as BUILTIN_DRIVER
from drivers.registry import names as driver_names

# --------------------------------------------------------------------------
# Games and their seats
# --------------------------------------------------------------------------

BANKED_GAMES = ("caribbean-stud", "casino-war")
GAMES = BANKED_GAMES + POKER_GAMES

# The standard PHH variant codes (shared/spec/poker.md) where one exists.
PHH_VARIANTS = {
    ("texas-holdem", "fixed-limit"): "FT",
    ("texas-holdem", "no-limit"): "NT",
    ("omaha", "pot-limit"): "PO",
    ("omaha-hi-lo-8", "fixed-limit"): "FO/8",
    ("seven-card-stud", "fixed-limit"): "F7S",
    ("seven-card-stud-hi-lo-8", "fixed-limit"): "F7S/8",
    ("seven-card-stud-low", "fixed-limit"): "FR",
    ("triple-draw-2-7", "fixed-limit"): "F2L3D",
}

HAND_NAMES = ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush",
              "straight", "three-of-a-kind", "two-pair", "pair", "high-card")


# --------------------------------------------------------------------------
# Field types
# --------------------------------------------------------------------------

def _list_to_tuple(value: Any) -> Any:
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
HandName = Literal["royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush",
                   "straight", "three-of-a-kind", "two-pair", "pair", "high-card"]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, populate_by_name=True)


# --------------------------------------------------------------------------
# Sections every profile has
# --------------------------------------------------------------------------

class Table(_Strict):
    """Who the table is and what it takes; `seats` defaults to the game's limit."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")]
    name: Annotated[str, Field(min_length=1)]
    data_dir: ProfilePath | None = None
    minimum_wager: Cents
    maximum_wager: Cents
    seats: Annotated[int, Field(ge=1)] | None = None
    # the gaming day of the reports (`tablectl report`): when it starts, on which clock
    gaming_day_start: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")] = "06:00"
    timezone: Annotated[str, Field(min_length=1)] = "UTC"
    # the chip denominations the dealer's console offers (issue 18); absent: from the minimum wager
    chips: Annotated[tuple[Cents, ...], BeforeValidator(_list_to_tuple)] | None = None

    @model_validator(mode="after")
    def _limits(self) -> Table:
        if self.maximum_wager < self.minimum_wager:
            _refuse((("maximum_wager",), self.maximum_wager,
                     f"is below the minimum wager {self.minimum_wager}"))
        if self.chips is not None and (not self.chips or len(set(self.chips)) != len(self.chips)):
            _refuse((("chips",), list(self.chips), "lists each denomination once, at least one"))
        return self


DriverName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]


class UsbDevice(_Strict):
    """A USB device by vendor/product id and, to tell two alike apart, serial number."""

    vendor: Annotated[int, Field(ge=0, le=0xFFFF)]
    product: Annotated[int, Field(ge=0, le=0xFFFF)]
    serial: Annotated[str, Field(min_length=1)] | None = None
    driver: DriverName = BUILTIN_DRIVER   # drivers/registry.py; checked by the profile, which knows the kind


class SerialDevice(_Strict):
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


class Devices(_Strict):
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


class Screen(_Strict):
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

    @model_validator(mode="after")
    def _kiosk(self) -> Screen:
        if self.kiosk_port is not None and self.kiosk_port == self.port:
            _refuse((("kiosk_port",), self.kiosk_port, "is the screen's port; the kiosk's door is a port of its own"))
        if self.kiosk_user is not None and self.kiosk_port is None:
            _refuse((("kiosk_user",), self.kiosk_user, "names the kiosk's user, but there is no kiosk_port"))
        return self


class Logging(_Strict):
    level: Literal["debug", "info", "warning", "error"] = "info"
    format: Literal["auto", "json", "console"] = "auto"  # auto: console on a terminal, else JSON
    wire_trace: Annotated[tuple[Literal["shoe", "shuffler", "progressive"], ...],
                          BeforeValidator(_list_to_tuple)] = ()


class GameProfile(_Strict):
    """What every profile has.

    Fields are validated in the order declared, `game` first (each subclass
    narrows it to its games), so a later field's validator can read the game
    and the table from `info.data`. Each check that spans fields is a
    validator of one field rather than of the whole model, because pydantic
    runs a model's own validator only when every field is valid, and a
    technician should see every refusal in one run, not one per run. (A
    check that needs another section, such as the payout limit floor that
    needs the table's minimum wager, waits until that section is valid.)
    """

    game: str
    table: Table
    devices: Devices = Devices()
    screen: Screen = Screen()
    logging: Logging = Logging()
    floor: FloorConfig | None = None   # issue 20: send the closed rounds to the floor's database

    @property
    def seats(self) -> int:
        """Seats in play: the profile's, or the most the game allows."""
        return self.table.seats or SEAT_LIMITS[self.game][0]

    @field_validator("table")
    @classmethod
    def _seats(cls, table: Table, info: ValidationInfo) -> Table:
        game = info.data.get("game")
        if game is None or table.seats is None:
            return table
        limit, provision, what = SEAT_LIMITS[game]
        if table.seats > limit:
            _refuse((("seats",), table.seats, f"is more than the {limit} {what} of {NYCRR}{provision}"))
        if game in POKER_GAMES and table.seats < 2:
            _refuse((("seats",), table.seats, f"is fewer than the two players of {NYCRR}5324.42(f)(2)"))
        return table

    @field_validator("devices")
    @classmethod
    def _devices(cls, devices: Devices, info: ValidationInfo) -> Devices:
        game = info.data.get("game")
        issues: list[tuple[tuple[str | int, ...], Any, str]] = []
        if devices.shoe is not None and game in POKER_GAMES:
            issues.append((("shoe",), devices.port_of("shoe"),
                           f"is not used: poker is dealt from the dealer's hand, {NYCRR}5324.42(f)(6)(i)"))
        if devices.progressive is not None and game != "caribbean-stud":
            issues.append((("progressive",), "{...}", "is not used: a progressive controller belongs "
                           f"to Caribbean stud, {NYCRR}5324.37(a)(3)"))
        # the shoe's kind is the game's: an automated shoe for Caribbean stud, a manual one for casino war
        kinds = {"shoe": "shoe" if game == "caribbean-stud" else "manual_shoe", "shuffler": "shuffler",
                 "progressive": "progressive"}
        for name, kind in kinds.items():
            driver = devices.driver_of(name)
            if getattr(devices, name) is not None and driver != BUILTIN_DRIVER and driver not in driver_names(kind):
                issues.append(((name, "driver"), driver, f"is not an installed {kind.replace('_', ' ')} driver "
                               f"(installed: {', '.join(driver_names(kind))}; drivers/registry.py)"))
        if issues:
            _refuse(*issues)
        return devices


# --------------------------------------------------------------------------
# Caribbean stud poker (5324.37)
# --------------------------------------------------------------------------

class Paytable(_Strict):
    """Bet wager odds N:1 by the player's hand, each at least that of 5324.37(g)(2)."""

    pair_or_less: Annotated[int, paytable_odds("pair-or-less")] = Field(STUD_PAYTABLE_MINIMUM["pair-or-less"], alias="pair-or-less")
    two_pair: Annotated[int, paytable_odds("two-pair")] = Field(STUD_PAYTABLE_MINIMUM["two-pair"], alias="two-pair")
    three_of_a_kind: Annotated[int, paytable_odds("three-of-a-kind")] = Field(STUD_PAYTABLE_MINIMUM["three-of-a-kind"], alias="three-of-a-kind")
    straight: Annotated[int, paytable_odds("straight")] = Field(STUD_PAYTABLE_MINIMUM["straight"], alias="straight")
    flush: Annotated[int, paytable_odds("flush")] = Field(STUD_PAYTABLE_MINIMUM["flush"], alias="flush")
    full_house: Annotated[int, paytable_odds("full-house")] = Field(STUD_PAYTABLE_MINIMUM["full-house"], alias="full-house")
    four_of_a_kind: Annotated[int, paytable_odds("four-of-a-kind")] = Field(STUD_PAYTABLE_MINIMUM["four-of-a-kind"], alias="four-of-a-kind")
    straight_flush: Annotated[int, paytable_odds("straight-flush")] = Field(STUD_PAYTABLE_MINIMUM["straight-flush"], alias="straight-flush")
    royal_flush: Annotated[int, paytable_odds("royal-flush")] = Field(STUD_PAYTABLE_MINIMUM["royal-flush"], alias="royal-flush")


class StraightFlushAward(_Strict):
    """Either a percent of the meter or a fixed amount, as the internal controls designate (g)(4)."""

    percent_of_meter: Annotated[int, STRAIGHT_FLUSH_PERCENT_MIN, STRAIGHT_FLUSH_PERCENT_MAX] | None = None
    fixed: Annotated[int, progressive_award("straight-flush")] | None = None

    @model_validator(mode="after")
    def _one(self) -> StraightFlushAward:
        if (self.percent_of_meter is None) == (self.fixed is None):
            raise PydanticCustomError(
                "award", "needs exactly one of percent_of_meter and fixed (9 NYCRR 5324.37(g)(4))")
        return self

    def record(self) -> dict:
        if self.fixed is not None:
            return {"fixed": self.fixed}
        return {"percent_of_meter": self.percent_of_meter}


class Progressive(_Strict):
    """The progressive payout wager of 5324.37(a)(3), (f) and (g)(4)-(6)."""

    wager: Cents = 100
    initial: Amount | None = None  # the meter of a new system; default: reset (5324.37(g)(5))
    reset: Amount = 1000000
    contribution_bp: Annotated[int, CONTRIBUTION,
                               Field(le=10000)] = 7000
    flush: Annotated[int, progressive_award("flush")] = Field(STUD_PROGRESSIVE_MINIMUM["flush"], alias="flush")
    full_house: Annotated[int, progressive_award("full-house")] = Field(STUD_PROGRESSIVE_MINIMUM["full-house"], alias="full-house")
    four_of_a_kind: Annotated[int, progressive_award("four-of-a-kind")] = Field(STUD_PROGRESSIVE_MINIMUM["four-of-a-kind"], alias="four-of-a-kind")
    straight_flush: StraightFlushAward = Field(StraightFlushAward(percent_of_meter=10),
                                               alias="straight-flush")

    @property
    def initial_meter(self) -> int:
        return self.reset if self.initial is None else self.initial


class CaribbeanStudRules(_Strict):
    """The facility's choices within 5324.37; names and defaults as a record's `rules`.

    `payout_limit_minimum_amount` is "the minimum amount" of 5324.37(g)(3), which
    the regulation leaves to the facility's internal controls; it only raises
    the floor of `bet_payout_limit` (see CaribbeanStudProfile).
    """

    bet_multiple: Annotated[int, Field(ge=1)] = 2
    bet_payout_limit: Cents | None = None  # absent: no limit
    payout_limit_minimum_amount: Amount = 0
    dealing: Literal["manual", "automated"] = "automated"  # 5324.37(d)(1) or (d)(2)-(3)
    paytable: Paytable = Paytable()
    progressive: Progressive = Progressive()  # every table has one (5324.37(a)(3))
    # A progressive award above this many cents needs a second supervisor's signature besides the
    # validating one (the facility's internal controls, 5324.37(f)(2)); absent: one signs.
    second_signer_above: Amount | None = None
    # 5324.37(e)(5)(i), the facility's option when the dealer does not qualify: turn over "all" the
    # players' cards, or only those of the players who made a progressive wager ("progressive").
    no_hand_turn_over: Literal["all", "progressive"] = "all"


def payout_limit_floor(minimum_ante: int, rules: CaribbeanStudRules) -> tuple[int, str]:
    """The least bet payout limit 5324.37(g)(3) allows, and how it was reached.

    Our reading of (g)(3), "no less than either the minimum amount or the
    maximum amount that one player could win per round when betting the
    minimum permissible wager, whichever is greater": the floor is the greater
    of (a) "the minimum amount", which the regulation leaves to the facility
    (`payout_limit_minimum_amount`), and (b) the most one player could win in
    one round wagering the table's minimum ante (`table.minimum_wager`): the
    ante paid 1:1 (g)(1) plus the bet wager (bet_multiple x minimum ante) paid
    at the highest odds of this profile's paytable (the royal flush's, unless
    a facility pays more on a lesser hand). Progressive awards are not
    counted: they are won on the separate progressive wager at the amounts of
    (g)(4), not on the bet wager that the limit applies to.
    """
    from controller.games.caribbean_stud.rules import StudRules, max_round_win

    bet = minimum_ante * rules.bet_multiple
    odds_by_hand = rules.paytable.model_dump(by_alias=True)
    best = max(odds_by_hand, key=lambda h: (odds_by_hand[h], h == "royal-flush"))
    most = max_round_win(minimum_ante, StudRules(bet_multiple=rules.bet_multiple, paytable=odds_by_hand))
    how = (f"the most one player wins in a round at the minimum ante {minimum_ante}: "
           f"ante {minimum_ante} at 1:1 plus bet {bet} at {odds_by_hand[best]}:1 on a {best}")
    if rules.payout_limit_minimum_amount > most:
        return rules.payout_limit_minimum_amount, (
            f"the minimum amount, payout_limit_minimum_amount, which is more than {most}, {how}")
    return most, how


class CaribbeanStudProfile(GameProfile):
    game: Literal["caribbean-stud"]
    caribbean_stud: CaribbeanStudRules = CaribbeanStudRules()
    # A linked progressive (issue 10): the meter is the pool's; absent, the table's own meter.
    link: LinkConfig | None = None

    @field_validator("link", mode="before")
    @classmethod
    def _link(cls, value: Any) -> Any:
        """TOML gives paths as strings; the link's own reader turns them into paths and names what is wrong."""
        from controller.link.config import LinkConfigError, parse_link_config
        if value is None or isinstance(value, LinkConfig):
            return value
        try:
            return parse_link_config(value)
        except LinkConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("caribbean_stud")
    @classmethod
    def _payout_limit(cls, rules: CaribbeanStudRules, info: ValidationInfo) -> CaribbeanStudRules:
        table = info.data.get("table")
        if table is None or rules.bet_payout_limit is None:
            return rules
        floor, how = payout_limit_floor(table.minimum_wager, rules)
        if rules.bet_payout_limit < floor:
            _refuse((("bet_payout_limit",), rules.bet_payout_limit,
                     f"is below the floor {floor} of {NYCRR}5324.37(g)(3) ({how})"))
        return rules

    def record_rules(self, meter: int | None = None) -> dict:
        """The `rules` of a round record (rounds.md) this table settles by.

        `meter` is the progressive meter before the round; a record settled
        without one would start at the spec's default, not at this table's.
        """
        rules = self.caribbean_stud
        prog = rules.progressive
        return {
            "bet_multiple": rules.bet_multiple,
            "bet_payout_limit": rules.bet_payout_limit,
            "paytable": rules.paytable.model_dump(by_alias=True),
            "progressive": {
                "wager": prog.wager,
                "meter": prog.initial_meter if meter is None else meter,
                "reset": prog.reset,
                "contribution_bp": prog.contribution_bp,
                "flush": prog.flush,
                "full-house": prog.full_house,
                "four-of-a-kind": prog.four_of_a_kind,
                "straight-flush": prog.straight_flush.record(),
            },
        }


# --------------------------------------------------------------------------
# Casino war (5324.22)
# --------------------------------------------------------------------------

class CasinoWarRules(_Strict):
    """Names and defaults as a record's `rules`; odds at least those of 5324.22(j)."""

    decks: Annotated[int, WAR_DECKS] = 6
    tie_odds: Annotated[int, war_least_odds("tie_odds")] = WAR_MIN_ODDS["tie_odds"]
    war_odds: Annotated[int, war_least_odds("war_odds")] = WAR_MIN_ODDS["war_odds"]
    war_tie_odds: Annotated[int, war_least_odds("war_tie_odds")] = WAR_MIN_ODDS["war_tie_odds"]


class ManualShoe(_Strict):
    """Casino war's manual dealing shoe (5324.22(d)). With a card reader it reports each card the dealer
    draws; without one (reader = false) the dealer touches each card in on the console as it is drawn."""

    reader: bool = True


class CasinoWarProfile(GameProfile):
    game: Literal["casino-war"]
    casino_war: CasinoWarRules = CasinoWarRules()
    manual_shoe: ManualShoe = ManualShoe()

    def record_rules(self) -> dict:
        return self.casino_war.model_dump()


# --------------------------------------------------------------------------
# Poker (5324.42)
# --------------------------------------------------------------------------

class PercentageRake(_Strict):
    """A straight percentage of all sums bet, 5324.42(o)(2)(i); rate in basis points."""

    method: Literal["percentage"]
    rate_bp: Annotated[int, Field(ge=1), RAKE_RATE]
    cap: Cents | None = None           # the maximum rake of a hand, (o)(1)(iii)
    minimum_pot: Amount = 0            # no rake from a pot smaller than this


class RakeLevel(_Strict):
    pot: Cents      # when the pot reaches this...
    amount: Cents   # ...this much more is raked


class IncrementalRake(_Strict):
    """Predetermined amounts as the pot reaches predetermined levels, 5324.42(o)(2)(ii)."""

    method: Literal["incremental"]
    levels: Annotated[tuple[RakeLevel, ...], BeforeValidator(_list_to_tuple), Field(min_length=1)]

    @model_validator(mode="after")
    def _ascending(self) -> IncrementalRake:
        issues: list[tuple[tuple[str | int, ...], Any, str]] = []
        for i in range(1, len(self.levels)):
            if self.levels[i].pot <= self.levels[i - 1].pot:
                issues.append((("levels", i, "pot"), self.levels[i].pot,
                               f"is not above the level before it ({self.levels[i - 1].pot})"))
        for i, level in enumerate(self.levels):
            if level.amount > level.pot:
                issues.append((("levels", i, "amount"), level.amount, "is more than the pot it is taken from"))
        if issues:
            _refuse(*issues)
        return self


class TimeCharge(_Strict):
    """An hourly fee per player or per table, 5324.42(o)(2)(iii)."""

    method: Literal["time"]
    per: Literal["player", "table"]
    hourly: Cents
    increment_minutes: Annotated[int, Field(ge=1, le=60)] = 30  # assessed fractionally, (iii)(c)


Rake = Annotated[Union[PercentageRake, IncrementalRake, TimeCharge], Field(discriminator="method")]
RAKE_METHODS = ("percentage", "incremental", "time")


class Jackpot(_Strict):
    """A high-hand or bad-beat jackpot funded from pots, 5324.42(r)."""

    kind: Literal["high-hand", "bad-beat"]
    contribution: Cents                               # the most taken from a pot, (r)(2)(ii)
    minimum_pot: Amount = 0                           # (r)(2)(iii)
    minimum_players: Annotated[int, Field(ge=2)] = 2  # dealt in to qualify, (r)(2)(iv)
    qualifying_hand: HandName                         # the least hand that qualifies, (r)(4)
    both_hole_cards: bool = False                     # a board game's hand must use both hole cards
    qualifying_period_hours: Annotated[int, Field(ge=1)] = 24  # (r)(2)(i)


class Kill(_Strict):
    """The kill or half-kill of Omaha high-low split eight or better, 5324.42(j)(9)."""

    kind: Literal["kill", "half-kill"]
    pot_threshold: Cents  # a pot won whole above this puts the kill lammer in front of the winner


class PokerDeck(_Strict):
    """One of the table's two decks, told apart by its backs (5324.42(a)(5)(i))."""

    id: Annotated[str, Field(min_length=1)]
    color: Annotated[str, Field(min_length=1)]
    design: str = ""


def _two_decks() -> tuple[PokerDeck, PokerDeck]:
    return (PokerDeck(id="A", color="red"), PokerDeck(id="B", color="blue"))


class _PokerRules(_Strict):
    structure: Literal["fixed-limit", "pot-limit", "no-limit"]
    ante: Amount = 0
    # fixed-limit: the bet and raise of the early and of the later rounds
    small_bet: Cents | None = Field(None, validate_default=True)
    big_bet: Cents | None = Field(None, validate_default=True)
    min_bet: Cents | None = None     # pot-/no-limit: the least bet (blind games: the big blind)
    raise_cap: Annotated[int, Field(ge=1)] | None = Field(None, validate_default=True)  # raises a round
    uncapped_heads_up: bool = False  # the cap lifts when two players remain
    rake: Rake                       # poker revenue is the rake, 5324.42(o)(1)
    jackpot: Jackpot | None = None
    # A seat's buy-in and top-ups: absent, at least the minimum to play ((c)(3)(iii)), no maximum.
    buy_in_min: Cents | None = None
    buy_in_max: Cents | None = None
    # The table's smallest chip: pots are split in it and the odd chip is of it ((h)(9), (j)(6)(ii)).
    chip: Cents = 1
    # The two decks, backs of different colours, alternated each hand with the shuffler ((a)(5)(iii)).
    decks: Annotated[tuple[PokerDeck, PokerDeck], BeforeValidator(_list_to_tuple)] = Field(default_factory=_two_decks)

    @model_validator(mode="after")
    def _buy_in(self) -> _PokerRules:
        if self.buy_in_min is not None and self.buy_in_max is not None and self.buy_in_min > self.buy_in_max:
            _refuse((("buy_in_min",), self.buy_in_min, f"is above buy_in_max ({self.buy_in_max})"))
        stakes = ("ante", "small_bet", "big_bet", "min_bet", "small_blind", "big_blind", "straddle", "bring_in")
        odd = [((name,), getattr(self, name), f"is not a whole number of the table's {self.chip}-cent chips")
               for name in stakes if (getattr(self, name, None) or 0) % self.chip]
        if odd:
            _refuse(*odd)
        a, b = self.decks
        if a.id == b.id or a.color == b.color:
            _refuse((("decks",), f"{a.id}/{b.id}", "two decks of different ids and back colours are alternated "
                     f"with the automated shuffler ({NYCRR}5324.42(a)(5)(iii))"))
        return self

    @field_validator("small_bet", "big_bet", "raise_cap")
    @classmethod
    def _fits_structure(cls, value: int | None, info: ValidationInfo) -> int | None:
        structure = info.data.get("structure")
        if structure is None:
            return value
        if structure != "fixed-limit":
            if value is not None:
                raise PydanticCustomError("structure", "belongs to a fixed-limit game, not {structure}",
                                          {"structure": structure})
        elif value is None and info.field_name != "raise_cap":
            raise PydanticCustomError("structure", "is required for a fixed-limit game")
        elif info.field_name == "big_bet" and value is not None and value < (info.data.get("small_bet") or 0):
            raise PydanticCustomError("structure", "is below the small bet {small}",
                                      {"small": info.data["small_bet"]})
        return value


class BlindPokerRules(_PokerRules):
    """Button games: blinds before the deal (5324.42(c)(2)(ii), (i)(4))."""

    big_blind: Cents
    small_blind: Cents | None = None  # absent: one blind only
    straddle: Cents | None = None     # absent: no straddle
    kill: Kill | None = None

    @field_validator("small_blind")
    @classmethod
    def _small(cls, value: int | None, info: ValidationInfo) -> int | None:
        big = info.data.get("big_blind")
        if value is not None and big is not None and value > big:
            raise PydanticCustomError("blind", "is more than the big blind {big}", {"big": big})
        return value

    @field_validator("straddle")
    @classmethod
    def _straddle(cls, value: int | None, info: ValidationInfo) -> int | None:
        big = info.data.get("big_blind")
        if value is not None and big is not None and value != 2 * big:
            raise _floor_error(f"is not twice the big blind ({2 * big}) as {NYCRR}5324.42(c)(11) requires")
        return value


class StudPokerRules(_PokerRules):
    """Stud games: antes and the bring-in forced by the up card (5324.42(c)(2)(iii), (h)(4), (m)(4))."""

    min_bet: Cents | None = Field(None, validate_default=True)
    bring_in: Cents

    @field_validator("min_bet")
    @classmethod
    def _min_bet(cls, value: int | None, info: ValidationInfo) -> int | None:
        structure = info.data.get("structure")
        if value is None and structure not in (None, "fixed-limit"):
            raise PydanticCustomError("structure", "is required for a {structure} stud game",
                                      {"structure": structure})
        return value

    @field_validator("bring_in")
    @classmethod
    def _bring_in(cls, value: int, info: ValidationInfo) -> int:
        first = info.data.get("small_bet") or info.data.get("min_bet")
        if first is not None and value > first:
            raise PydanticCustomError("bring_in", "is more than the first bet ({first}) it may be "
                                      "completed to", {"first": first})
        return value


class _PokerProfile(GameProfile):
    # The room's pooled jackpot (issue 10, 5324.42(r)(5)): each hand's contribution and
    # qualifying hands go to the pool; absent, the table's jackpot is its own.
    link: LinkConfig | None = None

    @field_validator("link", mode="before")
    @classmethod
    def _link(cls, value: Any) -> Any:
        return CaribbeanStudProfile._link(value)

    def phh_variant(self) -> str | None:
        """The standard PHH code of this game and structure, if PHH has one."""
        return PHH_VARIANTS.get((self.game, self.poker.structure))  # type: ignore[attr-defined]

    @field_validator("poker", check_fields=False)
    @classmethod
    def _rules(cls, rules: Any, info: ValidationInfo) -> Any:
        game, table = info.data.get("game"), info.data.get("table")
        issues: list[tuple[tuple[str | int, ...], Any, str]] = []
        if getattr(rules, "kill", None) is not None and game != "omaha-hi-lo-8":
            issues.append((("kill",), "{...}", "is offered only in Omaha high-low split eight "
                           f"or better, {NYCRR}5324.42(j)(9)"))
        if info.data.get("link") is not None and rules.jackpot is None:   # `link` is validated before `poker`
            issues.append((("jackpot",), "(none)", "is required with [link]: the link joins a room's jackpot pool "
                           f"({NYCRR}5324.42(r)(5)), and these rules take no contribution for it ((r)(3))"))
        if rules.jackpot is not None and table is not None and game is not None:
            seats = table.seats or SEAT_LIMITS[game][0]
            if rules.jackpot.minimum_players > seats:
                issues.append((("jackpot", "minimum_players"), rules.jackpot.minimum_players,
                               f"is more than the table's {seats} seats"))
        if issues:
            _refuse(*issues)
        return rules


class BlindPokerProfile(_PokerProfile):
    game: Literal[BLIND_GAMES]  # type: ignore[valid-type]
    poker: BlindPokerRules

    @property
    def min_bet(self) -> int:
        """The least bet: the fixed-limit small bet, or min_bet, or the big blind."""
        return self.poker.small_bet or self.poker.min_bet or self.poker.big_blind


class StudPokerProfile(_PokerProfile):
    game: Literal[STUD_GAMES]  # type: ignore[valid-type]
    poker: StudPokerRules

    @property
    def min_bet(self) -> int:
        return self.poker.small_bet or self.poker.min_bet  # type: ignore[return-value]


Profile = Annotated[Union[CaribbeanStudProfile, CasinoWarProfile, BlindPokerProfile, StudPokerProfile],
                    Field(discriminator="game")]
PROFILE: TypeAdapter = TypeAdapter(Profile)   # validates any game's profile by its `game`
MODEL_OF_GAME: dict[str, type[GameProfile]] = {
    "caribbean-stud": CaribbeanStudProfile,
    "casino-war": CasinoWarProfile,
    **{g: BlindPokerProfile for g in BLIND_GAMES},
    **{g: StudPokerProfile for g in STUD_GAMES},
}


