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
from typing import Any, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict


class Event(BaseModel):
    """An event as declared: strict types, nothing else in the object, frozen once read.

    This is what the round receives, from the boundary (`admitted`) or read again from the journal
    (`journaled`): its fields by name (`e.seat`), typed as declared, and only so: it is not a mapping
    (`e["seat"]` raises), so no reader can take a default the sender left out for one it gave, or
    miss a field mypy would have named. The journal keeps `journal()`: the given fields, cards as
    their text; `given()` the given fields as the round takes them.
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


E = TypeVar("E", bound=Event)


def as_declared(event: Event, model: type[E]) -> E:
    """The event as the declaration its handler reads it by (`e.seat`, typed): the boundary admitted
    it as that model, so any other is a caller's bug (an event built by hand, or declared twice) and
    fails loudly, never a refusal the round would journal as the dealer's."""
    if not isinstance(event, model):
        raise TypeError(f"{event.type} is read here as {model.__module__}.{model.__name__}, not "
                        f"{type(event).__module__}.{type(event).__name__}: read it with boundary.admitted")
    return event


Declaration: TypeAlias = "type[Event]"   # (an alias: inside a declaration, its field `type` hides the builtin)

DECLARED: dict[str, list[type[Event]]] = {}   # event type -> every declaration of it, in declaration order


def _declared_type(model: type[BaseModel]) -> str | None:
    """The one value of a declaration's `type` field (None: not an event's declaration)."""
    f = model.model_fields.get("type")
    args = typing.get_args(f.annotation) if f is not None else ()
    return args[0] if len(args) == 1 and isinstance(args[0], str) else None
