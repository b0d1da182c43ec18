"""Caribbean stud poker's table profile (9 NYCRR 5324.37): its `[caribbean_stud]` rules and their checks.

The rules use the names and defaults of a round record's `rules` (shared/spec/rounds.md),
so `record_rules()` is what the table writes into every record it settles. Each floor is
floors.py's number, phrased here for the technician (controller/config/floors.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from controller.config.floors import NYCRR, at_least, at_most, refuse
from controller.config.profiles import Amount, Cents, GameProfile, SeatLimit, Strict
from controller.games.caribbean_stud.floors import (
    SEAT_LIMIT,
    STUD_MIN_CONTRIBUTION_BP,
    STUD_PAYTABLE_MINIMUM,
    STUD_PROGRESSIVE_MINIMUM,
    STUD_STRAIGHT_FLUSH_MIN_PERCENT,
)
from controller.games.caribbean_stud.rules import StudRules, max_round_win
from controller.games.game import Json
from controller.link.setting import LinkSetting


# --- the floors of 5324.37(g), as the check phrases them ------------------------------------

def paytable_odds(hand: str) -> AfterValidator:
    """(g)(2): the least odds of a bet wager won with `hand`."""
    least = STUD_PAYTABLE_MINIMUM[hand]
    return at_least(least, f"{least}:1", "5324.37(g)(2)")


def progressive_award(hand: str) -> AfterValidator:
    """(g)(4): the least fixed award (cents) of a progressive hand."""
    cents = STUD_PROGRESSIVE_MINIMUM[hand]
    return at_least(cents, f"{cents} (${cents // 100:,})", "5324.37(g)(4)")


STRAIGHT_FLUSH_PERCENT_MIN = at_least(STUD_STRAIGHT_FLUSH_MIN_PERCENT,
                                      f"{STUD_STRAIGHT_FLUSH_MIN_PERCENT} percent", "5324.37(g)(4)")
STRAIGHT_FLUSH_PERCENT_MAX = at_most(100, "100 percent", "5324.37(g)(4)")
CONTRIBUTION = at_least(STUD_MIN_CONTRIBUTION_BP,
                        f"{STUD_MIN_CONTRIBUTION_BP} ({STUD_MIN_CONTRIBUTION_BP // 100} percent)",
                        "5324.37(g)(5)")


class Paytable(Strict):
    """Bet wager odds N:1 by the player's hand, each at least that of 5324.37(g)(2)."""

    pair_or_less: Annotated[int, paytable_odds("pair-or-less")] = Field(STUD_PAYTABLE_MINIMUM["pair-or-less"], alias="pair-or-less")
    two_pair: Annotated[int, paytable_odds("two-pair")] = Field(STUD_PAYTABLE_MINIMUM["two-pair"], alias="two-pair")
    three_of_a_kind: Annotated[int, paytable_odds("three-of-a-kind")] = Field(STUD_PAYTABLE_MINIMUM["three-of-a-kind"], alias="three-of-a-kind")
    straight: Annotated[int, paytable_odds("straight")] = Field(STUD_PAYTABLE_MINIMUM["straight"], alias="straight")
    flush: Annotated[int, paytable_odds("flush")] = Field(STUD_PAYTABLE_MINIMUM["flush"], alias="flush")
    full_house: Annotated[int, paytable_odds("full-house")] = Field(STUD_PAYTABLE_MINIMUM["full-house"], alias="full-house")
    four_of_a_kind: Annotated[int, paytable_odds("four-of-a-kind")] = Field(STUD_PAYTABLE_MINIMUM["four-of-a-kind"], alias="four-of-a-kind")
    straight_flush: Annotated[int, paytable_odds("straight-flush")] = Field(STUD_PAYTABLE_MINIMUM["straight-flush"], alias="straight-flush")
    royal_flush: Annotated[int, paytable_odds("royal-flush")] = Field(STUD_PAYTABLE_MINIMUM["royal-flush"], alias="royal-flush")


class StraightFlushAward(Strict):
    """Either a percent of the meter or a fixed amount, as the internal controls designate (g)(4)."""

    percent_of_meter: Annotated[int, STRAIGHT_FLUSH_PERCENT_MIN, STRAIGHT_FLUSH_PERCENT_MAX] | None = None
    fixed: Annotated[int, progressive_award("straight-flush")] | None = None

    @model_validator(mode="after")
    def _one(self) -> StraightFlushAward:
        if (self.percent_of_meter is None) == (self.fixed is None):
            raise PydanticCustomError(
                "award", "needs exactly one of percent_of_meter and fixed (9 NYCRR 5324.37(g)(4))")
        return self

    def record(self) -> dict[str, Json]:
        if self.fixed is not None:
            return {"fixed": self.fixed}
        return {"percent_of_meter": self.percent_of_meter}


class Progressive(Strict):
    """The progressive payout wager of 5324.37(a)(3), (f) and (g)(4)-(6)."""

    wager: Cents = 100
    initial: Amount | None = None  # the meter of a new system; default: reset (5324.37(g)(5))
    reset: Amount = 1000000
    contribution_bp: Annotated[int, CONTRIBUTION,
                               Field(le=10000)] = 7000
    flush: Annotated[int, progressive_award("flush")] = Field(STUD_PROGRESSIVE_MINIMUM["flush"], alias="flush")
    full_house: Annotated[int, progressive_award("full-house")] = Field(STUD_PROGRESSIVE_MINIMUM["full-house"], alias="full-house")
    four_of_a_kind: Annotated[int, progressive_award("four-of-a-kind")] = Field(STUD_PROGRESSIVE_MINIMUM["four-of-a-kind"], alias="four-of-a-kind")
    straight_flush: StraightFlushAward = Field(StraightFlushAward(percent_of_meter=10),
                                               alias="straight-flush")
    # 9 NYCRR 5320.8: the meter's limit (cents; absent: none); contributions past it go to the
    # overflow meter, which seeds the meter at its next reset up to the limit ("next-reset").
    limit: Amount | None = None
    overflow: Literal["next-reset"] = "next-reset"

    @model_validator(mode="after")
    def _limit(self) -> Progressive:
        if self.limit is None:
            return self
        low = [(name, value) for name, value in (("reset", self.reset), ("initial", self.initial))
               if value is not None and self.limit < value]
        if low:
            name, value = low[0]
            refuse((("limit",), self.limit, f"is below the {name} {value}: the meter could never stand at its "
                                           f"{name} under this limit ({NYCRR}5320.8: a prize's limit)"))
        return self

    @property
    def initial_meter(self) -> int:
        return self.reset if self.initial is None else self.initial


class CaribbeanStudRules(Strict):
    """The facility's choices within 5324.37; names and defaults as a record's `rules`.

    `payout_limit_minimum_amount` is "the minimum amount" of 5324.37(g)(3), which
    the regulation leaves to the facility's internal controls; it only raises
    the floor of `bet_payout_limit` (see CaribbeanStudProfile).
    """

    bet_multiple: Annotated[int, Field(ge=1)] = 2
    bet_payout_limit: Cents | None = None  # absent: no limit
    payout_limit_minimum_amount: Amount = 0
    dealing: Literal["manual", "automated"] = "automated"  # 5324.37(d)(1) or (d)(2)-(3)
    paytable: Paytable = Paytable()
    progressive: Progressive = Progressive()  # every table has one (5324.37(a)(3))
    # A progressive award above this many cents needs a second supervisor's signature besides the
    # validating one (the facility's internal controls, 5324.37(f)(2)); absent: one signs.
    second_signer_above: Amount | None = None
    # 5324.37(e)(5)(i), the facility's option when the dealer does not qualify: turn over "all" the
    # players' cards, or only those of the players who made a progressive wager ("progressive").
    no_hand_turn_over: Literal["all", "progressive"] = "all"


def payout_limit_floor(minimum_ante: int, rules: CaribbeanStudRules) -> tuple[int, str]:
    """The least bet payout limit 5324.37(g)(3) allows, and how it was reached.

    Our reading of (g)(3), "no less than either the minimum amount or the
    maximum amount that one player could win per round when betting the
    minimum permissible wager, whichever is greater": the floor is the greater
    of (a) "the minimum amount", which the regulation leaves to the facility
    (`payout_limit_minimum_amount`), and (b) the most one player could win in
    one round wagering the table's minimum ante (`table.minimum_wager`): the
    ante paid 1:1 (g)(1) plus the bet wager (bet_multiple x minimum ante) paid
    at the highest odds of this profile's paytable (the royal flush's, unless
    a facility pays more on a lesser hand). Progressive awards are not
    counted: they are won on the separate progressive wager at the amounts of
    (g)(4), not on the bet wager that the limit applies to.
    """
    bet = minimum_ante * rules.bet_multiple
    odds_by_hand = rules.paytable.model_dump(by_alias=True)
    best = max(odds_by_hand, key=lambda h: (odds_by_hand[h], h == "royal-flush"))
    most = max_round_win(minimum_ante, StudRules(bet_multiple=rules.bet_multiple, paytable=odds_by_hand))
    how = (f"the most one player wins in a round at the minimum ante {minimum_ante}: "
           f"ante {minimum_ante} at 1:1 plus bet {bet} at {odds_by_hand[best]}:1 on a {best}")
    if rules.payout_limit_minimum_amount > most:
        return rules.payout_limit_minimum_amount, (
            f"the minimum amount, payout_limit_minimum_amount, which is more than {most}, {how}")
    return most, how


class HandPay(Strict):
    """`[hand_pay]` (issue 29): a wager that wins at least `min_amount` cents and at least `multiple` times
    its amount is paid by hand, after a supervisor fills in its tax form (a W-2G: $600 and 300 times the
    wager by default; controller/games/handpay.py). Casino war's profile has the same section (each game's
    package is its own: controller/config names no game's section)."""

    min_amount: Cents = 60000
    multiple: Annotated[int, Field(ge=1)] = 300


class CaribbeanStudProfile(GameProfile):
    game: Literal["caribbean-stud"]
    caribbean_stud: CaribbeanStudRules = CaribbeanStudRules()
    # Issue 29: a win reported on a W-2G is held for its form on the supervisor's screen before it is paid.
    hand_pay: HandPay = HandPay()
    # A linked progressive (issue 10): the meter is the pool's; absent, the table's own meter.
    link: LinkSetting = None

    @classmethod
    def seat_limit(cls, game: str) -> SeatLimit:
        return SEAT_LIMIT

    @field_validator("caribbean_stud")
    @classmethod
    def _payout_limit(cls, rules: CaribbeanStudRules, info: ValidationInfo) -> CaribbeanStudRules:
        table = info.data.get("table")
        if table is None or rules.bet_payout_limit is None:
            return rules
        floor, how = payout_limit_floor(table.minimum_wager, rules)
        if rules.bet_payout_limit < floor:
            refuse((("bet_payout_limit",), rules.bet_payout_limit,
                     f"is below the floor {floor} of {NYCRR}5324.37(g)(3) ({how})"))
        return rules

    def record_rules(self, meter: int | None = None, overflow: int = 0) -> dict[str, Json]:
        """The `rules` of a round record (rounds.md) this table settles by.

        `meter` is the progressive meter before the round; a record settled
        without one would start at the spec's default, not at this table's.
        """
        rules = self.caribbean_stud
        prog = rules.progressive
        return {
            "bet_multiple": rules.bet_multiple,
            "bet_payout_limit": rules.bet_payout_limit,
            "paytable": rules.paytable.model_dump(by_alias=True),
            "progressive": {
                "wager": prog.wager,
                "meter": prog.initial_meter if meter is None else meter,
                "reset": prog.reset,
                "contribution_bp": prog.contribution_bp,
                "flush": prog.flush,
                "full-house": prog.full_house,
                "four-of-a-kind": prog.four_of_a_kind,
                "straight-flush": prog.straight_flush.record(),
                **({} if prog.limit is None else {"limit": prog.limit, "overflow": overflow}),
            },
        }


def progressive_pool(data: Mapping[str, Json]) -> tuple[dict[str, Json], int]:
    """A linked progressive pool's parameters and its initial meter, from the names of a profile's
    `[caribbean_stud.progressive]` (controller/link/admin.py); ValidationError for a refused one."""
    p = Progressive.model_validate(dict(data))
    params: dict[str, Json] = {
        "wager": p.wager, "reset": p.reset, "contribution_bp": p.contribution_bp,
        "flush": p.flush, "full-house": p.full_house, "four-of-a-kind": p.four_of_a_kind,
        "straight-flush": p.straight_flush.record()}
    if p.limit is not None:   # the pool's limit and overflow (controller/link/pool.py)
        params.update(limit=p.limit, overflow=p.overflow)
    return params, p.initial_meter
