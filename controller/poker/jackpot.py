"""Jackpot payouts for qualifying high hands and bad beats (5324.42(r)), one table's part.

- The contribution: after the rake, a prescribed amount from each hand's pot once the
  middle holds the table's minimum ((r)(2)(ii)-(iii), (r)(3)); the hand takes it
  (`rake.house_take`) and it is segregated into the jackpot fund, never paid from the pot.
- The qualifiers (`candidates`): a hand at least the table's least qualifying hand, of a
  hand dealt to at least the minimum number of players, with at least the minimum pot,
  and, if the table says so, using both of the player's hole cards. High hand: any such
  hand held to the end. Bad beat: such a hand beaten at the showdown by a better one.
- The qualifying period (`JackpotPeriod`): the floorperson verifies each qualifying hand
  and it is recorded with the player, seat, table, hand, dealer and floorperson ((r)(4));
  a higher hand becomes the one to beat and is announced. When the period has ended the
  pooled contributions (with what rolled over into it) are announced and paid to the best
  hand, equal hands sharing, or roll over into the next period ((r)(5)-(7)).

Per table for now; the records carry what controller/link/jackpot.py sends to the
room's pool (`link_args`), so they can be pooled across tables later. Times are whole
seconds given in by the caller (no clock here).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.poker.errors import SetupError, whole
from controller.poker.variants import HandKind

if TYPE_CHECKING:   # the hand imports this module on use; these only name types
    from controller.hands import HandValue
    from controller.poker.hand import Hand
    from controller.poker.variants import Variant

HAND_NAMES = ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush", "straight",
              "three-of-a-kind", "two-pair", "pair", "high-card")
KINDS = ("high-hand", "bad-beat")

# The least hand of each category, to find the least value that qualifies.
_LEAST = {
    "royal-flush": "AsKsQsJsTs", "straight-flush": "As2s3s4s5s", "four-of-a-kind": "2c2d2h2s3c",
    "full-house": "2c2d2h3c3d", "flush": "2c3c4c5c7c", "straight": "As2c3d4h5s",
    "three-of-a-kind": "2c2d2h3c4d", "two-pair": "2c2d3c3d4h", "pair": "2c2d3c4d5h", "high-card": "2c3d4h5s7c",
}


class JackpotError(ValueError):
    """A jackpot record the rules refuse; the message says why and the record is unchanged."""


def least_value(name: str) -> int:
    """The least high-hand value (controller.hands.high) of a hand category."""
    from controller.cards import parse_cards
    from controller.hands import high
    cards = _LEAST[name]
    return high.value(parse_cards([cards[i:i + 2] for i in range(0, 10, 2)]))




@dataclass(frozen=True)
class JackpotRule:
    """A table's jackpot rules as posted ((r)(2)); mirrors controller/games/poker/profile.py `[poker.jackpot]`."""

    kind: str
    contribution: int                       # the most taken from each pot (r)(2)(ii)
    qualifying_hand: str                    # the least hand that qualifies (r)(4)
    minimum_pot: int = 0                    # (r)(2)(iii)
    minimum_players: int = 2                # dealt in (r)(2)(iv)
    both_hole_cards: bool = False           # a board game's hand must use both hole cards
    qualifying_period_hours: int = 24       # (r)(2)(i)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SetupError("_jackpot.kind", f"must be one of {', '.join(KINDS)}, not {self.kind!r}")
        whole(self.contribution, "_jackpot.contribution", 1)
        if self.qualifying_hand not in HAND_NAMES:
            raise SetupError("_jackpot.qualifying_hand",
                             f"must be a hand of 5324.42(b)(2) ({', '.join(HAND_NAMES)}), not {self.qualifying_hand!r}")
        whole(self.minimum_pot, "_jackpot.minimum_pot", 0)
        whole(self.minimum_players, "_jackpot.minimum_players", 2)
        if not isinstance(self.both_hole_cards, bool):
            raise SetupError("_jackpot.both_hole_cards", f"must be true or false, not {self.both_hole_cards!r}")
        whole(self.qualifying_period_hours, "_jackpot.qualifying_period_hours", 1)


_FIELDS = tuple(f.name for f in dataclasses.fields(JackpotRule))


def rule_fields(rule: JackpotRule) -> dict[str, Any]:
    """The rule as the PHH field `_jackpot` writes it (a TOML inline table)."""
    return {name: getattr(rule, name) for name in _FIELDS}


def rule_from_fields(value: Any, field_name: str = "_jackpot") -> JackpotRule:
    if not isinstance(value, dict):
        raise SetupError(field_name, f"must be a table such as {{kind = \"high-hand\", contribution = 100, "
                                     f"qualifying_hand = \"four-of-a-kind\"}}, not {value!r}")
    for key in value:
        if key not in _FIELDS:
            raise SetupError(f"{field_name}.{key}", "is not a setting of the jackpot")
    for key in ("kind", "contribution", "qualifying_hand"):
        if key not in value:
            raise SetupError(f"{field_name}.{key}", "is required")
    return JackpotRule(**value)


def rule_from_config(jackpot: Any) -> JackpotRule:
    """The rule of a table profile's `[poker.jackpot]` (controller.config's model, read by attribute)."""
    return JackpotRule(jackpot.kind, jackpot.contribution, jackpot.qualifying_hand, jackpot.minimum_pot,
                       jackpot.minimum_players, getattr(jackpot, "both_hole_cards", False),
                       jackpot.qualifying_period_hours)


# --- qualifying hands of one finished hand --------------------------------------------------

@dataclass(frozen=True)
class Candidate:
    """A hand the dealer calls the floorperson to verify ((r)(4)); `player` numbered from 0 as in the hand."""

    kind: str
    player: int
    value: int
    hand_name: str
    cards: tuple[int, ...]                  # the five cards that make the hand
    beaten_by: int | None = None            # bad beat: the player whose better hand won


def _best_high(variant: Variant, own: list[int], board: list[int]) -> tuple[HandValue, bool] | None:
    """The player's best high hand (HandValue) and whether both hole cards play in it, or None."""
    from controller.hands import high, omaha
    if any(k in (HandKind.OMAHA_HIGH, HandKind.OMAHA_LOW_8) for k in variant.hands):
        if len(own) != 4 or len(board) < 3:
            return None
        return omaha.high(own, board), True
    cards = own + board
    if not 5 <= len(cards) <= 7:
        return None
    best = high.evaluate(cards)
    both = True
    if variant.board_game and len(own) == 2 and len(board) >= 3:
        both = omaha.high_value(own, board) == best.value
    return best, both


def candidates(hand: Hand, rule: JackpotRule) -> list[Candidate]:
    """The qualifying hands of a finished hand (`controller.poker.hand.Hand`) under `rule`.

    Only hands whose cards are all known and that were held to the end count; a voided
    hand has none. Bad beat: a qualifying hand that lost a pot at the showdown to a
    better high hand of another player who contested that pot.
    """
    result = hand.result
    if result is None or getattr(result, "void", None):
        return []
    if hand.n < rule.minimum_players:
        return []
    if sum(p.amount for p in result.pots) < rule.minimum_pot:
        return []
    least = least_value(rule.qualifying_hand)
    held: dict[int, tuple[HandValue, bool]] = {}
    for p in range(hand.n):
        own = [c for c in hand.hole[p] if c is not None]
        if not hand.live[p] or len(own) != len(hand.hole[p]):
            continue
        made = _best_high(hand.variant, own, list(hand.board))
        if made is not None:
            held[p] = made
    out: list[Candidate] = []
    if rule.kind == "high-hand":
        for p, (hv, both) in sorted(held.items()):
            if hv.value >= least and (both or not rule.both_hole_cards):
                out.append(Candidate("high-hand", p, hv.value, hv.name, tuple(hv.cards)))
        return out
    for pot in result.pots:
        contenders = [p for p in pot.eligible if p in held]
        if len(contenders) < 2:
            continue
        top = max(contenders, key=lambda p: held[p][0].value)
        for p in contenders:
            hv, both = held[p]
            if (hv.value >= least and held[top][0].value > hv.value and (both or not rule.both_hole_cards)
                    and all(c.player != p for c in out)):
                out.append(Candidate("bad-beat", p, hv.value, hv.name, tuple(hv.cards), beaten_by=top))
    return out


# --- the qualifying period -------------------------------------------------------------------

@dataclass(frozen=True)
class Contribution:
    """One hand's contribution, segregated into the jackpot payout box (r)(3)."""

    hand_id: str
    table: str
    amount: int
    at: int

    def link_args(self) -> dict[str, Any]:
        """What controller.link.jackpot.JackpotLink.contribute sends for it."""
        return {"hand": self.hand_id, "amount": self.amount}


@dataclass(frozen=True)
class QualifyingHand:
    """A line of the qualifying hand tracking form (r)(4)(i)-(v)."""

    kind: str
    hand_id: str
    table: str                  # (ii)
    seat: int                   # (i)
    player: str                 # (i) name
    phone: str                  # (i)
    value: int                  # (iii) the rank, as controller.hands.high values it
    hand_name: str
    cards: str                  # the five cards, e.g. "AhKhQhJhTh"
    dealer: str                 # (iv)
    dealer_license: str
    floorperson: str            # (v) who verified it
    floor_license: str
    at: int
    announced: bool             # the best of the period when recorded: announced (r)(4)

    def link_args(self) -> dict[str, Any]:
        """What controller.link.jackpot.JackpotLink.qualify sends for it (value of the five cards)."""
        return {"hand": self.hand_id, "seat": self.seat, "value": self.value, "hand_name": self.hand_name,
                "cards": self.cards, "player": self.player}


@dataclass(frozen=True)
class Award:
    hand: QualifyingHand
    amount: int
    shared_by: int


@dataclass(frozen=True)
class PeriodClose:
    """The end of a qualifying period (r)(5)-(7): the pooled amount announced, paid or rolled over."""

    number: int
    closed_at: int
    total: int                  # rolled in + contributions: announced and displayed (r)(5)
    contributions: int
    rollover_in: int
    awards: tuple[Award, ...]   # paid from the cage (r)(6); empty when it rolls over (r)(7)
    rollover_out: int


@dataclass(frozen=True)
class JackpotPeriod:
    """One table's open qualifying period: what it has collected and the hands that qualified."""

    rule: JackpotRule
    number: int
    opens: int
    rollover_in: int = 0
    contributions: tuple[Contribution, ...] = ()
    hands: tuple[QualifyingHand, ...] = ()
    closes: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "closes", self.opens + self.rule.qualifying_period_hours * 3600)

    @property
    def total(self) -> int:
        """The jackpot payout now: what rolled in plus every contribution (displayed, (r)(2))."""
        return self.rollover_in + sum(c.amount for c in self.contributions)

    @property
    def best(self) -> int | None:
        return max((h.value for h in self.hands), default=None)

    @property
    def current(self) -> tuple[QualifyingHand, ...]:
        """The hands to beat: the best of the period (equal hands share at its end)."""
        best = self.best
        return tuple(h for h in self.hands if h.value == best)

    def _within(self, at: int, what: str) -> None:
        if isinstance(at, bool) or not isinstance(at, int):
            raise JackpotError(f"{what}: the time {at!r} must be whole seconds")
        if not self.opens <= at < self.closes:
            raise JackpotError(f"{what}: at {at} is outside qualifying period {self.number} "
                               f"({self.opens} to {self.closes}) (5324.42(r)(2)(i))")

    def contribute(self, hand_id: str, table: str, amount: int, at: int) -> "JackpotPeriod":
        """A hand's contribution into the fund; one per hand and table."""
        what = f"contribution of hand {hand_id}"
        self._within(at, what)
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= self.rule.contribution:
            raise JackpotError(f"{what}: {amount!r} must be whole cents from 1 to the posted "
                               f"{self.rule.contribution} (5324.42(r)(2)(ii))")
        if any(c.hand_id == hand_id and c.table == table for c in self.contributions):
            raise JackpotError(f"{what}: table {table} has already contributed for this hand")
        return dataclasses.replace(self, contributions=self.contributions + (Contribution(hand_id, table, amount, at),))

    def qualify(self, candidate: Candidate, *, hand_id: str, table: str, seat: int, player: str, phone: str,
                dealer: str, dealer_license: str, floorperson: str, floor_license: str,
                at: int) -> tuple["JackpotPeriod", QualifyingHand]:
        """Record a hand the floorperson verified; a higher hand than the period's best is announced."""
        what = f"qualifying hand of hand {hand_id} seat {seat}"
        self._within(at, what)
        if candidate.kind != self.rule.kind:
            raise JackpotError(f"{what}: a {candidate.kind} hand does not qualify for a {self.rule.kind} jackpot")
        if candidate.value < least_value(self.rule.qualifying_hand):
            raise JackpotError(f"{what}: {candidate.hand_name} is below the least qualifying hand, "
                               f"{self.rule.qualifying_hand} (5324.42(r)(4))")
        for name, value in (("table", table), ("player", player), ("phone", phone), ("dealer", dealer),
                            ("dealer_license", dealer_license), ("floorperson", floorperson),
                            ("floor_license", floor_license)):
            if not isinstance(value, str) or not value.strip():
                raise JackpotError(f"{what}: the tracking form needs the {name.replace('_', ' ')} (5324.42(r)(4))")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise JackpotError(f"{what}: the seat must be a seat number from 1")
        if any(h.hand_id == hand_id and h.table == table and h.seat == seat for h in self.hands):
            raise JackpotError(f"{what}: already recorded")
        from controller.cards import CARDS
        best = self.best
        record = QualifyingHand(
            candidate.kind, hand_id, table, seat, player, phone, candidate.value, candidate.hand_name,
            "".join(str(CARDS[c]) for c in candidate.cards), dealer, dealer_license, floorperson, floor_license,
            at, best is None or candidate.value > best)
        return dataclasses.replace(self, hands=self.hands + (record,)), record

    def close(self, now: int) -> tuple[PeriodClose, "JackpotPeriod"]:
        """The end of the period: pay the best hand (equal ones share, odd cents to the first
        recorded) or roll over into the next period, which opens now."""
        if isinstance(now, bool) or not isinstance(now, int):
            raise JackpotError(f"closing period {self.number}: the time {now!r} must be whole seconds")
        if now < self.closes:
            raise JackpotError(f"closing period {self.number}: it runs until {self.closes} (5324.42(r)(2)(i))")
        total = self.total
        winners = self.current
        awards: list[Award] = []
        if winners and total > 0:
            share, odd = divmod(total, len(winners))
            for i, h in enumerate(winners):
                awards.append(Award(h, share + (1 if i < odd else 0), len(winners)))
        rollover = total - sum(a.amount for a in awards)
        closing = PeriodClose(self.number, now, total, total - self.rollover_in, self.rollover_in, tuple(awards),
                              rollover)
        return closing, JackpotPeriod(self.rule, self.number + 1, now, rollover)


__all__ = [
    "Award", "Candidate", "Contribution", "HAND_NAMES", "JackpotError", "JackpotPeriod", "JackpotRule",
    "PeriodClose", "QualifyingHand", "candidates", "least_value", "rule_fields", "rule_from_config",
    "rule_from_fields",
]
