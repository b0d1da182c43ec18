"""Operator logs: structlog, configured once per process.

The journal is the audit record; these logs are for whoever looks after the
box. On a box stdout goes to journald, which stores each JSON line as it is,
so that is the default, each line led by its syslog priority ("<4>" a warning)
when stdout is the journal's stream, so journald files it at that level; a person running the table in a terminal gets
structlog's readable console lines instead. The table and the round (and a
device, inside a driver) are bound through contextvars, so every line says
which table and round it is about without each call passing them along, and
an asyncio task started inside `round_context` carries the round with it.

Libraries that log through the standard library (transitions, pyusb) are
routed through the same renderer, so journald never sees two formats.

Only `tablectl run` and the drivers import this module: it imports
structlog, which the one-shot commands must not pay for.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import IO, Any, TextIO

import structlog
from structlog.contextvars import bind_contextvars, bound_contextvars, unbind_contextvars

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR}
FORMATS = ("auto", "json", "console")

_configured = False
REPEAT_EVERY = 60.0   # seconds between the lines of a failure that keeps repeating (Repeating)
_round: str | None = None   # the round in play, for lines of tasks that did not inherit the binding


def _json_default(value: Any) -> Any:
    # Enums (round states), Paths and Cards (whose str is "As") read better as text.
    return str(value)


def _serialize(event: dict, **kwargs: Any) -> str:
    return json.dumps(event, default=_json_default, ensure_ascii=False)


# syslog priorities (sd-daemon(3)): journald reads a line's leading "<N>" as its priority
PRIORITY = {"debug": 7, "info": 6, "warning": 4, "error": 3, "critical": 2, "exception": 3}


def under_journald(stream: IO[str], environ: dict[str, str] | None = None) -> bool:
    """Whether `stream` is the journal's own stream: $JOURNAL_STREAM names its device and inode
    (systemd.exec(5)), so a redirected stdout under a journald unit is not taken for it."""
    named = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    try:
        dev, ino = (int(part) for part in named.split(":"))
        st = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (dev, ino)


class _Prioritised:
    """A renderer whose lines start with their syslog priority, so `journalctl -p warning` finds them;
    the JSON after the prefix is the same line other sinks get."""

    def __init__(self, renderer: Callable[..., str]) -> None:
        self.renderer = renderer

    def __call__(self, logger: object, name: str, event: dict[str, Any]) -> str:
        level = str(event.get("level", name))
        return f"<{PRIORITY.get(level, 6)}>{self.renderer(logger, name, event)}"


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def configure(level: str = "info", format: str = "auto", *, stream: TextIO | None = None,
              table: str | None = None, force: bool = False) -> None:
    """Configure structlog (and the standard library's root logger) for this process.

    `format` "auto" picks the console renderer when the stream is a terminal
    and JSON lines otherwise. A second call does nothing unless `force`, so a
    library or test that calls it again cannot reset the table's setup
    half-way through a round. `stream` None means whatever sys.stdout is when
    a line is written.
    """
    global _configured  # noqa: PLW0603  (the process has one logging setup: module state on purpose)
    if _configured and not force:
        if table is not None:
            bind_table(table)
        return
    if level not in LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LEVELS)}, not {level!r}")
    if format not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {format!r}")
    if format == "auto":
        format = "console" if _is_terminal(stream or sys.stdout) else "json"

    shared: list = [
        structlog.contextvars.merge_contextvars,
        _add_round,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if format == "json":
        renderer: Any = structlog.processors.JSONRenderer(serializer=_serialize)
        if under_journald(stream or sys.stdout):
            renderer = _Prioritised(renderer)
        finish: list = [structlog.processors.format_exc_info]
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=_is_terminal(stream or sys.stdout))
        finish = []

    structlog.configure(
        processors=[*shared, structlog.processors.StackInfoRenderer(), *finish, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[level]),
        logger_factory=structlog.PrintLoggerFactory(file=stream),
        cache_logger_on_first_use=False,
    )

    handler: logging.Handler = logging.StreamHandler(stream) if stream is not None else _StdoutHandler()
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *finish, renderer],
    ))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_tablectl", False)]:
        root.removeHandler(old)
    handler._tablectl = True  # type: ignore[attr-defined]  # our mark, to find our handler at the next configure
    root.addHandler(handler)
    root.setLevel(LEVELS[level])
    # transitions logs every state change at INFO; the journal already records them.
    logging.getLogger("transitions").setLevel(max(LEVELS[level], logging.WARNING))
    # pyusb silences its own logger when imported (level CRITICAL + 10); a technician
    # swapping a device needs its warnings, so it follows the root level like the rest.
    # Imported here first so that the reset is not undone by a later first import.
    import usb  # noqa: F401
    logging.getLogger("usb").setLevel(logging.NOTSET)

    _configured = True
    if table is not None:
        bind_table(table)


class _StdoutHandler(logging.StreamHandler):
    """Writes to whatever sys.stdout is at the time (so a redirected stdout is honoured)."""

    def __init__(self) -> None:
        super().__init__(sys.stdout)

    @property
    def stream(self) -> IO[str]:
        return sys.stdout

    @stream.setter
    def stream(self, value: IO[str]) -> None:
        pass


def get_logger(name: str | None = None, **initial: Any) -> Any:
    """A structlog logger; `name` becomes the `logger` field (a module or device)."""
    log = structlog.get_logger(**initial)
    return log if name is None else log.bind(logger=name)


def bind_table(table: str) -> None:
    """Bind the table id for this context and every task started from it."""
    bind_contextvars(table=table)


def _add_round(logger: Any, method: str, event: dict) -> dict:
    # The drivers' and the dealer's tasks were started before the round opened, so their
    # contextvars never saw it bound; one table runs per process, so the process knows its round.
    if _round is not None:
        event.setdefault("round", _round)
    return event


def bind_round(round_id: str) -> None:
    """Bind the round in play; the table's consumer calls this when a round opens."""
    global _round  # noqa: PLW0603  (the round the process logs under: module state on purpose)
    _round = round_id
    bind_contextvars(round=round_id)


def unbind_round() -> None:
    """Forget the round once it is closed, so lines between rounds carry none."""
    global _round  # noqa: PLW0603  (the round the process logs under: module state on purpose)
    _round = None
    unbind_contextvars("round")


class Repeating:
    """A failure that repeats (a jammed shoe asked again every 300 ms) is logged once, then
    with a count at most every `every` seconds, and once more when it stops: journald keeps
    the story without the flood that would push everything else out of its rate limit."""

    def __init__(self, log: Any, event: str, *, every: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log, self.event, self.clock = log, event, clock
        self.every = REPEAT_EVERY if every is None else every
        self.count = 0          # failures since the first, in this run of failures
        self._unlogged = 0
        self._logged_at = 0.0

    def failed(self, **fields: Any) -> None:
        now = self.clock()
        self.count += 1
        if self.count == 1:
            self._logged_at = now
            self.log.warning(self.event, **fields)
            return
        self._unlogged += 1
        if now - self._logged_at >= self.every:
            self.log.warning(self.event, repeated=self._unlogged, failures=self.count, **fields)
            self._unlogged, self._logged_at = 0, now

    def succeeded(self) -> None:
        if self.count > 1:
            self.log.info(f"{self.event}_ended", failures=self.count)
        self.count, self._unlogged = 0, 0


@contextlib.contextmanager
def round_context(round_id: str) -> Iterator[None]:
    """Bind the round for a block and restore what was bound before."""
    with bound_contextvars(round=round_id):
        yield


@contextlib.contextmanager
def device_context(device: str) -> Iterator[None]:
    """Bind a device name for a driver's block or task."""
    with bound_contextvars(device=device):
        yield


def reset() -> None:
    """Forget the configuration and the bound context (tests only)."""
    global _configured, _round
    _configured, _round = False, None
    structlog.contextvars.clear_contextvars()
    structlog.reset_defaults()
