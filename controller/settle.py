"""`tablectl settle`: one round record in, the settled round out (docs/ROUNDS.md).

The live table writes the same record to its journal and settles it with the
same functions, so this command is how a dispute is re-settled by hand.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from controller.games import registry
from controller.records import RecordError, loads



def settle(record: Any) -> dict:
    """Settle a parsed record; RecordError names the field of an invalid one."""
    if not isinstance(record, dict):
        raise RecordError("", "a round record is a JSON object")
    game = registry.find(record.get("game"))
    settling = game.books.settle if game is not None else None
    if settling is None:
        by_record = [n for g in registry.games() if g.books.settle is not None for n in g.names]
        raise RecordError("game", f"must be one of {', '.join(by_record)}, not {json.dumps(record.get('game'))}")
    return dict(settling(record))


def main(args) -> int:
    from controller.inputs import InputError, read_text
    try:
        text = read_text(args.file)
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    try:
        result = settle(loads(text))
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
