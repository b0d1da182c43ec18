"""What can go wrong on a link, told apart by what the table must do about it.

LinkDown: the database could not be reached in time; the operation stays in
the outbox and is sent again when the link is back (5321.18(c)).
LinkRefused: the pool refused the operation for a reason that no retry cures
(a bad round, a seat without a wager, parameters that changed, a role that is
not this table); a person must look at it.
"""

from __future__ import annotations

import psycopg

CODES = {
    "LK001": "not a table of the pool",
    "LK002": "conflicts with a recorded operation",
    "LK003": "pool parameters changed",
    "LK005": "invalid",
    "LK006": "a table of the pool is live",
    "LK007": "no contribution for the round",
    "LK008": "no such award",
    "LK009": "not borne out by the pool's records",
    "LK010": "no such pool",
}


class LinkError(Exception):
    pass


class LinkDown(LinkError):
    """The pool could not be reached within the link's timeout."""


class LinkRefused(LinkError):
    """The pool refused the operation; `code` is the SQLSTATE (LKnnn for the pool's own refusals)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def translate(exc: BaseException) -> LinkError:
    """A psycopg error as LinkDown (retry later) or LinkRefused (retrying will not help)."""
    if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError, TimeoutError, OSError)):
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            return LinkRefused(exc.sqlstate or "42501", _first_line(exc))
        if isinstance(exc, psycopg.OperationalError) and getattr(exc, "sqlstate", None) in (
                "28P01", "28000"):  # authentication failed: no retry cures a wrong credential
            return LinkRefused(exc.sqlstate or "28000", _first_line(exc))
        return LinkDown(_first_line(exc) or type(exc).__name__)
    if isinstance(exc, psycopg.Error):
        state = exc.sqlstate or ""
        if state.startswith(("08", "57P", "53", "40")):  # connection, shutdown, resources, serialization
            return LinkDown(_first_line(exc))
        if state in ("55P03", "57014"):  # the meter row held (lock timeout), a statement timed out: retry
            return LinkDown(_first_line(exc))
        return LinkRefused(state, _first_line(exc))
    return LinkDown(f"{type(exc).__name__}: {exc}")


def _first_line(exc: BaseException) -> str:
    diag = getattr(exc, "diag", None)
    primary = getattr(diag, "message_primary", None) if diag is not None else None
    return primary or (str(exc).strip().splitlines() or [""])[0]
