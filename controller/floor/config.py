"""A profile's `[floor]` block: where this table sends its facts (controller/floor/sender.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo


def _beside_profile(value: Any, info: ValidationInfo) -> Any:
    """A relative path is relative to the profile's directory, as everywhere in a profile."""
    base = (info.context or {}).get("base")
    if isinstance(value, str) and value and not Path(value).is_absolute() and base is not None:
        return Path(base) / value
    return value


ProfileFile = Annotated[Path, BeforeValidator(_beside_profile)]


class FloorConfig(BaseModel):
    """The floor's database and this table's own role on it (the password in a file, never here)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: Annotated[str, Field(pattern=r"^postgres(ql)?://")]
    password_file: ProfileFile | None = None
    outbox: ProfileFile | None = None      # default: floor-outbox.sqlite beside the journal
    retry_ms: Annotated[int, Field(ge=100, le=600_000)] = 2000
