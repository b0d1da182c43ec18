"""`tablectl par --config PROFILE [--json]`: the par sheet of the profile's game.

Each game's sheet is its books' (controller/games/game.py BooksPart `par`): the
rules that determine it, its figures, its text. A game whose first sheet needs a
long count (Caribbean stud counts every deal once a machine, then caches the count
table) says so before it counts. Run as `python -m controller.par.cli` by the
table's background job (background.py), at the lowest priority.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from controller.par.sheet import sheet_of


def render(s: dict) -> str:
    """The sheet as its game writes it (its books' `par`)."""
    return "\n".join(sheet_of(s["game"]).render(s))


def main(args) -> int:
    from controller.config import ConfigError, load_profile
    from controller.par.sheet import cached, compute

    from controller.appliance import profile_path

    try:
        profile = load_profile(profile_path(args.config))   # a file, or a packaged profile by name
    except ConfigError as exc:
        for issue in exc.issues:
            print(issue, file=sys.stderr)
        return 2
    game = sheet_of(profile.game)   # a game whose sheet needs a long count once says so, and what it counts
    if (game.counted is not None and not getattr(args, "quiet", False)
            and cached(profile) is None and not game.counted()):
        print(f"tablectl par: {game.counting}", file=sys.stderr, flush=True)
    s = compute(profile)
    if getattr(args, "quiet", False):
        return 0
    print(json.dumps(s, indent=2) if args.json else render(s))
    return 0


def _background() -> int:
    """The table's job: fill the cache at the lowest priority, printing nothing."""
    parser = argparse.ArgumentParser(prog="python -m controller.par.cli")
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    try:
        os.nice(19)
    except OSError:
        pass
    args.json, args.quiet = False, True
    return main(args)


if __name__ == "__main__":
    sys.exit(_background())
