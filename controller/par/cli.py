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


def recount(args: argparse.Namespace) -> int:
    """`tablectl par --recount`: each count table a game ships counted again, and held to its bytes."""
    import hashlib
    from pathlib import Path

    from controller.games.registry import games

    tables = [(g.key, g.books.par.recount) for g in games() if g.books.par.recount is not None]
    if not tables:
        print("tablectl par: no game here ships a counted table", file=sys.stderr)
        return 2
    if args.out and len(tables) > 1:
        print("tablectl par: --out takes one table, and several games ship one", file=sys.stderr)
        return 2
    differ = False
    for key, again in tables:
        print(f"tablectl par: counting the {key} table again (a minute or more)", file=sys.stderr, flush=True)
        try:
            data, ships = again()
        except RuntimeError as exc:
            print(f"tablectl par: {exc}", file=sys.stderr)
            return 2
        if args.out:
            Path(args.out).write_bytes(data)
        same = data == ships
        differ = differ or not same
        print(f"{key} count table: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}; "
              + ("the same bytes as the table this package ships" if same
                 else "DIFFERS from the table this package ships"))
    return 1 if differ else 0


def main(args) -> int:
    from controller.config import ConfigError, load_profile
    from controller.par.sheet import cached, compute

    from controller.appliance import profile_path

    if getattr(args, "recount", False):
        return recount(args)
    if not args.config:
        print("tablectl par: --config is needed (or --recount)", file=sys.stderr)
        return 2
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
