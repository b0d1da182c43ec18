"""High card's table profile: the shared sections of every profile (controller/config); the game's rules
are fixed (README.md), so it has no section of its own."""

from __future__ import annotations

from typing import Literal

from pydantic import ValidationInfo, field_validator

from controller.config.profiles import GameProfile, Table

SEATS = 7   # the layout's betting positions: this game's own limit


class HighCardProfile(GameProfile):
    game: Literal["high-card-dealer"]

    @property
    def seats(self) -> int:
        return self.table.seats or SEATS

    @field_validator("table")
    @classmethod
    def _seats(cls, table: Table, info: ValidationInfo) -> Table:
        # GameProfile's own check looks the game up in its table of seat limits, which knows only
        # tablectl's games (controller/config/profiles.py SEAT_LIMITS): ours, here
        if table.seats is not None and table.seats > SEATS:
            raise ValueError(f"at most {SEATS} seats at a high card table")
        return table

    def record_rules(self) -> dict:
        return {"decks": 1}   # a fresh deck each round: the profile chooses nothing of the rules

