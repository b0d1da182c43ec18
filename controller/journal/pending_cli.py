"""`tablectl meters apply-pending --config PROFILE [--data-dir DIR] [--secrets FILE]`: a pending change of
the progressive meter's parameters put into effect at once, the table stopped (issue 29).

The same step as the supervisor's screen (`apply_pending`), signed by two different supervisors of the
screens' secrets file, each PIN read from the terminal or stdin (the id, then the PIN, a line each), never
the command line. The table is rebuilt from its journal as it would be at its start, each signer's event is
taken by the table's own state (so the game decides what applies and what is refused), and the events and
what they did are journaled as the table journals them; the table replays them at its next start.
"""

from __future__ import annotations

import sys
from typing import Any

from controller import paths

VIA = "tablectl meters apply-pending"


def main(args: Any) -> int:
    from controller import boundary   # the table's events: loaded by this command only
    from controller.config import load_profile
    from controller.credentials import SignatureRefused, secrets_file, signatures
    from controller.games.base import EventRefused
    from controller.journal.store import Journal, JournalBusy, JournalError
    from controller.runtime.tablestate import RecoveryError, TableState
    if not getattr(args, "config", None):
        print("tablectl meters apply-pending: --config PROFILE: the table's profile", file=sys.stderr)
        return 2
    try:
        profile = load_profile(args.config)
        secrets = secrets_file(args)
    except (ValueError, OSError) as exc:
        print(f"tablectl meters apply-pending: {exc}", file=sys.stderr)
        return 2
    directory = paths.data_dir(getattr(args, "data_dir", None), create=False)
    try:
        journal = Journal.open(directory)
    except JournalBusy:
        print("tablectl meters apply-pending: the table is running; apply the change on the supervisor's screen",
              file=sys.stderr)
        return 2
    except JournalError as exc:
        print(f"tablectl meters apply-pending: {exc}", file=sys.stderr)
        return 2
    try:
        snap = journal.latest_snapshot()
        try:
            if snap is None:
                state, since = TableState(profile), 0
            else:
                state, since = TableState.from_snapshot(profile, snap.payload), snap.seq
            state.replay(journal.entries_since(since))
        except (RecoveryError, KeyError, TypeError, ValueError) as exc:
            print(f"tablectl meters apply-pending: the journal does not rebuild the table: {exc}", file=sys.stderr)
            return 2
        meter = state.current_meter()
        if state.round is not None and not state.round.closed:
            print(f"tablectl meters apply-pending: round {state.round.round_id} is in progress; a change applies "
                  "between rounds", file=sys.stderr)
            return 2
        if meter is None or meter.pending is None:
            print("tablectl meters apply-pending: no change of the meter's parameters is pending", file=sys.stderr)
            return 1
        change = meter.pending
        print(f"pending: rate {change['contribution_bp']} bp, reset {change['reset']}, limit {change.get('limit')}; "
              f"the meter stands at {meter.amount} (overflow {meter.overflow}) and is carried over")
        try:
            signers = signatures(secrets, sys.stdin, sys.stderr, 2)
        except SignatureRefused as exc:
            print(f"tablectl meters apply-pending: {exc}", file=sys.stderr)
            return 2
        near = state.round_class().__module__.rpartition(".")[0]
        rows: list[tuple[str, Any, str | None]] = []
        for who in signers:
            raw = {"type": "apply_pending"}
            event = boundary.journaled(raw, boundary.SUPERVISOR, state.events, near=near)
            if isinstance(event, str):
                print(f"tablectl meters apply-pending: {event}", file=sys.stderr)
                return 2
            try:
                effects = state.table_event(event, who)
            except EventRefused as exc:
                journal.append("refused", boundary.record(raw, "terminal", who, str(exc)))   # bounded
                print(f"tablectl meters apply-pending: refused: {exc}", file=sys.stderr)
                return 2
            rows.append(("event", {"event": raw, "source": boundary.SUPERVISOR, "who": who, "via": VIA}, None))
            rows += [(e["kind"], e["payload"], None) for e in effects if e["type"] == "journal"]
        journal.append_many(rows)
        print(f"applied at once, signed by {signers[0]} and {signers[1]}: rate {meter.contribution_bp} bp, reset "
              f"{meter.reset_amount}, limit {meter.limit}; the meter {meter.amount} carried over")
        return 0
    finally:
        journal.close()
