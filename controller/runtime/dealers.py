"""The dealer on duty (issue 30): a person, signed in at the table by badge, at the start and at each
rotation, so that every event from the dealer's panel and screen is journaled with who dealt it.

A dealer signs in with the badge id keyed on the console (controller/ui/static/dealer_signin.js
sends `dealer_on_duty`); the sign-in is journaled (kind "dealer") before it takes effect, and the
table takes the last one back from its journal when it starts again, so a restart keeps the
dealer on duty. The panel's events name the dealer on duty in place of the anonymous "dealer" (or
no one, for the screen's): `tablectl rounds show` and `tablectl report` read them from there.
"""

from __future__ import annotations

from typing import Any

from controller import boundary
from controller.games.event import Event, as_declared

KIND = "dealer"            # the journal entry of a dealer's sign-in
PANEL_SOURCES = ("panel",)


class DealerOnDuty:
    """Who deals now; None until a dealer signs in."""

    def __init__(self, pin_required: bool = False) -> None:
        self.badge: str | None = None
        self.name: str | None = None
        self.pin_required = pin_required   # the profile's [dealers] pin = "required" (controller/roster.py)
        self._dealt: dict[str, dict[str, Any] | None] = {}   # round -> who dealt it (the journal's: of_round)

    def who(self, source: str, who: str | None) -> str | None:
        """The person an event from `source` is journaled with: the dealer on duty for the panel and
        the dealer's screen (who come anonymous), anyone else as they named themselves."""
        if source in PANEL_SOURCES and who in (None, "dealer") and self.badge is not None:
            return self.badge
        return who

    def sign_in(self, event: Event, source: str) -> list[tuple[str, dict[str, Any], None]]:
        """A dealer's sign-in: the journal's row (a table entry: it outlives the round it fell in)."""
        signed = as_declared(event, boundary.DealerOnDuty)   # the declaration's fields (controller/boundary.py)
        badge = signed.badge.strip()
        if self.pin_required and not signed.pin_checked:
            from controller.games.base import EventRefused
            raise EventRefused("dealer_on_duty", "sign-in", [], "this table's dealers sign in with their PIN "
                                                                 "(the roster's), checked by the screens")
        before, self.badge, self.name = self.badge, badge, signed.name
        row: dict[str, Any] = {"dealer": badge, "relieves": before, "source": source}
        if self.name:
            row["name"] = self.name
        if self.pin_required:
            row["pin"] = "checked"
        return [(KIND, row, None)]

    def of_round(self, journal: Any, round_id: str) -> dict[str, Any] | None:
        """Who dealt a round: the dealer on duty when it opened, read from the journal (the last sign-in
        before the round's first entry, its opening), {"badge", "name"}; None when nobody was signed in.
        A rotation after the hand does not change it: a hand's (r)(4) tracking form names its dealer,
        not the one on duty when the floorperson verifies it."""
        if round_id in self._dealt:
            return self._dealt[round_id]
        if journal is None:
            return None
        first = journal.first_of_round(round_id)
        if first is None:
            return None
        signed = None
        for e in journal.table_entries(KIND):
            if e.seq > first:
                break
            if isinstance(e.payload, dict) and isinstance(e.payload.get("dealer"), str):
                name = e.payload.get("name")
                signed = {"badge": e.payload["dealer"], "name": name if isinstance(name, str) else None}
        self._dealt[round_id] = signed   # a round's opening and the sign-ins before it never change
        return signed

    def recover(self, journal: Any) -> None:
        """The dealer on duty as the journal left it: the last sign-in."""
        self.badge = self.name = None
        self._dealt.clear()
        if journal is None:
            return
        last = journal.latest(KIND)
        if last is not None and isinstance(last.payload, dict) and isinstance(last.payload.get("dealer"), str):
            self.badge = last.payload["dealer"]
            name = last.payload.get("name")
            self.name = name if isinstance(name, str) else None

    def view(self) -> dict[str, Any]:
        return {"badge": self.badge, "name": self.name}

