"""Test mode is never play (9 NYCRR 5319.58): what makes a table a test table, and how that is said.

A table whose profile leaves a device out would deal from an emulator; that is a
demonstration, never a game a meter, report, floor or pool may count. So the
command refuses such a profile unless the operator asks for it (`--emulate`;
`--autoplay`, emulated players and dealer, implies it), and a test table's
journal says so in its first entry (`journal-created`'s `mode`), which every
reader of the journal (the report, the floor, the pool) looks at before it
counts anything.
"""

from __future__ import annotations

from typing import Any

TEST, LIVE = "test", "live"
WARNING = "emulated devices: not for play"
LABEL = "TEST MODE"


def missing_devices(profile: Any) -> list[str]:
    """The devices the profile's game needs that the profile does not name (they would be emulated)."""
    from controller.games import registry
    needs = registry.game(profile.game).devices
    named = profile.devices
    wanted = {"shoe": needs.shoe is not None and needs.reader(profile), "shuffler": needs.shuffler,
              "progressive": needs.progressive}
    return [name for name, use in wanted.items() if use and getattr(named, name) is None]


def refusal(profile: Any, *, emulate: bool) -> str | None:
    """Why `tablectl run` will not start this profile as asked (one line), or None."""
    missing = missing_devices(profile)
    if missing and not emulate:
        names = ", ".join(missing)
        return (f"the profile names no {names} (device{'s' if len(missing) > 1 else ''} [devices] "
                f"{names}): a table plays only on real devices; --emulate runs it in test mode")
    return None


def mode_of_genesis(payload: Any) -> str:
    """A journal's mode from its first entry: a journal made before the mark existed is live."""
    return TEST if isinstance(payload, dict) and payload.get("mode") == TEST else LIVE


def journal_mode(journal: Any) -> str:
    """The mode of an open journal (controller/journal/store.py Journal)."""
    first = journal.get(1)
    return mode_of_genesis(first.payload if first is not None else None)


class ModeRefused(Exception):
    """A test table asked to write a live journal, or a live table a test one: never mixed."""

    def __init__(self, found: str, asked: str, directory: Any) -> None:
        self.found, self.asked = found, asked
        super().__init__(f"{directory} holds a {found} journal; a {asked} table may not write it"
                         + (" (--emulate or --autoplay makes a test table)" if found == TEST else
                            " (a test table's journal is kept apart: give it a data directory of its own)"))


def settle_mode(conn: Any, schema: str, test: bool) -> tuple[str, str]:
    """A database's mode (the floor's or the link's `<schema>.settings`), set the first time it is
    installed (live unless `test`) and never changed after: (the mode it has, the mode asked)."""
    from psycopg import sql   # only the floor's and the link's tools reach here

    asked = "test" if test else "live"
    settings = sql.Identifier(schema, "settings")
    conn.execute(sql.SQL("INSERT INTO {} (only_row, mode) VALUES (true, %s) ON CONFLICT (only_row) DO NOTHING")
                 .format(settings), (asked,))
    row = conn.execute(sql.SQL("SELECT mode FROM {}").format(settings)).fetchone()
    return (row[0] if row is not None else asked), asked
