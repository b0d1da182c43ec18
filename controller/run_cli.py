"""`tablectl run`: the table as a service, from its profile to its exit status.

Apart from controller/table.py so the table stays one thing, the queue and its
consumer, and the command's concerns (the profile read, the log set up, the
signals, the exit status systemd and the operator read) live here.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys

from controller.journal.store import JournalBusy
from controller.table import StartFailed, Table


def run_main(args) -> int:
    from controller.config import ConfigError, load_profile
    from controller.logs import configure
    try:
        from controller.appliance import profile_path
        profile = load_profile(profile_path(args.config))   # a file, or a packaged profile by name
    except ConfigError as exc:
        for issue in exc.issues:
            print(f"tablectl run: {issue}", file=sys.stderr)
        return 2
    if args.rounds is not None and args.rounds < 1:
        print("tablectl run: --rounds must be 1 or more", file=sys.stderr)
        return 2
    from controller.testmode import ModeRefused, refusal
    emulate = bool(args.emulate or args.autoplay)   # autoplay's players and dealer are emulated: test mode
    refused = refusal(profile, emulate=emulate)
    if refused is not None:
        print(f"tablectl run: {refused}", file=sys.stderr)
        return 2
    configure(profile.logging.level, profile.logging.format, stream=sys.stderr if args.autoplay else None,
              table=profile.table.id)
    table = Table(profile, data_dir=args.data_dir, autoplay=args.autoplay, rounds=args.rounds, seed=args.seed,
                  out=sys.stdout if args.autoplay else None, emulate=emulate)
    try:
        return asyncio.run(_run(table))
    except (JournalBusy, ModeRefused) as exc:
        print(f"tablectl run: {exc}", file=sys.stderr)
        return 2


async def _run(table: Table) -> int:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, table.stop)
    try:
        try:
            await table.start()
        except StartFailed:
            return 1   # logged once where it failed; systemd sees a failed start, not READY
        await table.wait()
        if table.fault and table.autoplay:
            print(json.dumps({"fault": table.fault}), flush=True)
        return table.exit_status
    finally:
        await table.close()
