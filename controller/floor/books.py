"""The floor's figures kept up to date: each table's facts folded in as they arrive, never read twice.

`tablectl floor report` adds up every fact of the period each time it runs (controller/floor/cli.py
`floor_report`): right for a report, too slow for a view the pit watches, since a day of a hundred
busy tables is hundreds of thousands of facts. The floor view keeps one fold a table
(controller/report/figures.py `TableTally`, the report's own adding-up) and, at each read, takes
only the facts stored since the last (a table's facts are keyed by its journal's entries, sent in
their order: controller/floor/outbox.py), so its figures are the report's, at the cost of what is new.
A new gaming day, a table new to the floor, or a par a table sends for the first time or changes
starts that table's fold again from its first fact.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg

NEW_FACTS = """
SELECT f.table_id, f.seq, f.body
FROM unnest(%s::text[], %s::bigint[]) AS l(table_id, seq)
JOIN floor.facts f ON f.table_id = l.table_id AND f.seq > l.seq
ORDER BY f.table_id, f.seq"""


class FloorBooks:
    """Every table's fold for one period; `read` brings them up to date and gives the floor report's dict."""

    def __init__(self) -> None:
        self.period: tuple[str, str] | None = None
        self.tallies: dict[str, Any] = {}        # table -> figures.TableTally
        self.last: dict[str, int] = {}           # table -> the last fact's seq folded in
        self.par_said: dict[str, str] = {}       # table -> the par it sent, as text (a change starts again)

    def read(self, conn: psycopg.Connection, period: Any) -> dict[str, Any]:
        from controller.floor import admin
        from controller.report import figures
        key = (period[0], period[1])
        if key != self.period:
            self.period, self.tallies, self.last, self.par_said = key, {}, {}, {}
        zone = getattr(period, "zone", "UTC")
        pars = admin.pars(conn)
        said = {t: json.dumps(body.get("par"), sort_keys=True) for t, (body, _) in admin.statuses(conn).items()}
        games = admin.tables(conn)
        for table, game in games:
            par = said.get(table, "null")   # a table that has sent no status has sent no par
            if table not in self.tallies or par != self.par_said[table]:
                self.tallies[table] = figures.TableTally(table, game, *key, zone=zone, par=pars.get(table))
                self.last[table] = 0
                self.par_said[table] = par
        names = [t for t, _ in games]
        with conn.transaction(), conn.cursor(name="floor_new_facts") as cur:
            cur.itersize = 5000
            cur.execute(NEW_FACTS, (names, [self.last[t] for t in names]))
            for table, seq, body in cur:
                tally = self.tallies[table]
                tally.take(body)
                for also in body.get("with") or ():   # read from the same journal entry (floor/outbox.py)
                    tally.take(also)
                self.last[table] = seq
        return figures.report(key, [self.tallies[t].report() for t in names])
