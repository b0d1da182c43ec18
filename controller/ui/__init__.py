"""The table's screens: the dealer's console and the supervisor's screen (web, on loopback).

Only `tablectl run` imports this package (it imports Starlette and uvicorn); see app.py.
"""

from .app import ScreenServer, create_app, serve

__all__ = ["ScreenServer", "create_app", "serve"]
