"""What can go wrong on a link, told apart by what the table must do about it.

LinkDown: the database could not be reached in time; the operation stays in
the outbox and is sent again when the link is back (5321.18(c)).
LinkRefused: the pool refused the operation for a reason that no retry cures
(a bad round, a seat without a wager, parameters that changed, a role that is
not this table); a person must look at it.
MeterHeld: a table's session may be holding the meter row against the others;
the client asks the pool to cut it off (link.cut_off_holders) and sends again.
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
    "LK011": "the pool is retired",
    "LK040": "a table of the other mode (test or live)",
    "LK041": "a table that does not state its mode, on a live link",
}
# The hint of the pool's "lock not available" when a table's session may be holding the meter
# row (schema.sql link._cut_off_hint; a client of before issue 26 takes it as the row held: later).
CUT_OFF_HINT = "link.cut_off_holders(pool)"


class LinkError(Exception):
    pass


class LinkDown(LinkError):
    """The pool could not be reached within the link's timeout."""


class MeterHeld(LinkError):
    """The meter row may be held by another table's session: ask for the cut-off, then send again."""


class LinkRefused(LinkError):
    """The pool refused the operation; `code` is the SQLSTATE (LKnnn for the pool's own refusals)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def translate(exc: BaseException) -> LinkError:
    """A psycopg error as LinkDown (retry later), MeterHeld (cut the holder off, then retry) or
    LinkRefused (retrying will not help)."""
    if isinstance(exc, psycopg.Error) and exc.sqlstate == "55P03" \
            and (getattr(exc.diag, "message_hint", None) or "").startswith(CUT_OFF_HINT):
        return MeterHeld(_first_line(exc))
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
