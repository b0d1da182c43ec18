"""One betting round: whose turn it is, what they may do, and what each action does.

The round works on the hand's own lists (stacks, bets in front of each player, total
put in, who is still in), so an action changes the hand in one place. Every check is
made before anything changes: a refused action leaves the round as it was.

Rules (5324.42 unless said otherwise):
- turn order clockwise from the opener (c)(4), (h)(5), (i)(6)-(7);
- fold, check, call (c)(4); a check and then a raise in the same round (c)(10);
- the bring-in (c)(2)(iii), (h)(4): posted or completed, never folded or checked;
- sizes: fixed limit (the small bet on the early streets, the big bet later; a
  raise is one bet more), pot limit (at most the pot after a call), no limit (the
  stack); a raise is at least the largest bet or raise of the round so far, and
  at least the minimum bet;
- the cap on bets and raises per round in fixed limit, as the table sets it;
- all-in (c)(3)(iv): a player short of a call calls all-in; an all-in raise short
  of a full raise does not reopen the betting to players who have already acted
  (several short all-ins that add up to a full raise do);
- an uncalled bet or the uncalled part of a raise goes back to its owner.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from controller.poker.variants import Structure


@dataclass(frozen=True)
class Options:
    """What the player to act may do now (for the dealer's screen and for checks)."""

    player: int
    fold: bool
    check: bool
    call: int                     # chips a call puts in (0 when checking); 0 with a bring-in due
    bring_in: int | None          # the bring-in due, if it is
    raise_word: str | None        # "complete", "bet" or "raise"
    raise_min: int | None         # to this total in front of the player ...
    raise_max: int | None         # ... up to this one


class BettingRound:
    """The state of one betting round."""

    __slots__ = (
        "n", "stacks", "bets", "committed", "active", "structure", "street_min", "cap",
        "bring_in", "bring_in_pending", "completion_pending", "actors", "acted", "increment",
        "count", "shorts", "high", "aggressor",
    )

    def __init__(self, *, stacks: list[int], bets: list[int], committed: list[int], active: list[bool],
                 structure: Structure, street_min: int, cap: int | None, opener: int,
                 bring_in: int = 0) -> None:
        n = len(stacks)
        self.n = n
        self.stacks = stacks
        self.bets = bets
        self.committed = committed
        self.active = active
        self.structure = structure
        self.street_min = street_min
        self.cap = cap
        self.bring_in = bring_in
        self.bring_in_pending = bring_in > 0
        self.completion_pending = self.bring_in_pending
        self.high = max(bets)
        self.aggressor = opener
        self.increment = 0
        self.count = 0
        self.acted: set[int] = set()
        self.shorts: list[int] = []
        # Players who can still act: in the hand, with chips, and not already covering
        # everyone else (their effective stack is not zero).
        first = second = -1
        for i in range(n):
            if active[i]:
                t = bets[i] + stacks[i]
                if t > first:
                    first, second = t, first
                elif t > second:
                    second = t
        if second < 0:
            second = 0
        actors: deque[int] = deque()
        for i in range(opener, n):
            if active[i] and stacks[i] > 0 and second > bets[i]:
                actors.append(i)
        for i in range(opener):
            if active[i] and stacks[i] > 0 and second > bets[i]:
                actors.append(i)
        self.actors = actors

    # --- state -------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return self.actors[0] if self.actors else None

    def closed_at_start(self) -> bool:
        """No one needs to act: nobody can, or the only one who can faces no bet."""
        actors = self.actors
        if not actors or sum(self.active) <= 1:
            return True
        return len(actors) == 1 and self.bets[actors[0]] >= self.high

    @property
    def done(self) -> bool:
        return not self.actors or sum(self.active) <= 1

    # --- sizes -------------------------------------------------------------------

    def call_amount(self, p: int) -> int:
        return min(self.stacks[p], self.high - self.bets[p])

    def min_to(self, p: int) -> int:
        amount = max(self.increment, self.street_min)
        if not self.completion_pending:
            amount += self.high
        return min(self.stacks[p] + self.bets[p], amount)

    def max_to(self, p: int) -> int:
        if self.structure is Structure.FIXED_LIMIT:
            return self.min_to(p)
        allin = self.stacks[p] + self.bets[p]
        if self.structure is Structure.NO_LIMIT:
            return allin
        # Pot limit: the pot after the call, on top of the call.
        pot = sum(self.committed)
        return min(allin, max(self.min_to(p), 2 * self.high - self.bets[p] + pot))

    def raise_refusal(self, p: int) -> str | None:
        """Why player `p` may not complete, bet or raise now, or None when they may."""
        if not self.bring_in_pending and self.call_amount(p) < self.increment:
            return "a short all-in does not reopen the betting (5324.42(c)(3)(iv))"
        if self.cap is not None and self.count >= self.cap:
            return f"the betting is capped at {self.cap} bets and raises a round"
        if self.shorts and sum(self.shorts) < self.increment and p in self.acted:
            return "a short all-in does not reopen the betting (5324.42(c)(3)(iv))"
        if self.stacks[p] <= self.high - self.bets[p]:
            return "the player's chips only cover a call"
        high = self.high
        for i in range(self.n):
            if i != p and self.active[i] and self.stacks[i] + self.bets[i] > high:
                return None
        return "no other player has chips left to call a raise"

    def raise_word(self) -> str:
        if self.completion_pending:
            return "complete"
        return "raise" if self.high else "bet"

    def options(self, p: int) -> Options:
        refusal = self.raise_refusal(p)
        call = 0 if self.bring_in_pending else self.call_amount(p)
        return Options(
            player=p,
            fold=not self.bring_in_pending,
            check=not self.bring_in_pending and call == 0,
            call=call,
            bring_in=min(self.stacks[p], self.bring_in) if self.bring_in_pending else None,
            raise_word=None if refusal else self.raise_word(),
            raise_min=None if refusal else self.min_to(p),
            raise_max=None if refusal else self.max_to(p),
        )

    # --- checks ------------------------------------------------------------------

    def turn_refusal(self, p: int) -> str | None:
        if not self.actors:
            return "no one is to act"
        if p != self.actors[0]:
            return f"out of turn: p{self.actors[0] + 1} is to act"
        return None

    def fold_refusal(self, p: int) -> str | None:
        if self.bring_in_pending:
            return "the bring-in must be posted or completed, not folded (5324.42(h)(4))"
        return None

    def call_refusal(self, p: int) -> str | None:
        if self.bring_in_pending:
            return "the bring-in must be posted or completed (5324.42(h)(4))"
        return None

    def bring_in_refusal(self, p: int) -> str | None:
        if not self.bring_in_pending:
            return "no bring-in is due"
        return None

    def amount_refusal(self, p: int, amount: int) -> str | None:
        why = self.raise_refusal(p)
        if why:
            return why
        word = self.raise_word()
        low, high = self.min_to(p), self.max_to(p)
        if low == high and amount != low:
            return f"the {word} is to exactly {low}"
        if amount < low:
            return f"below the minimum {word} of {low}"
        if amount > high:
            cause = "the player's chips" if high == self.stacks[p] + self.bets[p] else "the pot limit"
            return f"above the maximum {word} of {high} ({cause})"
        return None

    # --- changes (after the checks) ----------------------------------------------

    def _put(self, p: int, chips: int) -> None:
        self.bets[p] += chips
        self.stacks[p] -= chips
        self.committed[p] += chips

    def fold(self, p: int) -> None:
        self.actors.popleft()
        self.acted.add(p)

    def check_or_call(self, p: int) -> int:
        chips = self.call_amount(p)
        self.actors.popleft()
        self.acted.add(p)
        self._put(p, chips)
        return chips

    def post_bring_in(self, p: int) -> int:
        chips = min(self.stacks[p], self.bring_in)
        self.actors.popleft()
        self.acted.add(p)
        self._put(p, chips)
        self.bring_in_pending = False
        if chips > self.high:
            self.high = chips
        return chips

    def bet_or_raise_to(self, p: int, amount: int) -> None:
        raised = amount - self.high
        self._put(p, amount - self.bets[p])
        self.high = amount
        self.bring_in_pending = False
        self.completion_pending = False
        n, active, stacks = self.n, self.active, self.stacks
        self.actors = deque(
            i for i in (*range(p + 1, n), *range(p)) if active[i] and stacks[i] > 0
        )
        self.aggressor = p
        if raised >= self.increment:
            self.acted = {p}
        else:
            self.acted.add(p)
        if raised > self.increment:
            self.increment = raised
        self.count += 1
        if stacks[p]:
            self.shorts.clear()
        else:
            self.shorts.append(raised)
        if sum(self.shorts) >= self.increment:
            self.shorts.clear()


def collect(bets: list[int], stacks: list[int], committed: list[int]) -> None:
    """End of a round: the bets go to the pot, the uncalled part of the largest comes back."""
    if len(bets) > 1:
        ordered = sorted(bets)
        cutoff = ordered[-2]
        if ordered[-1] > cutoff:
            for i, b in enumerate(bets):
                if b > cutoff:
                    back = b - cutoff
                    stacks[i] += back
                    committed[i] -= back
    for i in range(len(bets)):
        bets[i] = 0


__all__ = ["BettingRound", "Options", "collect"]
