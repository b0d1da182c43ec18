"""The kill and the half-kill of Omaha high-low split eight or better (5324.42(j)(9)).

A player who wins a whole pot above the table's threshold gets the kill lammer; in the
next hand that player posts one blind, the increased minimum wager (twice the limits
with a kill, one and a half times with a half-kill), and the hand is played at the
increased limits; the other blinds are posted as usual. While each qualifying pot is
won whole by one player, the lammer moves to that player; a pot that does not qualify,
or that is split between a high hand and a low hand, ends the kill and the dealer
collects the lammer.

Reading where the text leaves room:
- "the pot" is every chip of the hand, main and side pots, before the rake; it
  qualifies when it is above the threshold ("in excess of");
- a pot divided any other way (tied high hands, a side pot won by another player) has
  no player who won it whole: the lammer is collected;
- the kill player's blind replaces the blind they would have posted in their position,
  and, being the largest, it acts last before the flop (the first to act is the player
  after it) (hand.py: after the largest blind);
- a voided hand (misdeal, dead hand) leaves the lammer where it was: the hand is redealt.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

from controller.poker.errors import SetupError
from controller.poker.variants import HandKind

KINDS = {"kill": (2, 1), "half-kill": (3, 2)}   # the factor on the limits, as a fraction


@dataclass(frozen=True)
class KillRule:
    """The table's kill as posted ((j)(2)); mirrors controller/games/poker/profile.py `[poker.kill]`."""

    kind: str
    pot_threshold: int

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SetupError("kill.kind", f"must be kill or half-kill, not {self.kind!r}")
        if isinstance(self.pot_threshold, bool) or not isinstance(self.pot_threshold, int) or self.pot_threshold < 1:
            raise SetupError("kill.pot_threshold", f"must be whole cents above 0, not {self.pot_threshold!r}")


def rule_from_config(kill: Any) -> KillRule:
    return KillRule(kill.kind, kill.pot_threshold)


def killed(kind: str, amount: int) -> int:
    """A limit raised by the kill (x2) or the half-kill (x1.5); refused if it would not be whole."""
    num, den = KINDS[kind]
    raised, rest = divmod(amount * num, den)
    if rest:
        raise SetupError("kill", f"a {kind} of {amount} is not a whole number of chips or cents")
    return raised


@dataclass(frozen=True)
class KillLammer:
    """Where the kill lammer is: in front of `seat`, or collected (None)."""

    seat: int | None = None


def after_hand(rule: KillRule, lammer: KillLammer, hand: Any, seats: Sequence[int]) -> KillLammer:
    """Where the lammer is after a finished hand; `seats[p]` is the seat of PHH player p."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not over")
    if getattr(result, "void", None):
        return lammer
    if len(seats) != hand.n:
        raise ValueError(f"{len(seats)} seats for a hand of {hand.n}")
    total = sum(p.amount for p in result.pots)
    winners = {p for pot in result.pots for p, chips in pot.awards.items() if chips}
    if total > rule.pot_threshold and len(winners) == 1:
        return KillLammer(seats[winners.pop()])
    return KillLammer(None)


def kill_setup(setup: Any, player: int, rule: KillRule) -> Any:
    """The hand's set-up with the kill: the limits raised and `player` (PHH index) posting the kill blind.

    `setup` is a `HandSetup` at the posted limits; the kill player's own blind, if any,
    is replaced by the kill blind ("no more than one blind bet").
    """
    v = setup.variant
    if HandKind.OMAHA_LOW_8 not in v.hands:
        raise SetupError("_kill_blind", f"{v.name} has no kill (5324.42(j)(9))")
    small = killed(rule.kind, setup.small_bet)
    big = killed(rule.kind, setup.big_bet)
    blinds = list(setup.blinds)
    n = len(blinds)
    k = player if n > 2 else 1 - player        # heads-up the blinds apply in reverse (phh-std)
    blinds[k] = small
    return dataclasses.replace(setup, blinds=tuple(blinds), small_bet=small, big_bet=big, kill_blind=player)


__all__ = ["KINDS", "KillLammer", "KillRule", "after_hand", "kill_setup", "killed", "rule_from_config"]
