"""The poker games' table profile (9 NYCRR 5324.42): the `[poker]` rules of a blind or a stud game and
their checks, the rake and the jackpot, and the room's jackpot pool a `[link]` joins.

Each floor is floors.py's number, phrased here for the technician (controller/config/floors.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import BeforeValidator, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from controller.config.floors import NYCRR, Issue, at_most, floor_error, refuse
from controller.config.profiles import Amount, Cents, GameProfile, SeatLimit, Strict, list_to_tuple
from controller.games.game import Json
from controller.link.setting import LinkSetting
from controller.games.poker.floors import POKER_MAX_RAKE_BP, POKER_MIN_PLAYERS, SEAT_LIMITS
from controller.games.poker.names import BLIND_GAMES, STUD_GAMES
from controller.hands import high

# The standard PHH variant codes (shared/spec/poker.md) where one exists.
PHH_VARIANTS = {
    ("texas-holdem", "fixed-limit"): "FT",
    ("texas-holdem", "no-limit"): "NT",
    ("omaha", "pot-limit"): "PO",
    ("omaha-hi-lo-8", "fixed-limit"): "FO/8",
    ("seven-card-stud", "fixed-limit"): "F7S",
    ("seven-card-stud-hi-lo-8", "fixed-limit"): "F7S/8",
    ("seven-card-stud-low", "fixed-limit"): "FR",
    ("triple-draw-2-7", "fixed-limit"): "F2L3D",
}

HAND_NAMES = ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush",
              "straight", "three-of-a-kind", "two-pair", "pair", "high-card")
HandName = Literal["royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush",
                   "straight", "three-of-a-kind", "two-pair", "pair", "high-card"]

# (o)(2)(i): the rake's ceiling, as the check phrases it.
RAKE_RATE = at_most(POKER_MAX_RAKE_BP, f"{POKER_MAX_RAKE_BP} ({POKER_MAX_RAKE_BP // 100} percent)", "5324.42(o)(2)(i)")


class PercentageRake(Strict):
    """A straight percentage of all sums bet, 5324.42(o)(2)(i); rate in basis points."""

    method: Literal["percentage"]
    rate_bp: Annotated[int, Field(ge=1), RAKE_RATE]
    cap: Cents | None = None           # the maximum rake of a hand, (o)(1)(iii)
    minimum_pot: Amount = 0            # no rake from a pot smaller than this


class RakeLevel(Strict):
    pot: Cents      # when the pot reaches this...
    amount: Cents   # ...this much more is raked


class IncrementalRake(Strict):
    """Predetermined amounts as the pot reaches predetermined levels, 5324.42(o)(2)(ii)."""

    method: Literal["incremental"]
    levels: Annotated[tuple[RakeLevel, ...], BeforeValidator(list_to_tuple), Field(min_length=1)]

    @model_validator(mode="after")
    def _ascending(self) -> IncrementalRake:
        issues: list[tuple[tuple[str | int, ...], Any, str]] = []
        for i in range(1, len(self.levels)):
            if self.levels[i].pot <= self.levels[i - 1].pot:
                issues.append((("levels", i, "pot"), self.levels[i].pot,
                               f"is not above the level before it ({self.levels[i - 1].pot})"))
        for i, level in enumerate(self.levels):
            if level.amount > level.pot:
                issues.append((("levels", i, "amount"), level.amount, "is more than the pot it is taken from"))
        if issues:
            refuse(*issues)
        return self


class TimeCharge(Strict):
    """An hourly fee per player or per table, 5324.42(o)(2)(iii)."""

    method: Literal["time"]
    per: Literal["player", "table"]
    hourly: Cents
    increment_minutes: Annotated[int, Field(ge=1, le=60)] = 30  # assessed fractionally, (iii)(c)


Rake = Annotated[Union[PercentageRake, IncrementalRake, TimeCharge], Field(discriminator="method")]
RAKE_METHODS = ("percentage", "incremental", "time")


class Jackpot(Strict):
    """A high-hand or bad-beat jackpot funded from pots, 5324.42(r)."""

    kind: Literal["high-hand", "bad-beat"]
    contribution: Cents                               # the most taken from a pot, (r)(2)(ii)
    minimum_pot: Amount = 0                           # (r)(2)(iii)
    minimum_players: Annotated[int, Field(ge=2)] = 2  # dealt in to qualify, (r)(2)(iv)
    qualifying_hand: HandName                         # the least hand that qualifies, (r)(4)
    both_hole_cards: bool = False                     # a board game's hand must use both hole cards
    qualifying_period_hours: Annotated[int, Field(ge=1)] = 24  # (r)(2)(i)


class Kill(Strict):
    """The kill or half-kill of Omaha high-low split eight or better, 5324.42(j)(9)."""

    kind: Literal["kill", "half-kill"]
    pot_threshold: Cents  # a pot won whole above this puts the kill lammer in front of the winner


class PokerDeck(Strict):
    """One of the table's two decks, told apart by its backs (5324.42(a)(5)(i))."""

    id: Annotated[str, Field(min_length=1)]
    color: Annotated[str, Field(min_length=1)]
    design: str = ""


def _two_decks() -> tuple[PokerDeck, PokerDeck]:
    return (PokerDeck(id="A", color="red"), PokerDeck(id="B", color="blue"))


class _PokerRules(Strict):
    structure: Literal["fixed-limit", "pot-limit", "no-limit"]
    ante: Amount = 0
    # fixed-limit: the bet and raise of the early and of the later rounds
    small_bet: Cents | None = Field(None, validate_default=True)
    big_bet: Cents | None = Field(None, validate_default=True)
    min_bet: Cents | None = None     # pot-/no-limit: the least bet (blind games: the big blind)
    raise_cap: Annotated[int, Field(ge=1)] | None = Field(None, validate_default=True)  # raises a round
    uncapped_heads_up: bool = False  # the cap lifts when two players remain
    rake: Rake                       # poker revenue is the rake, 5324.42(o)(1)
    jackpot: Jackpot | None = None
    # A seat's buy-in and top-ups: absent, at least the minimum to play ((c)(3)(iii)), no maximum.
    buy_in_min: Cents | None = None
    buy_in_max: Cents | None = None
    # The table's smallest chip: pots are split in it and the odd chip is of it ((h)(9), (j)(6)(ii)).
    chip: Cents = 1
    # The two decks, backs of different colours, alternated each hand with the shuffler ((a)(5)(iii)).
    decks: Annotated[tuple[PokerDeck, PokerDeck], BeforeValidator(list_to_tuple)] = Field(default_factory=_two_decks)

    @model_validator(mode="after")
    def _buy_in(self) -> _PokerRules:
        if self.buy_in_min is not None and self.buy_in_max is not None and self.buy_in_min > self.buy_in_max:
            refuse((("buy_in_min",), self.buy_in_min, f"is above buy_in_max ({self.buy_in_max})"))
        stakes = ("ante", "small_bet", "big_bet", "min_bet", "small_blind", "big_blind", "straddle", "bring_in",
                  "buy_in_min", "buy_in_max")
        odd: list[tuple[tuple[str | int, ...], Any, str]] = [
            ((name,), getattr(self, name), f"is not a whole number of the table's {self.chip}-cent chips")
            for name in stakes if (getattr(self, name, None) or 0) % self.chip]
        odd += self._odd_steps()
        if odd:
            refuse(*odd)
        a, b = self.decks
        if a.id == b.id or a.color == b.color:
            refuse((("decks",), f"{a.id}/{b.id}", "two decks of different ids and back colours are alternated "
                     f"with the automated shuffler ({NYCRR}5324.42(a)(5)(iii))"))
        return self

    def _odd_steps(self) -> list[tuple[tuple[str | int, ...], Any, str]]:
        """What the house takes in steps (the rake's cap and levels, a time charge's increment, the
        jackpot's contribution) is whole chips too: no dealer takes $0.60 in $1 chips (issue 30)."""
        chip, rake = self.chip, self.rake
        out: list[tuple[tuple[str | int, ...], Any, str]] = []
        words = f"is not a whole number of the table's {chip}-cent chips"
        if isinstance(rake, PercentageRake) and rake.cap is not None and rake.cap % chip:
            out.append((("rake", "cap"), rake.cap, words))
        if isinstance(rake, IncrementalRake):
            out += [(("rake", "levels", i, "amount"), level.amount, words)
                    for i, level in enumerate(rake.levels) if level.amount % chip]
        if isinstance(rake, TimeCharge) and (rake.hourly * rake.increment_minutes) % (60 * chip):
            out.append((("rake", "hourly"), rake.hourly,
                        f"does not make whole {chip}-cent chips in each {rake.increment_minutes}-minute increment "
                        f"({rake.hourly} x {rake.increment_minutes} / 60)"))
        if self.jackpot is not None and self.jackpot.contribution % chip:
            out.append((("jackpot", "contribution"), self.jackpot.contribution, words))
        kill = getattr(self, "kill", None)   # the kill (x2) or half-kill (x1.5) raises the limits, (j)(9)
        if kill is not None:
            num, den = (2, 1) if kill.kind == "kill" else (3, 2)
            raised = [(name, getattr(self, name, None) or 0) for name in ("small_bet", "big_bet", "big_blind")]
            out += [(("kill", "kind"), kill.kind, f"raises the {name} of {amount} to {amount * num / den:g} cents, "
                     f"not a whole number of the table's {chip}-cent chips")
                    for name, amount in raised if (amount * num) % (den * chip)]
        return out

    @field_validator("small_bet", "big_bet", "raise_cap")
    @classmethod
    def _fits_structure(cls, value: int | None, info: ValidationInfo) -> int | None:
        structure = info.data.get("structure")
        if structure is None:
            return value
        if structure != "fixed-limit":
            if value is not None:
                raise PydanticCustomError("structure", "belongs to a fixed-limit game, not {structure}",
                                          {"structure": structure})
        elif value is None and info.field_name != "raise_cap":
            raise PydanticCustomError("structure", "is required for a fixed-limit game")
        elif info.field_name == "big_bet" and value is not None and value < (info.data.get("small_bet") or 0):
            raise PydanticCustomError("structure", "is below the small bet {small}",
                                      {"small": info.data["small_bet"]})
        return value


class BlindPokerRules(_PokerRules):
    """Button games: blinds before the deal (5324.42(c)(2)(ii), (i)(4))."""

    big_blind: Cents
    small_blind: Cents | None = None  # absent: one blind only
    straddle: Cents | None = None     # absent: no straddle
    kill: Kill | None = None

    @field_validator("small_blind")
    @classmethod
    def _small(cls, value: int | None, info: ValidationInfo) -> int | None:
        big = info.data.get("big_blind")
        if value is not None and big is not None and value > big:
            raise PydanticCustomError("blind", "is more than the big blind {big}", {"big": big})
        return value

    @field_validator("straddle")
    @classmethod
    def _straddle(cls, value: int | None, info: ValidationInfo) -> int | None:
        big = info.data.get("big_blind")
        if value is not None and big is not None and value != 2 * big:
            raise floor_error(f"is not twice the big blind ({2 * big}) as {NYCRR}5324.42(c)(11) requires")
        return value


class StudPokerRules(_PokerRules):
    """Stud games: antes and the bring-in forced by the up card (5324.42(c)(2)(iii), (h)(4), (m)(4))."""

    min_bet: Cents | None = Field(None, validate_default=True)
    bring_in: Cents

    @field_validator("min_bet")
    @classmethod
    def _min_bet(cls, value: int | None, info: ValidationInfo) -> int | None:
        structure = info.data.get("structure")
        if value is None and structure not in (None, "fixed-limit"):
            raise PydanticCustomError("structure", "is required for a {structure} stud game",
                                      {"structure": structure})
        return value

    @field_validator("bring_in")
    @classmethod
    def _bring_in(cls, value: int, info: ValidationInfo) -> int:
        first = info.data.get("small_bet") or info.data.get("min_bet")
        if first is not None and value > first:
            raise PydanticCustomError("bring_in", "is more than the first bet ({first}) it may be "
                                      "completed to", {"first": first})
        return value


# The games whose text caps a split pot's excess at $1, and where it says so.
EXCESS_CAPPED = {"seven-card-stud-hi-lo": "5324.42(h)(9)(iii)(a)-(c)", "seven-card-stud-hi-lo-8": "5324.42(h)(9)(iii)(a)-(c)",
                 "omaha-hi-lo-8": "5324.42(j)(6)(ii)(a)"}
ONE_DOLLAR = 100


class _PokerProfile(GameProfile):
    # The room's pooled jackpot (issue 10, 5324.42(r)(5)): each hand's contribution and
    # qualifying hands go to the pool; absent, the table's jackpot is its own.
    link: LinkSetting = None

    unused_devices: ClassVar[Mapping[str, str]] = {
        "shoe": f"poker is dealt from the dealer's hand, {NYCRR}5324.42(f)(6)(i)",
        "progressive": f"a progressive controller belongs to Caribbean stud, {NYCRR}5324.37(a)(3)",
    }

    @classmethod
    def seat_limit(cls, game: str) -> SeatLimit:
        return SEAT_LIMITS[game]

    @classmethod
    def seat_issues(cls, game: str, seats: int) -> list[Issue]:
        issues = super().seat_issues(game, seats)
        if not issues and seats < POKER_MIN_PLAYERS:
            issues.append((("seats",), seats, f"is fewer than the two players of {NYCRR}5324.42(f)(2)"))
        return issues

    def phh_variant(self) -> str | None:
        """The standard PHH code of this game and structure, if PHH has one."""
        return PHH_VARIANTS.get((self.game, self.poker.structure))  # type: ignore[attr-defined]

    @field_validator("poker", check_fields=False)
    @classmethod
    def _rules(cls, rules: Any, info: ValidationInfo) -> Any:
        game, table = info.data.get("game"), info.data.get("table")
        issues: list[tuple[tuple[str | int, ...], Any, str]] = []
        if getattr(rules, "kill", None) is not None and game != "omaha-hi-lo-8":
            issues.append((("kill",), "{...}", "is offered only in Omaha high-low split eight "
                           f"or better, {NYCRR}5324.42(j)(9)"))
        cap = EXCESS_CAPPED.get(game or "")
        if cap is not None and rules.chip > ONE_DOLLAR:
            # one chip each of the excess (hand.py): a chip above $1 would give a player more than the text allows
            issues.append((("chip",), rules.chip, f"is above $1: the excess of a pot that cannot be divided "
                           f"equally shall not exceed $1 ({NYCRR}{cap})"))
        if info.data.get("link") is not None and rules.jackpot is None:   # `link` is validated before `poker`
            issues.append((("jackpot",), "(none)", "is required with [link]: the link joins a room's jackpot pool "
                           f"({NYCRR}5324.42(r)(5)), and these rules take no contribution for it ((r)(3))"))
        if rules.jackpot is not None and table is not None and game is not None:
            seats = table.seats or cls.seat_limit(game)[0]
            if rules.jackpot.minimum_players > seats:
                issues.append((("jackpot", "minimum_players"), rules.jackpot.minimum_players,
                               f"is more than the table's {seats} seats"))
        if issues:
            refuse(*issues)
        return rules


class BlindPokerProfile(_PokerProfile):
    game: Literal[BLIND_GAMES]  # type: ignore[valid-type]
    poker: BlindPokerRules

    @property
    def min_bet(self) -> int:
        """The least bet: the fixed-limit small bet, or min_bet, or the big blind."""
        return self.poker.small_bet or self.poker.min_bet or self.poker.big_blind


class StudPokerProfile(_PokerProfile):
    game: Literal[STUD_GAMES]  # type: ignore[valid-type]
    poker: StudPokerRules

    @property
    def min_bet(self) -> int:
        return self.poker.small_bet or self.poker.min_bet  # type: ignore[return-value]


def jackpot_pool(data: Mapping[str, Json]) -> tuple[dict[str, Json], int]:
    """A room's jackpot pool's parameters (5324.42(r)(2)), from a profile's `[poker.jackpot]`
    (controller/link/admin.py); ValidationError for a refused one. A jackpot pool starts empty."""
    j = Jackpot.model_validate(dict(data))
    return {"qualifying_hand": j.qualifying_hand, "min_value": lowest_value(j.qualifying_hand),
            "contribution": j.contribution}, 0


def lowest_value(hand: str) -> int:
    """The least high-hand value of a category (controller.hands.high): the qualifying floor."""
    for v in range(0, 7462):
        if high.category(v) == hand:
            return v
    raise ValueError(f"qualifying_hand {hand!r}: not a hand name")
