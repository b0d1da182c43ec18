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
    [devices]                   # optional: absent devices are emulated; shoe = PORT or
                                # { port = PORT, driver = NAME } (drivers/registry.py)
    [screen]                    # bind, port, secrets
    [logging]                   # level, format, wire_trace
    [caribbean_stud] / [casino_war] / [poker]   # the game's rules

One job a module: profiles.py the models, floors.py the regulatory floors as the
check applies them (their numbers are controller/games/floors.py's, which the
rules read too), toml_lines.py the line of each key and the error lines, load.py
the file. This package re-exports what the rest of the product imports.

This package imports pydantic; the one-shot commands (`tablectl settle`,
`tablectl poker replay`) must not import it (see benchmarks/startup.py).
"""

from __future__ import annotations

from controller.config.floors import NYCRR, SEAT_LIMITS
from controller.config.load import check_main, load_profile, parse_profile
from controller.config.profiles import (
    Amount,
    BANKED_GAMES,
    BLIND_GAMES,
    BlindPokerProfile,
    BlindPokerRules,
    CaribbeanStudProfile,
    CaribbeanStudRules,
    CasinoWarProfile,
    CasinoWarRules,
    Cents,
    Devices,
    GAMES,
    HAND_NAMES,
    HandName,
    IncrementalRake,
    Jackpot,
    Kill,
    Logging,
    ManualShoe,
    PHH_VARIANTS,
    POKER_GAMES,
    Paytable,
    PercentageRake,
    PokerDeck,
    Profile,
    ProfilePath,
    Progressive,
    RAKE_METHODS,
    Rake,
    RakeLevel,
    STUD_GAMES,
    Screen,
    SerialDevice,
    SerialPort,
    StraightFlushAward,
    StudPokerProfile,
    StudPokerRules,
    Table,
    TimeCharge,
    UsbDevice,
    payout_limit_floor,
)
from controller.config.toml_lines import ConfigError, ConfigIssue, key_lines

__all__ = [
    "Amount",
    "BANKED_GAMES",
    "BLIND_GAMES",
    "BlindPokerProfile",
    "BlindPokerRules",
    "CaribbeanStudProfile",
    "CaribbeanStudRules",
    "CasinoWarProfile",
    "CasinoWarRules",
    "Cents",
    "ConfigError",
    "ConfigIssue",
    "Devices",
    "GAMES",
    "HAND_NAMES",
    "HandName",
    "IncrementalRake",
    "Jackpot",
    "Kill",
    "Logging",
    "ManualShoe",
    "NYCRR",
    "PHH_VARIANTS",
    "POKER_GAMES",
    "Paytable",
    "PercentageRake",
    "PokerDeck",
    "Profile",
    "ProfilePath",
    "Progressive",
    "RAKE_METHODS",
    "Rake",
    "RakeLevel",
    "SEAT_LIMITS",
    "STUD_GAMES",
    "Screen",
    "SerialDevice",
    "SerialPort",
    "StraightFlushAward",
    "StudPokerProfile",
    "StudPokerRules",
    "Table",
    "TimeCharge",
    "UsbDevice",
    "check_main",
    "key_lines",
    "load_profile",
    "parse_profile",
    "payout_limit_floor",
]
