"""The rules of casino war (9 NYCRR 5324.22), as pure functions.

Cards and stakes in, settled wagers out: no I/O, no clock, no randomness. The
round machine, `tablectl settle` and the benchmark all settle through these
functions, so a round re-settled by hand for a dispute is settled by the code
that paid it. Money is integer cents; a settled wager is the spec's
`{"stake", "outcome", "net"}` (shared/spec/rounds.md).
"""

from __future__ import annotations

from typing import Any

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from controller.cards import CARDS
from controller.games.casino_war.floors import SEATS as SEATS   # 5324.22(a): at most seven betting positions
from controller.games.casino_war.floors import WAR_DECKS as DECKS   # 5324.22(c)
from controller.games.casino_war.floors import WAR_MIN_ODDS as MIN_ODDS   # the least odds a facility may pay, 5324.22(j)
from controller.records import wager

WAR_BURNS = 3                # 5324.22(i)(5)(i)
DECISIONS = ("surrender", "war")   # 5324.22(i)(3)(i), (ii)


class RulesError(ValueError):
    """Rules a facility may not use; `field` names the offending rule."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class Rules:
    """The facility's choices where 5324.22 leaves one, refused below the regulated floor."""

    decks: int = 6
    tie_odds: int = 10
    war_odds: int = 2
    war_tie_odds: int = 3

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(name, f"must be a whole number, not {value!r}")
        if self.decks not in DECKS:
            raise RulesError("decks", f"{self.decks} decks; casino war is played with "
                             "6, 7 or 8 (5324.22(c))")
        for name, least in MIN_ODDS.items():
            odds = getattr(self, name)
            if odds < least:
                raise RulesError(name, f"{odds}:1 is below the {least}:1 that 5324.22(j) requires")

    def as_record(self) -> dict[str, Any]:
        return asdict(self)


def rank(card: int) -> int:
    """0 for a two up to 12 for an ace; the suit has no effect on rank (5324.22(f))."""
    return card >> 2


def compare(player: int, dealer: int) -> int:
    """1 when the player's card outranks the dealer's, -1 when lower, 0 for a tie hand."""
    p, d = player >> 2, dealer >> 2
    return (p > d) - (p < d)


def surrender_loss(initial: int) -> int:
    """The half of the initial wager the house keeps on a surrender (5324.22(i)(3)(i)).

    Half a cent cannot be collected; the spec rounds the house's half up to the cent.
    """
    return (initial + 1) // 2


def settle_first_deal(initial: int, tie: int | None, card: int, dealer_card: int,
                      rules: Rules) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The initial and tie wagers on the original deal (5324.22(i)(1)-(2)).

    The initial wager of a tie hand is not settled here (None): it waits for the
    player's choice of surrender or war (5324.22(i)(3)). The tie wager is settled
    whatever the cards.
    """
    c = compare(card, dealer_card)
    if c > 0:
        first = wager(initial, "win", initial)
    elif c < 0:
        first = wager(initial, "lose", -initial)
    else:
        first = None
    if tie is None:
        return first, None
    if c == 0:
        return first, wager(tie, "win", tie * rules.tie_odds)
    return first, wager(tie, "lose", -tie)


def settle_surrender(initial: int) -> dict[str, Any]:
    """A tie hand surrendered: half the initial wager collected, half returned (5324.22(i)(3)(i))."""
    return wager(initial, "surrender", -surrender_loss(initial))


def settle_war(initial: int, war_tie: int | None, war_card: int, dealer_war_card: int,
               rules: Rules) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """Initial, war and war-deal tie wagers of a seat that went to war (5324.22(i)(5)).

    The initial wager was collected when the war wager (equal to it) was placed,
    and comes back only when the war deal ties again (5324.22(i)(5)(ii)(c)).
    """
    c = compare(war_card, dealer_war_card)
    if c > 0:
        settled = (wager(initial, "lose", -initial),
                   wager(initial, "win", initial * rules.war_odds))
    elif c < 0:
        settled = (wager(initial, "lose", -initial), wager(initial, "lose", -initial))
    else:
        settled = (wager(initial, "push", 0), wager(initial, "win", initial * rules.war_tie_odds))
    if war_tie is None:
        return settled[0], settled[1], None
    if c == 0:
        return settled[0], settled[1], wager(war_tie, "win", war_tie * rules.tie_odds)
    return settled[0], settled[1], wager(war_tie, "lose", -war_tie)


@dataclass(frozen=True)
class SeatPlay:
    """What one seat wagered, was dealt and chose in one round."""

    seat: int
    initial: int
    card: int
    tie: int | None = None
    decision: str | None = None      # only on a tie hand
    war_tie: int | None = None       # only when going to war
    war_card: int | None = None      # only when going to war


def settle_seat(play: SeatPlay, dealer_card: int, dealer_war_card: int | None,
                rules: Rules) -> dict[str, Any]:
    """Every wager of one seat, as the spec's output writes the seat.

    Assumes a consistent play (record.py refuses the others by field); an
    inconsistent one raises ValueError rather than settle something the
    regulation does not describe.
    """
    out: dict[str, Any] = {"seat": play.seat, "card": str(CARDS[play.card])}
    first, tie = settle_first_deal(play.initial, play.tie, play.card, dealer_card, rules)
    if first is not None:
        if play.decision is not None or play.war_tie is not None or play.war_card is not None:
            raise ValueError(f"seat {play.seat}: a decision or war on a hand that does not tie")
        out["initial"] = first
        if tie is not None:
            out["tie"] = tie
        return out
    if play.decision == "surrender":
        if play.war_tie is not None or play.war_card is not None:
            raise ValueError(f"seat {play.seat}: surrendered, so no war deal")
        out["initial"] = settle_surrender(play.initial)
        if tie is not None:
            out["tie"] = tie
        return out
    if play.decision != "war":
        raise ValueError(f"seat {play.seat}: a tie hand needs a decision of surrender or war")
    if play.war_card is None or dealer_war_card is None:
        raise ValueError(f"seat {play.seat}: a war needs the seat's and the dealer's war cards")
    initial, war, war_tie = settle_war(play.initial, play.war_tie, play.war_card,
                                       dealer_war_card, rules)
    out["war_card"] = str(CARDS[play.war_card])
    out["initial"] = initial
    if tie is not None:
        out["tie"] = tie
    out["war"] = war
    if war_tie is not None:
        out["war_tie"] = war_tie
    return out


# Where each card of a deal goes, in the order it leaves the shoe: ("burn", None),
# ("seat", n) or ("dealer", None).
Slot = tuple[str, int | None]


def first_deal_order(seats: Iterable[int], burn: int = 0) -> list[Slot]:
    """The original deal: burn cards (a new dealer's, 5324.22(h)(1)), then one card
    to each seat with an initial wager from the dealer's left, then the dealer (h)(3)."""
    burns: list[Slot] = [("burn", None)] * burn
    return burns + [("seat", s) for s in sorted(seats)] + [("dealer", None)]


def war_deal_order(war_seats: Iterable[int]) -> list[Slot]:
    """The war deal: three burn cards, one card to each seat at war from the
    dealer's left, then the dealer (5324.22(i)(5)(i))."""
    burns: list[Slot] = [("burn", None)] * WAR_BURNS
    return burns + [("seat", s) for s in sorted(war_seats)] + [("dealer", None)]
