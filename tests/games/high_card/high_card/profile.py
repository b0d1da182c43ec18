"""High card's table profile: the shared sections (controller/config) and its own [high_card]."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from controller.config.profiles import GameProfile, Table

SEATS = 7   # the layout's betting positions: this game's own limit


class HighCardRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    decks: Annotated[int, Field(ge=1, le=8)] = 6   # in the dispensing shoe


class HighCardProfile(GameProfile):
    game: Literal["high-card-dealer"]
    high_card: HighCardRules = HighCardRules()

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
        return self.high_card.model_dump()

