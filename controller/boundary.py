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

Poker's events are declared in controller/games/poker/contract.py (the contract the
dealer's console and the runtime share); they are taken from there.
"""

from __future__ import annotations

import json
import reprlib
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator, ValidationError, create_model

from controller import cards
from controller.journal.store import PayloadError, canonical_payload
from controller.games.poker import contract
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


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _holds_cards(annotation: object) -> bool:
    """A field declared as a card or a list of cards (the `Card` above)."""
    if annotation is cards.Card:
        return True
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        return _holds_cards(typing.get_args(item)[0] if typing.get_origin(item) is Annotated else item)
    return False


CARD_FIELDS: dict[str, tuple[str, ...]] = {}   # event type -> its card fields, as `_event` declares them


def _event(kind: str, **fields: Any) -> type[BaseModel]:
    """The declaration of one event: its type and its fields (name=(type, default or ...)). Its card
    fields are noted by its type (CARD_FIELDS), so a journaled event's cards can be read again."""
    # a Literal of a name known only at run time: pydantic takes it, mypy cannot check it
    model = create_model(f"{kind}_event", __base__=_Event, type=(Literal[kind], ...), **fields)  # type: ignore[arg-type]
    held = tuple(name for name, f in model.model_fields.items() if _holds_cards(f.annotation))
    if held:
        CARD_FIELDS[kind] = tuple(dict.fromkeys((*CARD_FIELDS.get(kind, ()), *held)))
    return model


def _catalogue(*models: type[BaseModel]) -> dict[str, type[BaseModel]]:
    return {typing.get_args(m.model_fields["type"].annotation)[0]: m for m in models}


# -- the drivers (inside the process: drivers/*/device.py through controller/runtime/devices.py) ------------

DEVICE_EVENTS = _catalogue(
    _event("shoe_card", card=(Card, ...)),
    _event("shoe_unread", drawn=(Count, ...)),
    _event("cover_reached"),
    _event("shoe_loaded", cards=(Count, ...)),
    _event("deck_count", total=(Count, ...),
           anomalies=(Annotated[list[Text], Field(max_length=64)], ...), truncated=(bool, ...)),
    _event("shoe_check", dispensed=(Count, ...), cover_reached=(bool, False)),   # the shoe, after a restart
    _event("progressive", seat=(Seat, ...)),            # a chip on an acceptor
    _event("remove", seat=(Seat, ...), wager=(Literal["progressive"], ...)),
    _event("chip_removed", seat=(Seat, ...)),
    _event("no_more_bets"),                             # the lock-out button
)

# -- the table itself ----------------------------------------------------------------------------------------

TABLE_EVENTS = _catalogue(
    _event("next_round"),
    _event("shoe_check", dispensed=(Count, ...), cover_reached=(bool, False)),
)

# -- the dealer: the button panel, the dealer's screen, autoplay ----------------------------------------------

_BANKED_DEALER = (
    *(_event(k) for k in ("next_round", "no_more_bets", "deal", "reveal", "settle", "war", "new_dealer",
                          "reshuffle", "end_deal")),
    _event("ante", seat=(Seat, ...), amount=(Stake, ...)),
    _event("remove", seat=(Seat, ...), wager=(Literal["ante"], ...)),   # a progressive wager: its acceptor
    _event("decision", seat=(Seat, ...), decision=(Literal["bet", "fold", "war", "surrender"], ...),
           war_tie=(Stake, None)),
    _event("wager", seat=(Seat, ...), wager=(Literal["initial", "tie", "war", "war_tie"], ...),
           stake=(Stake, ...), verbal=(bool, False)),
    # the dealer's card: a card the box did not record, the stud dealer's fifth, a manual deal; each
    # round decides whether it takes one now (it never does while its shoe is dealing)
    _event("card", card=(Card, ...), to=(Seat | Literal["dealer"], None)),
    _event("stack", cards=(Annotated[list[Card], Field(min_length=1, max_length=5)], ...)),
    _event("no_card", seat=(Seat, ...)),
    _event("dealer_misdeal", reason=(Text, ...)),
)
_POKER_DEALER = (contract.Sit, contract.TopUp, contract.SitOut, contract.SitIn, contract.Leave, contract.ButtonCard,
                 contract.Straddle, contract.DealHole, contract.DealBoard, contract.Fold, contract.CheckCall,
                 contract.BringIn, contract.BetRaise, contract.Draw, contract.Discard, contract.Show, contract.Muck,
                 contract.Action)
DEALER_EVENTS = _catalogue(*_BANKED_DEALER, *_POKER_DEALER)
# A casino war shoe without a card reader ([manual_shoe] reader = false) cannot say what it did: the
# dealer says the cover card is out and the shoe is loaded (controller/games/casino_war/at_table.py).
TOUCH_IN_EVENTS = {**DEALER_EVENTS, **_catalogue(_event("cover_reached"), _event("shoe_loaded", cards=(Count, None)))}

# -- a signed-in supervisor (controller/ui/auth.py gives the session; the server gives who) -------------------

SUPERVISOR_ONLY = _catalogue(
    _event("validate", seat=(Seat, ...), second_signer=(Name, None)),   # second_signer: set by the server only
    _event("refuse", seat=(Seat, ...), reason=(Text, ""), second_signer=(Name, None)),   # as validate's
    _event("void_round", reason=(Text, "")),
    _event("clear_fault", reason=(Text, "")),
    _event("accept_software", reason=(Text, "")),
    _event("correct_meter", amount=(Cents, ...), reason=(Text, "")),
    contract.VerifyJackpot,
    _event("verify_time_charges", hand=(Annotated[str, Field(min_length=1, max_length=MAX_WHO)], ...)),
    _event("replace_deck"),
)
SUPERVISOR_EVENTS = frozenset(SUPERVISOR_ONLY)

# -- the link to the pool (controller/runtime/linked.py) ------------------------------------------------------

_PoolAward = create_model(
    "pool_award", __base__=_Event, seat=(Seat, ...), hand=(Text, ...), amount=(Cents, ...),
    seq=(Count_, None), meter_before=(Cents, None), meter_after=(Cents, None), shared_by=(Count, None),
    from_meter=(bool, None))
LINK_EVENTS = _catalogue(
    _event("pool_awards", claim=(Text, None), awards=(Annotated[list[_PoolAward], Field(max_length=MAX_SEAT)], None),
           refused=(Text, None)),
)

CATALOGUE: dict[str, dict[str, type[BaseModel]]] = {
    DEVICE: DEVICE_EVENTS, TABLE: TABLE_EVENTS, PANEL: DEALER_EVENTS, AUTOPLAY: DEALER_EVENTS,
    SUPERVISOR: SUPERVISOR_ONLY, LINK: LINK_EVENTS,
}


# -- cards: read where they enter, written as text in the journal --------------------------------------------

def read_cards(event: object) -> object:
    """A journaled event as the round takes it again: its cards read from the journal's text, where a
    replayed event enters (recovery, `rounds show`); it was checked when it first came in. A value
    that reads as no card is left as it is, for the round to refuse (a replay that does not replay)."""
    if not isinstance(event, dict):   # no event at all: the round refuses it as it is
        return event
    kind = event.get("type")
    fields = [name for name in CARD_FIELDS.get(kind, ()) if name in event] if isinstance(kind, str) else []
    if not fields:
        return event
    out = dict(event)
    for name in fields:
        value = out[name]
        out[name] = [_read_or_keep(c) for c in value] if isinstance(value, list) else _read_or_keep(value)
    return out


def _read_or_keep(value: object) -> object:
    try:
        return _card(value)
    except ValueError:   # CardError too
        return value


def as_text(event: dict) -> dict:
    """The event as the journal keeps it: each card as its text ("Qh"), as a screen writes it (a
    `Card` is an int, which JSON would write as its number)."""
    return {k: _text(v) for k, v in event.items()}


def _text(value: object) -> object:
    if isinstance(value, cards.Card):
        return str(value)
    if isinstance(value, dict):
        return {k: _text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_text(v) for v in value]
    return value


WHO_SAYS = {DEVICE: "a device", TABLE: "the table", PANEL: "the dealer's panel or screen", AUTOPLAY: "autoplay",
            SUPERVISOR: "a supervisor", LINK: "the link to the pool"}


def dealer_touches_in(profile: Any) -> bool:
    """A casino war table whose manual shoe has no reader: the dealer reports what the shoe cannot."""
    shoe = getattr(profile, "manual_shoe", None)
    return getattr(profile, "game", None) == "casino-war" and shoe is not None and not shoe.reader


def catalogue(source: str, profile: Any = None) -> dict[str, type[BaseModel]]:
    """The events `source` may submit at a table of `profile` (type -> declaration)."""
    if source in (PANEL, AUTOPLAY) and profile is not None and dealer_touches_in(profile):
        return TOUCH_IN_EVENTS
    return CATALOGUE.get(source, {})


def refusal(event: Any, source: Any, who: Any, profile: Any = None) -> str | None:
    """Why the table refuses `event` from `source` (`who` acting), or None when it may go to the round."""
    checked = _checked(event, source, who, profile)
    return checked if isinstance(checked, str) else None


def admitted(event: Any, source: Any, who: Any, profile: Any = None) -> dict | str:
    """The event as the round takes it, its cards read as `controller.cards.Card` by its declaration
    (the one reading of a screen's card), or why the table refuses it (as `refusal`)."""
    checked = _checked(event, source, who, profile)
    if isinstance(checked, str):
        return checked
    read = {name: getattr(checked, name) for name in CARD_FIELDS.get(event["type"], ()) if name in event}
    return {**event, **read} if read else event


def _checked(event: Any, source: Any, who: Any, profile: Any) -> BaseModel | str:
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
    allowed = catalogue(source, profile)
    model = allowed.get(kind)
    if model is None:
        if kind in SUPERVISOR_EVENTS:
            return "only a signed-in supervisor may do this"
        if kind in LINK_EVENTS:
            return "only the link to the pool gives the pool's awards"
        others = [WHO_SAYS[s] for s in (DEVICE, PANEL, SUPERVISOR, TABLE, LINK) if kind in catalogue(s, profile)]
        if others:
            return f"{_short(kind)} comes from {' or '.join(others)}, not from {WHO_SAYS[source]}"
        return f"{_short(kind)} is not an event {WHO_SAYS[source]} may submit"
    if source == SUPERVISOR and not (isinstance(who, str) and who.strip()):   # a blank name is no one
        return "only a signed-in supervisor may do this"
    if kind == "remove" and event.get("wager") == "progressive" and source != DEVICE:
        return "a progressive wager comes off when its acceptor reports the chip gone, not from a screen"
    try:
        return model.model_validate(event)
    except ValidationError as exc:
        return _first_error(exc)


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
