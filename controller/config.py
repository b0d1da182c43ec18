"""Table profiles: one TOML file per game offered, validated before anything starts.

A profile is read once, when the box starts, and everything after trusts it; so
it is read strictly. Every model is frozen and forbids keys it does not know
(a typo is an error, not a silently ignored setting), numbers are strict (a
float is refused: money is integer cents, odds are whole numbers N:1), and a
value below a floor of 9 NYCRR is refused with the provision that sets the
floor. Every refusal names the file, the line of the key and the key's dotted
path, so the technician at the box can fix it without reading Python:

    config/caribbean-stud.toml:12: caribbean_stud.paytable.flush = 4 is below the minimum 5:1 of 9 NYCRR 5324.37(g)(2)

The rules of a banked-game profile use the names and defaults of the `rules`
object of a round record (shared/spec/rounds.md), so `record_rules()` turns a
profile into the rules the table writes into every record it settles.

Layout of a profile:

    game = "caribbean-stud"     # selects the model (the discriminator)
    [table]                     # id, name, data_dir, minimum_wager, maximum_wager, seats
    [devices]                   # optional: absent devices are emulated
    [screen]                    # bind, port, secrets
    [logging]                   # level, format, wire_trace
    [caribbean_stud] / [casino_war] / [poker]   # the game's rules

This module imports pydantic; the one-shot commands (`tablectl settle`,
`tablectl poker replay`) must not import it (see benchmarks/startup.py).
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
import sys
import tomllib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError
from controller.floor.config import FloorConfig
from controller.link.config import LinkConfig

NYCRR = "9 NYCRR "

# --------------------------------------------------------------------------
# Games and their seats
# --------------------------------------------------------------------------

BANKED_GAMES = ("caribbean-stud", "casino-war")
STUD_GAMES = (
    "seven-card-stud",          # 5324.42(g)(1) high
    "seven-card-stud-low",      # (g)(1) low (razz, A-5)
    "seven-card-stud-hi-lo",    # (g)(1) high-low split, no qualifier
    "seven-card-stud-hi-lo-8",  # (g)(1) high-low split eight or better
    "five-card-stud",           # (g)(5)
)
BLIND_GAMES = (
    "texas-holdem",             # (g)(2)
    "omaha",                    # (g)(3) high
    "omaha-hi-lo-8",            # (g)(3) high-low split eight or better
    "five-card-draw",           # (g)(4) high
    "five-card-draw-low",       # (g)(4) low
    "triple-draw-2-7",          # 5324.42(l)
    "pineapple",                # (g)(6)
    "crazy-pineapple",          # (g)(6)
)
POKER_GAMES = STUD_GAMES + BLIND_GAMES
GAMES = BANKED_GAMES + POKER_GAMES

# game -> (most seats, provision, why). Where 5324.42 sets no limit of its own
# for a game, the room's limit of 11 (5324.42(a)(1), (f)(2)) would still let
# more players sit than one deck (5324.42(a)(5)(i)) can be dealt to by the
# game's own procedure, so the deck sets the limit there.
SEAT_LIMITS: dict[str, tuple[int, str, str]] = {
    "caribbean-stud": (7, "5324.37(a)(1)", "betting positions"),
    "casino-war": (7, "5324.22(a)", "betting positions"),
    **{g: (8, "5324.42(h)(2)", "players") for g in STUD_GAMES if g != "five-card-stud"},
    # 5324.42(m) has no seat paragraph: 9 x 5 cards + 3 burns = 48 of 52; a tenth player needs 53.
    "five-card-stud": (9, "5324.42(a)(5)(i) and (m)(3), (m)(6)-(7)",
                       "players one deck deals five cards each plus three burns"),
    "texas-holdem": (11, "5324.42(i)(2)", "players"),
    "omaha": (10, "5324.42(j)(2)", "players"),
    "omaha-hi-lo-8": (10, "5324.42(j)(2)", "players"),
    # 5324.42(k) has no seat paragraph: the first deal of five cards each must come from one deck.
    "five-card-draw": (10, "5324.42(a)(5)(i) and (k)(4)", "players one deck deals five cards each"),
    "five-card-draw-low": (10, "5324.42(a)(5)(i) and (k)(4)", "players one deck deals five cards each"),
    "triple-draw-2-7": (7, "5324.42(l)(2)", "players"),
    # 5324.42(n) has no seat paragraph: 11 x 3 + 3 burns + 5 board = 41 cards, so the room's 11 holds.
    "pineapple": (11, "5324.42(a)(1), (f)(2)", "players"),
    "crazy-pineapple": (11, "5324.42(a)(1), (f)(2)", "players"),
}

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
# Errors
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class ConfigIssue:
    """One refusal: where (file, TOML line, dotted key) and why."""

    file: str
    line: int | None
    key: str
    text: str  # the whole message after the location, key included

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.text}"


class ConfigError(ValueError):
    """A profile that may not run the table; `issues` lists every refusal found."""

    def __init__(self, issues: list[ConfigIssue]) -> None:
        self.issues = tuple(issues)
        super().__init__("\n".join(str(i) for i in self.issues))


def _refuse(*issues: tuple[tuple, Any, str]) -> typing.NoReturn:
    """Raise refusals found by a cross-field check.

    Pydantic stops a model at the first error its validator raises, so a check
    that finds several collects them and raises once; each issue is (key path
    relative to the model, value, reason) and is reported on its own line.
    """
    summary = "; ".join(f"{'.'.join(map(str, p))} = {v} {m}" for p, v, m in issues)
    raise PydanticCustomError("regulation", "{summary}", {"summary": summary, "issues": issues})


def _floor_error(reason: str) -> PydanticCustomError:
    return PydanticCustomError("regulation", "{reason}", {"reason": reason})


# --------------------------------------------------------------------------
# Field types
# --------------------------------------------------------------------------

def _at_least(minimum: int, shown: str, provision: str) -> AfterValidator:
    """A regulatory floor on one value: below it, name the minimum and the provision."""
    def check(value: int) -> int:
        if value < minimum:
            raise _floor_error(f"is below the minimum {shown} of {NYCRR}{provision}")
        return value
    return AfterValidator(check)


def _at_most(maximum: int, shown: str, provision: str) -> AfterValidator:
    def check(value: int) -> int:
        if value > maximum:
            raise _floor_error(f"is above the maximum {shown} of {NYCRR}{provision}")
        return value
    return AfterValidator(check)


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


class UsbDevice(_Strict):
    """A USB device by vendor/product id and, to tell two alike apart, serial number."""

    vendor: Annotated[int, Field(ge=0, le=0xFFFF)]
    product: Annotated[int, Field(ge=0, le=0xFFFF)]
    serial: Annotated[str, Field(min_length=1)] | None = None


class Devices(_Strict):
    """Real devices; an absent one is replaced by its emulator from drivers/sim."""

    shoe: SerialPort | None = None
    shuffler: SerialPort | None = None
    progressive: UsbDevice | None = None


class Screen(_Strict):
    """The dealer's and supervisor's web screen; loopback unless a kiosk elsewhere needs it."""

    bind: Annotated[str, AfterValidator(_ip_address)] = "127.0.0.1"
    port: Annotated[int, Field(ge=1, le=65535)] = 8080
    secrets: ProfilePath | None = None  # supervisors' PINs; without it no supervisor can sign in


class Logging(_Strict):
    level: Literal["debug", "info", "warning", "error"] = "info"
    format: Literal["auto", "json", "console"] = "auto"  # auto: console on a terminal, else JSON
    wire_trace: Annotated[tuple[Literal["shoe", "shuffler", "progressive"], ...],
                          BeforeValidator(_list_to_tuple)] = ()


class _Profile(_Strict):
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
        issues = []
        if devices.shoe is not None and game in POKER_GAMES:
            issues.append((("shoe",), devices.shoe,
                           f"is not used: poker is dealt from the dealer's hand, {NYCRR}5324.42(f)(6)(i)"))
        if devices.progressive is not None and game != "caribbean-stud":
            issues.append((("progressive",), "{...}", "is not used: a progressive controller belongs "
                           f"to Caribbean stud, {NYCRR}5324.37(a)(3)"))
        if issues:
            _refuse(*issues)
        return devices


# --------------------------------------------------------------------------
# Caribbean stud poker (5324.37)
# --------------------------------------------------------------------------

def _odds(minimum: int) -> Any:
    return _at_least(minimum, f"{minimum}:1", "5324.37(g)(2)")


class Paytable(_Strict):
    """Bet wager odds N:1 by the player's hand, each at least that of 5324.37(g)(2)."""

    pair_or_less: Annotated[int, _odds(1)] = Field(1, alias="pair-or-less")
    two_pair: Annotated[int, _odds(2)] = Field(2, alias="two-pair")
    three_of_a_kind: Annotated[int, _odds(3)] = Field(3, alias="three-of-a-kind")
    straight: Annotated[int, _odds(4)] = Field(4, alias="straight")
    flush: Annotated[int, _odds(5)] = Field(5, alias="flush")
    full_house: Annotated[int, _odds(7)] = Field(7, alias="full-house")
    four_of_a_kind: Annotated[int, _odds(20)] = Field(20, alias="four-of-a-kind")
    straight_flush: Annotated[int, _odds(50)] = Field(50, alias="straight-flush")
    royal_flush: Annotated[int, _odds(100)] = Field(100, alias="royal-flush")


def _award(cents: int) -> Any:
    return _at_least(cents, f"{cents} (${cents // 100:,})", "5324.37(g)(4)")


class StraightFlushAward(_Strict):
    """Either a percent of the meter or a fixed amount, as the internal controls designate (g)(4)."""

    percent_of_meter: Annotated[int, _at_least(10, "10 percent", "5324.37(g)(4)"),
                                _at_most(100, "100 percent", "5324.37(g)(4)")] | None = None
    fixed: Annotated[int, _award(500000)] | None = None

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
    contribution_bp: Annotated[int, _at_least(7000, "7000 (70 percent)", "5324.37(g)(5)"),
                               Field(le=10000)] = 7000
    flush: Annotated[int, _award(5000)] = Field(5000, alias="flush")
    full_house: Annotated[int, _award(10000)] = Field(10000, alias="full-house")
    four_of_a_kind: Annotated[int, _award(50000)] = Field(50000, alias="four-of-a-kind")
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


class CaribbeanStudProfile(_Profile):
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

def _decks(decks: int) -> int:
    if decks not in (6, 7, 8):
        raise _floor_error(f"is not six, seven or eight decks as {NYCRR}5324.22(c) requires")
    return decks


class CasinoWarRules(_Strict):
    """Names and defaults as a record's `rules`; odds at least those of 5324.22(j)."""

    decks: Annotated[int, AfterValidator(_decks)] = 6
    tie_odds: Annotated[int, _at_least(10, "10:1", "5324.22(j)(2)")] = 10
    war_odds: Annotated[int, _at_least(2, "2:1", "5324.22(j)(3)")] = 2
    war_tie_odds: Annotated[int, _at_least(3, "3:1", "5324.22(j)(3)")] = 3


class ManualShoe(_Strict):
    """Casino war's manual dealing shoe (5324.22(d)). With a card reader it reports each card the dealer
    draws; without one (reader = false) the dealer touches each card in on the console as it is drawn."""

    reader: bool = True


class CasinoWarProfile(_Profile):
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
    rate_bp: Annotated[int, Field(ge=1), _at_most(1000, "1000 (10 percent)", "5324.42(o)(2)(i)")]
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
        issues = []
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
        elif info.field_name == "big_bet" and value < (info.data.get("small_bet") or 0):
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


class _PokerProfile(_Profile):
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
        issues = []
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
_ADAPTER: TypeAdapter = TypeAdapter(Profile)
_MODEL_OF_GAME: dict[str, type[_Profile]] = {
    "caribbean-stud": CaribbeanStudProfile,
    "casino-war": CasinoWarProfile,
    **{g: BlindPokerProfile for g in BLIND_GAMES},
    **{g: StudPokerProfile for g in STUD_GAMES},
}


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

def load_profile(path: str | Path):
    """Read and validate one profile; ConfigError lists every refusal."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([ConfigIssue(file, None, "", f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([ConfigIssue(file, None, "", f"not UTF-8 text: {exc.reason}")]) from None
    return parse_profile(text, file=file, base=Path(path).parent)


def parse_profile(text: str, *, file: str = "<profile>", base: Path | None = None):
    """Validate a profile given as TOML text (`file` only names it in errors)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(at.group(1)) if at else None
        if at:
            message = message[: at.start()].strip() + f" (column {at.group(2)})"
        raise ConfigError([ConfigIssue(file, line, "", f"not valid TOML: {message}")]) from None
    try:
        return _ADAPTER.validate_python(data, context={"base": base})
    except ValidationError as exc:
        raise ConfigError(_issues(exc, data, text, file)) from None


def check_main(args) -> int:
    """`tablectl config check FILE...`: `ok` for a good profile, every refusal for a bad one."""
    status = 0
    for file in args.files:
        try:
            profile = load_profile(file)
        except ConfigError as exc:
            for issue in exc.issues:
                print(issue, file=sys.stderr)
            status = 2
        else:
            print("ok" if len(args.files) == 1 else f"{file}: ok")
            from controller.par.sheet import check_line  # the par sheet, when cached (issue 21)
            if (par := check_line(profile)) is not None:
                print(f"  {par}")
    return status


# --------------------------------------------------------------------------
# Turning pydantic's errors into lines a technician can act on
# --------------------------------------------------------------------------

_TAGS = frozenset(GAMES) | frozenset(RAKE_METHODS)


def _issues(exc: ValidationError, data: dict, text: str, file: str) -> list[ConfigIssue]:
    lines = key_lines(text)
    out: list[ConfigIssue] = []
    for error in exc.errors():
        base = _data_path(data, error["loc"])
        if error["type"] == "regulation" and "issues" in error.get("ctx", {}):
            for rel, value, reason in error["ctx"]["issues"]:
                path = base + tuple(rel)
                out.append(_issue(file, lines, path, f"{_dotted(path)} = {_shown(data, path, value)} {reason}"))
            continue
        path, text = _describe(error, base, data)
        out.append(_issue(file, lines, path, text))
    out.sort(key=lambda i: (i.line or 0))
    return out


def _issue(file: str, lines: dict, path: tuple, text: str) -> ConfigIssue:
    line = None
    for n in range(len(path), 0, -1):
        line = lines.get(path[:n])
        if line:
            break
    return ConfigIssue(file, line, _dotted(path), text)


# The error types this module raises: their messages are phrased to follow
# "key = value" directly; pydantic's own ("Input should be ...") follow a colon.
_OWN_TYPES = frozenset({"regulation", "structure", "blind", "bring_in", "award", "port", "ip",
                        "path_type", "port_type", "ip_type"})


def _describe(error: dict, path: tuple, data: dict) -> tuple[tuple, str]:
    """The key path an error is about and its line of text."""
    kind, value, key = error["type"], error.get("input"), _dotted(path)
    if kind in ("union_tag_not_found", "union_tag_invalid"):
        # the discriminator itself is at fault: name it, not the table holding it
        path = path + ("method",) if error["loc"] else ("game",)
        shown = "" if kind == "union_tag_not_found" else f" = {_toml(error['ctx']['tag'])}"
        choices = RAKE_METHODS if error["loc"] else GAMES
        return path, f"{_dotted(path)}{shown}: must be one of {', '.join(choices)}"
    if kind == "missing":
        return path, f"{key}: is required"
    if kind == "extra_forbidden":
        known = _known_keys(data, path[:-1])
        hint = difflib.get_close_matches(str(path[-1]), known, n=1)
        more = f" (did you mean {hint[0]}?)" if hint else (f" (known here: {', '.join(known)})" if known else "")
        return path, f"{key}: unknown key{more}"
    if isinstance(value, float):
        return path, (f"{key} = {_toml(value)} is a float; money is integer cents "
                      "and odds and counts are whole numbers")
    message = error["msg"]
    if kind not in _OWN_TYPES:
        message = ": " + (message[0].lower() + message[1:] if message else message)
    else:
        message = " " + message
    if value is None or isinstance(value, (dict, list)):
        return path, f"{key}:{message}" if kind in _OWN_TYPES else f"{key}{message}"
    return path, f"{key} = {_toml(value)}{message}"


def _data_path(data: Any, loc: tuple) -> tuple:
    """Pydantic's location minus the union tags it inserts, i.e. the key path in the file."""
    path: list = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            path.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif part in _TAGS and isinstance(node, dict):
            continue  # no key of any model is named like a game or a rake method
        else:
            path.append(part)
            node = None
    return tuple(path)


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
            out += f".{part}" if out else part
    return out


def _shown(data: Any, path: tuple, default: Any) -> str:
    node = data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return default if isinstance(default, str) else _toml(default)
    return _toml(node)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{...}"
    if isinstance(value, list):
        return "[...]"
    return str(value)


def _known_keys(data: dict, path: tuple) -> list[str]:
    """The keys the model accepts at `path` (for "did you mean")."""
    game = data.get("game")
    model: Any = _MODEL_OF_GAME.get(game) if isinstance(game, str) else None
    node: Any = data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else (
            node[part] if isinstance(node, list) and isinstance(part, int) and part < len(node) else None)
        if isinstance(part, int):
            continue
        model = _field_model(model, part, node)
        if model is None:
            return []
    if model is None:
        return []
    return sorted(f.alias or name for name, f in model.model_fields.items())


def _field_model(model: Any, key: str, node: Any) -> Any:
    if model is None:
        return None
    for name, field in model.model_fields.items():
        if key in (name, field.alias):
            return _model_in(field.annotation, node)
    return None


def _model_in(annotation: Any, node: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _model_in(typing.get_args(annotation)[0], node)
    if origin in (Union, types.UnionType):
        models = [m for m in (_model_in(a, node) for a in typing.get_args(annotation)) if m]
        if len(models) > 1 and isinstance(node, dict):
            for m in models:
                tag = m.model_fields.get("method")
                if tag and node.get("method") in typing.get_args(tag.annotation):
                    return m
        return models[0] if models else None
    if origin is tuple:
        return _model_in(typing.get_args(annotation)[0], None)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


# --------------------------------------------------------------------------
# Where each key is written: a scan of the TOML text
# --------------------------------------------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def key_lines(text: str) -> dict[tuple, int]:
    """Map every key path in a TOML document to the line it is written on.

    tomllib gives values without positions, and an error that says only
    `poker.rake.rate_bp` sends the technician hunting; this scan of the text
    (which tomllib has already accepted) recovers the line of each table
    header, key, inline-table key and array element. Paths use ints for array
    indices, as pydantic's locations do.
    """
    return _KeyScanner(text).document()


class _KeyScanner:
    def __init__(self, text: str) -> None:
        self.t = text
        self.i = 0
        self.line = 1
        self.lines: dict[tuple, int] = {}
        self.tables_of_arrays: dict[tuple, int] = {}

    def peek(self, n: int = 0) -> str:
        j = self.i + n
        return self.t[j] if j < len(self.t) else ""

    def advance(self, n: int = 1) -> None:
        for _ in range(n):
            if self.i < len(self.t):
                if self.t[self.i] == "\n":
                    self.line += 1
                self.i += 1

    def record(self, path: tuple, line: int) -> None:
        for n in range(1, len(path) + 1):
            self.lines.setdefault(path[:n], line)

    def skip(self, newlines: bool) -> None:
        while True:
            c = self.peek()
            if c in (" ", "\t") or (newlines and c in ("\n", "\r")):
                self.advance()
            elif c == "#":
                while self.peek() not in ("\n", ""):
                    self.advance()
            else:
                return

    def string(self) -> str:
        start = self.i
        quote = self.peek()
        if self.t.startswith(quote * 3, self.i):
            self.advance(3)
            while self.i < len(self.t):
                if quote == '"' and self.peek() == "\\":
                    self.advance(2)
                elif self.t.startswith(quote * 3, self.i):
                    self.advance(3)
                    while self.peek() == quote:  # up to two quotes may end the content
                        self.advance()
                    break
                else:
                    self.advance()
        else:
            self.advance()
            while self.peek() not in (quote, "\n", ""):
                self.advance(2 if quote == '"' and self.peek() == "\\" else 1)
            self.advance()
        raw = self.t[start:self.i]
        try:
            return tomllib.loads(f"k = {raw}")["k"]
        except tomllib.TOMLDecodeError:
            return raw.strip("\"'")

    def key(self) -> tuple:
        parts = []
        while True:
            self.skip(newlines=False)
            if self.peek() in ('"', "'"):
                parts.append(self.string())
            else:
                m = _BARE.match(self.t, self.i)
                if not m:
                    return tuple(parts)
                parts.append(m.group())
                self.advance(m.end() - self.i)
            self.skip(newlines=False)
            if self.peek() != ".":
                return tuple(parts)
            self.advance()

    def value(self, path: tuple) -> None:
        c = self.peek()
        if c == "{":
            self.advance()
            while True:
                self.skip(newlines=True)
                if self.peek() in ("}", ""):
                    self.advance()
                    return
                if self.peek() == ",":
                    self.advance()
                    continue
                line = self.line
                k = self.key()
                self.record(path + k, line)
                self.skip(newlines=False)
                if self.peek() == "=":
                    self.advance()
                self.skip(newlines=False)
                self.value(path + k)
        elif c == "[":
            self.advance()
            index = 0
            while True:
                self.skip(newlines=True)
                if self.peek() in ("]", ""):
                    self.advance()
                    return
                if self.peek() == ",":
                    self.advance()
                    continue
                self.record(path + (index,), self.line)
                self.value(path + (index,))
                index += 1
        elif c in ('"', "'"):
            self.string()
        else:
            while self.peek() not in (",", "]", "}", "\n", "\r", "#", ""):
                self.advance()

    def _header(self, key: tuple) -> tuple:
        # A header inside an array of tables ([[a]] then [a.b]) belongs to its last element.
        path: tuple = ()
        for part in key:
            path += (part,)
            if path in self.tables_of_arrays:
                path += (self.tables_of_arrays[path] - 1,)
        return path

    def document(self) -> dict[tuple, int]:
        current: tuple = ()
        while True:
            self.skip(newlines=True)
            if self.i >= len(self.t):
                return self.lines
            line = self.line
            if self.peek() == "[":
                array = self.peek(1) == "["
                self.advance(2 if array else 1)
                key = self.key()
                self.advance(2 if array else 1)
                if array:
                    parent = self._header(key[:-1]) + key[-1:]
                    count = self.tables_of_arrays.get(parent, 0)
                    self.tables_of_arrays[parent] = count + 1
                    current = parent + (count,)
                else:
                    current = self._header(key)
                self.record(current, line)
            else:
                key = self.key()
                if not key:  # not a key: skip the rest of the line rather than loop
                    while self.peek() not in ("\n", ""):
                        self.advance()
                    continue
                self.record(current + key, line)
                self.skip(newlines=False)
                if self.peek() == "=":
                    self.advance()
                self.skip(newlines=False)
                self.value(current + key)
            self.skip(newlines=False)
