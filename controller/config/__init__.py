"""Table profiles: one TOML file per game offered, validated before anything starts.

A profile is read once, when the box starts, and everything after trusts it; so
it is read strictly. Every model is frozen and forbids keys it does not know
(a typo is an error, not a silently ignored setting), numbers are strict (a
float is refused: money is integer cents, odds are whole numbers N:1), and a
value below a floor of 9 NYCRR is refused with the provision that sets the
floor. Every refusal names the file, the line of the key and the key's dotted
path, so the technician at the box can fix it without reading Python:

    config/table.toml:12: table.seats = 12 is more than the 7 betting positions of 9 NYCRR 5324.22(a)

Layout of a profile:

    game = "..."                # selects the model (the discriminator): a registered game's
    [table]                     # id, name, data_dir, minimum_wager, maximum_wager, seats
    [devices]                   # optional: absent devices are emulated; shoe = PORT or
                                # { port = PORT, driver = NAME } (drivers/registry.py)
    [screen]                    # bind, port, secrets
    [logging]                   # level, format, wire_trace
    [<the game's key>]          # the game's rules, and whatever else its model adds

Each game owns its model, its checks and its floors (controller/games/<game>/
profile.py and floors.py, found by controller/games/registry.py); this package
holds what every profile has: profiles.py the shared sections and `GameProfile`
they build on, floors.py how a check words a refusal, toml_lines.py the line of
each key and the error lines, load.py the file and the union of the games'
models. This package re-exports what the rest of the product imports.

This package imports pydantic; the one-shot commands (`tablectl settle`, the
replay of a recorded hand) must not import it (see benchmarks/startup.py).
"""

from __future__ import annotations

from controller.config.floors import NYCRR
from controller.config.load import check_main, load_profile, models, parse_profile
from controller.config.profiles import (
    Amount,
    Cents,
    Devices,
    GameProfile,
    Logging,
    ProfilePath,
    Screen,
    SerialDevice,
    SerialPort,
    Table,
    UsbDevice,
)
from controller.config.toml_lines import ConfigError, ConfigIssue, key_lines

__all__ = [
    "Amount",
    "Cents",
    "ConfigError",
    "ConfigIssue",
    "Devices",
    "GameProfile",
    "Logging",
    "NYCRR",
    "ProfilePath",
    "Screen",
    "SerialDevice",
    "SerialPort",
    "Table",
    "UsbDevice",
    "check_main",
    "key_lines",
    "load_profile",
    "models",
    "parse_profile",
]
