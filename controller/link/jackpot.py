"""A poker table's end of the room's pooled jackpot (9 NYCRR 5324.42(r)).

Each pot's jackpot contribution, taken after the rake (r)(3), goes to the room's
pool for the open qualifying period; each qualifying hand is recorded with the
player's reference and competes with every other table's (r)(4). The period is
closed by the floor (`tablectl link period close`): the pool is announced and
paid to the best hand, equal hands sharing, or rolls over (r)(5)-(7).
Link loss, outbox and reconcile work as for the progressive (pool.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.link.pool import LinkClient, Sent


class JackpotLink(LinkClient):

    async def contribute(self, hand_id: str, amount_cents: int, *, send: bool = True) -> Sent:
        """One pot's contribution, in cents, after the rake."""
        if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents < 1:
            raise ValueError(f"contribute: amount {amount_cents!r} must be whole cents, at least 1")
        args = {"hand": hand_id, "amount": amount_cents}
        op = self._record("jackpot-contribution", hand_id, args, tuple(args))
        return await self._submit(op) if send else Sent.of(op)

    async def qualify(self, hand_id: str, seat: int, cards: Sequence, player: str, *,
                      verification: Mapping[str, Any] | None = None, send: bool = True) -> Sent:
        """A qualifying hand: its best five of `cards`, valued by controller.hands.high.

        `verification` is the rest of the floorperson's tracking form line ((r)(4)(i), (iv), (v):
        `floorperson` at least); the pool keeps it with the hand, so who verified it is
        known where the period is paid.
        """
        from controller.cards import format_cards, parse_cards
        from controller.hands import high
        parsed = parse_cards([str(c) for c in cards])
        hv = high.evaluate(parsed)
        args = {"hand": hand_id, "seat": int(seat), "value": hv.value, "hand_name": hv.name,
                "cards": "".join(format_cards(parsed)), "player": player}
        if verification:
            args["verification"] = dict(verification)
        op = self._record("qualify", f"{hand_id}#{int(seat)}", args, ("hand", "seat", "value", "cards"))
        return await self._submit(op) if send else Sent.of(op)
