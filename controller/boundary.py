"""Who may tell the table what: every event each source may submit, typed, checked where it enters.

The table pays what it is told, so what it is told is bound to who tells it. The
shoe's cards, the shuffler's count, "shoe loaded" and the chips the acceptors
feel come from the drivers inside the process (source "device"), never from a
screen: the screens' server submits only as the dealer ("panel") or as the
signed-in supervisor ("supervisor"), so no request reaches a device event. The
dealer's panel and screen say what the dealer does; only a supervisor validates,
refuses, voids or corrects; only the link to the pool says what the pool paid;
the table itself opens rounds and checks the shoe after a restart. Autoplay
stands in for the dealer and the players, and is checked as the dealer is.

Each event is declared once, with its fields and their types (strict: a seat is
a whole number, a card two characters of the spec's alphabet, read here into a
`Card` (a driver's Card is taken as it is), money whole cents within a bound,
text of bounded length, nothing else in the object). An event
that does not follow its declaration, or that its source may not submit, is
refused here with a reason naming the field, before any round sees it: a
malformed field is a refusal, never an exception inside a round. Whether the
event fits the round's state and rules stays the round's to say.

A refusal is journaled in a bounded form (`sample`): a few hundred bytes of what
was sent, never the whole of it, so whoever can reach the table cannot fill its
disk or stall its loop through the audit trail.

What each source may submit depends on the game: each game declares its own
events (controller/games/<game>/events.py, given by its TablePart.events) with the
types and helpers here; this module keeps what every table shares: the sources,
the bounds and the field types, the events the table itself takes whatever its
game (a round opened, a fault cleared), the check at the door and the refusal's
bounded record. It never asks which game is played: the caller hands it the
table's catalogue by source.
"""

from __future__ import annotations

import functools
import json
import reprlib
import sys
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator, ValidationError, create_model

from controller import cards
from controller.games.event import DECLARED, Declaration, Event
from controller.journal.store import PayloadError, canonical_payload

DEVICE, PANEL, AUTOPLAY, SUPERVISOR, TABLE, LINK = "device", "panel", "autoplay", "supervisor", "table", "link"
SOURCES = frozenset({DEVICE, PANEL, AUTOPLAY, SUPERVISOR, TABLE, LINK})

MAX_SEAT = 11                  # the room's most players at a table (5324.42(a)(1)); each game checks its own
MAX_CENTS = 10**11             # a billion dollars: more is a typing slip or an attack, never a wager
MAX_COUNT = 10_000             # cards in a shoe, a count, a position: eight decks are 416
MAX_TEXT = 500                 # a reason, an anomaly, a name
MAX_WHO = 64
SAMPLE_BYTES = 256             # what a refusal keeps of what was sent
MAX_NODES = 2_000              # an event bigger than this is refused unread (in-process callers; HTTP bounds its own)
MAX_DEPTH = 8

Seat = Annotated[int, Field(ge=1, le=MAX_SEAT)]
Stake = Annotated[int, Field(gt=0, le=MAX_CENTS)]
Cents = Annotated[int, Field(ge=0, le=MAX_CENTS)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Name = Annotated[str, Field(min_length=1, max_length=MAX_WHO)]


def _card(value: object) -> cards.Card:
    """A card where it enters the table, read once: a driver's is a `Card` already (read from its
    frame, drivers/*/protocol.py); a screen's is text, read here; anything else is no card."""
    if isinstance(value, cards.Card):
        return value
    if isinstance(value, str):
        return cards.parse_card(value)   # CardError is a ValueError: pydantic names the field
    raise ValueError(f"{_short(value)} is not a card (two characters, e.g. 'As')")


# A card field: a `Card` from here to the round machine, text only in the journal and the view.
Card = Annotated[cards.Card, PlainValidator(_card), PlainSerializer(str, return_type=str)]
Count_ = Annotated[int, Field(ge=0, le=2**63 - 1)]   # a sequence number



# The event as declared and as the round takes it (controller/games/event.py, below the games and this module).
__all__ = ["DECLARED", "Declaration", "Event"]


Catalogue = Mapping[str, type[BaseModel]]   # the events one source may submit: type -> declaration
Events = Callable[[str], Catalogue]         # a table's catalogue by source (its game's TablePart.events)


def event(kind: str, **fields: Any) -> type[Event]:
    """The declaration of one event: its type and its fields (name=(type, default or ...)). An event a
    reader (or mypy) reads by its fields is better declared as a class of `Event`."""
    # a Literal of a name known only at run time: pydantic takes it, mypy cannot check it; the model
    # is the declaring module's (`journaled` prefers a game's own declarations)
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    model = create_model(f"{kind}_event", __base__=Event, __module__=module,
                         type=(Literal[kind], ...), **fields)  # type: ignore[arg-type]
    return typing.cast("type[Event]", model)


def catalogue_of(*models: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """Declarations by their event's type (the `type` field's one value)."""
    return {typing.get_args(m.model_fields["type"].annotation)[0]: m for m in models}


def joined(*parts: Mapping[str, Catalogue]) -> dict[str, dict[str, type[BaseModel]]]:
    """Catalogues by source, merged in order (a later declaration of a type replaces an earlier)."""
    out: dict[str, dict[str, type[BaseModel]]] = {}
    for part in parts:
        for source, models in part.items():
            out.setdefault(source, {}).update(models)
    return out


class Part(BaseModel):
    """A part of an event (one award of the pool's answer): as strict as the event."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


# -- what every table takes, whatever its game: the table opens rounds; a supervisor clears its faults ------

# a dealer's badge id, as keyed on the console (controller/runtime/dealers.py)
Badge = Annotated[str, Field(min_length=1, max_length=MAX_WHO, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]


class DealerOnDuty(Event):
    """A dealer signs in by badge (controller/runtime/dealers.py); with the roster's name, and whether the
    screens checked the dealer's PIN (controller/roster.py): both set by the screens' server only."""
    type: Literal["dealer_on_duty"] = "dealer_on_duty"
    badge: Badge
    name: Name | None = None
    pin_checked: bool = False


class ClearFault(Event):
    """A supervisor clears the table's fault (controller/table.py: as many as the worst problem needs)."""
    type: Literal["clear_fault"] = "clear_fault"
    reason: Text = ""


class AcceptSoftware(Event):
    """A supervisor accepts the software that faulted the table, which clears its fault (as `ClearFault`)."""
    type: Literal["accept_software"] = "accept_software"
    reason: Text = ""


class CorrectMeter(Event):
    """A supervisor corrects a progressive meter between rounds (two different ones: controller/table.py);
    declared here, as the table's shared code reads it, for each game with a meter to list."""
    type: Literal["correct_meter"] = "correct_meter"
    amount: Cents
    reason: Text = ""


# Issue 29: a hand-pay's form (a W-2G), declared here for each banked game that holds a win for it
# (controller/games/handpay.py). The player's identification (its number on the ID shown) goes into the
# journal and nowhere else in full (`handpay.redacted`); the form's own number.
PlayerId = Annotated[str, Field(min_length=6, max_length=32, pattern=r"^[A-Za-z0-9][A-Za-z0-9 -]*$")]
FormNumber = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9][A-Za-z0-9-]*$")]


class HandPay(Event):
    """A hand-pay's form completed, as the round takes it: the table names the signed-in supervisor,
    who pays it (controller/runtime/tablestate.py round_event)."""
    type: Literal["hand_pay"] = "hand_pay"
    seat: Seat
    player_id: PlayerId
    form: FormNumber
    supervisor: Annotated[str, Field(max_length=MAX_WHO)]


class HandPayAsked(Event):
    """A hand-pay's form as the supervisor's screen submits it (the table signs it: `HandPay`)."""
    type: Literal["hand_pay"] = "hand_pay"
    seat: Seat
    player_id: PlayerId
    form: FormNumber

    @classmethod
    def signed(cls) -> Declaration:
        return HandPay


# the table's books (controller/pit): chips by denomination in cents, each count bounded
Chips = Annotated[dict[Annotated[str, Field(max_length=12)], Count], Field(min_length=1, max_length=16)]

TABLE_OWN: dict[str, dict[str, type[BaseModel]]] = {
    TABLE: catalogue_of(event("next_round")),
    PANEL: catalogue_of(event("next_round"), DealerOnDuty,   # runtime/dealers.py
                        event("buy_in", seat=(Seat, ...), amount=(Stake, ...))),          # controller/pit
    AUTOPLAY: catalogue_of(event("next_round")),
    SUPERVISOR: catalogue_of(ClearFault, AcceptSoftware,
                             event("acknowledge_clock", reason=(Text, "")),   # controller/clock.py
                             event("log_entry", person=(Text, ...), licence=(Text, ...), reason=(Text, ...),
                                   place=(Text, "box")),   # controller/journal/entrylog.py
                             event("pit_inventory", inventory=(Name, ...), chips=(Chips, ...), note=(Text, "")),
                             event("pit_fill", chips=(Chips, ...), carrier=(Badge, ...), slip=(Name, ...),
                                   note=(Text, "")),
                             event("pit_credit", chips=(Chips, ...), carrier=(Badge, ...), slip=(Name, ...),
                                   note=(Text, "")),
                             event("pit_drop", amount=(Stake, ...), note=(Text, ""),
                                   second_signer=(Name | None, None))),   # the second set by the server only
}


# -- the journal's events read again, into the declarations that admitted them -------------------------

def journaled(event: object, source: object, events: Events | None = None, near: str = "") -> Event | str:
    """A journaled event as the round takes it again (recovery, `rounds show`): read into the model
    it was admitted as, its cards read from the journal's text, or why it does not read (a replay that
    does not replay). The declaration is the table's for `source` when `events` is given, else one of
    the event's type, of the package `near` names (the round's game) where it declares the type; a supervisor's
    decision is read as the round took it, signed (`Event.signed`)."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        return 'an event is an object with a "type"'
    kind = event["type"]
    _every_game_declared()
    tried: list[type[BaseModel]] = []
    if events is not None and isinstance(source, str) and source in SOURCES:
        model = events(source).get(kind)
        if model is not None:
            signed = model.signed() if issubclass(model, Event) else None
            tried += [signed, model] if signed is not None else [model]
    declared = DECLARED.get(kind, [])
    own = [m for m in declared if near and m.__module__.startswith(near)]
    tried += own or declared   # the game's own declarations of the type, when it has any
    first: str | None = None
    for model in tried:
        try:
            read = model.model_validate(event)
        except ValidationError as exc:
            first = first or _first_error(exc)
            continue
        if isinstance(read, Event):
            return read
    return first or f"{_short(kind)} is no event declared here"


@functools.cache
def _every_game_declared() -> None:
    """Every registered game's events declared (DECLARED), whatever was imported before: a game's
    round at the table declares its events as it is imported (its TablePart.round)."""
    from controller.games import registry   # the registry's games import this module: asked only here
    for g in registry.games():
        _ = g.table.round


def as_text(event: object) -> Any:
    """The event as the journal keeps it: each card as its text ("Qh"), as a screen writes it (a
    `Card` is an int, which JSON would write as its number); a model, its given fields (`journal`)."""
    if isinstance(event, Event):
        return event.journal()
    return _text(event)


def _text(value: object) -> object:
    if isinstance(value, cards.Card):
        return str(value)
    if isinstance(value, Event):
        return value.journal()
    if isinstance(value, dict):
        return {k: _text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_text(v) for v in value]
    return value


WHO_SAYS = {DEVICE: "a device", TABLE: "the table", PANEL: "the dealer's panel or screen", AUTOPLAY: "autoplay",
            SUPERVISOR: "a supervisor", LINK: "the link to the pool"}


def supervisor_only(events: Events) -> frozenset[str]:
    """The events of a table that only a signed-in supervisor submits (the screens' server asks first)."""
    return frozenset(events(SUPERVISOR))


def refusal(event: Any, source: Any, who: Any, events: Events) -> str | None:
    """Why the table refuses `event` from `source` (`who` acting), or None when it may go to the round.
    `events` is the table's catalogue by source (its game's TablePart.events for its profile)."""
    checked = _checked(event, source, who, events)
    return checked if isinstance(checked, str) else None


def admitted(event: Any, source: Any, who: Any, events: Events) -> Event | str:
    """The event as the round takes it: the model of its declaration, its cards read as
    `controller.cards.Card` (the one reading of a screen's card), or why the table refuses it (as
    `refusal`)."""
    checked = _checked(event, source, who, events)
    if isinstance(checked, str):
        return checked
    if not isinstance(checked, Event):   # a declaration not made with this module's Event: a bug
        raise TypeError(f"{type(checked).__name__} is not declared as a controller.boundary Event")
    return checked


def _checked(event: Any, source: Any, who: Any, events: Events) -> BaseModel | str:
    """The event as its declaration validates it, or why the table refuses it."""
    if source not in SOURCES:
        return f"unknown source {_short(source)}"
    if who is not None and (not isinstance(who, str) or len(who) > MAX_WHO):
        return f"who acts is a name of at most {MAX_WHO} characters"
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        return 'an event is an object with a "type"'
    if not _small(event):
        return f"an event is a small object (at most {MAX_NODES} values, {MAX_DEPTH} deep)"
    try:
        canonical_payload(_text(event))   # plain JSON once a driver's cards are written as text
    except PayloadError:
        return "an event is plain JSON: whole numbers, no floats"
    kind = event["type"]
    model = events(source).get(kind)
    if model is None:
        if kind in events(SUPERVISOR):
            return "only a signed-in supervisor may do this"
        if kind in events(LINK):
            return "only the link to the pool gives the pool's awards"
        return _elsewhere(event, source, events, any_fields=True) \
            or f"{_short(kind)} is not an event {WHO_SAYS[source]} may submit"
    if source == SUPERVISOR and not (isinstance(who, str) and who.strip()):   # a blank name is no one
        return "only a signed-in supervisor may do this"
    try:
        return model.model_validate(event)
    except ValidationError as exc:
        # what another source may say with these very fields (a progressive wager's chip off its
        # acceptor, a "remove" the device reports) is that source's, not a malformed field
        return _elsewhere(event, source, events, any_fields=False) or _first_error(exc)


def _elsewhere(event: dict, source: str, events: Events, any_fields: bool) -> str | None:
    """Whose event this is when `source` may not send it: the sources that declare its type (and,
    unless `any_fields`, take it as it is)."""
    kind = event["type"]
    others = []
    for s in (DEVICE, PANEL, SUPERVISOR, TABLE, LINK):
        model = events(s).get(kind)
        if s == source or model is None:
            continue
        if not any_fields:
            try:
                model.model_validate(event)
            except ValidationError:
                continue
        others.append(WHO_SAYS[s])
    if not others:
        return None
    what = _short(kind) if any_fields else f"this {_short(kind)}"
    return f"{what} comes from {' or '.join(others)}, not from {WHO_SAYS[source]}"


def kind_of(event: Any) -> str:
    """The event's type as a refusal names it (clipped: it may be anything)."""
    kind = event.get("type") if isinstance(event, dict) else None
    return _clip(kind, 64) if isinstance(kind, str) else _short(kind)


def _first_error(exc: ValidationError) -> str:
    e = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(x) for x in e["loc"]) or "event"
    return _clip(f"{where}: {e['msg']}", MAX_TEXT)


def _small(value: Any) -> bool:
    """At most MAX_NODES values, MAX_DEPTH deep, without recursing (a deep object is refused, not followed)."""
    todo, seen = [(value, 1)], 0
    while todo:
        v, depth = todo.pop()
        seen += 1
        if seen > MAX_NODES or depth > MAX_DEPTH:
            return False
        if isinstance(v, dict):
            if len(v) > MAX_NODES:
                return False
            todo.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, (list, tuple)):
            if len(v) > MAX_NODES:
                return False
            todo.extend((x, depth + 1) for x in v)
        elif isinstance(v, str) and len(v) > 10 * MAX_TEXT:
            return False
    return True


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _short(value: Any) -> str:
    return _clip(repr(value), 60)


def sample(event: Any, limit: int = SAMPLE_BYTES) -> dict:
    """What a refusal keeps of what was sent: the event itself when it is small plain JSON (a small one
    that is not, as {"unreadable": its repr}); else its type and the first `limit` characters of its
    JSON, marked truncated. Never reads further than it keeps."""
    event = _text(event)   # a device's card as the journal writes it
    text = _prefix(event, limit + 1)
    if isinstance(event, dict) and text is not None and len(text) <= limit:
        try:
            canonical_payload(event)   # whole numbers, no floats: what the journal stores as it is
            return json.loads(text)
        except (PayloadError, ValueError):
            return {"unreadable": _clip(repr(event), limit)}
    kind = event.get("type") if isinstance(event, dict) else None
    return {"type": _clip(kind, 64) if isinstance(kind, str) else None,
            "excerpt": text[:limit] if text is not None else _clip(_LIMITED.repr(event), limit),
            "truncated": text is None or len(text) > limit}


_LIMITED = reprlib.Repr()
_LIMITED.maxlevel, _LIMITED.maxstring, _LIMITED.maxother = 4, SAMPLE_BYTES, SAMPLE_BYTES


def _prefix(value: Any, limit: int) -> str | None:
    """The first `limit` characters of `value` as JSON (floats and other values written as repr), lazily."""
    encoder = json.JSONEncoder(ensure_ascii=True, allow_nan=False, default=repr, separators=(",", ":"),
                               sort_keys=False, check_circular=True)
    out, size = [], 0
    try:
        for chunk in encoder.iterencode(value):
            out.append(chunk)
            size += len(chunk)
            if size >= limit:
                break
    except (ValueError, TypeError, RecursionError):
        return None
    return "".join(out)[:limit]


def record(event: Any, source: Any, who: Any, error: str) -> dict:
    """The journal's record of a refusal, bounded: SAMPLE_BYTES of the event, and short names."""
    return {"event": sample(event), "source": _clip(str(source), MAX_WHO),
            "who": None if who is None else _clip(str(who), MAX_WHO), "error": _clip(str(error), MAX_TEXT)}
