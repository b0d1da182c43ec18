"""The main pot and the side pots, built from what each player put in (5324.42(c)(3)(iv)).

An all-in player can win only the part of the pot to which they contributed; the
betting among the others goes to a side pot that only they can win. So the pots are
the layers of the contributions: each layer holds, from every player, up to that
layer's height, and is open to the players still in the hand who reached it.
Adjacent layers open to the same players are one pot.

Antes: when the table treats them as dead money (`ante_trimming` off, the PHH
default), each ante goes to the main pot up to the least ante posted, whatever the
player put in after; so a player all in for less than the ante is still eligible
only for what he contributed (5324.42(c)(3)(iv)(a)), whatever the file says. When
antes are uniform and trimmed (`ante_trimming` on), an ante counts like any other
chip a player put in (ante_trimming_status in phh-std).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Pot:
    """One pot: its chips, the players who can win it, and (once settled) what each took.

    `amount` is every chip that went in; `rake` and `jackpot` are what the house took
    from it (5324.42(o), (r)); the rest is in `awards` (player index -> chips).
    """

    amount: int
    eligible: tuple[int, ...]
    rake: int = 0
    jackpot: int = 0
    awards: dict[int, int] = field(default_factory=dict)
    # The slice of each player's contribution this pot holds: above `floor`, up to
    # `ceiling` (dead antes aside, which are in the main pot). The rake of a betting
    # round is reckoned on these slices (rake.py).
    floor: int = 0
    ceiling: int = 0

    @property
    def net(self) -> int:
        return self.amount - self.rake - self.jackpot


def build_pots(committed: list[int], antes: list[int], folded: list[bool], mucked: list[bool],
               ante_trimming: bool) -> list[Pot]:
    """The main pot first, then each side pot, from each player's total contribution.

    A layer reached by one player who has not folded is theirs uncontested (the others
    folded to their bets, (f)(5)), even if they mucked at the showdown of another pot:
    a muck concedes only the pots others contest. A contested layer is open to the
    players who reached it and neither folded nor mucked; if all of them mucked its
    `eligible` is empty (the hand refuses the muck that would do that). Chips only
    folded players reached stay with the pot below ((f)(6)(v): the last player left
    takes what the others put in); with no pot below, they go to the players of the
    last layer reached (a player still in who had put in less than a killed hand).
    """
    n = len(committed)
    contributions = list(committed)
    dead = 0
    if not ante_trimming:
        # Dead antes, but a player all in for less than the ante is eligible only for what he
        # contributed (5324.42(c)(3)(iv)(a)): each ante is dead up to the least ante posted, and
        # the rest of it plays like any other chip.
        posted = [a for a in antes if a > 0]
        least = min(posted) if posted else 0
        for i in range(n):
            d = min(antes[i], least)
            dead += d
            contributions[i] -= d
    pots: list[Pot] = []
    amount = dead
    previous = 0
    last: tuple[int, ...] | None = None   # the players of the last layer a live player reached
    for level in sorted(set(contributions)):
        step = level - previous
        if step:
            for c in contributions:
                if c >= level:
                    amount += step
        reached = [i for i in range(n) if not folded[i] and contributions[i] >= level]
        if len(reached) > 1:
            eligible = tuple(i for i in reached if not mucked[i])
        else:
            eligible = tuple(reached)
        if not reached and (pots or last is not None):
            if pots:
                pots[-1].amount += amount
                pots[-1].ceiling = level
            elif last is not None:   # (the test above: no pots, so a layer was reached)
                # Dead chips below any live player's own (a hand killed by an irregularity,
                # its blind posted): theirs, as the pot below them would be.
                pots.append(Pot(amount, last, floor=previous, ceiling=level))
            amount = 0
            previous = level
            continue
        if reached:
            last = eligible
        floor = previous
        while pots and pots[-1].eligible == eligible:
            below = pots.pop()
            amount += below.amount
            floor = below.floor
        if amount:
            pots.append(Pot(amount, eligible, floor=floor, ceiling=level))
        amount = 0
        previous = level
    return pots


def split(amount: int, parts: int) -> tuple[int, int]:
    """Equal shares and the excess a split cannot divide."""
    return divmod(amount, parts)


__all__ = ["Pot", "build_pots", "split"]
