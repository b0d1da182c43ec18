"""The table's screens: the dealer's console and the supervisor's screen (web, on loopback).

`serve`, `create_app` and `ScreenServer` import Starlette and uvicorn, so they are
loaded on first use: `tablectl supervisor add` (auth.py) needs neither.
"""

from __future__ import annotations

__all__ = ["ScreenServer", "create_app", "serve"]


def __getattr__(name: str):
    if name in __all__:
        from . import app
        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
