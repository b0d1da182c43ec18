"""The floor: every table's closed rounds, meter readings and significant events in the link's
PostgreSQL, for `tablectl floor report` (README.md). Each table sends its own facts under
its own role; see sender.py for how a table that cannot reach the server catches up."""
