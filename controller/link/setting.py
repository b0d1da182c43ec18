"""A profile's `[link]` (issue 10), for the games whose tables join a room's pool: the setting as
a field type, read by the link's own reader so the profile refuses what the link would."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator

from controller.link.config import LinkConfig, LinkConfigError, parse_link_config


def _link(value: Any) -> Any:
    """TOML gives paths as strings; the link's own reader turns them into paths and names what is wrong."""
    if value is None or isinstance(value, LinkConfig):
        return value
    try:
        return parse_link_config(value)
    except LinkConfigError as exc:
        raise ValueError(str(exc)) from None


LinkSetting = Annotated[LinkConfig | None, BeforeValidator(_link)]
