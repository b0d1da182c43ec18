"""Casino war's table profile (9 NYCRR 5324.22): its `[casino_war]` rules, its `[manual_shoe]`, their checks.

The rules use the names and defaults of a round record's `rules` (shared/spec/rounds.md).
Each floor is floors.py's number, phrased here for the technician (controller/config/floors.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import AfterValidator, Field

from controller.config.floors import NYCRR, at_least, floor_error
from controller.config.profiles import Cents, GameProfile, SeatLimit, Strict
from controller.games.casino_war.floors import SEAT_LIMIT, WAR_DECKS, WAR_MIN_ODDS

if TYPE_CHECKING:
    from controller.games.game import Json

# A progressive controller is another game's device, refused in the words the profile check always used.
PROGRESSIVE_IS_STUDS = f"a progressive controller belongs to Caribbean stud, {NYCRR}5324.37(a)(3)"


# --- the floors of 5324.22, as the check phrases them ----------------------------------------

def _war_decks(decks: int) -> int:
    if decks not in WAR_DECKS:
        raise floor_error(f"is not six, seven or eight decks as {NYCRR}5324.22(c) requires")
    return decks


DECKS = AfterValidator(_war_decks)


def war_least_odds(name: str) -> AfterValidator:
    """(j)(2)-(3): the least odds of the tie wager, the war, and a tie in the war."""
    least = WAR_MIN_ODDS[name]
    return at_least(least, f"{least}:1", "5324.22(j)(2)" if name == "tie_odds" else "5324.22(j)(3)")


class CasinoWarRules(Strict):
    """Names and defaults as a record's `rules`; odds at least those of 5324.22(j)."""

    decks: Annotated[int, DECKS] = 6
    tie_odds: Annotated[int, war_least_odds("tie_odds")] = WAR_MIN_ODDS["tie_odds"]
    war_odds: Annotated[int, war_least_odds("war_odds")] = WAR_MIN_ODDS["war_odds"]
    war_tie_odds: Annotated[int, war_least_odds("war_tie_odds")] = WAR_MIN_ODDS["war_tie_odds"]


class ManualShoe(Strict):
    """Casino war's manual dealing shoe (5324.22(d)). With a card reader it reports each card the dealer
    draws; without one (reader = false) the dealer touches each card in on the console as it is drawn."""

    reader: bool = True


class HandPay(Strict):
    """`[hand_pay]` (issue 29): a wager that wins at least `min_amount` cents and at least `multiple` times
    its amount is paid by hand, after a supervisor fills in its tax form (a W-2G: $600 and 300 times the
    wager by default; controller/games/handpay.py), as at Caribbean stud. Under the floors' odds of
    5324.22(j) (a tie at 10:1) no win reaches 300 times its wager: a facility's lower multiple or higher
    odds make one."""

    min_amount: Cents = 60000
    multiple: Annotated[int, Field(ge=1)] = 300


class CasinoWarProfile(GameProfile):
    game: Literal["casino-war"]
    casino_war: CasinoWarRules = CasinoWarRules()
    manual_shoe: ManualShoe = ManualShoe()
    hand_pay: HandPay = HandPay()

    unused_devices: ClassVar[Mapping[str, str]] = {"progressive": PROGRESSIVE_IS_STUDS}

    @classmethod
    def seat_limit(cls, game: str) -> SeatLimit:
        return SEAT_LIMIT

    def record_rules(self) -> dict[str, Json]:   # the rules as a round record writes them
        return self.casino_war.model_dump()
