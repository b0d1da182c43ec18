"""Reading a file or stdin that a person hands a command, and naming what is wrong with it.

Whoever runs `tablectl settle`, `poker replay` or `config check` may hand it
anything: a record nested a hundred thousand deep, a number of five thousand
digits, a binary file, a file of gigabytes. Each is a person's mistake (or a
probe), never the program's, so it gets exit status 2 and one line that says
what is wrong, never a traceback (issue 15). The readers read at most
MAX_INPUT_BYTES and decode strictly; the parsers' own limits (Python's
recursion limit, its limit on the digits of an integer) surface as exceptions
that `describe` turns into that one line, once, in controller/cli.py.
"""

from __future__ import annotations

import json
import sys
import tomllib

MAX_INPUT_BYTES = 16 * 1024 * 1024   # a round record or a hand history is a few kilobytes


class InputError(ValueError):
    """The input cannot be read as text of a sane size; the message names it and says why."""


def read_text(path: str, *, limit: int = MAX_INPUT_BYTES) -> str:
    """The whole of `path` (or stdin for "-") as UTF-8 text; InputError naming the file otherwise."""
    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            raw = getattr(sys.stdin, "buffer", None)   # None when a caller put a text stream in its place
            data = raw.read(limit + 1) if raw is not None else sys.stdin.read(limit + 1).encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"{name}: larger than {limit // (1024 * 1024)} MiB; not a record this command reads")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start}: {exc.reason})") from None


def describe(exc: BaseException) -> str | None:
    """One line for an error a bad input causes, or None for anything else (a bug)."""
    if isinstance(exc, InputError):
        return str(exc)
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    if isinstance(exc, UnicodeError):
        return f"not UTF-8 text ({getattr(exc, 'reason', exc)})"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    if isinstance(exc, tomllib.TOMLDecodeError):
        return f"not valid TOML: {_one_line(str(exc))}"
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        return "a number with too many digits (more than 4300)"
    if isinstance(exc, MemoryError):
        return "too large to read"
    return None


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
