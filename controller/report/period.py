"""Which stretch of the journal a report covers: a gaming day, a shift of it, or --from/--to.

A gaming day starts at the profile's `gaming_day_start` on the casino's clock
(`timezone`), not at midnight UTC, so a night's play falls in one day; its three
shifts are its thirds. The bounds come out as the journal writes times (ISO,
UTC, microseconds), so comparing them with an entry's time is comparing strings;
the period keeps its zone, so the report's hours are the casino's too.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

SHIFTS = 3


class PeriodError(ValueError):
    """A period the report cannot cover (says why)."""


class Period(tuple):
    """(from, to) as ISO UTC, and `zone`: the casino's clock the period was asked on."""

    zone: str

    def __new__(cls, start: str, end: str, zone: str = "UTC") -> "Period":
        self = super().__new__(cls, (start, end))
        self.zone = zone
        return self


def iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str, zone: ZoneInfo) -> datetime:
    """An ISO time or date; without an offset it is on the casino's clock."""
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise PeriodError(f"{text!r} is not an ISO time (2026-12-01T06:00 or 2026-12-01)") from None
    return t if t.tzinfo is not None else t.replace(tzinfo=zone)


def gaming_day_of(now: datetime, day_start: str, zone: ZoneInfo) -> date:
    """The gaming day a moment falls in (before the day start it is still yesterday's)."""
    local = now.astimezone(zone)
    start = time.fromisoformat(day_start)
    return local.date() if local.time() >= start else local.date() - timedelta(days=1)


def resolve(*, day: str | None = None, shift: int | None = None, start: str | None = None,
            end: str | None = None, day_start: str = "06:00", zone_name: str = "UTC",
            now: datetime | None = None) -> Period:
    """(from, to) of the period asked for; by default today's gaming day."""
    try:
        zone = ZoneInfo(zone_name)
    except (KeyError, ValueError):
        raise PeriodError(f"unknown time zone {zone_name!r}") from None
    if start is not None or end is not None:
        if day is not None or shift is not None:
            raise PeriodError("give a gaming day (and shift) or --from/--to, not both")
        lo = parse_time(start, zone) if start else datetime(1970, 1, 1, tzinfo=timezone.utc)
        hi = parse_time(end, zone) if end else datetime(9999, 1, 1, tzinfo=timezone.utc)
        if hi <= lo:
            raise PeriodError("--to must come after --from")
        return Period(iso(lo), iso(hi), zone_name)
    if day is None:
        d = gaming_day_of(now or datetime.now(timezone.utc), day_start, zone)
    else:
        try:
            d = date.fromisoformat(day)
        except ValueError:
            raise PeriodError(f"{day!r} is not a date (2026-12-01)") from None
    opens = datetime.combine(d, time.fromisoformat(day_start), tzinfo=zone)
    closes = datetime.combine(d + timedelta(days=1), time.fromisoformat(day_start), tzinfo=zone)
    opens, closes = opens.astimezone(timezone.utc), closes.astimezone(timezone.utc)
    if shift is not None:
        if not 1 <= shift <= SHIFTS:
            raise PeriodError(f"a gaming day has shifts 1 to {SHIFTS}")
        length = (closes - opens) / SHIFTS   # a day of 23 or 25 hours has shorter or longer shifts
        opens, closes = opens + length * (shift - 1), opens + length * shift
    return Period(iso(opens), iso(closes), zone_name)
