"""The event as a game declares it and as its round takes it: one model, from the door to the machine.

controller/boundary.py validates what each source sends against the declarations (each game's
events.py, with the boundary's field types), and what it admits is this model: the round and its
machine read its fields by name, typed (`e.seat`), never a dict they must check again. The journal
keeps `journal()`: the fields the sender gave, cards as their text; recovery and `rounds show` read
it back into the same declaration (boundary.journaled, through `DECLARED`). It lives here, below the
boundary and the games, so that the rounds' shared code (controller/games/base.py) takes it without
importing the door.
"""

from __future__ import annotations

import typing
from typing import Any, TypeAlias

from pydantic import BaseModel, ConfigDict


class Event(BaseModel):
    """An event as declared: strict types, nothing else in the object, frozen once read.

    This is what the round receives, from the boundary (`admitted`) or read again from the journal
    (`journaled`): its fields by name (`e.seat`), typed as declared. A handler that has not moved to
    its fields yet reads it as it read the journal's object: `e["seat"]`, `e.get("reason")` and `"seat"
    in e` see the fields that were given (a default the sender left out is absent, as it was from
    the object), read-only. The journal keeps `journal()`: the given fields, cards as their text.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    if typing.TYPE_CHECKING:   # each declaration's Literal (declared there, so pydantic checks it)
        type: str

    @classmethod
    def signed(cls) -> Declaration | None:
        """A supervisor's decision as submitted: the model the round takes it as, the signed-in
        supervisor named by the table (controller/runtime/tablestate.py round_event); None: the round
        takes the event as it came."""
        return None

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        kind = _declared_type(cls)
        if kind is not None:
            DECLARED.setdefault(kind, []).append(cls)

    def given(self) -> dict[str, Any]:
        """The fields the sender gave (and the type), as the round takes them (cards as `Card`)."""
        return {"type": self.type, **{k: getattr(self, k) for k in self.model_fields_set}}

    def journal(self) -> dict[str, Any]:
        """The event as the journal keeps it: the fields given, each card as its text ("Qh")."""
        return {"type": self.type, **self.model_dump(mode="json", exclude_unset=True)}

    # -- read as the journal's object (the handlers not yet moved to the fields) ------------------

    def __getitem__(self, name: str) -> Any:
        if name == "type" or name in self.model_fields_set:
            return getattr(self, name)
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:
        return getattr(self, name) if name == "type" or name in self.model_fields_set else default

    def __contains__(self, name: object) -> bool:
        return name == "type" or name in self.model_fields_set

    def keys(self) -> list[str]:
        return list(self.given())


Declaration: TypeAlias = "type[Event]"   # (an alias: inside a declaration, its field `type` hides the builtin)

DECLARED: dict[str, list[type[Event]]] = {}   # event type -> every declaration of it, in declaration order


def _declared_type(model: type[BaseModel]) -> str | None:
    """The one value of a declaration's `type` field (None: not an event's declaration)."""
    f = model.model_fields.get("type")
    args = typing.get_args(f.annotation) if f is not None else ()
    return args[0] if len(args) == 1 and isinstance(args[0], str) else None
