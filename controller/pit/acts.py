"""The books' acts as the table takes them: which event is which act, and the entry it journals.

The screens and the dealer's console submit the events controller/boundary.py declares (TABLE_OWN);
the table journals each as one `pit` entry, the act's payload (books.py), before anything shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.pit.books import BooksRefused, act

# the event's type -> the act (a supervisor's, but the buy-in: the dealer's)
EVENT_ACTS = {"pit_inventory": None, "pit_fill": "fill", "pit_credit": "credit", "pit_drop": "drop",
              "buy_in": "buy-in"}


def entry(kind: str, event: Mapping[str, Any], who: str | None, source: str) -> dict[str, Any]:
    """The `pit` entry's payload of an admitted event, or BooksRefused."""
    fields = dict(event)
    if kind == "pit_inventory":
        name = fields.get("inventory")
        if name not in ("opener", "closer"):
            raise BooksRefused("inventory: the opener or the closer")
        which = str(name)
    else:
        which = str(EVENT_ACTS[kind])
    if kind == "pit_drop":
        fields["second"] = fields.get("second_signer")
        if not fields["second"]:
            raise BooksRefused("the drop is signed by two supervisors: the second signs with their PIN")
    return act(which, fields, who or "dealer", source="panel" if source == "panel" else "screen")
