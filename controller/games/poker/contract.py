"""The one contract between the poker runtime and the screens: the view it publishes, the events they send.

The dealer's console (controller/games/poker/static/dealer.js) and the runtime
(controller/games/poker/at_table.py, tablestate.py) once drifted apart because each kept
its own idea of the other; declared here once, both are checked against it: the
runtime validates every poker event it is sent with `poker_event` and every view it
publishes with `PokerView` in the tests (tests/poker/test_poker_contract.py), and
docs/RUNTIME-INTERFACE.md copies these names. Money is whole cents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from controller.boundary import Event

Cents = Annotated[int, Field(ge=0)]
Seat = Annotated[int, Field(ge=1)]          # at most the profile's seats: checked by the table
Card = Annotated[str, Field(pattern=r"^([2-9TJQKA][cdhs]|\?\?)$")]
KnownCard = Annotated[str, Field(pattern=r"^[2-9TJQKA][cdhs]$")]
SeatKey = Annotated[str, Field(pattern=r"^[1-9][0-9]?$")]   # a seat number as a JSON object key


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


# -- the events the screens send (POST /api/panel) ------------------------------------------

class Sit(Event):
    """A player takes a seat with a buy-in within the profile's limits."""
    type: Literal["sit"]
    seat: Seat
    stack: Annotated[int, Field(gt=0)]


class TopUp(Event):
    """Chips added between hands ((c)(3)(i): a player may add, never remove, during play)."""
    type: Literal["top_up"]
    seat: Seat
    amount: Annotated[int, Field(gt=0)]


class SitOut(Event):
    """Away from the table keeping the seat and the stack ((c)(3)(v)); not dealt in until back."""
    type: Literal["sit_out"]
    seat: Seat


class SitIn(Event):
    type: Literal["sit_in"]
    seat: Seat


class Leave(Event):
    type: Literal["leave"]
    seat: Seat


class Straddle(Event):
    """The player after the big blind straddles, before any card is dealt (5324.42(c)(11))."""
    type: Literal["straddle"]
    seat: Seat


class DealHole(Event):
    """The dealer has dealt every card the players are owed: down cards unseen, up cards entered."""
    type: Literal["deal_hole"]
    up: dict[SeatKey, list[KnownCard]] = Field(default_factory=dict)   # seat -> the up cards dealt to it, in order


class DealBoard(Event):
    type: Literal["deal_board"]
    cards: Annotated[list[KnownCard], Field(min_length=1, max_length=5)]


class Fold(Event):
    type: Literal["fold"]
    seat: Seat


class CheckCall(Event):
    type: Literal["check_call"]
    seat: Seat


class BringIn(Event):
    type: Literal["bring_in"]
    seat: Seat


class BetRaise(Event):
    """A bet, raise or completion TO `amount`: the total in front of the player this round."""
    type: Literal["bet_raise"]
    seat: Seat
    amount: Annotated[int, Field(gt=0)]


class Draw(Event):
    """The player throws `count` unseen cards and is dealt as many (0: stands pat)."""
    type: Literal["draw"]
    seat: Seat
    count: Annotated[int, Field(ge=0, le=5)]


class Discard(Event):
    """Pineapple: the player throws `count` cards with no replacement."""
    type: Literal["discard"]
    seat: Seat
    count: Annotated[int, Field(ge=1, le=2)]


class Show(Event):
    type: Literal["show"]
    seat: Seat
    cards: Annotated[list[KnownCard], Field(min_length=1, max_length=7)]


class Muck(Event):
    type: Literal["muck"]
    seat: Seat


class Expose(Event):
    """A hole card turned face up in the dealing (5324.42(p)(6), (p)(7), (p)(9)): touched while the
    street is dealt, before "Hole cards dealt" too; `burn`: hold'em's exposed card kept as the burn
    card before the flop ((p)(9)(ii))."""
    type: Literal["expose"]
    seat: Seat
    card: KnownCard
    burn: bool = False


class RakeTaken(Event):
    """The dealer has put the rake of the betting round just ended (and the jackpot drop, when taken)
    into the rake area ((o)(2)(i)(b), (o)(2)(ii)(b), (r)(3)); until then the console deals no card."""
    type: Literal["rake_taken"]


class Action(Event):
    """Anything else the engine takes, in PHH notation (irregularities, emulated players)."""
    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=200)]


class VerifyJackpot(Event):
    """The floorperson (the signed-in supervisor) verifies a qualifying hand: the tracking form of
    5324.42(r)(4): the player's name and phone (i), the dealer and the licenses (iv)-(v)."""
    type: Literal["verify_jackpot"]
    hand: Annotated[str, Field(min_length=1)]
    seat: Seat
    player: Annotated[str, Field(min_length=1, pattern=r"\S")]
    phone: Annotated[str, Field(min_length=1, pattern=r"\S")]
    dealer: Annotated[str, Field(min_length=1, pattern=r"\S")]
    dealer_license: Annotated[str, Field(min_length=1, pattern=r"\S")]
    floor_license: Annotated[str, Field(min_length=1, pattern=r"\S")]


def verify_jackpot(event: Mapping[str, object] | Event) -> tuple[VerifyJackpot | None, str | None]:
    try:
        return VerifyJackpot.model_validate(event), None
    except ValidationError as exc:
        return None, _first_error(exc, tagged=False)


class ButtonCard(Event):
    """Before the first hand: one card dealt face up to each player; the highest takes the button
    (5324.42(i)(3)(ii)). `cards`: seat -> card."""
    type: Literal["button_card"]
    cards: dict[str, KnownCard]


SeatEvent = Annotated[Union[Sit, TopUp, SitOut, SitIn, Leave, ButtonCard], Field(discriminator="type")]
HandEvent = Annotated[Union[Straddle, DealHole, DealBoard, Fold, CheckCall, BringIn, BetRaise, Draw, Discard, Show,
                            Muck, Expose, RakeTaken, Action], Field(discriminator="type")]
SEAT_EVENTS = ("sit", "top_up", "sit_out", "sit_in", "leave", "button_card")
HAND_EVENTS = ("straddle", "deal_hole", "deal_board", "fold", "check_call", "bring_in", "bet_raise", "draw", "discard",
               "show", "muck", "expose", "rake_taken", "action")
_seat_adapter: TypeAdapter[Sit | TopUp | SitOut | SitIn | Leave | ButtonCard] = TypeAdapter(SeatEvent)
_hand_adapter: TypeAdapter[BaseModel] = TypeAdapter(HandEvent)


def _first_error(exc: ValidationError, tagged: bool = True) -> str:
    """The first fault, named by its field (a tagged union's first location is the event's type)."""
    e = exc.errors()[0]
    where = ".".join(str(x) for x in e["loc"][1 if tagged else 0:]) or "event"
    return f"{where}: {e['msg']}"


def seat_event(event: Mapping[str, object] | Event) -> tuple[Sit | TopUp | SitOut | SitIn | Leave | ButtonCard | None, str | None]:
    """(the event, None) or (None, why it does not follow the contract)."""
    try:
        return _seat_adapter.validate_python(event), None
    except ValidationError as exc:
        return None, _first_error(exc)


def hand_event(event: Mapping[str, object] | Event) -> tuple[BaseModel | None, str | None]:
    try:
        return _hand_adapter.validate_python(event), None
    except ValidationError as exc:
        return None, _first_error(exc)


# -- the view the runtime publishes (the `poker` key of the published state) -----------------

class Option(_Strict):
    """One thing the player to act may do; min..max is the legal total for a bet or raise."""
    action: Literal["fold", "check", "call", "bring_in", "bet", "raise", "complete"]
    min: Cents | None
    max: Cents | None


class Blinds(_Strict):
    small: Cents | None
    big: Cents | None
    small_seat: Seat | None
    big_seat: Seat | None
    straddle: Cents | None = None
    straddle_seat: Seat | None = None


class Player(_Strict):
    seat: Seat
    player: Annotated[int, Field(ge=1)]   # the PHH player number
    stack: Cents
    bet: Cents
    cards: list[Card]
    up: list[bool]             # per card: dealt or turned face up; the console shows the rest face down
    folded: bool
    all_in: bool
    ended: bool                # ended the obligation to wager after an exposed third hole card, (p)(6)(i)


class Pot(_Strict):
    amount: Cents
    eligible: list[Seat]


class Owed(_Strict):
    """The cards the dealer owes now: per seat, True for each card face up; and to the board."""
    hole: dict[str, list[bool]]
    board: Annotated[int, Field(ge=0)]


class Winner(_Strict):
    """Who won a pot (or its half) at the showdown, and with what, as the engine read it (showdown_words.py)."""
    seat: Seat
    half: Literal["high", "low"] | None   # None: the whole pot
    hand: str                              # "a flush, ace high", "8-6-4-2-A low"


class Award(_Strict):
    amount: Cents
    awards: dict[str, Cents]   # seat -> chips
    winners: list[Winner] = []   # empty: nobody contested the pot


class Showdown(_Strict):
    pots: list[Award]
    rake: Cents
    jackpot_drop: Cents


class SeatAtTable(_Strict):
    seat: Seat
    stack: Cents
    away: bool                 # sitting out, (c)(3)(v)
    short: bool                # below the minimum to play, (c)(3)(iii): not dealt in


class Seating(_Strict):
    """Who sits where between hands, and what a buy-in may be."""
    seats: list[SeatAtTable]
    buy_in_min: Cents
    buy_in_max: Cents | None   # None: no maximum
    minimum_to_play: Cents
    button_draw: bool               # the first button not placed yet: it may be drawn for, (i)(3)(ii)
    first_button: Seat | None       # the seat the draw gave it


class StraddleOffer(_Strict):
    seat: Seat
    amount: Cents


class Kill(_Strict):
    """The kill lammer in front of `seat`: its kill blind and the raised limits this hand ((j)(9))."""
    seat: Seat
    kind: Literal["kill", "half-kill"]


class DealingDeck(_Strict):
    """The deck dealt this hand: one of two told apart by their backs, alternated ((a)(5))."""
    id: str
    color: str
    design: str


class Preset(_Strict):
    """A bet or raise the console offers in one touch: whole chips of the table (issue 30)."""
    key: Literal["min", "half", "pot", "max"]
    label: str
    amount: Cents


class RakeDue(_Strict):
    """What the betting round just ended takes, for the dealer to put into the rake area now."""
    rake: Cents
    jackpot: Cents


class PokerView(_Strict):
    variant: str
    phase: Literal["deal", "bet", "showdown", "complete"]
    turn: Literal["bet", "show", "discard", "draw", "contend"] | None   # contend: the (p)(6) choice
    button: Seat | None
    chip: Annotated[int, Field(ge=1)]   # the table's smallest chip: every amount offered is a multiple of it
    presets: list[Preset]               # the bets or raises offered in one touch, within options' min..max
    blinds: Blinds
    to_act: Seat | None             # the SEAT to act (or to show, draw, discard)
    options: list[Option]
    pot: Cents
    main_pot: Cents
    side_pots: list[Pot]
    rake: Cents | None
    jackpot_drop: Cents | None
    raked: Cents                    # the rake taken so far this hand, round by round ((o)(2)(i)(b))
    dropped: Cents                  # the jackpot drop taken so far ((r)(3))
    rake_due: RakeDue | None        # the last round's take, not yet in the rake area: the dealer's touch
    board: list[KnownCard]
    players: list[Player]
    owed: Owed
    discard: Annotated[int, Field(ge=0)]   # cards the player to discard throws (pineapple)
    actions: list[str]
    showdown: Showdown | None
    deck: dict[Any, Any] | None   # Any: validated as before (a bare dict); the deck's own reader checks it
    straddle: StraddleOffer | None   # offered now to the seat after the big blind
    kill: Kill | None
    dealing_deck: DealingDeck | None
    time_charges: dict[str, Cents]     # seat -> the time charge collected at this hand's start


class DealtBy(_Strict):
    """The dealer on duty when the hand was dealt (the journal's sign-in before its opening)."""
    badge: str
    name: str | None


class QualifyingHand(_Strict):
    hand: str
    seat: Seat
    kind: Literal["high-hand", "bad-beat"]
    hand_name: str
    cards: str
    # waiting for the floorperson: who dealt it (None: nobody signed in), the form's dealer unless corrected
    dealt_by: DealtBy | None = None


class VerifiedHand(QualifyingHand):
    """A line of the (r)(4) tracking form, once the floorperson verified it."""
    player: str
    phone: str
    dealer: str
    dealer_license: str
    floorperson: str
    floor_license: str


class JackpotView(_Strict):
    """A poker table's jackpot (5324.42(r)): its amount, displayed ((r)(2)); the qualifying hands
    waiting for the floorperson; the hands recorded. `amount` is null on the room's pooled jackpot,
    whose amount is the pool's (`progressive`)."""
    kind: Literal["high-hand", "bad-beat"]
    qualifying_hand: str
    amount: Cents | None
    pending: list[QualifyingHand]
    verified: list[VerifiedHand]


class TimeCollection(_Strict):
    hand: str
    charges: dict[str, Cents]
    total: Cents


class VerifiedCollection(TimeCollection):
    floorperson: str


class TimeChargesView(_Strict):
    """A time-charge table's rake ((o)(2)(iii)): the rule, and each hand's collection waiting for the
    floorperson's verification ((e)) or verified."""
    per: Literal["player", "table"]
    hourly: Cents
    increment_minutes: Annotated[int, Field(ge=1, le=60)]
    pending: list[TimeCollection]
    verified: list[VerifiedCollection]


POKER_VIEW_KEYS = tuple(PokerView.model_fields)


def check_view(published: Mapping[str, object]) -> PokerView | None:
    """The published state's poker part, validated (None at a table that is not playing a hand)."""
    poker = published.get("poker")
    if "seating" in published:
        Seating.model_validate(published["seating"])
    if published.get("jackpot") is not None:
        JackpotView.model_validate(published["jackpot"])
    if published.get("time_charges") is not None:
        TimeChargesView.model_validate(published["time_charges"])
    return None if poker is None else PokerView.model_validate(poker)
