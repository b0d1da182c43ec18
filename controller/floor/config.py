"""A profile's `[floor]` block: where this table sends its facts (controller/floor/sender.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


class FloorConfig(BaseModel):
    """The floor's database and this table's own role on it (the password in a file, never here)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: Annotated[str, Field(pattern=r"^postgres(ql)?://")]
    password_file: Path | None = None
    outbox: Path | None = None            # default: floor-outbox.sqlite beside the journal
    retry_ms: Annotated[int, Field(ge=100, le=600_000)] = 2000
